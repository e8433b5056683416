/** cancelRunningRollouts, reconcileDeployments and cleanupOldDeployments: retries, events, ordering. */
import { describe, expect, it } from '@jest/globals';
import { RetriableError } from '../../../src/controller/errors.js';
import { cancelRunningRollouts } from '../../../src/deploymentconfig/cancel.js';
import { RcControllerRefManager } from '../../../src/deploymentconfig/claim.js';
import { cleanupOldDeployments, CleanupError } from '../../../src/deploymentconfig/cleanup.js';
import { applyDefaults } from '../../../src/apps/defaults.js';
import { reconcileDeployments } from '../../../src/deploymentconfig/reconcile.js';
import { conflict, newFakeCluster, notFound, serverError, type FakeCluster } from '../../support/fakes.js';
import { makeDc, NS, rcFor, storedDc, type DcOptions, type RcOptions } from './fixtures.js';

function setup(dcOpts: DcOptions, rcs: Array<RcOptions & { version: number }>) {
  const f = newFakeCluster();
  const dc = makeDc(dcOpts);
  f.dcs.put(dc);
  for (const rc of rcs) f.rcs.put(rcFor(dc, rc.version, rc));
  const defaulted = applyDefaults(f.dcs.get(NS, 'app')!);
  const deps = { ...f, claims: new RcControllerRefManager(defaulted, f.rcClient, f.dcClient) };
  return { f, dc: defaulted, deps, existing: () => f.rcLister.list(NS) };
}
const rcConflict = (f: FakeCluster, times: number) => f.api.failOn({ verb: 'update', resource: 'replicationcontrollers' }, conflict('replicationcontrollers', 'x'), times);

describe('cancelRunningRollouts', () => {
  it('skips terminal RCs, cancels running ones once, then requeues', async () => {
    const { f, dc, deps, existing } = setup({ latestVersion: 4 }, [
      { version: 1, phase: 'Complete' }, { version: 2, phase: 'Running' }, { version: 3, phase: 'New', cancelled: true },
    ]);
    const list = existing();
    const err = await cancelRunningRollouts(deps, dc, list).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriableError);
    expect(f.api.writeSummary()).toEqual(['update replicationcontrollers ns/app-2']);
    expect(list.find((r) => r.metadata?.name === 'app-2')?.metadata?.annotations?.['openshift.io/deployment.cancelled']).toBe('true');
    expect(f.recorder.reasons()).toEqual(['DeploymentCancelled', 'DeploymentAwaitingCancellation']);
  });

  it('retries a conflict and succeeds', async () => {
    const { f, dc, deps, existing } = setup({ latestVersion: 2 }, [{ version: 1, phase: 'Running' }]);
    rcConflict(f, 2);
    await expect(cancelRunningRollouts(deps, dc, existing())).rejects.toThrow('found previous inflight deployment');
    expect(f.api.find({ verb: 'update' })).toHaveLength(3);
  });

  it('gives up after 4 conflicts with DeploymentCancellationFailed and the error', async () => {
    const { f, dc, deps, existing } = setup({ latestVersion: 2 }, [{ version: 1, phase: 'Running' }]);
    rcConflict(f, 10);
    const err = await cancelRunningRollouts(deps, dc, existing()).catch((e: unknown) => e);
    expect((err as { code: number }).code).toBe(409);
    expect(f.api.find({ verb: 'update' })).toHaveLength(4);
    expect(f.recorder.summary()).toEqual([
      'Warning DeploymentCancellationFailed: Failed to cancel deployment "app-1" superceded by version 2: Operation cannot be fulfilled on replicationcontrollers "x": the object has been modified; please apply your changes to the latest version and try again',
    ]);
  });

  it('nothing running → resolves without events', async () => {
    const { f, dc, deps, existing } = setup({ latestVersion: 2 }, [{ version: 1, phase: 'Failed' }]);
    await cancelRunningRollouts(deps, dc, existing());
    expect(f.recorder.events).toEqual([]);
  });
});

describe('reconcileDeployments', () => {
  it('a scale failure emits the (sic) "controler" event and stops the pass', async () => {
    const { f, dc, deps, existing } = setup({ latestVersion: 2, replicas: 3 }, [{ version: 1, replicas: 2 }, { version: 2, replicas: 1 }]);
    f.api.failOn({ verb: 'update', resource: 'replicationcontrollers', name: 'app-1' }, serverError('nope'));
    await expect(reconcileDeployments(deps, dc, existing())).rejects.toThrow('nope');
    expect(f.recorder.summary()).toEqual(['Warning ReplicationControllerScaleFailed: Failed to scale replication controler "app-1" from 2 to 0: nope']);
    expect(f.rcs.get(NS, 'app-2')!.spec!.replicas).toBe(1);
    expect(f.api.find({ verb: 'update', subresource: 'status' })).toEqual([]);
  });

  it('retries conflicts re-reading from the cache', async () => {
    const { f, dc, deps, existing } = setup({ latestVersion: 1, replicas: 3 }, [{ version: 1, replicas: 1 }]);
    rcConflict(f, 1);
    await reconcileDeployments(deps, dc, existing());
    expect(f.rcs.get(NS, 'app-1')!.spec!.replicas).toBe(3);
    expect(f.recorder.summary()).toEqual(['Normal ReplicationControllerScaled: Scaled replication controller "app-1" from 1 to 3']);
  });

  it('refuses to scale an RC that is no longer ours', async () => {
    const { f, dc, deps, existing } = setup({ latestVersion: 1, replicas: 3 }, [{ version: 1, replicas: 1 }]);
    const list = existing();
    f.rcs.mutate(NS, 'app-1', (rc) => { rc.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'other', controller: true }]; });
    await expect(reconcileDeployments(deps, dc, list)).rejects.toThrow('deployment config ns/app (dc-uid) no longer owns replication controller ns/app-1');
  });

  it('cleanup failure after scaling is reported as ReplicationControllerCleanupFailed and the status is still written', async () => {
    const { f, dc, deps, existing } = setup({ latestVersion: 3, revisionHistoryLimit: 0 }, [{ version: 1 }, { version: 2 }, { version: 3, replicas: 1 }]);
    f.api.failOn({ verb: 'delete' }, serverError('denied'));
    await reconcileDeployments(deps, dc, existing());
    expect(f.recorder.summary()).toEqual(["Warning ReplicationControllerCleanupFailed: Couldn't clean up replication controllers: [denied, denied]"]);
    expect(storedDc(f).status?.observedGeneration).toBe(1);
  });
});

describe('cleanupOldDeployments', () => {
  it.each<[string, number | undefined, Array<RcOptions & { version: number }>, string[]]>([
    ['no limit → nothing', undefined, [{ version: 1 }, { version: 2 }, { version: 3, replicas: 1 }], []],
    ['within limit → nothing', 2, [{ version: 1 }, { version: 2 }, { version: 3, replicas: 1 }], []],
    ['oldest surplus first', 1, [{ version: 3 }, { version: 1 }, { version: 2 }, { version: 4, replicas: 1 }], ['app-1', 'app-2']],
    ['non-zero replicas skipped but counted', 1, [{ version: 1, replicas: 1 }, { version: 2 }, { version: 3 }, { version: 4, replicas: 1 }], ['app-2']],
    ['newer than active never deleted', 0, [{ version: 1 }, { version: 2, replicas: 1 }, { version: 3, phase: 'Failed' }], ['app-1']],
    ['no active: all but latest', 0, [{ version: 1, phase: 'Failed' }, { version: 2, phase: 'Failed' }, { version: 3, phase: 'Failed' }], ['app-1', 'app-2']],
  ])('%s', async (_l, limit, rcs, deleted) => {
    const latestVersion = Math.max(...rcs.map((r) => r.version));
    const { f, dc, existing } = setup({ latestVersion, ...(limit === undefined ? {} : { revisionHistoryLimit: limit }) }, rcs);
    await cleanupOldDeployments(f, dc, existing());
    expect(f.api.find({ verb: 'delete' }).map((a) => a.name)).toEqual(deleted);
  });

  it('ignores NotFound and aggregates other errors after trying every candidate', async () => {
    const { f, dc, existing } = setup({ latestVersion: 4, revisionHistoryLimit: 0 }, [{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4, replicas: 1 }]);
    f.api.failOn({ verb: 'delete', name: 'app-1' }, notFound('replicationcontrollers', 'app-1'));
    f.api.failOn({ verb: 'delete', name: 'app-2' }, serverError('e2'));
    const err = await cleanupOldDeployments(f, dc, existing()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CleanupError);
    expect((err as Error).message).toBe('e2');
    expect(f.api.find({ verb: 'delete' }).map((a) => a.name)).toEqual(['app-1', 'app-2', 'app-3']);
  });
});
