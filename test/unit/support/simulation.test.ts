/** The simulated RC manager and kubelet (test/support/simulation.ts) that the deployer tests rely on. */
import { describe, expect, it } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { newSimulatedCluster, workloadWrites } from '../../support/simulation.js';

const rc = (name: string, replicas: number, minReadySeconds?: number): V1ReplicationController => ({
  metadata: { name, namespace: 'ns' },
  spec: { replicas, minReadySeconds, selector: { rc: name }, template: { metadata: { labels: { rc: name } } } },
});

const podNames = (f: ReturnType<typeof newSimulatedCluster>): string[] => f.pods.list('ns').map((p) => p.metadata!.name!);

describe('simulated RC manager', () => {
  it('seeds an RC with its replicas running, ready and counted', () => {
    const f = newSimulatedCluster();
    const stored = f.sim.addRc(rc('web-1', 2));
    expect(stored.status).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 2 });
    expect(podNames(f)).toHaveLength(2);
  });

  it('one tick after a scale, pods and status follow spec.replicas (sticky pods stay)', async () => {
    const f = newSimulatedCluster();
    f.sim.addRc(rc('web-1', 3));
    const sticky = podNames(f)[2]!;
    f.sim.sticky.add(sticky);
    const start = f.clock.now().getTime();
    const scale = await f.rcClient.getScale('ns', 'web-1');
    await f.rcClient.updateScale('ns', 'web-1', { ...scale, spec: { replicas: 0 } });
    expect(f.rcs.get('ns', 'web-1')?.status?.replicas).toBe(3);
    const synced = await f.rcWatcher.waitFor('ns', 'web-1', (r) => r.status?.replicas === 1, 10_000);
    expect(f.clock.elapsedSince(start)).toBe(f.sim.tickMs);
    expect(synced.status?.readyReplicas).toBe(1);
    expect(podNames(f)).toEqual([sticky]);
  });

  it('pods of a neverReady RC are not ready; minReadySeconds delays availability', async () => {
    const f = newSimulatedCluster();
    f.sim.neverReady.add('web-1');
    f.sim.addRc(rc('web-1', 0));
    f.sim.addRc(rc('web-2', 0, 10));
    await f.rcClient.updateScale('ns', 'web-1', { spec: { replicas: 1 } });
    await f.rcClient.updateScale('ns', 'web-2', { spec: { replicas: 1 } });
    const one = await f.rcWatcher.waitFor('ns', 'web-1', (r) => r.status?.replicas === 1, 10_000);
    expect(one.status).toMatchObject({ readyReplicas: 0, availableReplicas: 0 });
    const start = f.clock.now().getTime();
    const two = await f.rcWatcher.waitFor('ns', 'web-2', (r) => r.status?.availableReplicas === 1, 60_000);
    expect(two.status?.readyReplicas).toBe(1);
    expect(f.clock.elapsedSince(start)).toBeGreaterThanOrEqual(10_000);
  });
});

describe('simulated kubelet', () => {
  it('runs a created pod to its configured outcome and serves its log', async () => {
    const f = newSimulatedCluster();
    f.sim.hookOutcomes.set('hook', { phase: 'Failed', message: 'exit 1', logs: 'boom\n' });
    await f.podClient.create('ns', { metadata: { name: 'hook' } });
    await f.podClient.create('ns', { metadata: { name: 'other' } });
    const failed = await f.podWatcher.waitForPod('ns', 'hook', (p) => p.status?.phase === 'Failed', 10_000);
    expect(failed.status?.message).toBe('exit 1');
    expect((await f.podWatcher.waitForPod('ns', 'other', (p) => p.status?.phase === 'Succeeded', 10_000)).status?.phase).toBe('Succeeded');
    expect(f.logs.texts.get('ns/hook')).toBe('boom\n');
    expect(f.logs.texts.get('ns/other')).toBe('other ran\n');
  });
});

describe('workloadWrites', () => {
  it('lists scales that changed spec.replicas, pod creates/deletes, RC updates and other patches, in order', async () => {
    const f = newSimulatedCluster();
    f.sim.addRc(rc('web-1', 1));
    await f.rcClient.updateScale('ns', 'web-1', { spec: { replicas: 1 } });
    await f.rcClient.updateScale('ns', 'web-1', { spec: { replicas: 2 } });
    await f.rcClient.patch('ns', 'web-1', { metadata: { annotations: { a: 'b' } } }, 'merge');
    await f.rcClient.update(f.rcs.get('ns', 'web-1')!);
    await f.podClient.create('ns', { metadata: { name: 'p' } });
    await f.podClient.delete('ns', 'p');
    expect(workloadWrites(f)).toEqual(['scale web-1 2', 'patch web-1', 'update web-1', 'create pod p', 'delete pod p']);
  });
});
