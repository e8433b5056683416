import { describe, expect, it } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../../src/apis/constants.js';
import { applyDefaults } from '../../../src/deploymentconfig/defaults.js';
import {
  activeDeployment, deploymentsForCleanup, hasTriggers, isCancelled, isTerminal, latestDeploymentInfo, maxUnavailable,
  scaleSelector, versionOf,
} from '../../../src/deploymentconfig/util.js';
import { imageTrigger, makeDc, rcFor } from './fixtures.js';

const rcWith = (annotations: Record<string, string>): V1ReplicationController => ({ metadata: { name: 'x', annotations } });
const names = (rcs: V1ReplicationController[]): string[] => rcs.map((rc) => rc.metadata!.name!);

describe('versionOf', () => {
  it.each([
    ['3', 3], ['0', 0], ['+4', 4], ['12abc', -1], ['', -1], [' 3', -1], ['3.0', -1], ['99999999999999999999', -1],
  ])('%p → %p', (value, expected) => {
    expect(versionOf(rcWith({ [Annotations.LatestVersion]: value }))).toBe(expected);
  });
  it('is -1 without the annotation', () => expect(versionOf({ metadata: {} })).toBe(-1));
});

describe('phase helpers', () => {
  it.each([
    ['Complete', true], ['Failed', true], ['Running', false], ['Pending', false], ['New', false], ['', false], ['complete', false],
  ])('isTerminal(%p) = %p', (phase, expected) => {
    expect(isTerminal(rcWith({ [Annotations.Phase]: phase }))).toBe(expected);
  });
  it.each([['true', true], ['TRUE', true], ['True', true], ['false', false], ['yes', false]])('isCancelled(%p) = %p', (v, expected) => {
    expect(isCancelled(rcWith({ [Annotations.Cancelled]: v }))).toBe(expected);
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
