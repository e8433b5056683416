import { describe, expect, it } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Labels } from '../../../src/apis/constants.js';
import { rcVersion } from '../../../src/apps/rc-version.js';
import {
  activeDeployment, applyDefaults, byVersionAsc, byVersionDesc, configSelector, deployerPodSelector, deploymentsForCleanup,
  eventTarget, formatTime, hasTriggers, isCancelled, isCancelledAnnotation, isComplete, isInProgress, isTerminal, labelFor,
  latestDeploymentInfo, maxUnavailable, scaleSelector, selectorString, versionOf,
} from '../../../src/apps/index.js';
import { imageTrigger, makeDc, rcFor } from '../deploymentconfig/fixtures.js';

const rcWith = (annotations: Record<string, string>): V1ReplicationController => ({ metadata: { name: 'x', annotations } });
const names = (rcs: V1ReplicationController[]): string[] => rcs.map((rc) => rc.metadata!.name!);

// One rule for the whole code base (the CLI, the controllers and the deployer): the version is
// the number in the RC's immutable name <dc>-<N>; the latest-version annotation (which anyone
// who may patch RCs can rewrite) is only believed when it agrees (issue 14 item 1).
describe('versionOf: the version in the immutable name, the annotation only believed when it agrees', () => {
  const named = (name: string, annotation?: string): V1ReplicationController => ({
    metadata: { name, labels: { [Labels.DeploymentConfig]: 'web' }, ...(annotation !== undefined ? { annotations: { [Annotations.LatestVersion]: annotation } } : {}) },
  });
  it.each([
    ['web-3', '3', 3], ['web-0', '0', 0], ['web-4', '+4', 4], ['web-2147483647', '2147483647', 2147483647],
    // Beyond MaxVersion a name carries no version (an orphan <dc>-<huge> would wedge the DC).
    ['web-2147483648', '2147483648', -1], ['web-9007199254740991', '9007199254740991', -1],
    ['web-1', '2147483647', 1], ['web-1', '12abc', 1], ['web-1', '', 1], ['web-1', undefined, 1], ['web-1', '99999999999999999999', 1],
    ['x', '3', -1], ['web-x', '3', -1], ['other-3', '3', -1], ['web-3a', '3', -1], ['x', undefined, -1],
  ])('%p with annotation %p → %p', (name, annotation, expected) => {
    expect(versionOf(named(name, annotation))).toBe(expected);
  });
  it('reports a disagreement, and is silent when name and annotation agree', () => {
    expect(rcVersion(named('web-2', '2')).problem).toBeUndefined();
    expect(rcVersion(named('web-2', '9')).problem).toBe(
      'replication controller "web-2" has annotation openshift.io/deployment-config.latest-version="9", which disagrees with the version in its name; version 2 is used');
    expect(rcVersion(named('x', '9')).problem).toContain('"x" is not named <deployment config>-<version>');
  });
  it('is -1 without a name or the RC', () => {
    expect(versionOf({ metadata: {} })).toBe(-1);
    expect(versionOf(undefined)).toBe(-1);
  });
});



describe('phase helpers', () => {
  it.each([
    ['Complete', true], ['Failed', true], ['Running', false], ['Pending', false], ['New', false], ['', false], ['complete', false],
  ])('isTerminal(%p) = %p', (phase, expected) => {
    expect(isTerminal(rcWith({ [Annotations.Phase]: phase }))).toBe(expected);
  });
  it.each([['true', true], ['TRUE', true], ['True', true], ['false', false], ['yes', false]])('isCancelled(%p) = %p', (v, expected) => {
    expect(isCancelled(rcWith({ [Annotations.Cancelled]: v }))).toBe(expected);
    expect(isCancelledAnnotation({ [Annotations.Cancelled]: v })).toBe(expected);
  });
  it('is not cancelled without annotations', () => {
    expect(isCancelled({ metadata: {} })).toBe(false);
    expect(isCancelledAnnotation(undefined)).toBe(false);
  });
  it.each([
    ['New', true], ['Pending', true], ['Running', true], ['Complete', false], ['Failed', false], ['', false],
  ])('isInProgress(%p) = %p', (phase, expected) => {
    expect(isInProgress(rcWith({ [Annotations.Phase]: phase }))).toBe(expected);
  });
  it('isComplete is the Complete phase only', () => {
    expect(isComplete(rcWith({ [Annotations.Phase]: 'Complete' }))).toBe(true);
    expect(isComplete(rcWith({ [Annotations.Phase]: 'Failed' }))).toBe(false);
  });
});

describe('ordering, labels and selectors', () => {
  const v = (n: string, name: string): V1ReplicationController => ({ metadata: { name, labels: { [Labels.DeploymentConfig]: 'web' }, annotations: { [Annotations.LatestVersion]: n } } });
  it('sorts by version both ways, keeping list order for ties, without touching the input', () => {
    const rcs = [v('2', 'web-2'), v('10', 'web-10'), v('x', 'bad'), v('2', 'web-02')];
    expect(names(byVersionDesc(rcs))).toEqual(['web-10', 'web-2', 'web-02', 'bad']);
    expect(names(byVersionAsc(rcs))).toEqual(['bad', 'web-2', 'web-02', 'web-10']);
    expect(names(rcs)).toEqual(['web-2', 'web-10', 'bad', 'web-02']);
  });
  it('labelFor is namespace/name', () => {
    expect(labelFor({ metadata: { namespace: 'ns', name: 'web-1' } })).toBe('ns/web-1');
    expect(labelFor({})).toBe('/');
  });
  it('selectorString sorts keys; nothing selects as the empty string', () => {
    expect(selectorString({ b: '2', a: '1' })).toBe('a=1,b=2');
    expect(selectorString(undefined)).toBe('');
  });
  it('config and deployer pod selectors carry OpenShift\'s labels', () => {
    expect(selectorString(configSelector('web'))).toBe('openshift.io/deployment-config.name=web');
    expect(selectorString(deployerPodSelector('web-3'))).toBe('openshift.io/deployer-pod-for.name=web-3');
  });
});

describe('eventTarget', () => {
  it('names the DC encoded in the RC, as it was when the RC was made', () => {
    const dc = makeDc({ latestVersion: 2 });
    dc.metadata.uid = 'dc-uid';
    dc.metadata.resourceVersion = '7';
    const rc = rcFor(dc, 2);
    expect(eventTarget(rc)).toEqual({
      apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: 'app', namespace: dc.metadata.namespace,
      uid: 'dc-uid', resourceVersion: '7',
    });
  });
  // Issue 14's sweep: the encoded config is an RC annotation that anyone who may patch RCs in the
  // namespace rewrites (every deployer and hook pod can). Its namespace used to address the
  // controller's events, so a forged config made the controller (with its cluster-wide right to
  // create events) write events into any other namespace, about any object there.
  it('never leaves the RC\'s namespace, nor names a DC the RC does not belong to: a forged config gets the RC itself', () => {
    const dc = makeDc({ latestVersion: 2 });
    const rc = rcFor(dc, 2);
    const forged = (mutate: (d: Record<string, any>) => void): V1ReplicationController => {
      const decoded = JSON.parse(rc.metadata!.annotations![Annotations.EncodedConfig]!) as Record<string, any>;
      mutate(decoded);
      return { ...rc, metadata: { ...rc.metadata, uid: 'rc-uid', annotations: { ...rc.metadata!.annotations, [Annotations.EncodedConfig]: JSON.stringify(decoded) } } };
    };
    const rcItself = { apiVersion: 'v1', kind: 'ReplicationController', name: 'app-2', namespace: dc.metadata.namespace, uid: 'rc-uid', resourceVersion: rc.metadata?.resourceVersion };
    expect(eventTarget(forged((d) => { d.metadata.namespace = 'kube-system'; }))).toEqual(rcItself);
    expect(eventTarget(forged((d) => { d.metadata.name = 'payroll'; }))).toEqual(rcItself);
    expect(eventTarget(forged((d) => { delete d.metadata.namespace; })).namespace).toBe(dc.metadata.namespace);
  });
  it('falls back to the RC itself when the encoded config is unusable', () => {
    const rc: V1ReplicationController = {
      metadata: { name: 'app-1', namespace: 'ns', uid: 'rc-uid', resourceVersion: '3', annotations: { [Annotations.EncodedConfig]: '{not json' } },
    };
    expect(eventTarget(rc)).toEqual({ apiVersion: 'v1', kind: 'ReplicationController', name: 'app-1', namespace: 'ns', uid: 'rc-uid', resourceVersion: '3' });
  });
});

describe('formatTime', () => {
  const at = new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 7));
  it('writes metav1.Time with whole seconds by default', () => {
    expect(formatTime(at)).toBe('2020-01-02T03:04:05Z');
  });
  it('keeps a non-zero fraction only when asked (MicroTime values)', () => {
    expect(formatTime(at, 'milliseconds')).toBe('2020-01-02T03:04:05.007Z');
    expect(formatTime(new Date(Date.UTC(2020, 0, 2, 3, 4, 5)), 'milliseconds')).toBe('2020-01-02T03:04:05Z');
  });
});

describe('latest / active / cleanup candidates', () => {
  const dc = makeDc({ latestVersion: 4 });
  const rcs = [
    rcFor(dc, 1, { phase: 'Complete' }), rcFor(dc, 3, { phase: 'Failed' }), rcFor(dc, 2, { phase: 'Complete' }), rcFor(dc, 4, { phase: 'Running' }),
  ];

  it('latest exists when the highest version equals latestVersion', () => {
    expect(latestDeploymentInfo(dc, rcs)).toEqual({ latestExists: true, candidate: rcs[3] });
    expect(latestDeploymentInfo(makeDc({ latestVersion: 5 }), rcs).latestExists).toBe(false);
    expect(latestDeploymentInfo(makeDc({ latestVersion: 0 }), rcs)).toEqual({ latestExists: false });
    expect(latestDeploymentInfo(dc, [])).toEqual({ latestExists: false });
  });

  it('active is the newest Complete RC', () => {
    expect(activeDeployment(rcs)?.metadata?.name).toBe('app-2');
    expect(activeDeployment([rcs[1]!, rcs[3]!])).toBeUndefined();
  });

  it('cleanup candidates are older than the active RC, oldest first', () => {
    expect(names(deploymentsForCleanup(dc, rcs))).toEqual(['app-1']);
  });

  it('without an active RC every RC but the latest is a candidate', () => {
    const failed = [rcFor(dc, 3, { phase: 'Failed' }), rcFor(dc, 1, { phase: 'Failed' }), rcFor(dc, 4, { phase: 'Failed' })];
    expect(names(deploymentsForCleanup(dc, failed))).toEqual(['app-1', 'app-3']);
  });
});

describe('maxUnavailable', () => {
  it.each([
    [10, '25%', '25%', 2], [4, '25%', '25%', 1], [3, '25%', '25%', 0], [3, 0, '25%', 1], [3, '10%', '10%', 0], [10, 1, 0, 0], [10, 'bad', 1, 0],
  ])('replicas %p surge %p unavailable %p → %p', (replicas, surge, unavailable, expected) => {
    const dc = makeDc({ replicas });
    dc.spec.strategy = { type: 'Rolling', rollingParams: { maxSurge: surge, maxUnavailable: unavailable } };
    expect(maxUnavailable(dc)).toBe(expected);
  });
  it('is 0 for Recreate', () => {
    const dc = makeDc({ replicas: 10 });
    dc.spec.strategy = { type: 'Recreate' };
    expect(maxUnavailable(applyDefaults(dc))).toBe(0);
  });
});

describe('hasTriggers / scaleSelector', () => {
  it.each([
    [[], false], [[{ type: 'ConfigChange' as const }], true], [[imageTrigger('is:1', ['web'])], true],
  ])('%j → %p', (triggers, expected) => {
    expect(hasTriggers(makeDc({ triggers }))).toBe(expected);
  });
  it('scale selector adds deploymentconfig=<name>, sorted', () => {
    const dc = makeDc();
    dc.spec.selector = { zeta: '1', app: 'app' };
    expect(scaleSelector(dc)).toBe('app=app,deploymentconfig=app,zeta=1');
  });
});
