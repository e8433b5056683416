import { describe, expect, it } from '@jest/globals';
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { DecodeError } from '../../../src/apis/encoded.js';
import { ActionableError, ApiError, DeployerAccessMissingError, FatalError, RetriableError } from '../../../src/controller/errors.js';
import { makeDeployerPod } from '../../../src/deployer-controller/pod.js';
import { withOwnPodWrites } from '../../../src/deployer-controller/controller.js';
import { handleDeployment, onDeployerDropped, syncDeployment, type DeployerSyncDeps } from '../../../src/deployer-controller/sync.js';
import type { Lister } from '../../../src/controller/ports.js';
import { FakeClock } from '../../support/clock.js';
import { newFakeCluster, type Action } from '../../support/fakes.js';
import { cancel, deployerPod, makeDeployment, okDeploymentConfig, setPhase } from './fixtures.js';

const rcCreated = new Date('2024-01-02T03:04:05Z');
const podCreated = new Date('2024-01-02T03:04:15Z');
const options = { deployerImage: 'quay.io/dcctl/deployer:v1' };
const dcEvent = { apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: 'config', namespace: 'default', uid: 'dc-uid', resourceVersion: '7' };

/**
 * The deployer controller's sync over the fake cluster holding `rc` and `pods`, at
 * `nowOffsetSeconds` after the RC was created (a deployer pod created then is `podCreated`).
 */
function harness(rc: V1ReplicationController, pods: V1Pod[] = [], nowOffsetSeconds = 10) {
  const f = newFakeCluster(new FakeClock(new Date(rcCreated.getTime() + nowOffsetSeconds * 1000)));
  f.rcs.put(rc);
  for (const pod of pods) f.pods.put(pod);
  const { recorder } = f;
  const deps: DeployerSyncDeps = {
    rcLister: f.rcLister, podLister: f.podLister, rcClient: f.rcClient, podClient: f.podClient, recorder, options, clock: f.clock,
  };
  const sync = (willBeDropped = false) => syncDeployment(deps, 'default/config-1', willBeDropped);
  const reasons = () => recorder.events.map((e) => `${e.type} ${e.reason}: ${e.message}`);
  /** Requests to pods / to RCs, failed ones included. */
  const podWrites = (): Action[] => f.api.writes({ resource: 'pods' });
  const rcWrites = (): Action[] => f.api.writes({ resource: 'replicationcontrollers' });
  /** The RC as each successful write left it. */
  const rcUpdates = (): V1ReplicationController[] =>
    f.api.commits.filter((c) => c.action.resource === 'replicationcontrollers').map((c) => c.after as V1ReplicationController);
  /** Fails every later RC write with `err` (replacing an earlier failure). */
  let stopFailing = (): void => {};
  const failRcWrites = (err: Error): void => {
    stopFailing();
    stopFailing = f.api.onAction((a) => {
      if (a.resource === 'replicationcontrollers') throw err;
    });
  };
  return { f, deps, recorder, sync, reasons, podWrites, rcWrites, rcUpdates, failRcWrites };
}

const annotationsOf = (rc: V1ReplicationController | undefined) => rc?.metadata?.annotations ?? {};
const rcInPhase = (phase: string, mutateDc?: (dc: DeploymentConfig) => void) =>
  setPhase(makeDeployment(okDeploymentConfig(1, mutateDc), rcCreated), phase);

describe('syncDeployment: New', () => {
  it('creates the deployer pod and moves the RC to Pending', async () => {
    const dc = okDeploymentConfig(1);
    const rc = makeDeployment(dc, rcCreated, (r) => { r.spec!.template!.spec!.nodeSelector = { labelKey1: 'labelValue1' }; });
    const h = harness(rc);
    await h.sync();

    expect(h.podWrites().map((a) => `${a.verb} ${a.name}`)).toEqual(['create config-1-deploy']);
    expect(h.podWrites()[0]!.body).toEqual(makeDeployerPod(rc, dc, options));
    expect((h.podWrites()[0]!.body as V1Pod).spec?.nodeSelector).toEqual({ labelKey1: 'labelValue1' });
    expect(h.rcUpdates()).toHaveLength(1);
    const updated = h.rcUpdates()[0]!;
    expect(updated).toEqual(h.f.rcs.get('default', 'config-1'));
    expect(annotationsOf(updated)).toEqual({
      ...annotationsOf(rc),
      [Annotations.Phase]: 'Pending',
      [Annotations.DeployerPod]: 'config-1-deploy',
      [Annotations.DeployerPodCreatedAt]: '2024-01-02 03:04:15 +0000 UTC',
    });
    expect(h.recorder.events).toEqual([]);
  });

  it('writes only what it changed, as a merge patch that cannot conflict with the deployer or the RC manager', async () => {
    const h = harness(makeDeployment(okDeploymentConfig(1), rcCreated));
    await h.sync();
    expect(h.rcWrites().map((a) => `${a.verb} ${a.patchType}`)).toEqual(['patch merge']);
    expect(h.rcWrites()[0]!.body).toEqual({
      metadata: {
        annotations: {
          [Annotations.Phase]: 'Pending',
          [Annotations.DeployerPod]: 'config-1-deploy',
          [Annotations.DeployerPodCreatedAt]: '2024-01-02 03:04:15 +0000 UTC',
        },
      },
    });
  });

  it('records started-at when the created pod already has a start time', async () => {
    const h = harness(makeDeployment(okDeploymentConfig(1), rcCreated));
    const startTime = new Date('2024-01-02T03:04:16Z');
    // A create response that already carries a start time (the kubelet was quick).
    const created = h.deps.podClient.create.bind(h.deps.podClient);
    h.deps.podClient.create = async (ns, pod) => ({ ...(await created(ns, pod)), status: { startTime } });
    await h.sync();
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.DeployerPodStartedAt]).toBe('2024-01-02 03:04:16 +0000 UTC');
  });

  it('fails with an ActionableError and a FailedCreate event when the pod cannot be created', async () => {
    const h = harness(makeDeployment(okDeploymentConfig(1), rcCreated));
    h.f.api.failOn({ verb: 'create', resource: 'pods' }, new ApiError('pods "config-1-deploy" is forbidden: exceeded quota', 403, 'Forbidden'));
    const err = await h.sync().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionableError);
    expect((err as Error).message).toBe('couldn\'t create deployer pod for "default/config-1": pods "config-1-deploy" is forbidden: exceeded quota');
    expect(h.recorder.events).toEqual([{
      object: dcEvent, type: 'Warning', reason: 'FailedCreate',
      message: 'Error creating deployer pod: pods "config-1-deploy" is forbidden: exceeded quota',
    }]);
    expect(h.rcUpdates()).toEqual([]);
  });

  it.each([
    ['Pending', 'Pending'],
    ['Running', 'Running'],
    ['Failed', 'Failed'],
    ['Succeeded', 'Complete'],
    [undefined, 'Pending'],
  ])('adopts an existing deployer pod in phase %p as %s', async (podPhase, expected) => {
    const rc = makeDeployment(okDeploymentConfig(1), rcCreated);
    const h = harness(rc, [{ ...deployerPod(rc, podPhase), metadata: { ...deployerPod(rc, podPhase).metadata, creationTimestamp: podCreated } }]);
    await h.sync();
    expect(h.podWrites().filter((a) => a.verb === 'create')).toEqual([]);
    const annotations = annotationsOf(h.rcUpdates()[0]);
    expect(annotations[Annotations.Phase]).toBe(expected);
    expect(annotations[Annotations.DeployerPod]).toBe('config-1-deploy');
    expect(annotations[Annotations.DeployerPodCreatedAt]).toBe('2024-01-02 03:04:15 +0000 UTC');
  });

  it('fails the rollout when an unrelated pod holds the deployer pod name', async () => {
    const rc = makeDeployment(okDeploymentConfig(1), rcCreated);
    const h = harness(rc, [deployerPod(rc, 'Running', { related: false })]);
    await h.sync();
    expect(h.podWrites()).toEqual([]);
    const annotations = annotationsOf(h.rcUpdates()[0]);
    expect(annotations[Annotations.Phase]).toBe('Failed');
    expect(annotations[Annotations.StatusReason]).toBe('unrelated pod with the same name as this deployment is already running');
    expect(annotations[Annotations.DeployerPod]).toBeUndefined();
    expect(h.rcUpdates()[0]!.spec?.replicas).toBe(0);
    expect(h.reasons()).toEqual(['Warning FailedCreate: Error creating deployer pod since another pod with the same name ("config-1-deploy") exists']);
  });

  it('scales a test rollout to zero when it fails because of an unrelated pod', async () => {
    const rc = makeDeployment(okDeploymentConfig(1, (d) => { d.spec.test = true; }), rcCreated, (r) => { r.spec!.replicas = 1; });
    const h = harness(rc, [deployerPod(rc, 'Running', { related: false })]);
    await h.sync();
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.Phase]).toBe('Failed');
    expect(h.rcUpdates()[0]!.spec?.replicas).toBe(0);
  });

  it('fails fatally (not retried) when no deployer pod manifest can be built', async () => {
    const rc = makeDeployment(okDeploymentConfig(1), rcCreated);
    const h = harness(rc);
    delete rc.metadata!.namespace;
    const err = await handleDeployment(h.deps, rc, false).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalError);
    expect((err as Error).message).toMatch(/^fatal error handling rollout: couldn't make deployer pod for "\/config-1": /);
    expect(h.podWrites()).toEqual([]);
    expect(h.rcWrites()).toEqual([]);
  });

  it('does nothing while deploy.openshift.io/deployer-pod.ignore is set', async () => {
    const rc = makeDeployment(okDeploymentConfig(1), rcCreated, (r) => { r.metadata!.annotations![Annotations.DeployerPodIgnore] = ''; });
    const h = harness(rc);
    await h.sync();
    expect(h.podWrites()).toEqual([]);
    expect(h.rcWrites()).toEqual([]);
  });

  describe('timeout while stuck in New', () => {
    it('fails the rollout once more whole seconds than timeoutSeconds have passed', async () => {
      const h = harness(makeDeployment(okDeploymentConfig(1), rcCreated), [], 601);
      await h.sync();
      expect(h.podWrites()).toEqual([]);
      const annotations = annotationsOf(h.rcUpdates()[0]);
      expect(annotations[Annotations.Phase]).toBe('Failed');
      expect(annotations[Annotations.StatusReason]).toBe('unable to create deployer pod');
      expect(h.recorder.events).toEqual([{
        object: dcEvent, type: 'Warning', reason: 'RolloutTimeout',
        message: 'Rollout for "default/config-1" failed to create deployer pod (timeoutSeconds: 600s)',
      }]);
    });

    it('is not reached at exactly timeoutSeconds (600.9 s truncates to 600)', async () => {
      const h = harness(makeDeployment(okDeploymentConfig(1), rcCreated), [], 600.9);
      await h.sync();
      expect(annotationsOf(h.rcUpdates()[0])[Annotations.Phase]).toBe('Pending');
    });

    it.each([
      ['Rolling with its own timeout', (d: DeploymentConfig) => { d.spec.strategy = { type: 'Rolling', rollingParams: { timeoutSeconds: 30 } }; }, 31, 'Failed', '30s'],
      ['an undefaulted strategy (Rolling, 600)', (d: DeploymentConfig) => { d.spec.strategy = {}; }, 601, 'Failed', '600s'],
      ['an undefaulted strategy before 600 s', (d: DeploymentConfig) => { d.spec.strategy = {}; }, 599, 'Pending', undefined],
      ['Custom (always 600)', (d: DeploymentConfig) => { d.spec.strategy = { type: 'Custom', customParams: { image: 'x' } }; }, 601, 'Failed', '600s'],
      ['timeoutSeconds 0 (no timeout)', (d: DeploymentConfig) => { d.spec.strategy = { type: 'Recreate', recreateParams: { timeoutSeconds: 0 } }; }, 100000, 'Pending', undefined],
    ])('%s', async (_name, mutate, after, phase, shown) => {
      const h = harness(makeDeployment(okDeploymentConfig(1, mutate), rcCreated), [], after);
      await h.sync();
      expect(annotationsOf(h.rcUpdates()[0])[Annotations.Phase]).toBe(phase);
      if (shown) expect(h.recorder.events[0]?.message).toContain(`(timeoutSeconds: ${shown})`);
    });

    it('is checked before an existing deployer pod is looked at', async () => {
      const rc = makeDeployment(okDeploymentConfig(1), rcCreated);
      const h = harness(rc, [deployerPod(rc, 'Running')], 601);
      await h.sync();
      expect(annotationsOf(h.rcUpdates()[0])[Annotations.Phase]).toBe('Failed');
      expect(annotationsOf(h.rcUpdates()[0])[Annotations.DeployerPod]).toBeUndefined();
    });
  });

  it('returns the decode error (retried) when the encoded config is missing or malformed', async () => {
    for (const value of [undefined, '{not json', '{"kind":"Pod","apiVersion":"v1","metadata":{}}']) {
      const rc = makeDeployment(okDeploymentConfig(1), rcCreated, (r) => {
        if (value === undefined) delete r.metadata!.annotations![Annotations.EncodedConfig];
        else r.metadata!.annotations![Annotations.EncodedConfig] = value;
      });
      const h = harness(rc);
      await expect(h.sync()).rejects.toBeInstanceOf(DecodeError);
      expect(h.podWrites()).toEqual([]);
      expect(h.rcWrites()).toEqual([]);
    }
  });
});

describe('syncDeployment: Pending and Running', () => {
  it('follows the deployer pod from Pending to Running', async () => {
    const rc = rcInPhase('Pending');
    const h = harness(rc, [deployerPod(rc, 'Running')]);
    await h.sync();
    expect(annotationsOf(h.rcUpdates()[0])).toEqual({ ...annotationsOf(rc), [Annotations.Phase]: 'Running' });
  });

  it('completes the rollout when the deployer pod succeeded', async () => {
    const rc = rcInPhase('Running');
    const pod = deployerPod(rc, 'Succeeded');
    pod.status!.containerStatuses = [
      { name: 'sidecar', image: 'x', imageID: '', ready: false, restartCount: 0, state: { running: {} } },
      { name: 'deployment', image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, finishedAt: new Date('2024-01-02T03:06:00Z') } } },
    ];
    const h = harness(rc, [pod]);
    await h.sync();
    const { [Annotations.DesiredReplicas]: _removed, ...rest } = annotationsOf(rc);
    expect(annotationsOf(h.rcUpdates()[0])).toEqual({
      ...rest,
      [Annotations.Phase]: 'Complete',
      [Annotations.DeployerPodCompletedAt]: '2024-01-02 03:06:00 +0000 UTC',
      [Annotations.DeploymentReplicas]: '1',
    });
    expect(h.recorder.events).toEqual([]);
  });

  it('writes an empty deployment.replicas when desired-replicas is already gone (Rolling)', async () => {
    const rc = rcInPhase('Running');
    delete rc.metadata!.annotations![Annotations.DesiredReplicas];
    const h = harness(rc, [deployerPod(rc, 'Succeeded')]);
    await h.sync();
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.DeploymentReplicas]).toBe('');
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.DeployerPodCompletedAt]).toBeUndefined();
  });

  it('fails the rollout when the deployer pod failed, keeping desired-replicas', async () => {
    const rc = rcInPhase('Running');
    const pod = deployerPod(rc, 'Failed');
    pod.status!.containerStatuses = [{ name: 'deployment', image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, finishedAt: new Date('2024-01-02T03:06:00Z') } } }];
    const h = harness(rc, [pod]);
    await h.sync();
    expect(annotationsOf(h.rcUpdates()[0])).toEqual({
      ...annotationsOf(rc),
      [Annotations.Phase]: 'Failed',
      [Annotations.DeployerPodCompletedAt]: '2024-01-02 03:06:00 +0000 UTC',
    });
  });

  it('retries a Pending rollout whose deployer pod is not in the cache, then fails it when the key would be dropped', async () => {
    const rc = rcInPhase('Pending');
    const h = harness(rc);
    await expect(h.sync(false)).rejects.toBeInstanceOf(RetriableError);
    expect(h.rcWrites()).toEqual([]);
    expect(h.recorder.events).toEqual([]);

    await h.sync(true);
    const annotations = annotationsOf(h.rcUpdates()[0]);
    expect(annotations[Annotations.Phase]).toBe('Failed');
    expect(annotations[Annotations.StatusReason]).toBe('deployer pod no longer exists');
    expect(h.recorder.events).toEqual([{ object: dcEvent, type: 'Warning', reason: 'Failed', message: 'Deployer pod "config-1-deploy" has gone missing' }]);
  });

  it('sees the deployer pod it created before the pod informer does: the next sync waits for the pod instead of failing', async () => {
    const h = harness(rcInPhase('New'));
    const informerBehind: Lister<V1Pod> = { get: () => undefined, list: () => [] };
    const own = withOwnPodWrites(informerBehind, h.f.podClient, h.f.clock);
    const deps: DeployerSyncDeps = { ...h.deps, podLister: own.podLister, podClient: own.podClient };
    await syncDeployment(deps, 'default/config-1', false);
    expect(h.podWrites().map((a) => a.verb)).toEqual(['create']);
    expect(annotationsOf(h.f.rcLister.get('default', 'config-1'))[Annotations.Phase]).toBe('Pending');
    const writes = h.rcWrites().length;
    await syncDeployment(deps, 'default/config-1', false);
    expect(h.rcWrites().length).toBe(writes);
    expect(annotationsOf(h.f.rcLister.get('default', 'config-1'))[Annotations.Phase]).toBe('Pending');
    // Reading the informer alone, the same sync had to wait for it with an error (OpenShift's retry).
    await expect(syncDeployment({ ...h.deps, podLister: informerBehind }, 'default/config-1', false)).rejects.toBeInstanceOf(RetriableError);
  });

  it('sends its events to the RC\'s own namespace whatever namespace a forged encoded config names (issue 14 sweep)', async () => {
    const rc = rcInPhase('Running');
    const decoded = JSON.parse(rc.metadata!.annotations![Annotations.EncodedConfig]!) as DeploymentConfig;
    decoded.metadata.namespace = 'kube-system';
    rc.metadata!.annotations![Annotations.EncodedConfig] = JSON.stringify(decoded);
    const h = harness(rc);
    await h.sync(false);
    expect(h.recorder.events.map((e) => [e.object.namespace, e.object.kind, e.object.name, e.reason])).toEqual([
      ['default', 'ReplicationController', 'config-1', 'Failed'],
    ]);
  });

  it('fails a Running rollout at once when its deployer pod disappeared', async () => {
    const h = harness(rcInPhase('Running'));
    await h.sync(false);
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.Phase]).toBe('Failed');
    expect(h.reasons()).toEqual(['Warning Failed: Deployer pod "config-1-deploy" has gone missing']);
  });

  it('does not write when the phase does not move', async () => {
    const rc = rcInPhase('Running');
    const h = harness(rc, [{ ...deployerPod(rc, 'Running'), metadata: { ...deployerPod(rc, 'Running').metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'config-1', uid: 'rc-uid' }] } }]);
    await h.sync();
    await h.sync(true);
    expect(h.rcWrites()).toEqual([]);
    expect(h.podWrites()).toEqual([]);
  });

  it('does not move backwards (Running with a Pending pod)', async () => {
    const rc = rcInPhase('Running');
    const h = harness(rc, [deployerPod(rc, 'Pending')]);
    await h.sync();
    expect(h.rcWrites()).toEqual([]);
  });

  it('gives deployer and hook pods without owners an owner reference to the RC', async () => {
    const rc = rcInPhase('Running');
    const owned = deployerPod(rc, 'Running');
    owned.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'config-1', uid: 'rc-uid' }];
    const hook = deployerPod(rc, 'Running', { name: 'config-1-hook-pre' });
    const other = deployerPod(makeDeployment(okDeploymentConfig(2), rcCreated), 'Running');
    const h = harness(rc, [owned, hook, other]);
    await h.sync();
    expect(h.podWrites()).toEqual([{
      verb: 'patch', resource: 'pods', namespace: 'default', name: 'config-1-hook-pre', patchType: 'strategic',
      body: { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'config-1', uid: 'rc-uid' }] } },
    }]);
  });

  it('returns owner-reference patch errors after trying every pod', async () => {
    const rc = rcInPhase('Running');
    const h = harness(rc, [deployerPod(rc, 'Running'), deployerPod(rc, undefined, { name: 'config-1-hook-pre' })]);
    h.f.api.failOn({ verb: 'patch', resource: 'pods', name: 'config-1-deploy' }, new ApiError('boom', 500));
    await expect(h.sync()).rejects.toBeInstanceOf(ApiError);
    expect(h.podWrites().map((a) => a.name)).toEqual(['config-1-deploy', 'config-1-hook-pre']);
  });
});

describe('syncDeployment: cancellation', () => {
  it('New: creates no pod, deletes deployer-labelled pods and moves to Pending', async () => {
    const rc = cancel(rcInPhase('New'));
    const h = harness(rc, [deployerPod(rc, 'Running'), deployerPod(rc, 'Running', { name: 'config-1-hook-pre' })]);
    await h.sync();
    expect(h.podWrites().map((a) => `${a.verb} ${a.name}`)).toEqual(['delete config-1-deploy', 'delete config-1-hook-pre']);
    expect(annotationsOf(h.rcUpdates()[0])).toEqual({ ...annotationsOf(rc), [Annotations.Phase]: 'Pending' });
    expect(h.recorder.events).toEqual([]);
  });

  it('New without pods: moves to Pending, then Failed with RolloutCancelled once no deployer pod exists', async () => {
    const rc = cancel(rcInPhase('New'));
    const h = harness(rc);
    await h.sync();
    expect(h.podWrites()).toEqual([]);
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.Phase]).toBe('Pending');

    const h2 = harness(h.rcUpdates()[0]!);
    await h2.sync(false);
    const annotations = annotationsOf(h2.rcUpdates()[0]);
    expect(annotations[Annotations.Phase]).toBe('Failed');
    expect(annotations[Annotations.StatusReason]).toBe('cancelled by the user');
    expect(h2.recorder.events).toEqual([{ object: dcEvent, type: 'Normal', reason: 'RolloutCancelled', message: 'Rollout for "default/config-1" cancelled' }]);
  });

  it('Running: deletes the pods and waits for them to go', async () => {
    const rc = cancel(rcInPhase('Running'));
    const h = harness(rc, [deployerPod(rc, 'Running'), deployerPod(rc, 'Running', { name: 'config-1-hook-mid' })]);
    await h.sync();
    expect(h.podWrites().map((a) => `${a.verb} ${a.name}`)).toEqual(['delete config-1-deploy', 'delete config-1-hook-mid']);
    expect(h.rcWrites()).toEqual([]);
  });

  it('Pending: a deployer pod that has started still moves the phase to Running while it is deleted', async () => {
    const rc = cancel(rcInPhase('Pending'));
    const h = harness(rc, [deployerPod(rc, 'Running')]);
    await h.sync();
    expect(h.podWrites().map((a) => a.verb)).toEqual(['delete']);
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.Phase]).toBe('Running');
    expect(h.recorder.events).toEqual([]);
  });

  it('Running, pod gone: Failed silently (the canceller set the reason), then RolloutCancelled', async () => {
    const rc = cancel(rcInPhase('Running'), 'newer deployment was found running');
    const h = harness(rc);
    await h.sync();
    expect(annotationsOf(h.rcUpdates()[0])).toEqual({ ...annotationsOf(rc), [Annotations.Phase]: 'Failed' });
    expect(h.reasons()).toEqual(['Normal RolloutCancelled: Rollout for "default/config-1" cancelled']);
  });

  it('Failed: deletes deployer-labelled pods again (late hook pods)', async () => {
    const rc = cancel(rcInPhase('Failed'));
    const h = harness(rc, [deployerPod(rc, 'Running', { name: 'config-1-hook-post' })]);
    await h.sync();
    expect(h.podWrites().map((a) => `${a.verb} ${a.name}`)).toEqual(['delete config-1-hook-post']);
    expect(h.rcWrites()).toEqual([]);
  });

  it('Failed without cancellation: adds owner references instead of deleting', async () => {
    const rc = rcInPhase('Failed');
    const h = harness(rc, [deployerPod(rc, 'Failed', { name: 'config-1-hook-post' })]);
    await h.sync();
    expect(h.podWrites().map((a) => `${a.verb} ${a.name}`)).toEqual(['patch config-1-hook-post']);
  });

  it('Running, pod Succeeded first: completes, drops the cancel annotations and warns', async () => {
    const rc = cancel(rcInPhase('Running'));
    const h = harness(rc, [deployerPod(rc, 'Succeeded')]);
    await h.sync();
    const annotations = annotationsOf(h.rcUpdates()[0]);
    expect(annotations[Annotations.Phase]).toBe('Complete');
    expect(annotations[Annotations.Cancelled]).toBeUndefined();
    expect(annotations[Annotations.StatusReason]).toBeUndefined();
    expect(h.podWrites().filter((a) => a.verb === 'delete')).toEqual([]);
    expect(h.reasons()).toEqual(['Warning FailedCancellation: Succeeded before cancel recorded']);
  });

  it('Complete: keeps the phase and the pods, and warns that the cancel came too late', async () => {
    const rc = cancel(rcInPhase('Complete'));
    const h = harness(rc, [deployerPod(rc, 'Succeeded')]);
    await h.sync();
    expect(h.rcWrites()).toEqual([]);
    expect(h.podWrites()).toEqual([]);
    expect(h.reasons()).toEqual(['Warning FailedCancellation: Succeeded before cancel recorded']);
  });

  it('reads the cancelled annotation case-insensitively', async () => {
    const rc = rcInPhase('New');
    rc.metadata!.annotations![Annotations.Cancelled] = 'TRUE';
    const h = harness(rc);
    await h.sync();
    expect(h.podWrites()).toEqual([]);
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.Phase]).toBe('Pending');
  });

  it('keeps deleting after a failure, ignores NotFound, and returns an ActionableError', async () => {
    const rc = cancel(rcInPhase('Running'));
    const h = harness(rc, [
      deployerPod(rc, 'Running'),
      deployerPod(rc, 'Running', { name: 'config-1-hook-pre' }),
      deployerPod(rc, 'Running', { name: 'config-1-hook-post' }),
    ]);
    h.f.api.failOn({ verb: 'delete', resource: 'pods', name: 'config-1-deploy' }, new ApiError('gone', 404, 'NotFound'));
    h.f.api.failOn({ verb: 'delete', resource: 'pods', name: 'config-1-hook-pre' }, new ApiError('forbidden', 403, 'Forbidden'));
    const err = await h.sync().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionableError);
    expect((err as Error).message).toBe('couldn\'t clean up all deployer pods for "default/config-1"');
    expect(h.podWrites().map((a) => a.name)).toEqual(['config-1-deploy', 'config-1-hook-pre', 'config-1-hook-post']);

    const h2 = harness(rc, [deployerPod(rc, 'Running')]);
    h2.f.api.failOn({ verb: 'delete', resource: 'pods' }, new ApiError('gone', 404, 'NotFound'));
    await expect(h2.sync()).resolves.toBeUndefined();
  });
});

describe('syncDeployment: test mode, Complete, robustness', () => {
  it.each([
    [true, 'Succeeded', 0],
    [true, 'Failed', 0],
    [false, 'Succeeded', 3],
  ])('test=%p: a terminal transition (pod %s) leaves spec.replicas at %p', async (test, podPhase, replicas) => {
    const rc = rcInPhase('Running', (d) => { d.spec.test = test; });
    rc.spec!.replicas = 3;
    const h = harness(rc, [deployerPod(rc, podPhase)]);
    await h.sync();
    expect(h.rcUpdates()[0]!.spec?.replicas).toBe(replicas);
  });

  it('Complete: does nothing, even without a deployer pod', async () => {
    const h = harness(rcInPhase('Complete'));
    await h.sync(true);
    expect(h.rcWrites()).toEqual([]);
    expect(h.podWrites()).toEqual([]);
    expect(h.recorder.events).toEqual([]);
  });

  it.each(['Bogus', ''])('leaves an RC with unknown phase %p alone', async (phase) => {
    const rc = rcInPhase(phase);
    const h = harness(rc, [deployerPod(rc, 'Succeeded')]);
    await h.sync(true);
    expect(h.rcWrites()).toEqual([]);
    expect(h.podWrites()).toEqual([]);
  });

  it('leaves an RC without a phase annotation alone', async () => {
    const rc = makeDeployment(okDeploymentConfig(1), rcCreated, (r) => { delete r.metadata!.annotations![Annotations.Phase]; });
    const h = harness(rc);
    await h.sync(true);
    expect(h.rcWrites()).toEqual([]);
    expect(h.podWrites()).toEqual([]);
  });

  it('sends events to the RC itself when its config cannot be decoded', async () => {
    const rc = rcInPhase('Running');
    delete rc.metadata!.annotations![Annotations.EncodedConfig];
    const h = harness(rc);
    const { resourceVersion } = h.f.rcs.get('default', 'config-1')!.metadata!;
    await h.sync();
    expect(h.recorder.events[0]?.object).toEqual({
      apiVersion: 'v1', kind: 'ReplicationController', name: 'config-1', namespace: 'default', uid: 'rc-uid', resourceVersion,
    });
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.Phase]).toBe('Failed');
  });

  it('turns an RC update conflict into a RetriableError and other failures into errors naming the phase', async () => {
    const rc = rcInPhase('Pending');
    const h = harness(rc, [deployerPod(rc, 'Running')]);
    h.failRcWrites(new ApiError('the object has been modified', 409, 'Conflict'));
    const conflict = await h.sync().catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(RetriableError);

    h.failRcWrites(new ApiError('etcd down', 500, 'InternalError'));
    const other = await h.sync().catch((e: unknown) => e);
    expect(other).not.toBeInstanceOf(RetriableError);
    expect((other as Error).message).toBe('couldn\'t update rollout status for "default/config-1" to Running: etcd down');
  });

  it('ignores keys whose RC is not in the cache and never mutates cached objects', async () => {
    const rc = rcInPhase('Running');
    const before = structuredClone(rc);
    const h = harness(rc, [deployerPod(rc, 'Succeeded')]);
    await syncDeployment(h.deps, 'default/missing', false);
    expect(h.rcWrites()).toEqual([]);
    await h.sync();
    expect(h.rcUpdates()).toHaveLength(1);
    expect(rc).toEqual(before);
  });
});

describe('onDeployerDropped', () => {
  it('emits FailedRetry for ActionableErrors only', () => {
    const h = harness(rcInPhase('New'));
    onDeployerDropped(h.deps, 'default/config-1', new ActionableError('couldn\'t create deployer pod for "default/config-1": quota'));
    onDeployerDropped(h.deps, 'default/config-1', new Error('other'));
    onDeployerDropped(h.deps, 'default/missing', new ActionableError('x'));
    expect(h.recorder.events).toEqual([{
      object: dcEvent, type: 'Warning', reason: 'FailedRetry',
      message: 'Stop retrying: couldn\'t create deployer pod for "default/config-1": quota',
    }]);
  });
});

describe('syncDeployment: unknown phase (issue 14 item 4b)', () => {
  it('leaves an RC with an unknown phase alone', async () => {
    const h = harness(rcInPhase('Exploded'));
    await h.sync();
    expect(h.rcWrites()).toEqual([]);
    expect(h.podWrites()).toEqual([]);
  });

  it('fails it once it is cancelled (rollout cancel recovers the DC)', async () => {
    const rc = cancel(rcInPhase('Exploded'));
    const h = harness(rc, [deployerPod(rc, 'Running')]);
    await h.sync();
    expect(h.podWrites().map((a) => `${a.verb} ${a.name}`)).toEqual(['delete config-1-deploy']);
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.Phase]).toBe('Failed');
    expect(h.recorder.events.map((e) => e.reason)).toEqual(['RolloutCancelled']);
  });
});

describe('syncDeployment: deployer access (issue 14 item 2)', () => {
  it('checks deployer access before every deployer pod and says what it re-created', async () => {
    const h = harness(makeDeployment(okDeploymentConfig(1), rcCreated));
    const asked: string[] = [];
    h.deps.ensureDeployerAccess = async (ns) => { asked.push(ns); return ['service account "deployer"', 'role binding "system:deployers"']; };
    await h.sync();
    expect(asked).toEqual(['default']);
    expect(h.reasons()).toEqual(['Normal DeployerAccessCreated: Created missing service account "deployer" and role binding "system:deployers" for deployer pods in namespace "default"']);
    expect(h.podWrites().map((a) => a.verb)).toEqual(['create']);
  });

  it('missing access it may not create: no pod, a FailedCreate event naming what is missing, retried (ActionableError)', async () => {
    const h = harness(makeDeployment(okDeploymentConfig(1), rcCreated));
    const message = 'service account "deployer" missing in namespace "default" and --manage-deployer-access=false: create them';
    h.deps.ensureDeployerAccess = async () => { throw new DeployerAccessMissingError(message); };
    const err = await h.sync().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionableError);
    expect(h.reasons()).toEqual([`Warning FailedCreate: Error creating deployer pod: ${message}`]);
    expect(h.podWrites()).toEqual([]);
    onDeployerDropped(h.deps, 'default/config-1', err);
    expect(h.reasons()[1]).toBe(`Warning FailedRetry: Stop retrying: couldn't create deployer pod for "default/config-1": ${message}`);
  });
});

describe('syncDeployment: unknown phase with a succeeded deployer pod (issue 14 item 4b)', () => {
  it('a cancel still fails it (the pod does not "win the race")', async () => {
    const rc = cancel(rcInPhase('Exploded'));
    const h = harness(rc, [deployerPod(rc, 'Succeeded')]);
    await h.sync();
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.Phase]).toBe('Failed');
    expect(annotationsOf(h.rcUpdates()[0])[Annotations.Cancelled]).toBe('true');
  });
});
