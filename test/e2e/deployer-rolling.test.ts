/**
 * Rolling rollouts on the real local control plane: the first rollout, the surge/unavailability
 * bounds of a rolling update, a readiness timeout with automatic rollback, minReadySeconds, test
 * mode and a custom command on the Rolling strategy. Needs `npm run build` and the process kubelet.
 */
import { describe, expect, it } from '@jest/globals';
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../src/apis/constants.js';
import { dcManifest, phaseOf, podLog, useDeployerTestEnv, versionOf } from '../support/dc.js';
import { isDeployerPod, isReadyPod, type ObservedState } from '../support/invariants.js';
import { kubectl, waitFor } from '../support/kube.js';

const env = useDeployerTestEnv('deployer-rolling');

const unschedulable = {
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'no-such-node', operator: 'Exists' }] }] } },
};

/** Pods of the app (not deployer/hook pods) that are not being deleted. */
const appPods = (s: ObservedState, app = 'web'): V1Pod[] =>
  [...s.pods.values()].filter((p) => !isDeployerPod(p) && p.metadata?.labels?.app === app && p.metadata?.deletionTimestamp === undefined);

describe('Rolling strategy and custom commands (e2e)', () => {
  it('completes a first rollout: RC Complete, DC Available and Progressing, 3 ready pods', async () => {
    const { dc, ns, watcher } = env;
    const applied = Date.now();
    await dc.create(dcManifest({ replicas: 3 }));
    const rc = await dc.waitForPhase('web-1', 'Complete', 60_000);
    const completeMs = Date.now();

    expect(rc.spec?.replicas).toBe(3);
    expect(rc.metadata?.annotations?.[Annotations.DeploymentReplicas]).toBe('3');
    expect(rc.metadata?.annotations?.[Annotations.DesiredReplicas]).toBeUndefined();
    expect(rc.metadata?.annotations?.[Annotations.DeployerPod]).toBe('web-1-deploy');
    await dc.waitForOnlyActive(1, 3);
    expect(await dc.readyPods('app=web')).toHaveLength(3);

    const d = await dc.waitForConditions({
      Available: { status: 'True' },
      Progressing: { status: 'True', reason: 'NewReplicationControllerAvailable', message: 'replication controller "web-1" successfully rolled out' },
    });
    expect(d.status).toMatchObject({ latestVersion: 1, replicas: 3, updatedReplicas: 3, availableReplicas: 3, unavailableReplicas: 0 });
    const events = await dc.eventTexts('web');
    expect(events).toContain('Normal DeploymentCreated: Created new replication controller "web-1" for version 1');
    expect(podLog(ns, 'web-1-deploy')).toContain('--> Success');
    // The deployer pod is preserved after success (GC'd with the RC), owned by the RC.
    const deployer = (await dc.pods('openshift.io/deployer-pod-for.name=web-1'))[0];
    expect(deployer).toMatchObject({
      metadata: { name: 'web-1-deploy', ownerReferences: [{ kind: 'ReplicationController', name: 'web-1', uid: rc.metadata?.uid }] },
      spec: { serviceAccountName: 'deployer', restartPolicy: 'Never', activeDeadlineSeconds: 21600 },
      status: { phase: 'Succeeded' },
    });

    // Where the time goes, from the RC annotations (second resolution) and the watch timeline (ms).
    const a = rc.metadata?.annotations ?? {};
    console.log(`3-replica Rolling first rollout: apply → Complete seen ${completeMs - applied} ms; `
      + `deployer pod created-at ${a[Annotations.DeployerPodCreatedAt]}, completed-at ${a[Annotations.DeployerPodCompletedAt]}\n`
      + watcher.formatTimeline(applied));

    // A second (image change) rollout replaces every pod.
    const changed = Date.now();
    dc.setImage('registry.local/web:2');
    await dc.waitForPhase('web-2', 'Complete', 60_000);
    const complete2 = Date.now();
    await dc.waitForOnlyActive(2, 3);
    const pods = await dc.readyPods('app=web');
    expect(pods.map((p) => p.spec?.containers[0]?.image)).toEqual(Array(3).fill('registry.local/web:2'));
    await dc.waitForConditions({ Progressing: { status: 'True', reason: 'NewReplicationControllerAvailable', message: 'replication controller "web-2" successfully rolled out' } });
    console.log(`3-replica Rolling image change: patch → Complete seen ${complete2 - changed} ms\n`
      + watcher.formatTimeline(changed, (e) => e.ms >= changed));
  });

  it('never goes below the minimum available nor above desired + surge (desired 4, maxSurge 1, maxUnavailable 1)', async () => {
    const { dc, watcher } = env;
    await dc.create(dcManifest({
      replicas: 4,
      strategy: { type: 'Rolling', rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 60, maxSurge: 1, maxUnavailable: 1 } },
    }));
    await dc.waitForPhase('web-1', 'Complete');
    await dc.waitForOnlyActive(1, 4);

    // Sample every change while version 2 rolls out.
    const samples: Array<{ specSum: number; pods: number; ready: number }> = [];
    let rolling = true;
    const unsubscribe = watcher.onChange((s) => {
      if (!rolling) return;
      const rcs = [...s.rcs.values()];
      const specSum = rcs.reduce((n, rc) => n + (rc.spec?.replicas ?? 0), 0);
      const pods = appPods(s);
      samples.push({ specSum, pods: pods.length, ready: pods.filter(isReadyPod).length });
    });
    dc.setImage('registry.local/web:2');
    const rc2 = await dc.waitForPhase('web-2', ['Complete', 'Failed'], 90_000);
    rolling = false;
    unsubscribe();
    expect(phaseOf(rc2)).toBe('Complete');
    await dc.waitForOnlyActive(2, 4);

    expect(samples.length).toBeGreaterThan(10);
    const maxSpec = Math.max(...samples.map((x) => x.specSum));
    const minSpec = Math.min(...samples.map((x) => x.specSum));
    const maxPods = Math.max(...samples.map((x) => x.pods));
    const minReady = Math.min(...samples.map((x) => x.ready));
    // The rollout really surged and really took one pod out of service, and never more than that.
    expect({ maxSpec, minSpec, maxPods, minReady }).toEqual({ maxSpec: 5, minSpec: 3, maxPods: 5, minReady: 3 });
    const log = podLog(env.ns, 'web-2-deploy');
    expect(log).toContain('Scaling up web-2 from 0 to 4, scaling down web-1 from 4 to 0 (keep 3 pods available, don\'t exceed 5 pods)');
  });

  it('fails a rollout whose pods never become ready after timeoutSeconds and restores the previous RC', async () => {
    const { dc } = env;
    const timeoutSeconds = 8;
    await dc.create(dcManifest({
      replicas: 3,
      strategy: { type: 'Rolling', rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds } },
    }));
    await dc.waitForPhase('web-1', 'Complete');
    await dc.waitForOnlyActive(1, 3);

    // A required node affinity no kwok node matches keeps the new pods Pending (unschedulable)
    // forever. Not a nodeSelector: the deployer pod copies that one (§3.3) and would not run.
    dc.patch({ spec: { template: { spec: { affinity: unschedulable } } } });
    const running = await dc.waitForPhase('web-2', 'Running', 30_000);
    const startedAt = Date.now();
    const failed = await dc.waitForPhase('web-2', ['Failed', 'Complete'], 90_000);
    const elapsed = Date.now() - startedAt;
    expect(phaseOf(failed)).toBe('Failed');
    expect(running).toBeDefined();
    expect(elapsed).toBeGreaterThanOrEqual((timeoutSeconds - 1) * 1000);
    expect(podLog(env.ns, 'web-2-deploy')).toContain('timed out waiting for any update progress to be made');

    // Automatic rollback: web-1 back at 3 ready replicas, web-2 at 0.
    await dc.waitForOnlyActive(1, 3);
    await dc.waitForConditions({ Progressing: { status: 'False', reason: 'ProgressDeadlineExceeded', message: 'replication controller "web-2" has failed progressing' } });
    const d = await dc.get();
    expect(d.status?.latestVersion).toBe(2);
  });

  it('fails a first rollout whose pods never become ready and leaves its RC at 0', async () => {
    const { dc } = env;
    const manifest = dcManifest({ replicas: 2, strategy: { type: 'Rolling', rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 5 } } });
    (manifest.spec.template?.spec ?? { containers: [] }).affinity = unschedulable;
    await dc.create(manifest);
    const rc = await dc.waitForPhase('web-1', ['Failed', 'Complete'], 60_000);
    expect(phaseOf(rc)).toBe('Failed');
    // The first rollout delegates to Recreate's acceptance check with the rolling timeout.
    expect(podLog(env.ns, 'web-1-deploy')).toContain(`pods for rc '${env.ns}/web-1' took longer than 5 seconds to become available`);
    // No RC was ever Complete, so nothing is scaled back up.
    await dc.waitForOnlyActive(1, 0);
    await dc.waitForConditions({ Available: { status: 'False' }, Progressing: { status: 'False', reason: 'ProgressDeadlineExceeded' } });
  });

  it('repeats on the DC, and in its log, the Warning events raised about its RC while the deployer ran, at most 25', async () => {
    const { dc } = env;
    const manifest = dcManifest({ replicas: 2, strategy: { type: 'Rolling', rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 8 } } });
    (manifest.spec.template?.spec ?? { containers: [] }).affinity = unschedulable;
    await dc.create(manifest);
    const running = await dc.waitForPhase('web-1', 'Running', 30_000);
    // Its service account may watch events (without it the deployer would fall back to a LIST,
    // and this test could not tell).
    expect(kubectl(['auth', 'can-i', 'watch', 'events', '-n', env.ns, '--as', `system:serviceaccount:${env.ns}:deployer`]).trim()).toBe('yes');
    // The deployer watches the namespace's RC warnings from its first read on (design.md §6.2),
    // before it scales: one written while it waits for pods must reach the DC when the rollout ends.
    await waitFor('the deployer scaling web-1 up', async () => ((await dc.rc('web-1'))?.spec?.replicas ?? 0) > 0 || undefined, { timeoutMs: 30_000, intervalMs: 100 });
    await dc.rcWarning(running, 'web-1.policy', 'FailedCreate', 'pods "web-1-x" is forbidden: exceeded quota');
    // Anyone who may create events can write warnings about the RC: 30 more cannot make the
    // deployer write 30 more events (design.md §10.3: at most 25 per RC are repeated).
    for (let i = 0; i < 30; i++) await dc.rcWarning(running, `web-1.forged-${String(i).padStart(2, '0')}`, 'Forged', `forged ${i}`);
    expect(phaseOf(await dc.waitForPhase('web-1', ['Failed', 'Complete'], 60_000))).toBe('Failed');
    const log = podLog(env.ns, 'web-1-deploy');
    expect(log).toContain('-->  FailedCreate: web-1 pods "web-1-x" is forbidden: exceeded quota');
    expect(log).toContain('--> 6 more Warning events of web-1 not repeated on the DC');
    await waitFor('the warning repeated on the DC', async () =>
      (await dc.eventTexts('web')).includes('Warning FailedCreate: pods "web-1-x" is forbidden: exceeded quota'), { timeoutMs: 10_000 });
    expect((await dc.eventTexts('web')).filter((t) => t.startsWith('Warning Forged:'))).toHaveLength(24);
  });

  it('minReadySeconds delays completion until the pods have been ready that long', async () => {
    const { dc, watcher } = env;
    const minReadySeconds = 5;
    let allReadyMs: number | undefined;
    watcher.onChange((s) => {
      if (allReadyMs === undefined && appPods(s).filter(isReadyPod).length === 2) allReadyMs = Date.now();
    });
    await dc.create(dcManifest({ replicas: 2, minReadySeconds }));
    await dc.waitForPhase('web-1', 'Complete', 60_000);
    const completeMs = Date.now();
    expect(allReadyMs).toBeDefined();
    // Ready times have second resolution in the RC manager's availability check.
    expect(completeMs - (allReadyMs ?? completeMs)).toBeGreaterThanOrEqual((minReadySeconds - 1) * 1000);
    const rc = await dc.rc('web-1');
    expect(rc?.spec?.minReadySeconds).toBe(minReadySeconds);
    expect(rc?.status?.availableReplicas).toBe(2);
  });

  it('test mode (spec.test) rolls out and then leaves every RC at 0 replicas', async () => {
    const { dc, watcher } = env;
    let maxReady = 0;
    watcher.onChange((s) => { maxReady = Math.max(maxReady, appPods(s).filter(isReadyPod).length); });
    await dc.create(dcManifest({ replicas: 2, test: true }));
    const rc = await dc.waitForPhase('web-1', 'Complete', 60_000);
    // The deployer controller scales a terminal test RC to 0 in the same update as the phase.
    expect(rc.spec?.replicas).toBe(0);
    expect(maxReady).toBe(2);
    await dc.waitForOnlyActive(1, 0);
    await waitFor('no app pods', async () => (await dc.pods('app=web')).length === 0, { timeoutMs: 30_000 });

    // A second test rollout ends at 0 as well.
    dc.setImage('registry.local/web:2');
    await dc.waitForPhase('web-2', 'Complete', 60_000);
    const rcs: V1ReplicationController[] = await dc.waitForOnlyActive(2, 0);
    expect(rcs.map((r) => [versionOf(r), r.spec?.replicas ?? 0])).toEqual([[1, 0], [2, 0]]);
  });

  it.each(['Rolling', 'Recreate'] as const)('runs a custom command around openshift-deploy --until=50%% on the %s strategy', async (type) => {
    const { dc, ns } = env;
    const strategy = {
      type,
      ...(type === 'Rolling'
        ? { rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 60 } }
        : { recreateParams: { timeoutSeconds: 60 } }),
      customParams: { command: ['/bin/sh', '-c', 'openshift-deploy --until=50% && echo between && openshift-deploy'] },
    };
    await dc.create(dcManifest({ replicas: 2, strategy }));
    await dc.waitForPhase('web-1', 'Complete', 60_000);
    await dc.waitForOnlyActive(1, 2);
    const log1 = podLog(ns, 'web-1-deploy');
    expect(log1).toContain('between');
    expect(log1.indexOf('between')).toBeLessThan(log1.lastIndexOf('--> Success'));

    dc.setImage('registry.local/web:2');
    await dc.waitForPhase('web-2', 'Complete', 90_000);
    await dc.waitForOnlyActive(2, 2);
    const log2 = podLog(ns, 'web-2-deploy');
    expect(log2).toMatch(/Reached 50%/);
    expect(log2).toContain('between');
    expect(log2.indexOf('between')).toBeGreaterThan(log2.indexOf('Reached 50%'));
    expect(log2.indexOf('between')).toBeLessThan(log2.lastIndexOf('--> Success'));
  });
});
