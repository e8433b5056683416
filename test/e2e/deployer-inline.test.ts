/**
 * Pod-less rollouts (design.md §6.8) on the real plane: the deployer controller runs Rolling and
 * Recreate rollouts itself. Hook pods are local processes (process kubelet) that append to a
 * marker file on this host, so "exactly once" is read from the file.
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import type { DeploymentStrategy, LifecycleHook } from '../../src/apis/deploymentconfig.js';
import { dcctl, kubectl, startController, waitFor } from '../support/kube.js';
import { dcManifest, phaseOf, readLines, scratchDir, shHook, useDeployerTestEnv, type DcOptions } from '../support/dc.js';
import { isDeployerPod } from '../support/invariants.js';

const env = useDeployerTestEnv('deployer-inline', { controllerArgs: ['--default-deployer=inline'] });

/** A hook that appends `label` to $MARKER (and optionally sleeps first). */
const mark = (marker: string, label: string, sleepSeconds = 0, policy: LifecycleHook['failurePolicy'] = 'Abort'): LifecycleHook =>
  shHook(`${sleepSeconds > 0 ? `sleep ${sleepSeconds}; ` : ''}echo ${label} >> "$MARKER"`, policy, [{ name: 'MARKER', value: marker }]);

const rolling = (extra: Record<string, unknown> = {}): DeploymentStrategy =>
  ({ type: 'Rolling', rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 60, ...extra } } as DeploymentStrategy);
const recreate = (extra: Record<string, unknown> = {}): DeploymentStrategy =>
  ({ type: 'Recreate', recreateParams: { timeoutSeconds: 60, ...extra } } as DeploymentStrategy);

/** The DC, annotated for inline rollouts explicitly unless told otherwise. */
function inlineDc(o: DcOptions, mode: 'inline' | 'pod' | undefined = 'inline') {
  const dc = dcManifest(o);
  if (mode) dc.metadata.annotations = { 'deploy.dcctl.io/deployer': mode };
  return dc;
}

async function deployerPodsEver(): Promise<string[]> {
  return (await env.dc.pods('openshift.io/deployer-pod-for.name')).filter(isDeployerPod).map((p) => p.metadata?.name ?? '');
}

describe('pod-less (inline) rollouts (e2e)', () => {
  it('Rolling: first rollout and a template update complete with no deployer pod; progress is in events and annotations', async () => {
    const { dc, ns, watcher } = env;
    await dc.create(inlineDc({ replicas: 3, strategy: rolling({ maxSurge: 1, maxUnavailable: 0 }) }));
    const rc1 = await dc.waitForPhase('web-1', ['Complete', 'Failed']);
    expect(phaseOf(rc1)).toBe('Complete');
    expect(rc1.metadata?.annotations?.['deploy.dcctl.io/deployer']).toBe('inline');
    expect(rc1.metadata?.annotations?.['openshift.io/deployer-pod.name']).toBeUndefined();
    await dc.waitForOnlyActive(1, 3);

    // Never more than desired + maxSurge pods, never fewer than desired - maxUnavailable ready.
    let maxTotal = 0;
    // What the old RC's status said when the new one turned Complete (the updater's last scale
    // waits for the RC manager to report it at 0, so the DC shows the drained counts with the outcome).
    let oldReplicasAtComplete: number | undefined;
    const stop = watcher.onChange((state) => {
      let total = 0;
      for (const rc of state.rcs.values()) total += rc.spec?.replicas ?? 0;
      maxTotal = Math.max(maxTotal, total);
      const web2 = state.rcs.get('web-2');
      if (oldReplicasAtComplete === undefined && web2 && phaseOf(web2) === 'Complete') oldReplicasAtComplete = state.rcs.get('web-1')?.status?.replicas ?? 0;
    });
    dc.setImage('registry.local/web:2');
    const rc2 = await dc.waitForPhase('web-2', ['Complete', 'Failed']);
    // The watcher's own stream may deliver the Complete a moment after waitForPhase's read.
    if (phaseOf(rc2) === 'Complete') await waitFor('the watcher to see web-2 Complete', () => oldReplicasAtComplete !== undefined, { timeoutMs: 10_000 });
    stop();
    expect(phaseOf(rc2)).toBe('Complete');
    await dc.waitForOnlyActive(2, 3);
    expect(maxTotal).toBeLessThanOrEqual(4);
    expect(oldReplicasAtComplete).toBe(0);
    expect(await deployerPodsEver()).toEqual([]);
    // The rolling updater's bookkeeping is as the pod mode leaves it.
    expect(rc2.metadata?.annotations?.['kubectl.kubernetes.io/update-source-id']).toBeUndefined();
    expect(rc2.metadata?.annotations?.['kubectl.kubernetes.io/desired-replicas']).toBeUndefined();
    expect((await dc.rc('web-1'))?.metadata?.annotations?.['kubectl.kubernetes.io/original-replicas']).toBe('3');
    const events = await dc.eventTexts('web');
    expect(events).toContain(`Normal ScalingReplicationController: Scaling web-2 up to 1`);
    expect(events).toContain('Normal ScalingReplicationController: Scaling web-1 down to 0');
    await dc.waitForConditions({ Progressing: { status: 'True', reason: 'NewReplicationControllerAvailable' }, Available: { status: 'True' } });

    // `dcctl logs` says where the progress is instead of failing on a missing pod.
    const logs = await dcctl(['logs', 'dc/web', '-n', ns]);
    expect(logs.stdout + logs.stderr).toContain('without a deployer pod');
  });

  it('Recreate with pre, mid and post hooks: each runs exactly once, in order, around the scale down', async () => {
    const { dc, ns } = env;
    const marker = path.join(scratchDir(), 'marker');
    const hooks = { pre: mark(marker, 'pre'), mid: mark(marker, 'mid'), post: mark(marker, 'post') };
    await dc.create(inlineDc({ replicas: 2, strategy: recreate(hooks) }));
    expect(phaseOf(await dc.waitForPhase('web-1', ['Complete', 'Failed']))).toBe('Complete');
    await dc.waitForOnlyActive(1, 2);
    // web-1's replicas when the mid hook pod first appears: the mid hook runs after the scale down.
    let web1AtMid: number | undefined;
    const stop = env.watcher.onChange((state) => {
      if (web1AtMid === undefined && state.pods.has('web-2-hook-mid')) web1AtMid = state.rcs.get('web-1')?.spec?.replicas;
    });
    dc.setImage('registry.local/web:2');
    expect(phaseOf(await dc.waitForPhase('web-2', ['Complete', 'Failed']))).toBe('Complete');
    stop();
    await dc.waitForOnlyActive(2, 2);
    expect(web1AtMid).toBe(0);
    expect(readLines(marker)).toEqual(['pre', 'mid', 'post', 'pre', 'mid', 'post']);
    expect(await deployerPodsEver()).toEqual([]);
    const events = await dc.eventTexts('web');
    for (const label of ['pre', 'mid', 'post']) {
      expect(events.filter((e) => e === `Normal Completed: The ${label}-hook for rc ${ns}/web-2 completed successfully`)).toHaveLength(1);
    }
    const hookPods = (await dc.pods('openshift.io/deployer-pod-for.name=web-2')).map((p) => p.metadata?.name).sort();
    expect(hookPods).toEqual(['web-2-hook-mid', 'web-2-hook-post', 'web-2-hook-pre']);
    expect(events).toContain('Normal ScalingReplicationController: Scaling web-1 down to zero');
  });

  it('cancellation fails the rollout, deletes the hook pod and scales the previous RC back', async () => {
    const { dc } = env;
    const marker = path.join(scratchDir(), 'marker');
    await dc.create(inlineDc({ replicas: 2, strategy: recreate() }));
    await dc.waitForPhase('web-1', 'Complete');
    await dc.waitForOnlyActive(1, 2);
    dc.patch({ spec: { strategy: recreate({ mid: mark(marker, 'mid', 120) }), template: { spec: { containers: [{ name: 'web', image: 'registry.local/web:2' }] } } } });
    await waitFor('mid hook pod', async () => (await dc.pods('openshift.io/deployer-pod-for.name=web-2')).find((p) => p.metadata?.name === 'web-2-hook-mid'));
    dc.cancel('web-2');
    const rc2 = await dc.waitForPhase('web-2', ['Failed', 'Complete']);
    expect(phaseOf(rc2)).toBe('Failed');
    await dc.waitForOnlyActive(1, 2);
    await waitFor('hook pod deleted', async () => ((await dc.pods('openshift.io/deployer-pod-for.name=web-2')).length === 0 ? true : undefined));
    await dc.waitForConditions({ Progressing: { status: 'False', reason: 'RolloutCancelled' } });
  });

  it('timeout: pods that never become available fail the rollout and the previous RC takes over again', async () => {
    const { dc, ns } = env;
    await dc.create(inlineDc({ replicas: 2, strategy: recreate({ timeoutSeconds: 5 }) }));
    await dc.waitForPhase('web-1', 'Complete');
    await dc.waitForOnlyActive(1, 2);
    // kwok never schedules pods onto a node that does not exist: they stay Pending.
    dc.patch({ spec: { template: { spec: { nodeSelector: { 'no-such-node': 'true' }, containers: [{ name: 'web', image: 'registry.local/web:2' }] } } } });
    const rc2 = await dc.waitForPhase('web-2', ['Failed', 'Complete'], 60_000);
    expect(phaseOf(rc2)).toBe('Failed');
    const events = await dc.eventTexts('web');
    expect(events.some((e) => e.startsWith(`Warning RolloutFailed: Rollout of "${ns}/web-2" failed: update acceptor rejected web-2: pods for rc '${ns}/web-2' took longer than 5 seconds`))).toBe(true);
    await dc.waitForOnlyActive(1, 2);
    await dc.waitForConditions({ Progressing: { status: 'False', reason: 'ProgressDeadlineExceeded' } });
  });

  it('test mode: the rollout completes and the RC is scaled to 0 after', async () => {
    const { dc } = env;
    await dc.create(inlineDc({ replicas: 2, test: true, strategy: rolling() }));
    const rc1 = await dc.waitForPhase('web-1', ['Complete', 'Failed']);
    expect(phaseOf(rc1)).toBe('Complete');
    await dc.waitForOnlyActive(1, 0);
    expect(await deployerPodsEver()).toEqual([]);
  });

  it('Custom strategies still run in a deployer pod, even annotated inline', async () => {
    const { dc } = env;
    await dc.create(inlineDc({ replicas: 1, strategy: { type: 'Custom', customParams: { command: ['/bin/sh', '-c', 'echo custom'] } } as DeploymentStrategy }));
    await waitFor('custom deployer pod', async () => ((await deployerPodsEver()).includes('web-1-deploy') ? true : undefined));
    // The invariant watcher checks it too (its pod stream must have seen it).
    await waitFor('the watcher to see the deployer pod', async () => (env.watcher.counts.pods > 0 ? true : undefined));
  });

  it('a DC annotated pod under --default-deployer=inline gets a deployer pod', async () => {
    const { dc } = env;
    await dc.create(inlineDc({ replicas: 1, strategy: rolling() }, 'pod'));
    await waitFor('deployer pod', async () => ((await deployerPodsEver()).includes('web-1-deploy') ? true : undefined));
    const rc1 = await dc.waitForPhase('web-1', ['Complete', 'Failed']);
    expect(phaseOf(rc1)).toBe('Complete');
  });

  it('a controller killed mid-rollout is replaced and the rollout resumes without repeating a hook', async () => {
    const { dc, ns } = env;
    const marker = path.join(scratchDir(), 'marker');
    await dc.create(inlineDc({ replicas: 2, strategy: recreate({ pre: mark(marker, 'pre', 3), post: mark(marker, 'post') }) }));
    // Kill while the pre hook runs (its pod exists, it has not finished).
    await waitFor('pre hook pod', async () => (await dc.pods('openshift.io/deployer-pod-for.name=web-1')).find((p) => p.metadata?.name === 'web-1-hook-pre'));
    await env.controller.kill();
    expect(readLines(marker)).toEqual([]);
    env.controller = startController(ns, ['--default-deployer=inline']);
    const rc1 = await dc.waitForPhase('web-1', ['Complete', 'Failed'], 90_000);
    expect(phaseOf(rc1)).toBe('Complete');
    await dc.waitForOnlyActive(1, 2);
    expect(readLines(marker)).toEqual(['pre', 'post']);
    // Events are best effort: the killed process may have created the hook pod and died before
    // its Started event reached the API server (the marker file above is the proof of "once").
    // The replacement must never announce the hook again.
    const events = await dc.eventTexts('web');
    expect(events.filter((e) => e.startsWith('Normal Started: Running pre-hook')).length).toBeLessThanOrEqual(1);
    expect(events.filter((e) => e.startsWith('Normal Started: Running post-hook'))).toHaveLength(1);
  });

  it('a forged inline-stage past the last stage fails the rollout instead of completing it without its pre hook', async () => {
    const { dc, ns } = env;
    const marker = path.join(scratchDir(), 'marker');
    await dc.create(inlineDc({ replicas: 2, strategy: recreate({ pre: mark(marker, 'pre', 30) }) }));
    await waitFor('pre hook pod', async () => (await dc.pods('openshift.io/deployer-pod-for.name=web-1')).find((p) => p.metadata?.name === 'web-1-hook-pre'));
    await waitFor('stage recorded', async () => (await dc.rc('web-1'))?.metadata?.annotations?.['deploy.dcctl.io/inline-stage']);
    // Anyone who may patch RCs in the namespace (every deployer and hook pod) can write this.
    kubectl(['-n', ns, 'annotate', '--overwrite', 'rc/web-1', `deploy.dcctl.io/inline-stage=99 ${new Date().toISOString()}`]);
    const rc1 = await dc.waitForPhase('web-1', ['Complete', 'Failed']);
    expect(phaseOf(rc1)).toBe('Failed');
    expect(rc1.spec?.replicas).toBe(0);
    expect(readLines(marker)).toEqual([]);
    const events = await dc.eventTexts('web');
    expect(events.filter((e) => e.startsWith('Warning InvalidReplicationController: metadata.annotations["deploy.dcctl.io/inline-stage"]: stage 99 is past the last of this rollout\'s 2 stages'))).toHaveLength(1);
    expect(events.some((e) => e.startsWith(`Warning RolloutFailed: Rollout of "${ns}/web-1" failed: metadata.annotations["deploy.dcctl.io/inline-stage"]`))).toBe(true);
    expect(env.controller.child.exitCode).toBeNull();
  });
});
