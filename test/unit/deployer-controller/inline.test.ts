/**
 * Pod-less rollouts through the deployer controller's sync (design.md §6.8), on in-memory
 * caches and the fake clock: each sync takes one step, records the stage on the RC and requeues;
 * a sync by a fresh process (failover) resumes from what it observes without repeating a step.
 */
import { describe, expect, it } from '@jest/globals';
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { ApiError } from '../../../src/controller/errors.js';
import { InlineRollouts } from '../../../src/deployer-controller/inline.js';
import { syncDeployment, type DeployerSyncDeps } from '../../../src/deployer-controller/sync.js';
import { rcFor } from '../../support/builders.js';
import { FakeClock } from '../../support/clock.js';
import { newFakeCluster } from '../../support/fakes.js';
import { okDeploymentConfig } from './fixtures.js';

const hook = (policy: 'Abort' | 'Ignore' = 'Abort') => ({ failurePolicy: policy, execNewPod: { containerName: 'app', command: ['/bin/true'] } });

/** The DC at `version`, annotated for inline rollouts unless `mode` says otherwise. */
function inlineDc(version: number, mutate?: (dc: DeploymentConfig) => void, mode: string | undefined = 'inline'): DeploymentConfig {
  return okDeploymentConfig(version, (dc) => {
    if (mode !== undefined) dc.metadata.annotations = { [Annotations.DeployerMode]: mode };
    dc.spec.replicas = 2;
    mutate?.(dc);
  });
}

function harness(rcs: V1ReplicationController[], options: { defaultDeployer?: 'pod' | 'inline' } = {}) {
  const clock = new FakeClock('2024-01-02T03:04:06Z');
  const f = newFakeCluster(clock);
  for (const r of rcs) f.rcs.put(r);
  const requeues: Array<[string, number]> = [];
  let inline = new InlineRollouts();
  const deps = (): DeployerSyncDeps => ({
    rcLister: f.rcLister, podLister: f.podLister, rcClient: f.rcClient, podClient: f.podClient, recorder: f.recorder, clock, inline,
    options: { deployerImage: 'deployer:1', ...options },
    enqueueAfter: (key, ms) => requeues.push([key, ms]),
  });
  const rcWrites = () => f.api.writes({ resource: 'replicationcontrollers' });
  /** Pod requests, as `verb name`. */
  const podActions = () => f.api.writes({ resource: 'pods' });
  /** One sync of `name`; returns its RC writes. */
  const sync = async (name = 'config-2') => {
    const before = rcWrites().length;
    await syncDeployment(deps(), `default/${name}`, false);
    return rcWrites().slice(before);
  };
  const rc = (name = 'config-2') => f.rcs.get('default', name)!;
  /** The RC manager's view catching up: status = spec, all (or `available`) available. */
  const settle = (name: string, available?: number) => {
    f.rcs.mutate('default', name, (r) => {
      const replicas = r.spec?.replicas ?? 0;
      r.status = { replicas, availableReplicas: available ?? replicas, readyReplicas: available ?? replicas, observedGeneration: r.metadata?.generation ?? 0 };
    });
  };
  /** Moves a pod (a created hook pod) to `phase`, as the kubelet would. */
  const podPhase = (name: string, phase: string, message?: string) => {
    f.pods.mutate('default', name, (p) => { p.status = { phase, ...(message ? { message } : {}) }; });
  };
  const reasons = () => f.recorder.events.map((e) => `${e.type} ${e.reason}: ${e.message}`);
  return {
    f, clock, requeues, sync, rc, settle, podPhase, reasons, podActions,
    podNames: () => podActions().map((a) => `${a.verb} ${a.name}`),
    restart: () => { inline = new InlineRollouts(); },
  };
}

const created = '2024-01-02T03:04:05Z';
/** A new RC as the RC manager has seen it (status at 0 for generation 1). */
const newRc = (dc: DeploymentConfig, version = 2) =>
  rcFor(dc, version, { phase: 'New', created, uid: `uid-${version}`, mutate: (r) => { r.metadata!.generation = 1; r.status!.observedGeneration = 1; } });
const completeRc = (dc: DeploymentConfig, version: number, replicas: number) =>
  rcFor(dc, version, { phase: 'Complete', replicas, created, uid: `uid-${version}`, mutate: (r) => { r.metadata!.generation = 1; r.status!.observedGeneration = 1; } });
const phase = (r: V1ReplicationController) => r.metadata?.annotations?.[Annotations.Phase];

describe('pod-less Recreate rollout', () => {
  it('first rollout: one patch moves New → Running and scales to desired; no pod is created; then Complete', async () => {
    const h = harness([newRc(inlineDc(1), 1)]);
    const writes = await h.sync('config-1');
    expect(writes).toHaveLength(1);
    expect(writes[0]!.body).toEqual({
      metadata: { annotations: { [Annotations.Phase]: 'Running', [Annotations.DeployerMode]: 'inline', [Annotations.InlineStage]: '0 2024-01-02T03:04:06.000Z' } },
      spec: { replicas: 2 },
    });
    expect(h.podActions()).toEqual([]);
    expect(h.reasons()).toContain('Normal ScalingReplicationController: Scaling config-1 to 2');

    // Nothing available yet: no write, a requeue within intervalSeconds.
    expect(await h.sync('config-1')).toEqual([]);
    expect(h.requeues.at(-1)).toEqual(['default/config-1', 1000]);

    h.settle('config-1');
    const done = await h.sync('config-1');
    expect(done).toHaveLength(1);
    expect(done[0]!.body).toEqual({ metadata: { annotations: {
      [Annotations.Phase]: 'Complete', [Annotations.InlineStage]: null,
      [Annotations.DeploymentReplicas]: '2', [Annotations.DesiredReplicas]: null,
    } } });
    expect(h.reasons()).toEqual(['Normal ScalingReplicationController: Scaling config-1 to 2']);
  });

  it('runs pre, mid and post hooks once each, around the scale down, and resumes after a restart without re-running one', async () => {
    const dc = inlineDc(2, (d) => { d.spec.strategy = { type: 'Recreate', recreateParams: { timeoutSeconds: 600, pre: hook(), mid: hook(), post: hook() } }; });
    const h = harness([completeRc(dc, 1, 2), newRc(dc)]);
    await h.sync();
    expect(h.podNames()).toEqual(['create config-2-hook-pre']);
    const prePod = h.f.pods.get('default', 'config-2-hook-pre')!;
    expect(prePod.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'ReplicationController', name: 'config-2', uid: 'uid-2' })]);
    expect(phase(h.rc())).toBe('Running');

    // The controller restarts while the hook runs; the new process sees the pod and waits.
    h.restart();
    h.podPhase('config-2-hook-pre', 'Running');
    expect(await h.sync()).toEqual([]);
    expect(h.podActions()).toHaveLength(1);

    h.podPhase('config-2-hook-pre', 'Succeeded');
    await h.sync();
    // pre done → web-1 scaled to 0 in the same sync.
    expect(h.rc('config-1').spec?.replicas).toBe(0);
    expect(h.podActions()).toHaveLength(1);
    h.settle('config-1');
    await h.sync();
    expect(h.podNames()).toEqual(['create config-2-hook-pre', 'create config-2-hook-mid']);
    h.podPhase('config-2-hook-mid', 'Succeeded');
    await h.sync();
    expect(h.rc().spec?.replicas).toBe(1);
    h.settle('config-2');
    await h.sync();
    expect(h.rc().spec?.replicas).toBe(2);
    h.settle('config-2');
    await h.sync();
    expect(h.podNames()).toEqual(['create config-2-hook-pre', 'create config-2-hook-mid', 'create config-2-hook-post']);
    h.podPhase('config-2-hook-post', 'Succeeded');
    await h.sync();
    expect(phase(h.rc())).toBe('Complete');
    // Syncs after the end change nothing and create nothing.
    await h.sync();
    expect(h.podActions()).toHaveLength(3);
    const completed = h.reasons().filter((r) => r.startsWith('Normal Completed:'));
    expect(completed).toEqual(['pre', 'mid', 'post'].map((l) => `Normal Completed: The ${l}-hook for rc default/config-2 completed successfully`));
  });

  it('a failed Abort hook fails the rollout with the hook events; Ignore continues', async () => {
    const dc = inlineDc(2, (d) => { d.spec.strategy = { type: 'Recreate', recreateParams: { pre: hook('Ignore'), mid: hook('Abort') } }; });
    const h = harness([completeRc(dc, 1, 2), newRc(dc)]);
    await h.sync();
    h.podPhase('config-2-hook-pre', 'Failed', 'exit 1');
    await h.sync();
    expect(h.reasons()).toContain('Warning Failed: The pre-hook failed: exit 1 (ignore), rollout of default/config-2 will continue');
    h.settle('config-1');
    await h.sync();
    h.podPhase('config-2-hook-mid', 'Failed', 'exit 3');
    await h.sync();
    expect(phase(h.rc())).toBe('Failed');
    expect(h.reasons()).toContain('Warning Failed: The mid-hook failed: exit 3, aborting rollout of default/config-2');
    expect(h.reasons()).toContain('Warning RolloutFailed: Rollout of "default/config-2" failed: mid hook failed: the mid hook failed: exit 3, aborting rollout of default/config-2');
  });

  it('a hook pod deleted while its stage runs fails the hook instead of running it again', async () => {
    const dc = inlineDc(2, (d) => { d.spec.strategy = { type: 'Recreate', recreateParams: { pre: hook() } }; });
    const h = harness([completeRc(dc, 1, 2), newRc(dc)]);
    await h.sync();
    h.f.pods.remove('default', 'config-2-hook-pre');
    await h.sync();
    expect(h.podActions().map((a) => a.verb)).toEqual(['create']);
    expect(phase(h.rc())).toBe('Failed');
    expect(h.reasons().some((r) => r.includes('pre: pod/config-2-hook-pre[default] unexpectedly deleted'))).toBe(true);
  });

  it('a hook pod deleted while the sync that created it is retried (its RC write failed) is not created again', async () => {
    const dc = inlineDc(2, (d) => { d.spec.strategy = { type: 'Recreate', recreateParams: { pre: hook() } }; });
    const h = harness([completeRc(dc, 1, 2), newRc(dc)]);
    const stop = h.f.api.onAction((a) => {
      if (a.resource === 'replicationcontrollers' && a.verb === 'patch') throw new ApiError('the server is currently unable to handle the request', 503, 'ServiceUnavailable');
    });
    await expect(h.sync()).rejects.toThrow('unable to handle the request');
    stop();
    expect(phase(h.rc())).toBe('New');
    h.f.pods.remove('default', 'config-2-hook-pre');
    await h.sync();
    expect(h.podNames()).toEqual(['create config-2-hook-pre']);
    expect(phase(h.rc())).toBe('Failed');
    expect(h.reasons().some((r) => r.includes('pre: pod/config-2-hook-pre[default] unexpectedly deleted'))).toBe(true);
  });

  it('acceptance that times out fails the rollout (timeoutSeconds on the injected clock)', async () => {
    const dc = inlineDc(2, (d) => { d.spec.strategy = { type: 'Recreate', recreateParams: { timeoutSeconds: 30 } }; });
    const h = harness([completeRc(dc, 1, 2), newRc(dc)]);
    await h.sync();
    h.settle('config-1');
    await h.sync();
    await h.sync();
    expect(h.rc().spec?.replicas).toBe(1);
    h.settle('config-2', 0);
    h.clock.advance(29_000);
    await h.sync();
    expect(phase(h.rc())).toBe('Running');
    h.clock.advance(1_000);
    await h.sync();
    expect(phase(h.rc())).toBe('Failed');
    expect(h.reasons().at(-1)).toBe(`Warning RolloutFailed: Rollout of "default/config-2" failed: update acceptor rejected config-2: pods for rc 'default/config-2' took longer than 30 seconds to become available`);
  });
});

describe('pod-less Rolling rollout', () => {
  const rollingDc = (mutate?: (dc: DeploymentConfig) => void) => inlineDc(2, (d) => {
    d.spec.strategy = { type: 'Rolling', rollingParams: { maxSurge: 1, maxUnavailable: 0, updatePeriodSeconds: 5, intervalSeconds: 1, timeoutSeconds: 600 } };
    mutate?.(d);
  });

  it('moves replicas within the fenceposts, updatePeriodSeconds before each scale down, and leaves the annotations as the pod mode does', async () => {
    const h = harness([completeRc(rollingDc(), 1, 2), newRc(rollingDc())]);
    await h.sync();
    expect(h.rc().spec?.replicas).toBe(1);
    expect(h.rc().metadata?.annotations?.[Annotations.UpdateSourceId]).toBe('config-1:uid-1');
    h.settle('config-2');
    // Too early: the update period has not passed; the requeue asks for exactly what is left.
    h.clock.advance(2000);
    expect(await h.sync()).toEqual([]);
    expect(h.requeues.at(-1)).toEqual(['default/config-2', 3000]);
    h.clock.advance(3000);
    await h.sync();
    expect(h.rc('config-1').spec?.replicas).toBe(1);
    expect(h.rc('config-1').metadata?.annotations?.[Annotations.OriginalReplicas]).toBe('2');
    // A scale up follows a scale down in the same sync (the updater sleeps only before scaling down).
    expect(h.rc().spec?.replicas).toBe(2);
    h.settle('config-1');
    h.settle('config-2');
    h.clock.advance(5000);
    await h.sync();
    expect(h.rc('config-1').spec?.replicas).toBe(0);
    h.settle('config-1');
    await h.sync();
    const rc2 = h.rc();
    expect(phase(rc2)).toBe('Complete');
    const a = rc2.metadata?.annotations ?? {};
    expect(a[Annotations.UpdateSourceId]).toBeUndefined();
    expect(a[Annotations.DesiredReplicas]).toBeUndefined();
    expect(a[Annotations.DeploymentReplicas]).toBe('');
  });

  it('a sync that observes nothing new writes nothing', async () => {
    const h = harness([completeRc(rollingDc(), 1, 2), newRc(rollingDc())]);
    await h.sync();
    expect(await h.sync()).toEqual([]);
    h.clock.advance(500);
    expect(await h.sync()).toEqual([]);
  });

  it('a process that takes over mid-update waits a full update period before its first step (never shorter than the spec)', async () => {
    const h = harness([completeRc(rollingDc(), 1, 2), newRc(rollingDc())]);
    await h.sync();
    h.settle('config-2');
    h.clock.advance(60_000);
    h.restart();
    expect(await h.sync()).toEqual([]);
    expect(h.requeues.at(-1)).toEqual(['default/config-2', 5000]);
    h.clock.advance(5000);
    await h.sync();
    expect(h.rc('config-1').spec?.replicas).toBe(1);
  });

  it('test mode: the Complete patch scales the RC to 0', async () => {
    const dc = rollingDc((d) => { d.spec.test = true; });
    const h = harness([newRc(dc, 1)]);
    await h.sync('config-1');
    h.settle('config-1');
    const writes = await h.sync('config-1');
    expect(phase(h.rc('config-1'))).toBe('Complete');
    expect(writes[0]!.body).toMatchObject({ spec: { replicas: 0 } });
  });

  it('cancellation deletes the hook pods and fails the rollout', async () => {
    const dc = rollingDc((d) => { d.spec.strategy!.rollingParams!.pre = hook(); });
    const h = harness([completeRc(dc, 1, 2), newRc(dc)]);
    await h.sync();
    h.podPhase('config-2-hook-pre', 'Running');
    h.f.rcs.mutate('default', 'config-2', (r) => {
      r.metadata!.annotations![Annotations.Cancelled] = 'true';
      r.metadata!.annotations![Annotations.StatusReason] = 'cancelled by the user';
    });
    await h.sync();
    expect(h.podNames()).toEqual(['create config-2-hook-pre', 'delete config-2-hook-pre']);
    expect(phase(h.rc())).toBe('Failed');
    expect(h.reasons()).toContain('Normal RolloutCancelled: Rollout for "default/config-2" cancelled');
  });
});

describe('choosing the deployer', () => {
  it('--default-deployer=inline runs unannotated DCs inline; an annotated pod DC gets a deployer pod', async () => {
    const h = harness([newRc(inlineDc(1, undefined, undefined), 1)], { defaultDeployer: 'inline' });
    await h.sync('config-1');
    expect(h.podActions()).toEqual([]);
    expect(h.rc('config-1').metadata?.annotations?.[Annotations.DeployerMode]).toBe('inline');

    const h2 = harness([newRc(inlineDc(1, undefined, 'pod'), 1)], { defaultDeployer: 'inline' });
    await h2.sync('config-1');
    expect(h2.podNames()).toEqual(['create config-1-deploy']);
  });

  it('Custom strategies use a deployer pod even when annotated inline', async () => {
    const h = harness([newRc(inlineDc(1, (d) => { d.spec.strategy = { type: 'Custom', customParams: { image: 'custom:1' } }; }), 1)]);
    await h.sync('config-1');
    expect(h.podNames()).toEqual(['create config-1-deploy']);
  });

  it('an unknown annotation value is reported naming the field, and the default applies', async () => {
    const h = harness([newRc(inlineDc(1, undefined, 'job'), 1)]);
    await h.sync('config-1');
    expect(h.podNames()).toEqual(['create config-1-deploy']);
    expect(h.reasons()).toContain('Warning InvalidDeployerMode: metadata.annotations["deploy.dcctl.io/deployer"]: unsupported value "job": want "inline" or "pod"; using pod');
  });
});
