/**
 * The step core shared by the deployer pod and pod-less rollouts (design.md §6.8): the stage
 * lists of both strategies and the level-triggered "given what is observed, what next" decisions.
 */
import { describe, expect, it } from '@jest/globals';
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { decideStage, rolloutStages, stageTiming, type ObservedRollout, type RolloutStage } from '../../../src/deployer/steps.js';
import { rcFor } from '../../support/builders.js';
import { okDeploymentConfig } from '../deployer-controller/fixtures.js';

const hook = { failurePolicy: 'Abort' as const, execNewPod: { containerName: 'app', command: ['true'] } };
const kinds = (stages: RolloutStage[] | undefined) => stages?.map((s) => (s.kind === 'hook' ? `hook:${s.point}` : s.kind === 'scaleTo' ? `scaleTo:${s.replicas}${s.accept ? '+accept' : ''}` : s.kind));
const dcWith = (strategy: DeploymentConfig['spec']['strategy']) => okDeploymentConfig(2, (dc) => { dc.spec.strategy = strategy; });

describe('rolloutStages', () => {
  it('Recreate with a previous RC: pre, scale down, mid, one pod accepted, then all, post', () => {
    const stages = rolloutStages(dcWith({ type: 'Recreate', recreateParams: { pre: hook, mid: hook, post: hook } }), true, 3);
    expect(kinds(stages)?.filter((k) => k !== 'until')).toEqual(['hook:pre', 'scaleDownFrom', 'hook:mid', 'scaleTo:1+accept', 'scaleTo:3', 'hook:post']);
  });

  it('Recreate first rollout: straight to desired, accepted there; desired 0 scales nothing', () => {
    expect(kinds(rolloutStages(dcWith({ type: 'Recreate' }), false, 2))?.filter((k) => k !== 'until')).toEqual(['scaleTo:2+accept']);
    expect(kinds(rolloutStages(dcWith({ type: 'Recreate' }), false, 0))?.filter((k) => k !== 'until')).toEqual([]);
  });

  it('Rolling: the first rollout is the Recreate path inside the rolling hooks; later ones the rolling update', () => {
    const strategy = { type: 'Rolling' as const, rollingParams: { pre: hook, post: hook } };
    expect(kinds(rolloutStages(dcWith(strategy), false, 2))?.filter((k) => k !== 'until')).toEqual(['hook:pre', 'scaleTo:2+accept', 'hook:post']);
    expect(kinds(rolloutStages(dcWith(strategy), true, 2))).toEqual(['hook:pre', 'until', 'until', 'rolling', 'hook:post']);
  });

  it('Custom has no built-in stages (it always runs in a deployer pod)', () => {
    expect(rolloutStages(dcWith({ type: 'Custom', customParams: { image: 'x' } }), true, 1)).toBeUndefined();
  });
});

const t0 = Date.parse('2024-01-02T03:04:05Z');
const dc = okDeploymentConfig(2);
const rc = (version: number, o: Parameters<typeof rcFor>[2] & { generation?: number; observed?: number } = {}): V1ReplicationController => {
  const r = rcFor(dc, version, o);
  r.metadata!.generation = o.generation ?? 1;
  r.status!.observedGeneration = o.observed ?? 1;
  return r;
};
const observe = (o: Partial<ObservedRollout>): ObservedRollout => ({
  to: rc(2, { phase: 'Running' }), desired: 2, now: t0, stageSince: t0, lastProgressAt: t0, ...o,
});
const timing = { ...stageTiming(dc), timeoutMs: 60_000, recreateTimeoutMs: 60_000, updatePeriodMs: 1000, intervalMs: 1000 };
const pod = (phase: string, message?: string): V1Pod => ({ metadata: { name: 'config-2-hook-pre' }, status: { phase, ...(message ? { message } : {}) } });

describe('decideStage', () => {
  const hookStage: RolloutStage = { kind: 'hook', point: 'pre', hook, suffix: 'hook-pre' };

  it('hook: creates the pod when absent, waits while it runs, reads its outcome once it ended', () => {
    expect(decideStage(hookStage, observe({}), timing)).toEqual({ kind: 'createHookPod' });
    expect(decideStage(hookStage, observe({ hookPod: pod('Running') }), timing)).toEqual({ kind: 'wait' });
    expect(decideStage(hookStage, observe({ hookPod: pod('Succeeded') }), timing)).toEqual({ kind: 'done' });
    expect(decideStage(hookStage, observe({ hookPod: pod('Failed', 'exit 3') }), timing)).toEqual({ kind: 'hookFailed', message: 'exit 3' });
  });

  it('scaleDownFrom: scales the old RC to 0, waits for its pods, only warns when they outlive the timeout', () => {
    const stage: RolloutStage = { kind: 'scaleDownFrom' };
    expect(decideStage(stage, observe({ from: rc(1, { replicas: 2 }) }), timing)).toEqual({ kind: 'scale', target: 'from', replicas: 0, message: 'Scaling config-1 down to zero' });
    // The old RC's pods going away show in its status (a watch event wakes the rollout): the
    // only recheck is the timeout.
    expect(decideStage(stage, observe({ from: rc(1, { replicas: 0, statusReplicas: 2 }), now: t0 + 1000 }), timing)).toEqual({ kind: 'wait', recheckMs: 59_000 });
    expect(decideStage(stage, observe({ from: rc(1, { replicas: 0 }) }), timing)).toEqual({ kind: 'checkFromPods' });
    expect(decideStage(stage, observe({ from: rc(1, { replicas: 0 }), fromPodsRunning: false }), timing)).toEqual({ kind: 'done' });
    expect(decideStage(stage, observe({ from: rc(1, { replicas: 0 }), fromPodsRunning: true, now: t0 + 59_500 }), timing)).toEqual({ kind: 'wait', recheckMs: 500 });
    const late = decideStage(stage, observe({ from: rc(1, { replicas: 0 }), fromPodsRunning: true, now: t0 + 60_000 }), timing);
    expect(late).toMatchObject({ kind: 'done', warning: expect.stringContaining('New pods may be scaled up before old pods get terminated') });
  });

  it('scaleTo with acceptance: scales, waits for every replica to be available, fails after timeoutSeconds', () => {
    const stage: RolloutStage = { kind: 'scaleTo', replicas: 1, accept: true };
    const from = rc(1);
    expect(decideStage(stage, observe({ from, to: rc(2, { phase: 'Running', replicas: 0 }) }), timing))
      .toEqual({ kind: 'scale', target: 'to', replicas: 1, message: 'Scaling config-2 to 1 before performing acceptance check' });
    // Availability shows in the RC's status (a watch event wakes the rollout): the recheck is the deadline.
    expect(decideStage(stage, observe({ from, to: rc(2, { replicas: 1, available: 0 }), now: t0 + 5000 }), timing)).toEqual({ kind: 'wait', recheckMs: 55_000 });
    // A status the RC manager computed for an older generation proves nothing.
    expect(decideStage(stage, observe({ from, to: rc(2, { replicas: 1, generation: 2, observed: 1 }) }), timing).kind).toBe('wait');
    expect(decideStage(stage, observe({ from, to: rc(2, { replicas: 1 }) }), timing)).toEqual({ kind: 'done' });
    expect(decideStage(stage, observe({ from, to: rc(2, { replicas: 1, available: 0 }), now: t0 + 60_000 }), timing)).toEqual({
      kind: 'fail', message: "update acceptor rejected config-2: pods for rc 'default/config-2' took longer than 60 seconds to become available",
    });
  });

  describe('rolling (maxSurge 1, maxUnavailable 0, 2 replicas)', () => {
    const rolling = { ...timing, maxSurge: 1, maxUnavailable: 0 };
    const stage: RolloutStage = { kind: 'rolling' };

    it('scales up within the surge first, then down once the new pods are available', () => {
      expect(decideStage(stage, observe({ from: rc(1, { replicas: 2 }), to: rc(2, { replicas: 0 }) }), rolling))
        .toEqual({ kind: 'scale', target: 'to', replicas: 1, message: 'Scaling config-2 up to 1' });
      // At the surge limit with the new pod not yet available: nothing may go down.
      // The recheck is the progress deadline; the pod becoming available wakes it before.
      expect(decideStage(stage, observe({ from: rc(1, { replicas: 2 }), to: rc(2, { replicas: 1, available: 0 }), lastScaleAt: t0 - 5000 }), rolling))
        .toEqual({ kind: 'wait', recheckMs: 60_001 });
      expect(decideStage(stage, observe({ from: rc(1, { replicas: 2 }), to: rc(2, { replicas: 1 }), lastScaleAt: t0 - 5000 }), rolling))
        .toEqual({ kind: 'scale', target: 'from', replicas: 1, message: 'Scaling config-1 down to 1' });
    });

    it('keeps updatePeriodSeconds before a scale down, as a requeue of the remaining time; a scale up never waits', () => {
      expect(decideStage(stage, observe({ from: rc(1, { replicas: 2 }), to: rc(2, { replicas: 1 }), lastScaleAt: t0 - 300 }), rolling))
        .toEqual({ kind: 'wait', recheckMs: 700 });
      // The first scale down of a stage counts from the stage's start.
      expect(decideStage(stage, observe({ from: rc(1, { replicas: 2 }), to: rc(2, { replicas: 1 }), stageSince: t0 - 200 }), rolling))
        .toEqual({ kind: 'wait', recheckMs: 800 });
      expect(decideStage(stage, observe({ from: rc(1, { replicas: 1 }), to: rc(2, { replicas: 1 }), lastScaleAt: t0 }), rolling))
        .toEqual({ kind: 'scale', target: 'to', replicas: 2, message: 'Scaling config-2 up to 2' });
    });

    it('steps on spec.replicas without waiting for the old RC to settle, and is done once the new RC has settled at desired and the old at 0', () => {
      expect(decideStage(stage, observe({ from: rc(1, { replicas: 1, statusReplicas: 2 }), to: rc(2, { replicas: 1 }), lastScaleAt: t0 - 5000 }), rolling))
        .toEqual({ kind: 'scale', target: 'to', replicas: 2, message: 'Scaling config-2 up to 2' });
      expect(decideStage(stage, observe({ from: rc(1, { replicas: 0 }), to: rc(2, { replicas: 2, statusReplicas: 1 }) }), rolling).kind).toBe('wait');
      expect(decideStage(stage, observe({ from: rc(1, { replicas: 0 }), to: rc(2, { replicas: 2 }) }), rolling)).toEqual({ kind: 'done' });
    });

    it('after the last scale down, waits until the RC manager reports the old RC at 0 (the updater\'s scaleAndWait), then is done', () => {
      // Old RC scaled to 0, its pods still in its status, or its new spec not yet observed.
      expect(decideStage(stage, observe({ from: rc(1, { replicas: 0, statusReplicas: 1 }), to: rc(2, { replicas: 2 }) }), rolling).kind).toBe('wait');
      expect(decideStage(stage, observe({ from: rc(1, { replicas: 0, generation: 3, observed: 2 }), to: rc(2, { replicas: 2 }) }), rolling).kind).toBe('wait');
      // Never drained within timeoutSeconds of the last progress: the updater's timeout.
      const stuck = observe({ from: rc(1, { replicas: 0, statusReplicas: 1 }), to: rc(2, { replicas: 2 }), now: t0 + 60_001 });
      expect(decideStage(stage, stuck, rolling)).toEqual({ kind: 'fail', message: 'timed out waiting for the condition' });
    });

    it('fails when no count moved for timeoutSeconds', () => {
      const stuck = observe({ from: rc(1, { replicas: 2 }), to: rc(2, { replicas: 1, available: 0 }), lastScaleAt: t0, lastProgressAt: t0, now: t0 + 60_001 });
      expect(decideStage(stage, stuck, rolling)).toEqual({ kind: 'fail', message: 'timed out waiting for any update progress to be made' });
    });
  });
});
