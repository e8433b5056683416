/**
 * Lifecycle hooks of the Recreate strategy run for real: hook pods are local processes (process
 * kubelet) that append to a marker file on this host, passed to them through the hook's env.
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import type { DeploymentStrategy, LifecycleHook } from '../../src/apis/deploymentconfig.js';
import { dcManifest, phaseOf, podLog, readLines, scratchDir, shHook, useDeployerTestEnv } from '../support/dc.js';

const env = useDeployerTestEnv('deployer-hooks');

const recreate = (hooks: { pre?: LifecycleHook; mid?: LifecycleHook; post?: LifecycleHook }): DeploymentStrategy =>
  ({ type: 'Recreate', recreateParams: { timeoutSeconds: 60, ...hooks } });

/** A hook that appends `label` to $MARKER. */
const mark = (marker: string, label: string, policy: LifecycleHook['failurePolicy'] = 'Abort'): LifecycleHook =>
  shHook(`echo ${label} >> "$MARKER"`, policy, [{ name: 'MARKER', value: marker }]);

describe('Recreate strategy and lifecycle hooks (e2e)', () => {
  it('runs pre, mid and post execNewPod hooks in that order, each once', async () => {
    const { dc, ns } = env;
    const marker = path.join(scratchDir(), 'marker');
    await dc.create(dcManifest({ replicas: 2, strategy: recreate({ pre: mark(marker, 'pre'), mid: mark(marker, 'mid'), post: mark(marker, 'post') }) }));
    await dc.waitForPhase('web-1', 'Complete', 90_000);
    await dc.waitForOnlyActive(1, 2);
    expect(readLines(marker)).toEqual(['pre', 'mid', 'post']);

    const events = await dc.eventTexts('web');
    for (const label of ['pre', 'mid', 'post']) {
      // The command is quoted as Go's %q does (inner quotes escaped).
      expect(events).toContain(`Normal Started: Running ${label}-hook (${JSON.stringify(`/bin/sh -c echo ${label} >> "$MARKER"`)}) for rc ${ns}/web-1`);
      expect(events).toContain(`Normal Completed: The ${label}-hook for rc ${ns}/web-1 completed successfully`);
    }
    const hookPods = (await dc.pods('openshift.io/deployer-pod-for.name=web-1'))
      .filter((p) => p.metadata?.labels?.['openshift.io/deployer-pod.type'] !== undefined);
    // Hook pods get the RC as owner (set by the deployer controller, §5.5) so they go with it.
    const rc1 = await dc.rc('web-1');
    for (const p of hookPods) expect(p.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'ReplicationController', name: 'web-1', uid: rc1?.metadata?.uid })]);
    expect(hookPods.map((p) => [p.metadata?.name, p.status?.phase]).sort()).toEqual([
      ['web-1-hook-mid', 'Succeeded'], ['web-1-hook-post', 'Succeeded'], ['web-1-hook-pre', 'Succeeded'],
    ]);

    // A second rollout runs the hooks of the new RC, once each, with the old RC scaled down before mid.
    dc.setImage('registry.local/web:2');
    await dc.waitForPhase('web-2', 'Complete', 90_000);
    await dc.waitForOnlyActive(2, 2);
    expect(readLines(marker)).toEqual(['pre', 'mid', 'post', 'pre', 'mid', 'post']);
    const log = podLog(ns, 'web-2-deploy');
    expect(log.indexOf('Scaling web-1 down to zero')).toBeGreaterThan(log.indexOf('pre: Success'));
    expect(log.indexOf('mid: Running hook pod')).toBeGreaterThan(log.indexOf('Scaling web-1 down to zero'));
  });

  it('Abort: a failing mid hook fails the rollout and the previous RC is scaled back up', async () => {
    const { dc, ns } = env;
    await dc.create(dcManifest({ replicas: 3, strategy: recreate({}) }));
    await dc.waitForPhase('web-1', 'Complete');
    await dc.waitForOnlyActive(1, 3);

    dc.patch({ spec: {
      strategy: recreate({ mid: shHook('echo failing mid; exit 3', 'Abort') }),
      template: { spec: { containers: [{ name: 'web', image: 'registry.local/web:2' }] } },
    } });
    const rc2 = await dc.waitForPhase('web-2', ['Failed', 'Complete'], 90_000);
    expect(phaseOf(rc2)).toBe('Failed');
    expect(podLog(ns, 'web-2-deploy')).toContain('mid hook failed');
    const events = await dc.eventTexts('web');
    expect(events.some((e) => e.startsWith('Warning Failed: The mid-hook failed') && e.endsWith(`aborting rollout of ${ns}/web-2`))).toBe(true);
    // web-1 was scaled to 0 before the mid hook; the DC controller brings it back.
    await dc.waitForOnlyActive(1, 3);
    await dc.waitForConditions({ Progressing: { status: 'False', reason: 'ProgressDeadlineExceeded' }, Available: { status: 'True' } });
  });

  it('Retry: a hook that fails the first time is retried and the rollout completes', async () => {
    const { dc, ns } = env;
    const counter = path.join(scratchDir(), 'count');
    // Fails on the first run, succeeds on the second (the pod restarts with restartPolicy OnFailure).
    const script = 'n=$(cat "$COUNTER" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$COUNTER"; echo attempt $n; [ $n -ge 2 ]';
    await dc.create(dcManifest({ replicas: 2, strategy: recreate({ pre: shHook(script, 'Retry', [{ name: 'COUNTER', value: counter }]) }) }));
    await dc.waitForPhase('web-1', ['Complete', 'Failed'], 90_000);
    expect(phaseOf(await dc.rc('web-1'))).toBe('Complete');
    await dc.waitForOnlyActive(1, 2);
    expect(readLines(counter)).toEqual(['2']);
    const hook = (await dc.pods('openshift.io/deployer-pod.type=hook-pre'))[0];
    expect(hook?.spec?.restartPolicy).toBe('OnFailure');
    expect(hook?.status?.containerStatuses?.[0]?.restartCount).toBe(1);
    expect(podLog(ns, 'web-1-deploy')).toContain('pre: Retrying hook pod (retry #1)');
  });

  it('Ignore: a failing post hook does not stop the rollout', async () => {
    const { dc, ns } = env;
    await dc.create(dcManifest({ replicas: 2, strategy: recreate({ post: shHook('exit 7', 'Ignore') }) }));
    const rc = await dc.waitForPhase('web-1', ['Complete', 'Failed'], 90_000);
    expect(phaseOf(rc)).toBe('Complete');
    await dc.waitForOnlyActive(1, 2);
    const events = await dc.eventTexts('web');
    expect(events.some((e) => e.startsWith('Warning Failed: The post-hook failed') && e.endsWith(`(ignore), rollout of ${ns}/web-1 will continue`))).toBe(true);
    expect((await dc.pods('openshift.io/deployer-pod.type=hook-post'))[0]?.status?.phase).toBe('Failed');
  });

  it('another policy (`ignore`, which OpenShift stored and real templates use): a failing hook fails the rollout, without the Failed event', async () => {
    const { dc, ns } = env;
    await dc.create(dcManifest({ replicas: 2, strategy: recreate({ pre: shHook('echo failing pre; exit 5', 'ignore') }) }));
    const rc = await dc.waitForPhase('web-1', ['Complete', 'Failed'], 90_000);
    expect(phaseOf(rc)).toBe('Failed');
    expect((await dc.pods('openshift.io/deployer-pod.type=hook-pre'))[0]?.status?.phase).toBe('Failed');
    expect(podLog(ns, 'web-1-deploy')).toContain('failing pre');
    const events = await dc.eventTexts('web');
    expect(events.filter((e) => e.startsWith('Warning Failed:'))).toEqual([]);
    expect(rc?.spec?.replicas ?? 0).toBe(0);
  });

  it('fails when the new pods do not become available within timeoutSeconds and restores the previous RC', async () => {
    const { dc, ns } = env;
    const timeoutSeconds = 6;
    await dc.create(dcManifest({ replicas: 3, strategy: { type: 'Recreate', recreateParams: { timeoutSeconds } } }));
    await dc.waitForPhase('web-1', 'Complete');
    await dc.waitForOnlyActive(1, 3);
    // Required affinity to no node: the new pods stay Pending (the deployer pod does not copy affinity).
    dc.patch({ spec: { template: { spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchExpressions: [{ key: 'no-such-node', operator: 'Exists' }] }] } } } } } } });
    await dc.waitForPhase('web-2', 'Running', 30_000);
    const started = Date.now();
    const rc2 = await dc.waitForPhase('web-2', ['Failed', 'Complete'], 60_000);
    expect(phaseOf(rc2)).toBe('Failed');
    expect(Date.now() - started).toBeGreaterThanOrEqual((timeoutSeconds - 1) * 1000);
    expect(podLog(ns, 'web-2-deploy')).toContain(`pods for rc '${ns}/web-2' took longer than ${timeoutSeconds} seconds to become available`);
    await dc.waitForOnlyActive(1, 3);
  });
});

describe('Custom strategy type (e2e)', () => {
  it('runs the custom command as the deployer pod, which scales the RC itself', async () => {
    const { dc, ns } = env;
    const script = 'echo custom $OPENSHIFT_DEPLOYMENT_NAMESPACE/$OPENSHIFT_DEPLOYMENT_NAME'
      // A patch of the RC: system:deployer (as on OpenShift) allows get/update, not patch, of
      // replicationcontrollers/scale, which is what `kubectl scale` sends.
      + ' && kubectl patch rc "$OPENSHIFT_DEPLOYMENT_NAME" -n "$OPENSHIFT_DEPLOYMENT_NAMESPACE" -p \'{"spec":{"replicas":2}}\'';
    await dc.create(dcManifest({ replicas: 2, strategy: { type: 'Custom', customParams: { image: 'registry.local/my-deployer:1', command: ['/bin/sh', '-c', script] } } }));
    const rc = await dc.waitForPhase('web-1', ['Complete', 'Failed'], 60_000);
    expect(phaseOf(rc)).toBe('Complete');
    expect(podLog(ns, 'web-1-deploy')).toContain(`custom ${ns}/web-1`);
    expect(podLog(ns, 'web-1-deploy')).toContain('replicationcontroller/web-1 patched');
    await dc.waitForOnlyActive(1, 2);
  });

  it('the built-in deployer refuses the Custom type', async () => {
    const { dc, ns } = env;
    await dc.create(dcManifest({ replicas: 1, strategy: { type: 'Custom', customParams: { command: ['openshift-deploy'] } } }));
    const rc = await dc.waitForPhase('web-1', ['Complete', 'Failed'], 60_000);
    expect(phaseOf(rc)).toBe('Failed');
    expect(podLog(ns, 'web-1-deploy')).toContain('unsupported strategy type: Custom');
    await dc.waitForOnlyActive(1, 0);
  });
});
