/**
 * The DC controller's DC event wiring: the watch event of the status a sync wrote as its last act
 * does not re-sync the DC (it brings back what that sync computed), every other update does.
 */
import { describe, expect, it } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import type { EventSource } from '../../../src/controller/ports.js';
import { WorkQueue } from '../../../src/controller/workqueue.js';
import { SettledStatusWrites, wireDeploymentConfigController } from '../../../src/deploymentconfig/controller.js';
import { syncDeploymentConfig } from '../../../src/deploymentconfig/sync.js';
import { newFakeCluster, drainQueue } from '../../support/fakes.js';
import { FakeTimers } from '../../support/timers.js';
import { makeDc, rcFor } from './fixtures.js';

type Handler = (...args: DeploymentConfig[]) => void;

/** An EventSource whose events the test fires by hand. */
function manualSource(): EventSource<DeploymentConfig> & { fire(event: 'add' | 'update' | 'delete', ...objs: DeploymentConfig[]): void } {
  const handlers: Record<string, Handler[]> = { add: [], update: [], delete: [] };
  return {
    on(event: string, handler: Handler) { handlers[event]!.push(handler); },
    fire(event, ...objs) { for (const h of handlers[event]!) h(...objs); },
  } as EventSource<DeploymentConfig> & { fire(event: 'add' | 'update' | 'delete', ...objs: DeploymentConfig[]): void };
}

const dcAt = (rv: string, mutate?: (dc: DeploymentConfig) => void): DeploymentConfig => {
  const dc = makeDc();
  dc.metadata.resourceVersion = rv;
  mutate?.(dc);
  return dc;
};


describe('wireDeploymentConfigController: DC updates', () => {
  it('skips only the event of a settled status write; intermediate writes, spec changes and resyncs re-sync', async () => {
    const dcs = manualSource();
    const queue = new WorkQueue({ name: 't' });
    const settled = new SettledStatusWrites();
    const noRcs = { on() {} } as unknown as EventSource<V1ReplicationController>;
    wireDeploymentConfigController({ dcs, rcs: noRcs, dcLister: { get: () => undefined, list: () => [] }, queue, settled });

    const status = (rv: string, latestVersion: number) => dcAt(rv, (dc) => { dc.status = { latestVersion }; });
    settled.record(status('12', 1));
    // The bump the same sync wrote before (an older version) is re-synced, and the record stays.
    dcs.fire('update', status('10', 0), status('11', 1));
    expect(await drainQueue(queue)).toEqual(['ns/app']);
    dcs.fire('update', status('11', 1), status('12', 1));
    expect(await drainQueue(queue)).toEqual([]);
    expect(settled.size()).toBe(0);

    // Not recorded: someone else's status write.
    dcs.fire('update', status('12', 1), status('13', 2));
    expect(await drainQueue(queue)).toEqual(['ns/app']);
    // A recorded version whose spec changed too (generation) is not status only.
    settled.record(dcAt('15', (dc) => { dc.metadata.generation = 2; }));
    dcs.fire('update', dcAt('14'), dcAt('15', (dc) => { dc.metadata.generation = 2; }));
    expect(await drainQueue(queue)).toEqual(['ns/app']);
    // The periodic resync (the same object) always reconciles.
    settled.record(dcAt('16'));
    dcs.fire('update', dcAt('16'), dcAt('16'));
    expect(await drainQueue(queue)).toEqual(['ns/app']);
    queue.shutDown();
  });
});

describe('wireDeploymentConfigController: RC updates during a rollout', () => {
  /**
   * A DC at latestVersion 2 whose RC app-2 is in `phase`, wired with a batch period of 500 ms.
   * `cachedLatestVersion`: what the cached DC says instead (1: the sync's bump to 2 not seen yet).
   */
  function wired(phase: string, cachedLatestVersion = 2) {
    const dc = makeDc();
    dc.metadata.resourceVersion = '5';
    dc.status = { ...(dc.status ?? {}), latestVersion: cachedLatestVersion };
    const latest = rcFor(dc, 2, { phase, replicas: 1, resourceVersion: '7' });
    const previous = rcFor(dc, 1, { replicas: 3, resourceVersion: '6' });
    const rcsByName = new Map([[latest.metadata!.name!, latest], [previous.metadata!.name!, previous]]);
    const handlers: Array<(old: V1ReplicationController, rc: V1ReplicationController) => void> = [];
    const rcs = { on(event: string, h: never) { if (event === 'update') handlers.push(h); } } as unknown as EventSource<V1ReplicationController>;
    const timers = new FakeTimers();
    const queue = new WorkQueue({ name: 't', timers });
    wireDeploymentConfigController({
      dcs: manualSource(), rcs, queue, statusBatchMs: 500,
      dcLister: { get: (ns, name) => (ns === 'ns' && name === 'app' ? dc : undefined), list: () => [dc] },
      rcLister: { get: (ns, name) => (ns === 'ns' ? rcsByName.get(name) : undefined), list: () => [...rcsByName.values()] },
    });
    const fire = (rc: V1ReplicationController, mutate: (next: V1ReplicationController) => void) => {
      const next = structuredClone(rc);
      next.metadata!.resourceVersion = String(Number(rc.metadata!.resourceVersion) + 10);
      mutate(next);
      for (const h of handlers) h(rc, next);
    };
    return { queue, timers, latest, previous, fire };
  }

  it('folds the replica counts of a rollout in progress into one sync per batch period', async () => {
    const { queue, timers, latest, previous, fire } = wired('Running');
    fire(latest, (rc) => { rc.spec!.replicas = 2; });
    fire(latest, (rc) => { rc.status!.replicas = 2; });
    fire(previous, (rc) => { rc.spec!.replicas = 2; });
    expect(await drainQueue(queue)).toEqual([]);
    timers.advance(499);
    fire(latest, (rc) => { rc.status!.availableReplicas = 2; });
    expect(await drainQueue(queue)).toEqual([]);
    timers.advance(1);
    expect(await drainQueue(queue)).toEqual(['ns/app']);
    expect(timers.pending()).toBe(0);
    queue.shutDown();
  });

  it('folds the rollout moving on from New to Pending to Running with its counts; any other phase change syncs at once', async () => {
    for (const [from, to] of [['New', 'Pending'], ['New', 'Running'], ['Pending', 'Running']]) {
      const { queue, timers, latest, fire } = wired(from!);
      fire(latest, (rc) => {
        rc.metadata!.annotations![Annotations.Phase] = to!;
        rc.spec!.replicas = 2;
      });
      expect(await drainQueue(queue)).toEqual([]);
      timers.advance(500);
      expect(await drainQueue(queue)).toEqual(['ns/app']);
      queue.shutDown();
    }
    // Backwards, or into or out of a phase that is none of the five (someone else's write): at once.
    for (const [from, to] of [['Running', 'Pending'], ['Running', 'New'], ['New', 'Bogus'], ['Bogus', 'Running']]) {
      const { queue, latest, fire } = wired(from!);
      fire(latest, (rc) => { rc.metadata!.annotations![Annotations.Phase] = to!; });
      expect(await drainQueue(queue)).toEqual(['ns/app']);
      queue.shutDown();
    }
  });

  it('folds the first steps of a new RC whose version the cached DC does not show yet', async () => {
    // The sync that bumped latestVersion to 2 and created app-2 has written the DC, but the
    // informer has not delivered that write when app-2's first scale (and phase) comes in: the
    // cache still names the Complete app-1 as the latest RC. That first step used to cost a DC
    // status write of its own, a few ms after the one the sync had just made.
    const { queue, timers, latest, fire } = wired('New', 1);
    fire(latest, (rc) => {
      rc.metadata!.annotations![Annotations.Phase] = 'Running';
      rc.spec!.replicas = 1;
    });
    expect(await drainQueue(queue)).toEqual([]);
    timers.advance(500);
    expect(await drainQueue(queue)).toEqual(['ns/app']);
    queue.shutDown();

    // An RC that only claims a newer version (its annotation, written by anyone who may patch
    // RCs, disagrees with its name) is not believed: its change syncs at once.
    const forged = wired('New', 1);
    const claimed = structuredClone(forged.previous);
    claimed.metadata!.annotations![Annotations.Phase] = 'Running';
    claimed.metadata!.annotations![Annotations.LatestVersion] = '7';
    forged.fire(claimed, (rc) => { rc.spec!.replicas = 2; });
    expect(await drainQueue(forged.queue)).toEqual(['ns/app']);
    forged.queue.shutDown();
  });

  it('syncs at once for a phase change, a cancellation, or counts once the rollout has ended', async () => {
    const running = wired('Running');
    running.fire(running.latest, (rc) => { rc.status!.replicas = 2; });
    running.fire(running.latest, (rc) => { rc.metadata!.annotations![Annotations.Phase] = 'Complete'; });
    // The phase change hands the key out now; the sync reads the counts the batch waited for.
    expect(await drainQueue(running.queue)).toEqual(['ns/app']);
    running.timers.advance(500);
    expect(await drainQueue(running.queue)).toEqual([]);
    running.fire(running.latest, (rc) => { rc.metadata!.annotations![Annotations.Cancelled] = 'true'; });
    expect(await drainQueue(running.queue)).toEqual(['ns/app']);
    running.queue.shutDown();

    for (const phase of ['Complete', 'Failed']) {
      const ended = wired(phase);
      // The previous RC draining after the rollout: what `oc rollout status` and the DC's
      // replica counts wait for, not delayed.
      ended.fire(ended.previous, (rc) => { rc.status!.replicas = 0; });
      expect(await drainQueue(ended.queue)).toEqual(['ns/app']);
      ended.queue.shutDown();
    }
  });
});

describe('syncDeploymentConfig reports settling status writes', () => {
  it('reports the final status write of a sync, not the latestVersion bump before it', async () => {
    const f = newFakeCluster();
    // An instantiate request stores its bump (with the acknowledgement) before the RC exists.
    const dc = makeDc({ triggers: [] });
    dc.metadata.annotations = { ...(dc.metadata.annotations ?? {}), [Annotations.InstantiateRequest]: '{"id":"r1","force":true}' };
    f.dcs.put(dc);
    const reported: string[] = [];
    await syncDeploymentConfig({
      dcLister: f.dcLister, rcLister: f.rcLister, dcClient: f.dcClient, rcClient: f.rcClient, recorder: f.recorder, clock: f.clock,
      onStatusWritten: (dc) => reported.push(`${dc.metadata.resourceVersion} latestVersion=${dc.status?.latestVersion}`),
    }, 'ns/app');
    const writes = f.api.writes({ resource: 'deploymentconfigs' });
    // The bump, then the status after the RC was created: only the last one settles the sync.
    expect(writes.length).toBe(2);
    const stored = f.dcs.get('ns', 'app')!;
    expect(reported).toEqual([`${stored.metadata.resourceVersion} latestVersion=1`]);
  });
});
