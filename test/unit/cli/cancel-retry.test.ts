import { describe, it, expect } from '@jest/globals';
import { Annotations, Labels } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { rolloutCancel } from '../../../src/cli/rollout/cancel.js';
import { rolloutRetry } from '../../../src/cli/rollout/retry.js';
import { formatError } from '../../../src/cli/errors.js';
import { NOW, NS, makeDc, makeRc, testContext } from './fixtures.js';

describe('rollout cancel', () => {
  it('marks every in-progress RC cancelled by the user and prints "cancelling"', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 3 });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 1, 'Complete'));
    t.f.rcs.put(makeRc(dc, 2, 'Failed'));
    t.f.rcs.put(makeRc(dc, 3, 'Running'));
    expect(await rolloutCancel(t.ctx, { name: 'web' })).toBe(0);
    expect(t.writes('replicationcontrollers')).toEqual([{
      verb: 'patch', resource: 'replicationcontrollers', namespace: NS, name: 'web-3', patchType: 'merge',
      body: { metadata: { annotations: { 'openshift.io/deployment.cancelled': 'true', 'openshift.io/deployment.status-reason': 'cancelled by the user' } } },
    }]);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web cancelling\n');
  });

  it('says "already cancelled" and summarises the latest rollout when nothing new was cancelled', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 2 });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 1, 'Complete'));
    t.f.rcs.put(makeRc(dc, 2, 'Pending', { cancelled: true, created: new Date(NOW.getTime() - 3 * 60_000) }));
    expect(await rolloutCancel(t.ctx, { name: 'web' })).toBe(0);
    expect(t.writes('replicationcontrollers')).toEqual([]);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web already cancelled\n'
      + 'No rollout is in progress (latest rollout #2 pending (cancelling) 3 minutes ago)\n');
  });

  it('reports no rollout in progress when everything is terminal', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 1 });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 1, 'Complete', { created: new Date(NOW.getTime() - 2 * 3600_000) }));
    expect(await rolloutCancel(t.ctx, { name: 'web' })).toBe(0);
    expect(t.out.text).toBe('No rollout is in progress (latest rollout #1 complete 2 hours ago)\n');
  });

  it('fails when the DC has no RCs', async () => {
    const t = testContext();
    t.addDc(makeDc('web'));
    await expect(rolloutCancel(t.ctx, { name: 'web' })).rejects.toThrow('there have been no replication controllers for ns1/web');
  });

  it('reports a paused DC as an error but still cancels (oc quirk)', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 1, paused: true });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 1, 'Running'));
    const err = await rolloutCancel(t.ctx, { name: 'web' }).catch((e: unknown) => e);
    expect(formatError(err)).toBe('error: unable to cancel paused deployment ns1/web');
    expect(t.f.rcs.get(NS, 'web-1')?.metadata?.annotations?.[Annotations.Cancelled]).toBe('true');
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web cancelling\n');
  });

  it('reports a missing DC as NotFound', async () => {
    const t = testContext();
    const err = await rolloutCancel(t.ctx, { name: 'nope' }).catch((e: unknown) => e);
    expect(formatError(err)).toBe('Error from server (NotFound): deploymentconfigs.apps.openshift.io "nope" not found');
  });
});

describe('rollout retry', () => {
  function failed(reason = 'cancelled by the user'): ReturnType<typeof testContext> {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 2 });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 1, 'Complete'));
    t.f.rcs.put(makeRc(dc, 2, 'Failed', { reason, cancelled: true }));
    t.f.pods.put({ metadata: { name: 'web-2-deploy', namespace: NS, labels: { [Labels.DeployerPodFor]: 'web-2' } } });
    t.f.pods.put({ metadata: { name: 'web-2-hook-pre', namespace: NS, labels: { [Labels.DeployerPodFor]: 'web-2', [Labels.DeployerPodType]: 'hook-pre' } } });
    t.f.pods.put({ metadata: { name: 'web-1-deploy', namespace: NS, labels: { [Labels.DeployerPodFor]: 'web-1' } } });
    t.f.pods.put({ metadata: { name: 'web-2-abcde', namespace: NS, labels: { deployment: 'web-2' } } });
    return t;
  }

  it('deletes the deployer and hook pods with grace 0, resets the RC to New and prints oc\'s message', async () => {
    const t = failed();
    expect(await rolloutRetry(t.ctx, { name: 'web' })).toBe(0);
    expect(t.writes('pods')).toEqual([
      { verb: 'delete', resource: 'pods', namespace: NS, name: 'web-2-deploy', body: { gracePeriodSeconds: 0 } },
      { verb: 'delete', resource: 'pods', namespace: NS, name: 'web-2-hook-pre', body: { gracePeriodSeconds: 0 } },
    ]);
    expect(t.writes('replicationcontrollers')).toEqual([{
      verb: 'patch', resource: 'replicationcontrollers', namespace: NS, name: 'web-2', patchType: 'merge',
      body: { metadata: { annotations: { 'openshift.io/deployment.phase': 'New', 'openshift.io/deployment.status-reason': null, 'openshift.io/deployment.cancelled': null } } },
    }]);
    const annotations = t.f.rcs.get(NS, 'web-2')?.metadata?.annotations ?? {};
    expect(annotations[Annotations.Phase]).toBe('New');
    expect(annotations[Annotations.Cancelled]).toBeUndefined();
    expect(annotations[Annotations.StatusReason]).toBeUndefined();
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web retried rollout #2\n');
  });

  it.each([
    ['Complete', "rollout #2 is complete; only failed deployments can be retried.\nYou can start a new deployment with 'dcctl rollout latest dc/web'."],
    ['Running', "rollout #2 is running; only failed deployments can be retried.\nOptionally, you can cancel this deployment with 'dcctl rollout cancel dc/web'."],
  ])('refuses a %s latest rollout', async (phase, message) => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 2 });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 2, phase));
    await expect(rolloutRetry(t.ctx, { name: 'web' })).rejects.toThrow(message);
    expect(t.writes('replicationcontrollers')).toEqual([]);
  });

  it('refuses paused DCs, DCs never rolled out, and a missing latest RC', async () => {
    const t = testContext();
    t.addDc(makeDc('paused', { latestVersion: 1, paused: true }));
    t.addDc(makeDc('fresh', { latestVersion: 0 }));
    t.addDc(makeDc('gone', { latestVersion: 4 }));
    await expect(rolloutRetry(t.ctx, { name: 'paused' })).rejects.toThrow('unable to retry paused deployment config "paused"');
    await expect(rolloutRetry(t.ctx, { name: 'fresh' })).rejects.toThrow('no rollouts found for "fresh"');
    await expect(rolloutRetry(t.ctx, { name: 'gone' })).rejects.toThrow("unable to find the latest rollout (#4).\nYou can start a new rollout with 'dcctl rollout latest dc/gone'.");
  });

  it('retries only the latest RC even if older ones failed', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 2 }) as DeploymentConfig;
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 1, 'Failed'));
    t.f.rcs.put(makeRc(dc, 2, 'Complete'));
    await expect(rolloutRetry(t.ctx, { name: 'web' })).rejects.toThrow('rollout #2 is complete');
  });
});

describe('an RC with an unknown phase (issue 14 item 4b): cancel and retry recover it', () => {
  it('cancel marks it cancelled (oc only cancels New/Pending/Running)', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 2 });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 1, 'Complete'));
    t.f.rcs.put(makeRc(dc, 2, 'Exploded'));
    expect(await rolloutCancel(t.ctx, { name: 'web' })).toBe(0);
    expect(t.writes('replicationcontrollers').map((a) => `${a.verb} ${a.name}`)).toEqual(['patch web-2']);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web cancelling\n');
  });

  it('retry resets it to New', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 2 });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 2, 'Exploded'));
    expect(await rolloutRetry(t.ctx, { name: 'web' })).toBe(0);
    expect(t.f.rcs.get(NS, 'web-2')?.metadata?.annotations?.[Annotations.Phase]).toBe('New');
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web retried rollout #2\n');
  });
});
