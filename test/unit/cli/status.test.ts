import { describe, it, expect } from '@jest/globals';
import { Annotations, Labels } from '../../../src/apis/constants.js';
import type { DeploymentConfig, DeploymentCondition } from '../../../src/apis/deploymentconfig.js';
import { rolloutStatusCommand } from '../../../src/cli/rollout/status.js';
import { rolloutStatus } from '../../../src/cli/status-message.js';
import { NS, makeDc, makeRc, testContext } from './fixtures.js';

const progressing = (reason: string, message: string): DeploymentCondition => ({ type: 'Progressing', status: 'True', reason, message });

function withStatus(dc: DeploymentConfig, status: Partial<NonNullable<DeploymentConfig['status']>>): DeploymentConfig {
  dc.status = { ...dc.status, ...status };
  return dc;
}

describe('rolloutStatus (oc status viewer)', () => {
  const rcComplete = makeRc(makeDc(), 2, 'Complete');
  it.each([
    ['progress: updated', { latestVersion: 2, updatedReplicas: 1, replicas: 3, availableReplicas: 2 }, makeRc(makeDc(), 2, 'Running'), 'Waiting for rollout to finish: 1 out of 2 new replicas have been updated...'],
    ['progress: old pending termination', { latestVersion: 2, updatedReplicas: 2, replicas: 3, availableReplicas: 2 }, makeRc(makeDc(), 2, 'Running'), 'Waiting for rollout to finish: 1 old replicas are pending termination...'],
    ['progress: availability', { latestVersion: 2, updatedReplicas: 2, replicas: 2, availableReplicas: 1 }, makeRc(makeDc(), 2, 'Running'), 'Waiting for rollout to finish: 1 of 2 updated replicas are available...'],
  ])('%s', (_name, status, rc, message) => {
    expect(rolloutStatus(withStatus(makeDc(), status), 0, rc, 'dcctl')).toEqual({ message, done: false });
  });

  it('is done with the condition message when the latest RC is available', () => {
    const dc = withStatus(makeDc(), { latestVersion: 2, conditions: [progressing('NewReplicationControllerAvailable', 'replication controller "web-2" successfully rolled out')] });
    expect(rolloutStatus(dc, 0, rcComplete, 'dcctl')).toEqual({ message: 'replication controller "web-2" successfully rolled out', done: true });
  });

  it('ignores a stale "available" condition while the new latest RC is missing or running', () => {
    const dc = withStatus(makeDc(), { latestVersion: 3, updatedReplicas: 0, conditions: [progressing('NewReplicationControllerAvailable', 'replication controller "web-2" successfully rolled out')] });
    expect(rolloutStatus(dc, 0, null, 'dcctl')).toEqual({ message: 'Waiting for latest deployment config spec to be observed by the controller loop...', done: false });
    expect(rolloutStatus(dc, 0, makeRc(makeDc(), 3, 'Pending'), 'dcctl').message).toBe('Waiting for rollout to finish: 0 out of 2 new replicas have been updated...');
  });

  it('reports a failed or cancelled latest RC as failure, from the RC phase', () => {
    const dc = withStatus(makeDc(), { latestVersion: 2 });
    expect(rolloutStatus(dc, 0, makeRc(makeDc(), 2, 'Failed'), 'dcctl')).toEqual({ done: true, error: 'replication controller "web-2" has failed progressing' });
    expect(rolloutStatus(dc, 0, makeRc(makeDc(), 2, 'Failed', { cancelled: true }), 'dcctl')).toEqual({ done: true, error: 'rollout of replication controller "web-2" was cancelled' });
  });

  it('does not report an older rollout\'s success while the condition lags behind the latest RC', () => {
    const dc = withStatus(makeDc(), { latestVersion: 3, conditions: [progressing('NewReplicationControllerAvailable', 'replication controller "web-2" successfully rolled out')] });
    expect(rolloutStatus(dc, 0, makeRc(makeDc(), 3, 'Complete'), 'dcctl')).toEqual({ message: 'replication controller "web-3" successfully rolled out', done: true });
    expect(rolloutStatus(dc, 0, makeRc(makeDc(), 3, 'Failed'), 'dcctl').error).toBe('replication controller "web-3" has failed progressing');
  });

  it.each(['ProgressDeadlineExceeded', 'RolloutCancelled'])('uses the %s condition when the RC was not looked up (oc)', (reason) => {
    const dc = withStatus(makeDc(), { latestVersion: 2, conditions: [{ type: 'Progressing', status: 'False', reason, message: 'the condition message' }] });
    expect(rolloutStatus(dc, 0, undefined, 'dcctl')).toEqual({ done: true, error: 'the condition message' });
  });

  it('handles never-deployed DCs and revision pins', () => {
    const image = makeDc('web', { triggers: [{ type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['web'], from: { name: 'web:latest' } } }] });
    expect(rolloutStatus(image, 0, null, 'dcctl')).toEqual({ message: 'Deployment config "web" waiting on image update', done: false });
    const manual = makeDc('web', { triggers: [] });
    expect(rolloutStatus(manual, 0, null, 'dcctl')).toEqual({ done: true, error: "Deployment config \"web\" waiting on manual update (use 'dcctl rollout latest web')" });
    expect(rolloutStatus(makeDc('web', { latestVersion: 2 }), 3, null, 'dcctl')).toEqual({ done: true, error: 'desired revision (3) is different from the running revision (2)' });
  });

  it('waits for the controller when the spec generation is not observed yet', () => {
    const dc = makeDc('web', { latestVersion: 2, generation: 5, observedGeneration: 4 });
    expect(rolloutStatus(dc, 0, rcComplete, 'dcctl').message).toBe('Waiting for latest deployment config spec to be observed by the controller loop...');
  });
});

describe('rollout status', () => {
  it('follows a rollout to completion, printing each distinct message and hook pods', async () => {
    const t = testContext();
    const dc = withStatus(makeDc('web', { latestVersion: 2 }), { updatedReplicas: 0, replicas: 2, availableReplicas: 2 });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 2, 'Running'));
    const set = (s: Partial<NonNullable<DeploymentConfig['status']>>) => { t.f.dcs.mutate(NS, 'web', (d) => { d.status = { ...d.status, ...s }; }); };
    t.ticks.push(
      () => undefined,
      () => t.f.pods.put({ metadata: { name: 'web-2-hook-pre', namespace: NS, labels: { [Labels.DeployerPodFor]: 'web-2', [Labels.DeployerPodType]: 'hook-pre' } }, status: { phase: 'Running' } }),
      () => { set({ updatedReplicas: 1, replicas: 3 }); },
      () => { set({ updatedReplicas: 1, replicas: 3 }); },
      () => {
        t.f.rcs.mutate(NS, 'web-2', (rc) => { rc.metadata!.annotations![Annotations.Phase] = 'Complete'; });
        set({ updatedReplicas: 2, replicas: 2, availableReplicas: 2, conditions: [progressing('NewReplicationControllerAvailable', 'replication controller "web-2" successfully rolled out')] });
      },
      () => { throw new Error('must stop after success'); },
    );
    expect(await rolloutStatusCommand(t.ctx, { name: 'web', revision: 0, watch: true, timeoutMs: 0 })).toBe(0);
    expect(t.out.text).toBe(
      'Waiting for rollout to finish: 0 out of 2 new replicas have been updated...\n'
      + '--> pre: hook pod "web-2-hook-pre" Running\n'
      + 'Waiting for rollout to finish: 1 out of 2 new replicas have been updated...\n'
      + 'replication controller "web-2" successfully rolled out\n');
  });

  it('exits non-zero when the rollout fails', async () => {
    const t = testContext();
    t.addDc(withStatus(makeDc('web', { latestVersion: 2 }), { conditions: [{ type: 'Progressing', status: 'False', reason: 'RolloutCancelled', message: 'rollout of replication controller "web-2" was cancelled' }] }));
    t.f.rcs.put(makeRc(makeDc(), 2, 'Failed', { cancelled: true }));
    t.ticks.push(() => undefined);
    await expect(rolloutStatusCommand(t.ctx, { name: 'web', revision: 0, watch: true, timeoutMs: 0 })).rejects.toThrow('rollout of replication controller "web-2" was cancelled');
  });

  it('--watch=false prints once and exits 0 even if not done', async () => {
    const t = testContext();
    t.addDc(makeDc('web', { latestVersion: 2 }));
    t.f.rcs.put(makeRc(makeDc(), 2, 'Running'));
    t.ticks.push(() => undefined, () => { throw new Error('must not poll again'); });
    expect(await rolloutStatusCommand(t.ctx, { name: 'web', revision: 0, watch: false, timeoutMs: 0 })).toBe(0);
    expect(t.out.text).toBe('Waiting for rollout to finish: 0 out of 2 new replicas have been updated...\n');
  });

  it('times out with kubectl\'s message when the rollout does not end', async () => {
    const t = testContext();
    t.addDc(makeDc('web', { latestVersion: 2 }));
    t.f.rcs.put(makeRc(makeDc(), 2, 'Running'));
    t.ticks.push(() => undefined, () => undefined);
    await expect(rolloutStatusCommand(t.ctx, { name: 'web', revision: 0, watch: true, timeoutMs: 1000 })).rejects.toThrow('timed out waiting for the condition');
  });

  it('reports a missing DC as NotFound', async () => {
    const t = testContext();
    t.ticks.push(() => undefined);
    await expect(rolloutStatusCommand(t.ctx, { name: 'web', revision: 0, watch: true, timeoutMs: 0 })).rejects.toThrow('deploymentconfigs.apps.openshift.io "web" not found');
  });
});

describe('rollout status on a rollout that cannot proceed (issue 14 item 4c)', () => {
  const createError: DeploymentCondition = {
    type: 'Progressing', status: 'False', reason: 'ReplicationControllerCreateError',
    message: 'ReplicationController "a-very-long-name-1" is invalid: metadata.labels: Invalid value: "a-very-long-name-1": must be no more than 63 characters',
  };

  it('prints the RC creation error and exits non-zero instead of waiting for its timeout', async () => {
    const t = testContext();
    t.addDc(withStatus(makeDc('web'), { latestVersion: 1, observedGeneration: 1, conditions: [createError] }));
    t.ticks.push(() => undefined, () => undefined);
    await expect(rolloutStatusCommand(t.ctx, { name: 'web', revision: 0, watch: true, timeoutMs: 0 })).rejects.toThrow(
      `rollout #1 of deployment config "web" cannot start: ReplicationControllerCreateError: ${createError.message}`);
  });

  it('fails on a latest RC whose phase nothing can move on, with the controller\'s condition', async () => {
    const t = testContext();
    const failure: DeploymentCondition = { type: 'ReplicaFailure', status: 'True', reason: 'InvalidReplicationController', message: 'replication controller "web-1" has unknown phase "Exploded" ...' };
    const dc = withStatus(makeDc('web'), { latestVersion: 1, observedGeneration: 1, conditions: [failure] });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 1, 'Exploded'));
    t.ticks.push(() => undefined, () => undefined);
    await expect(rolloutStatusCommand(t.ctx, { name: 'web', revision: 0, watch: true, timeoutMs: 0 })).rejects.toThrow(failure.message);
  });
});
