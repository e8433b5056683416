/**
 * Interrupted rollouts on the real local control plane: `oc rollout cancel` semantics, a deleted
 * deployer pod, and a seeded random sequence of config changes and cancels.
 */
import { describe, expect, it } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../src/apis/constants.js';
import type { DeploymentStrategy } from '../../src/apis/deploymentconfig.js';
import { dcManifest, phaseOf, shHook, useDeployerTestEnv, versionOf } from '../support/dc.js';
import { waitFor } from '../support/kube.js';
import { seededRandom, sleep } from '../support/wait.js';

const env = useDeployerTestEnv('deployer-cancel');

/** Recreate with a mid hook that sleeps: the old RC is already at 0 while the rollout hangs. */
const slowRecreate: DeploymentStrategy = { type: 'Recreate', recreateParams: { timeoutSeconds: 60, mid: shHook('sleep 30', 'Abort') } };

/** web-1 Complete with 3 replicas, then version 2 (slow) hanging in its mid hook. */
async function startSlowSecondRollout(): Promise<void> {
  const { dc } = env;
  await dc.create(dcManifest({ replicas: 3, strategy: { type: 'Recreate', recreateParams: { timeoutSeconds: 60 } } }));
  await dc.waitForPhase('web-1', 'Complete');
  await dc.waitForOnlyActive(1, 3);
  dc.patch({ spec: { strategy: slowRecreate, template: { spec: { containers: [{ name: 'web', image: 'registry.local/web:2' }] } } } });
  await dc.waitForPhase('web-2', 'Running', 30_000);
  await waitFor('mid hook running and web-1 scaled down', async () => {
    const hook = (await dc.pods('openshift.io/deployer-pod.type=hook-mid'))[0];
    const rc1 = await dc.rc('web-1');
    return hook?.status?.phase === 'Running' && rc1?.spec?.replicas === 0;
  }, { timeoutMs: 30_000 });
}

describe('interrupted rollouts (e2e)', () => {
  it('cancelling a running rollout fails it "cancelled by the user" and restores the previous RC', async () => {
    const { dc, ns } = env;
    await startSlowSecondRollout();
    dc.cancel('web-2');
    const rc2 = await dc.waitForPhase('web-2', ['Failed', 'Complete'], 60_000);
    expect(phaseOf(rc2)).toBe('Failed');
    expect(rc2.metadata?.annotations?.[Annotations.StatusReason]).toBe('cancelled by the user');
    expect(rc2.metadata?.annotations?.[Annotations.Cancelled]).toBe('true');
    // Deployer and hook pods are deleted on cancellation.
    await waitFor('web-2 deployer and hook pods gone', async () => (await dc.pods('openshift.io/deployer-pod-for.name=web-2')).length === 0, { timeoutMs: 30_000 });
    await dc.waitForOnlyActive(1, 3);
    await dc.waitForConditions({ Progressing: { status: 'False', reason: 'RolloutCancelled', message: 'rollout of replication controller "web-2" was cancelled' } });
    expect(await dc.eventTexts('web')).toContain(`Normal RolloutCancelled: Rollout for "${ns}/web-2" cancelled`);
  });

  it('deleting the deployer pod mid-rollout fails it "deployer pod no longer exists" and restores the previous RC', async () => {
    const { dc } = env;
    await startSlowSecondRollout();
    await dc.deletePod('web-2-deploy', 0);
    const rc2 = await dc.waitForPhase('web-2', ['Failed', 'Complete'], 60_000);
    expect(phaseOf(rc2)).toBe('Failed');
    expect(rc2.metadata?.annotations?.[Annotations.StatusReason]).toBe('deployer pod no longer exists');
    expect(rc2.metadata?.annotations?.[Annotations.Cancelled]).toBeUndefined();
    expect(await dc.eventTexts('web')).toContain('Warning Failed: Deployer pod "web-2-deploy" has gone missing');
    await dc.waitForOnlyActive(1, 3);
    await dc.waitForConditions({ Progressing: { status: 'False', reason: 'ProgressDeadlineExceeded' } });
  });

  it('15 random config changes and cancels leave only the last version deployed', async () => {
    const { dc } = env;
    const seed = Number(process.env.DC_E2E_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`random rollout steps: seed ${seed} (rerun with DC_E2E_SEED=${seed})`);
    const rand = seededRandom(seed);
    // A pre hook that sleeps keeps each rollout in flight for a few seconds, so changes and
    // cancels land on running rollouts as well as on settled ones.
    await dc.create(dcManifest({ replicas: 2, strategy: {
      type: 'Rolling', rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 60, pre: shHook('sleep 1', 'Abort') },
    } }));
    await dc.waitForPhase('web-1', 'Complete');

    const steps: string[] = [];
    let image = 'registry.local/web:1';
    for (let i = 0; i < 15; i++) {
      // The last step is always a config change, so a rollout of the final template must win.
      if (i === 14 || rand() < 0.6) {
        image = `registry.local/web:s${i}`;
        dc.setImage(image);
        steps.push(`change ${image}`);
      } else {
        const rcs = await dc.rcs();
        const latest = rcs[rcs.length - 1];
        const ph = phaseOf(latest);
        if (latest && ph !== 'Complete' && ph !== 'Failed') {
          dc.cancel(latest.metadata?.name ?? '');
          steps.push(`cancel ${latest.metadata?.name} (${ph})`);
        } else {
          steps.push(`cancel: nothing running (latest ${latest?.metadata?.name} ${ph})`);
        }
      }
      await sleep(Math.floor(rand() * 2000));
    }
    console.log(`steps (seed ${seed}):\n  ${steps.join('\n  ')}`);

    const settled = await waitFor('the final template rolled out', async () => {
      const d = await dc.get();
      const v = d.status?.latestVersion ?? 0;
      if (d.status?.observedGeneration !== d.metadata?.generation) return undefined;
      const latest = await dc.rc(`web-${v}`);
      if (phaseOf(latest) === 'Failed') throw new Error(`web-${v} failed`);
      return latest && phaseOf(latest) === 'Complete' ? { v, latest } : undefined;
    }, { timeoutMs: 90_000 });
    expect(settled.latest.spec?.template?.spec?.containers[0]?.image).toBe(image);
    const rcs: V1ReplicationController[] = await dc.waitForOnlyActive(settled.v, 2);
    const outcomes = rcs.map((rc) => `${rc.metadata?.name} ${phaseOf(rc)} ${rc.metadata?.annotations?.[Annotations.StatusReason] ?? ''}`);
    console.log(`outcomes (seed ${seed}):\n  ${outcomes.join('\n  ')}`);
    for (const rc of rcs) {
      const ph = phaseOf(rc);
      expect(ph === 'Complete' || ph === 'Failed').toBe(true);
      if (versionOf(rc) !== settled.v) expect(rc.spec?.replicas).toBe(0);
      // Nothing here fails on its own: every failed rollout was cancelled, by the user or by a newer one.
      if (ph === 'Failed') expect(['cancelled by the user', 'newer deployment was found running']).toContain(rc.metadata?.annotations?.[Annotations.StatusReason]);
    }
    // Every rollout superseded by a newer one was cancelled by the DC controller, with an event.
    const events = await dc.eventTexts('web');
    for (const rc of rcs.filter((r) => r.metadata?.annotations?.[Annotations.StatusReason] === 'newer deployment was found running')) {
      expect(events.some((e) => e.startsWith(`Normal DeploymentCancelled: Cancelled deployment "${rc.metadata?.name}" superceded by version `))).toBe(true);
    }
  }, 150_000);
});
