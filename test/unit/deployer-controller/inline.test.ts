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

const hook = (policy: string = 'Abort') => ({ failurePolicy: policy, execNewPod: { containerName: 'app', command: ['/bin/true'] } });

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
    rcLister: f.rcLister, podLister: f.podLister, rcClient: f.rcClient, podClient: f.podClient, recorder: f.recorder, clock, inline, events: f.eventClient,
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

/**
 * A Recreate rollout with timeoutSeconds 30, scaled down and up to 1 of 2, whose new pod never
 * becomes available: the acceptance stage, with its deadline running.
 */
async function recreateAwaitingAcceptance() {
  const dc = inlineDc(2, (d) => { d.spec.strategy = { type: 'Recreate', recreateParams: { timeoutSeconds: 30 } }; });
  const h = harness([completeRc(dc, 1, 2), newRc(dc)]);
  await h.sync();
  h.settle('config-1');
  await h.sync();
  await h.sync();
  expect(h.rc().spec?.replicas).toBe(1);
  h.settle('config-2', 0);
  return h;
}

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

    // Nothing available yet: no write. The RC's status changes wake the rollout (the
    // controller's wiring), so the only requeue is the acceptance deadline (timeoutSeconds 600).
    expect(await h.sync('config-1')).toEqual([]);
    expect(h.requeues.at(-1)).toEqual(['default/config-1', 600_000]);

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

  it('a failed hook whose policy is none of Abort, Retry and Ignore (`ignore`, as OpenShift stored it) fails the rollout without the Failed event', async () => {
    const dc = inlineDc(2, (d) => { d.spec.strategy = { type: 'Recreate', recreateParams: { pre: hook('ignore') } }; });
    const h = harness([completeRc(dc, 1, 2), newRc(dc)]);
    await h.sync();
    h.podPhase('config-2-hook-pre', 'Failed', 'exit 1');
    await h.sync();
    expect(phase(h.rc())).toBe('Failed');
    expect(h.reasons().filter((r) => r.startsWith('Warning Failed:'))).toEqual([]);
    expect(h.reasons()).toContain('Warning RolloutFailed: Rollout of "default/config-2" failed: pre hook failed: exit 1');
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

  it('a failed rollout repeats its RCs\' Warning events on the DC, but forged ones cannot drive unbounded writes: at most 25 per RC', async () => {
    const h = await recreateAwaitingAcceptance();
    const warn = (name: string, rc: string, uid: string, reason: string, message: string) => h.f.eventClient.create('default', {
      metadata: { name, namespace: 'default' },
      involvedObject: { kind: 'ReplicationController', name: rc, namespace: 'default', uid },
      type: 'Warning', reason, message,
    });
    await warn('quota', 'config-2', 'uid-2', 'FailedCreate', 'exceeded quota');
    // Anyone who may create events can write Warning events naming the RC.
    for (let i = 0; i < 200; i++) await warn(`forged-${String(i).padStart(3, '0')}`, 'config-1', 'uid-1', 'Forged', `forged ${i}`);
    h.clock.advance(30_000);
    await h.sync();
    expect(phase(h.rc())).toBe('Failed');
    expect(h.reasons()).toContain('Warning FailedCreate: exceeded quota');
    expect(h.reasons().filter((r) => r.startsWith('Warning Forged:'))).toHaveLength(25);
  });

  it('acceptance that times out fails the rollout (timeoutSeconds on the injected clock)', async () => {
    const h = await recreateAwaitingAcceptance();
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

/**
 * The inline-stage annotation (and the other RC annotations the pod-less mode reads) can be
 * rewritten by anyone who may patch RCs in the namespace, and a stale one can be left behind
 * (design.md §6.8, §10.3). A value the controller cannot vouch for must neither skip a step nor
 * extend a deadline: the rollout fails, once, saying which annotation and why.
 */
describe('forged or stale inline-stage annotation', () => {
  const stageKey = Annotations.InlineStage;
  const forge = (h: ReturnType<typeof harness>, value: string | undefined) => h.f.rcs.mutate('default', 'config-2', (r) => {
    if (value === undefined) delete r.metadata!.annotations![stageKey];
    else r.metadata!.annotations![stageKey] = value;
  });
  const invalid = (h: ReturnType<typeof harness>) => h.reasons().filter((r) => r.startsWith('Warning InvalidReplicationController:'));
  const preHookRollout = (policy: 'Abort' | 'Ignore' = 'Abort') => {
    const dc = inlineDc(2, (d) => { d.spec.strategy = { type: 'Recreate', recreateParams: { timeoutSeconds: 30, pre: hook(policy) } }; });
    return harness([completeRc(dc, 1, 2), newRc(dc)]);
  };
  const iso = (ms: number) => new Date(ms).toISOString();

  it('an index past the last stage does not complete the rollout: it fails, the pre hook pending, nothing scaled', async () => {
    const h = preHookRollout();
    await h.sync();
    expect(h.podNames()).toEqual(['create config-2-hook-pre']);
    forge(h, `99 ${iso(h.clock.now().getTime())}`);
    await h.sync();
    expect(phase(h.rc())).toBe('Failed');
    expect(h.rc().spec?.replicas).toBe(0);
    expect(h.rc('config-1').spec?.replicas).toBe(2);
    expect(invalid(h)).toEqual([
      'Warning InvalidReplicationController: metadata.annotations["deploy.dcctl.io/inline-stage"]: stage 99 is past the last of this rollout\'s 4 stages; the rollout is failed rather than resumed from a stage this controller cannot vouch for (\'rollout retry\' starts it again)',
    ]);
    expect(h.reasons().some((r) => r.startsWith('Warning RolloutFailed:') && r.includes('inline-stage'))).toBe(true);
    // Failed is final: later syncs write nothing and create nothing.
    expect(await h.sync()).toEqual([]);
    expect(h.podNames()).toEqual(['create config-2-hook-pre']);
  });

  it.each([false, true])('an index past a pre hook that has not succeeded does not skip it (restarted: %s)', async (restarted) => {
    const h = preHookRollout();
    await h.sync();
    h.podPhase('config-2-hook-pre', 'Running');
    if (restarted) h.restart();
    forge(h, `1 ${iso(h.clock.now().getTime())}`);
    await h.sync();
    expect(h.rc('config-1').spec?.replicas).toBe(2);
    expect(phase(h.rc())).toBe('Failed');
    expect(invalid(h)).toHaveLength(1);
    expect(invalid(h)[0]).toContain(restarted
      ? 'stage 1 is past the pre hook, whose pod config-2-hook-pre has not succeeded'
      : 'stage 1 is ahead of stage 0, the last this controller recorded');
  });

  it('an index past an Ignore hook this process is still running is not believed', async () => {
    const h = preHookRollout('Ignore');
    await h.sync();
    forge(h, `1 ${iso(h.clock.now().getTime())}`);
    await h.sync();
    expect(h.rc('config-1').spec?.replicas).toBe(2);
    expect(phase(h.rc())).toBe('Failed');
  });

  it('a time in the future does not extend the acceptance deadline', async () => {
    const h = await recreateAwaitingAcceptance();
    const [index] = h.rc().metadata!.annotations![stageKey]!.split(' ');
    forge(h, `${index} ${iso(h.clock.now().getTime() + 3_600_000)}`);
    h.clock.advance(1_000);
    await h.sync();
    expect(phase(h.rc())).toBe('Failed');
    expect(invalid(h)[0]).toContain(`stage time ${iso(h.clock.now().getTime() + 3_599_000)} is after this controller's clock (${iso(h.clock.now().getTime())})`);
  });

  it('a later time within range, written while this process runs the stage, does not extend the deadline either', async () => {
    const h = await recreateAwaitingAcceptance();
    const [index] = h.rc().metadata!.annotations![stageKey]!.split(' ');
    h.clock.advance(29_000);
    forge(h, `${index} ${iso(h.clock.now().getTime())}`);
    // The stage's own start is restored (one write), and the deadline holds.
    const writes = await h.sync();
    expect(writes).toHaveLength(1);
    expect(h.rc().metadata!.annotations![stageKey]).not.toBe(`${index} ${iso(h.clock.now().getTime())}`);
    expect(await h.sync()).toEqual([]);
    h.clock.advance(1_000);
    await h.sync();
    expect(phase(h.rc())).toBe('Failed');
    expect(h.reasons().at(-1)).toContain('took longer than 30 seconds to become available');
  });

  it('a time a few seconds ahead (another replica\'s clock after a failover) is accepted', async () => {
    const h = preHookRollout();
    await h.sync();
    h.podPhase('config-2-hook-pre', 'Running');
    h.restart();
    forge(h, `0 ${iso(h.clock.now().getTime() + 2_000)}`);
    expect(await h.sync()).toEqual([]);
    expect(phase(h.rc())).toBe('Running');
    expect(invalid(h)).toEqual([]);
  });

  it('a time a few seconds before the RC\'s creation (the API server\'s clock ahead of the controller\'s) is accepted', async () => {
    const h = preHookRollout();
    await h.sync();
    h.podPhase('config-2-hook-pre', 'Running');
    h.restart();
    forge(h, '0 2024-01-02T03:04:01.000Z');
    expect(await h.sync()).toEqual([]);
    expect(phase(h.rc())).toBe('Running');
  });

  it('a time before the RC was created is not believed', async () => {
    const h = preHookRollout();
    await h.sync();
    h.restart();
    forge(h, '0 2023-12-31T00:00:00.000Z');
    await h.sync();
    expect(phase(h.rc())).toBe('Failed');
    expect(invalid(h)[0]).toContain('stage time 2023-12-31T00:00:00.000Z is before the replication controller was created (2024-01-02T03:04:05.000Z)');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['garbage', 'soon'],
    ['negative index', '-1 2024-01-02T03:04:06.000Z'],
    ['NaN index', 'NaN 2024-01-02T03:04:06.000Z'],
    ['huge index', '99999999999999999999 2024-01-02T03:04:06.000Z'],
    ['fractional index', '0.5 2024-01-02T03:04:06.000Z'],
    ['unreadable time', '0 yesterday'],
    ['date without time', '0 2024-01-02'],
    ['out-of-range date', '0 2024-13-45T99:99:99.000Z'],
    ['extra fields', '0 2024-01-02T03:04:06.000Z 7'],
  ])('%s: the rollout fails once naming the annotation, the controller does not crash or loop', async (_name, value) => {
    const h = preHookRollout();
    await h.sync();
    h.podPhase('config-2-hook-pre', 'Running');
    h.restart();
    forge(h, value);
    const writes = await h.sync();
    expect(writes).toHaveLength(1);
    expect(phase(h.rc())).toBe('Failed');
    expect(invalid(h)).toHaveLength(1);
    expect(invalid(h)[0]).toContain('metadata.annotations["deploy.dcctl.io/inline-stage"]: ');
    expect(await h.sync()).toEqual([]);
    expect(h.rc('config-1').spec?.replicas).toBe(2);
  });

  it('a valid record after a restart still resumes (the hook observed, not run again)', async () => {
    const h = preHookRollout();
    await h.sync();
    h.restart();
    h.podPhase('config-2-hook-pre', 'Succeeded');
    await h.sync();
    expect(h.rc('config-1').spec?.replicas).toBe(0);
    expect(phase(h.rc())).toBe('Running');
    expect(invalid(h)).toEqual([]);
  });
});

/** The same class, swept: other values on the RC that drive a pod-less rollout's counts and waits. */
describe('other RC annotations a pod-less rollout reads', () => {
  const rolling = (params: Record<string, unknown> = {}) => inlineDc(2, (d) => {
    d.spec.strategy = { type: 'Rolling', rollingParams: { maxSurge: 1, maxUnavailable: 0, updatePeriodSeconds: 5, intervalSeconds: 1, timeoutSeconds: 600, ...params } as never };
  });

  it('a negative desired-replicas fails the rollout naming it, instead of scaling the old RC to 0', async () => {
    const dc = rolling();
    const to = newRc(dc);
    to.metadata!.annotations![Annotations.DesiredReplicas] = '-1';
    const h = harness([completeRc(dc, 1, 2), to]);
    await h.sync();
    h.clock.advance(5_000);
    await h.sync();
    expect(h.rc('config-1').spec?.replicas).toBe(2);
    expect(phase(h.rc())).toBe('Failed');
    expect(h.reasons()).toContain('Warning InvalidReplicationController: metadata.annotations["kubectl.kubernetes.io/desired-replicas"]: invalid value "-1": must be 0 or more');
  });

  it.each([
    ['intervalSeconds', 0],
    ['intervalSeconds', 'x'],
    ['updatePeriodSeconds', -5],
    ['timeoutSeconds', 1.5],
    ['timeoutSeconds', '600'],
  ])('an encoded config with rollingParams.%s=%p (outside the CRD\'s rules) fails the rollout naming the field', async (field, value) => {
    const dc = rolling({ [field]: value });
    const h = harness([completeRc(dc, 1, 2), newRc(dc)]);
    const writes = await h.sync();
    expect(writes).toHaveLength(1);
    expect(phase(h.rc())).toBe('Failed');
    expect(h.rc().spec?.replicas).toBe(0);
    expect(h.reasons()).toContain(`Warning InvalidReplicationController: metadata.annotations["openshift.io/encoded-deployment-config"]: spec.strategy.rollingParams.${field}: invalid value ${JSON.stringify(value)}: must be a whole number of seconds of at least 1`);
    expect(h.requeues).toEqual([]);
  });

  it('an encoded config with recreateParams.timeoutSeconds=0 fails the rollout naming the field', async () => {
    const dc = inlineDc(2, (d) => { d.spec.strategy = { type: 'Recreate', recreateParams: { timeoutSeconds: 0 } }; });
    const h = harness([completeRc(dc, 1, 2), newRc(dc)]);
    await h.sync();
    expect(phase(h.rc())).toBe('Failed');
    expect(h.reasons()).toContain('Warning InvalidReplicationController: metadata.annotations["openshift.io/encoded-deployment-config"]: spec.strategy.recreateParams.timeoutSeconds: invalid value 0: must be a whole number of seconds of at least 1');
  });
});

describe('an encoded config naming another DC', () => {
  it('does not make the rollout scale that DC\'s RCs: it fails naming the annotation', async () => {
    const dc = inlineDc(2, (d) => { d.spec.strategy = { type: 'Rolling', rollingParams: { maxSurge: 1, maxUnavailable: 0, updatePeriodSeconds: 1, intervalSeconds: 1, timeoutSeconds: 600 } }; });
    const payroll = okDeploymentConfig(1, (d) => { d.metadata.name = 'payroll'; d.spec.replicas = 3; });
    const payrollRc = rcFor(payroll, 1, { phase: 'Complete', replicas: 3, created, uid: 'payroll-uid' });
    const forged = newRc(dc);
    const encoded = JSON.parse(forged.metadata!.annotations![Annotations.EncodedConfig]!) as DeploymentConfig;
    encoded.metadata.name = 'payroll';
    forged.metadata!.annotations![Annotations.EncodedConfig] = JSON.stringify(encoded);
    const h = harness([completeRc(dc, 1, 2), payrollRc, forged]);
    await h.sync();
    h.clock.advance(2_000);
    await h.sync();
    expect(h.rc('payroll-1').spec?.replicas).toBe(3);
    expect(h.rc('config-1').spec?.replicas).toBe(2);
    expect(phase(h.rc())).toBe('Failed');
    expect(h.reasons()).toContain('Warning InvalidReplicationController: metadata.annotations["openshift.io/encoded-deployment-config"]: metadata.name: invalid value "payroll": replication controller "config-2" is not a version of it');
  });
});
