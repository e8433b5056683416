import { describe, expect, it } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Labels } from '../../../src/apis/constants.js';
import { RetriableError } from '../../../src/controller/errors.js';
import { RcControllerRefManager } from '../../../src/deploymentconfig/claim.js';
import { applyDefaults } from '../../../src/apps/defaults.js';
import { newFakeCluster, serverError } from '../../support/fakes.js';
import { DC_UID, makeDc, NAME, NS, rcFor } from './fixtures.js';

const ownerRef = (uid: string, controller = true) => ({
  apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: NAME, uid, controller, blockOwnerDeletion: true,
});

function setup(rcMutate: (rc: V1ReplicationController) => void, dcMutate?: (dc: ReturnType<typeof makeDc>) => void) {
  const f = newFakeCluster();
  const dc = makeDc({ latestVersion: 1 });
  dcMutate?.(dc);
  f.dcs.put(dc);
  const rc = rcFor(dc, 1);
  rcMutate(rc);
  const stored = f.rcs.put(rc);
  const manager = new RcControllerRefManager(applyDefaults(f.dcs.get(NS, NAME)!), f.rcClient, f.dcClient);
  return { f, manager, rc: stored };
}

describe('RcControllerRefManager.claimOne', () => {
  it.each<[string, (rc: V1ReplicationController) => void, boolean, string[]]>([
    ['ours and matching → claimed, no writes', () => {}, true, []],
    ['controlled by another owner → ignored', (rc) => { rc.metadata!.ownerReferences = [ownerRef('other')]; }, false, []],
    ['non-controller owner ref only → orphan, adopted', (rc) => { rc.metadata!.ownerReferences = [{ ...ownerRef('other'), controller: false }]; }, true, ['get deploymentconfigs', 'patch replicationcontrollers']],
    ['orphan with matching label → adopted', (rc) => { rc.metadata!.ownerReferences = []; }, true, ['get deploymentconfigs', 'patch replicationcontrollers']],
    ['orphan without matching label → ignored', (rc) => { rc.metadata!.ownerReferences = []; rc.metadata!.labels = {}; }, false, []],
    ['orphan being deleted → ignored', (rc) => { rc.metadata!.ownerReferences = []; rc.metadata!.deletionTimestamp = new Date(); }, false, []],
    ['ours but label changed → released', (rc) => { rc.metadata!.labels = { [Labels.DeploymentConfig]: 'other' }; }, false, ['patch replicationcontrollers']],
  ])('%s', async (_l, mutate, expected, calls) => {
    const { f, manager } = setup(mutate);
    expect(await manager.claimOne(f.rcs.get(NS, 'app-1')!)).toBe(expected);
    expect(f.api.actions.map((a) => `${a.verb} ${a.resource}`)).toEqual(calls);
  });

  it('adopts with a strategic-merge patch carrying the controller ref and the RC uid precondition', async () => {
    const { f, manager, rc } = setup((r) => { r.metadata!.ownerReferences = []; });
    await manager.claimOne(rc);
    const patch = f.api.find({ verb: 'patch' })[0]!;
    expect(patch.patchType).toBe('strategic');
    expect(patch.body).toEqual({ metadata: { ownerReferences: [ownerRef(DC_UID)], uid: rc.metadata!.uid } });
    expect(f.rcs.get(NS, 'app-1')!.metadata!.ownerReferences).toEqual([ownerRef(DC_UID)]);
  });

  it('releases by deleting our owner ref entry', async () => {
    const { f, manager, rc } = setup((r) => { r.metadata!.labels = {}; });
    await manager.claimOne(rc);
    expect(f.api.find({ verb: 'patch' })[0]!.body).toEqual({ metadata: { ownerReferences: [{ $patch: 'delete', uid: DC_UID }], uid: rc.metadata!.uid } });
    expect(f.rcs.get(NS, 'app-1')!.metadata!.ownerReferences).toEqual([]);
  });

  it('does not release while the DC is being deleted, nor adopt', async () => {
    const { f, manager } = setup((r) => { r.metadata!.labels = {}; }, (dc) => { dc.metadata.deletionTimestamp = new Date(); });
    expect(await manager.claimOne(f.rcs.get(NS, 'app-1')!)).toBe(false);
    expect(f.api.writes()).toEqual([]);
  });

  it('refuses to adopt when the DC was re-created with another uid', async () => {
    const { f, manager, rc } = setup((r) => { r.metadata!.ownerReferences = []; });
    f.dcs.mutate(NS, NAME, (dc) => { dc.metadata.uid = 'new-uid'; });
    await expect(manager.claimOne(rc)).rejects.toThrow('original DeploymentConfig ns/app is gone: got uid new-uid, wanted dc-uid');
    expect(f.api.writes()).toEqual([]);
  });

  it('refuses to adopt when the DC is being deleted in the API', async () => {
    const { f, manager, rc } = setup((r) => { r.metadata!.ownerReferences = []; });
    f.dcs.mutate(NS, NAME, (dc) => { dc.metadata.deletionTimestamp = new Date('2024-01-01T00:00:00Z'); });
    await expect(manager.claimOne(rc)).rejects.toThrow(/has just been deleted/);
  });

  it('an adopt of an RC re-created under the same name fails on the uid precondition', async () => {
    const { f, manager, rc } = setup((r) => { r.metadata!.ownerReferences = []; });
    f.rcs.mutate(NS, 'app-1', (r) => { r.metadata!.uid = 'recreated'; });
    await expect(manager.claimOne(rc)).rejects.toMatchObject({ code: 409 });
  });

  it('an RC that vanished before adoption is simply not ours', async () => {
    const { f, manager, rc } = setup((r) => { r.metadata!.ownerReferences = []; });
    f.rcs.remove(NS, 'app-1');
    expect(await manager.claimOne(rc)).toBe(false);
  });
});

describe('RcControllerRefManager.claim', () => {
  it('GETs the DC at most once per sync and aggregates errors', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ latestVersion: 2 });
    f.dcs.put(dc);
    for (const v of [1, 2]) {
      const rc = rcFor(dc, v);
      rc.metadata!.ownerReferences = [];
      f.rcs.put(rc);
    }
    const manager = new RcControllerRefManager(applyDefaults(dc), f.rcClient, f.dcClient);
    expect((await manager.claim(f.rcLister.list(NS))).map((r) => r.metadata!.name)).toEqual(['app-1', 'app-2']);
    expect(f.api.find({ verb: 'get', resource: 'deploymentconfigs' })).toHaveLength(1);

    f.api.failOn({ verb: 'patch' }, serverError('boom'));
    f.rcs.mutate(NS, 'app-1', (r) => { r.metadata!.ownerReferences = []; });
    f.rcs.mutate(NS, 'app-2', (r) => { r.metadata!.ownerReferences = []; });
    const again = new RcControllerRefManager(applyDefaults(dc), f.rcClient, f.dcClient);
    const err = await again.claim(f.rcLister.list(NS)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriableError);
    expect((err as Error).message).toBe('error while deploymentConfigController claiming replication controllers: [boom, boom]');
  });
});
