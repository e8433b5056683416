/**
 * Multi-sync flows derived from OpenShift's extended deployment tests (OpenShift test/extended/deployments), limited to
 * what the DC controller decides; deployer behaviour is simulated with `deployerSets`.
 */
import { describe, expect, it } from '@jest/globals';
import { Annotations, Labels } from '../../../src/apis/constants.js';
import { FatalError, RetriableError } from '../../../src/controller/errors.js';
import { newFakeCluster, type FakeCluster } from '../../support/fakes.js';
import {
  deployerSets, imageTrigger, makeDc, NAME, NS, progressing, rcFor, setImage, settle, storedDc, sync, syncCatch, userEdits,
} from './fixtures.js';

const rcNames = (f: FakeCluster): string[] => f.rcs.list(NS).map((rc) => rc.metadata!.name!).sort();

/** Rolls out the current latestVersion to Complete with `replicas`. */
async function rollOut(f: FakeCluster, replicas = 1): Promise<void> {
  await settle(f);
  const v = storedDc(f).status!.latestVersion!;
  deployerSets(f, `${NAME}-${v}`, 'Complete', replicas);
  await settle(f);
}

describe('extended-test flows', () => {
  it('#1/#2 config changes while a rollout runs: cancel, wait, then only the newest template is deployed', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc());
    await settle(f);
    expect(rcNames(f)).toEqual(['app-1']);
    deployerSets(f, 'app-1', 'Running');

    userEdits(f, setImage('nginx:2'));
    // The trigger's sync stores the bump, then (as its continuation, §4.2 step 9) finds v1 in flight.
    await expect(sync(f)).rejects.toThrow('found previous inflight deployment for ns/app - requeuing');
    expect(storedDc(f).status?.latestVersion).toBe(2);
    expect(storedDc(f).status?.details).toEqual({ message: 'config change', causes: [{ type: 'ConfigChange' }] });
    await expect(sync(f)).rejects.toThrow('found previous inflight deployment for ns/app - requeuing');
    userEdits(f, setImage('nginx:3'));
    await expect(sync(f)).rejects.toThrow(RetriableError);
    expect(storedDc(f).status?.latestVersion).toBe(2); // no bump while the RC for v2 is missing
    expect(rcNames(f)).toEqual(['app-1']);

    deployerSets(f, 'app-1', 'Failed');
    await settle(f);
    expect(rcNames(f)).toEqual(['app-1', 'app-2']);
    expect(f.rcs.get(NS, 'app-2')!.spec!.template!.spec!.containers[0]!.image).toBe('nginx:3');
  });

  it('#4 test deployments: scaled to 0 after completion; scaling the DC does not create replicas', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ test: true, replicas: 2 }));
    await rollOut(f, 2);
    expect(f.rcs.get(NS, 'app-1')!.spec!.replicas).toBe(0);
    userEdits(f, (dc) => { dc.spec.replicas = 5; });
    await settle(f);
    expect(f.rcs.get(NS, 'app-1')!.spec!.replicas).toBe(0);
    expect(f.api.find({ verb: 'create', resource: 'replicationcontrollers' })).toHaveLength(1);
  });

  it('#5/#8 image changes on the latest RC trigger an ImageChange rollout, one cause per new image', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ triggers: [imageTrigger('web:latest', ['web'], 'nginx:1'), imageTrigger('side:latest', ['side'], 'busybox:1')] });
    dc.spec.template!.spec!.containers.push({ name: 'side', image: 'busybox:1' });
    f.dcs.put(dc);
    await rollOut(f);
    expect(storedDc(f).status?.details?.causes).toEqual([{ type: 'ConfigChange' }]); // initial: ConfigChange cause
    userEdits(f, (d) => {
      d.spec.template!.spec!.containers[0]!.image = 'nginx@sha256:2';
      d.spec.template!.spec!.containers[1]!.image = 'busybox@sha256:2';
    });
    await sync(f);
    expect(storedDc(f).status?.latestVersion).toBe(2);
    expect(storedDc(f).status?.details).toEqual({
      message: 'image change',
      causes: [
        { type: 'ImageChange', imageTrigger: { from: { kind: 'DockerImage', name: 'nginx@sha256:2' } } },
        { type: 'ImageChange', imageTrigger: { from: { kind: 'DockerImage', name: 'busybox@sha256:2' } } },
      ],
    });
  });

  it('#7/#17 a failed rollout reports "has failed progressing" and falls back to the last complete RC', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ replicas: 2 }));
    await rollOut(f, 2);
    userEdits(f, setImage('nginx:broken'));
    await settle(f);
    deployerSets(f, 'app-2', 'Failed', 1);
    f.rcs.mutate(NS, 'app-1', (rc) => { rc.spec!.replicas = 1; });
    await settle(f);
    expect(progressing(f)).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded', message: 'replication controller "app-2" has failed progressing' });
    expect([f.rcs.get(NS, 'app-1')!.spec!.replicas, f.rcs.get(NS, 'app-2')!.spec!.replicas]).toEqual([2, 0]);
  });

  it('#9 enhanced status: replicas, updated, available, unavailable, ready', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ latestVersion: 2, replicas: 3 });
    f.dcs.put(dc);
    f.rcs.put(rcFor(dc, 1, { replicas: 2, statusReplicas: 2, available: 2, ready: 2 }));
    f.rcs.put(rcFor(dc, 2, { phase: 'Running', replicas: 2, statusReplicas: 2, available: 1, ready: 1 }));
    await sync(f);
    expect(storedDc(f).status).toMatchObject({
      replicas: 4, updatedReplicas: 2, availableReplicas: 3, unavailableReplicas: 1, readyReplicas: 3, selector: 'app=app,deploymentconfig=app',
    });
  });

  it('#11 the cause lands in the RC status-reason annotation (rollout history CAUSE)', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc());
    await settle(f);
    expect(f.rcs.get(NS, 'app-1')!.metadata!.annotations![Annotations.StatusReason]).toBe('config change');
  });

  it('#12 observedGeneration catches up, but not while a rollout runs', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc());
    await settle(f);
    deployerSets(f, 'app-1', 'Running');
    userEdits(f, (dc) => { dc.spec.replicas = 4; });
    await settle(f);
    expect(storedDc(f).status?.observedGeneration).toBe(1);
    deployerSets(f, 'app-1', 'Complete', 1);
    await settle(f);
    expect(storedDc(f).status?.observedGeneration).toBe(2);
    expect(f.rcs.get(NS, 'app-1')!.spec!.replicas).toBe(4);
  });

  it('#13 paused: no rollout, no scaling, observedGeneration still updates; resuming deploys', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ paused: true }));
    await settle(f);
    expect(rcNames(f)).toEqual([]);
    expect(storedDc(f).status?.observedGeneration).toBe(1);
    userEdits(f, (dc) => { dc.spec.paused = false; });
    await settle(f);
    expect(rcNames(f)).toEqual(['app-1']);
    deployerSets(f, 'app-1', 'Complete', 1);
    userEdits(f, (dc) => { dc.spec.paused = true; dc.spec.replicas = 3; });
    await settle(f);
    expect(f.rcs.get(NS, 'app-1')!.spec!.replicas).toBe(1);
    expect(storedDc(f).status?.observedGeneration).toBe(3);
  });

  it('#15 a rollback (template of v1 written back) becomes version 3', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc());
    await rollOut(f);
    userEdits(f, setImage('nginx:2'));
    await rollOut(f);
    userEdits(f, setImage('nginx:1'));
    await rollOut(f);
    expect(storedDc(f).status?.latestVersion).toBe(3);
    expect(f.rcs.get(NS, 'app-3')!.spec!.template!.spec!.containers[0]!.image).toBe('nginx:1');
  });

  it('#16 a DC being deleted only gets its status updated', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ latestVersion: 2 });
    dc.metadata.deletionTimestamp = new Date();
    f.dcs.put(dc);
    f.rcs.put(rcFor(dc, 1, { replicas: 1 }));
    await sync(f);
    expect(f.api.writeSummary()).toEqual(['update deploymentconfigs/status ns/app']);
  });

  it('#18 revision history limit: after 10 rollouts exactly 3 old RCs remain, the newest ones', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ revisionHistoryLimit: 3 }));
    for (let i = 1; i <= 10; i++) {
      if (i > 1) userEdits(f, setImage(`nginx:${i}`));
      await rollOut(f);
    }
    expect(rcNames(f)).toEqual(['app-10', 'app-7', 'app-8', 'app-9']);
    expect(f.api.find({ verb: 'delete' }).every((a) => (a.body as { propagationPolicy: string }).propagationPolicy === 'Background')).toBe(true);
  });

  it('#19/#20 minReadySeconds is copied; the deployer-ignore annotation is copied and the DC shows NewReplicationControllerCreated', async () => {
    const f = newFakeCluster();
    const dc = makeDc();
    dc.spec.minReadySeconds = 7;
    dc.metadata.annotations = { [Annotations.DeployerPodIgnore]: 'true' };
    f.dcs.put(dc);
    await settle(f);
    const rc = f.rcs.get(NS, 'app-1')!;
    expect(rc.spec?.minReadySeconds).toBe(7);
    expect(rc.metadata?.annotations?.[Annotations.DeployerPodIgnore]).toBe('true');
    expect(progressing(f)).toMatchObject({ status: 'True', reason: 'NewReplicationControllerCreated', message: 'Created new replication controller "app-1" for version 1' });
  });

  it('#21 three laws: controller ref on created RCs, release on label change, orphan re-adoption', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc());
    await rollOut(f);
    expect(f.rcs.get(NS, 'app-1')!.metadata!.ownerReferences).toEqual([expect.objectContaining({ uid: 'dc-uid', controller: true })]);

    f.rcs.mutate(NS, 'app-1', (rc) => { rc.metadata!.labels = { [Labels.DeploymentConfig]: 'elsewhere' }; });
    await syncCatch(f);
    expect(f.rcs.get(NS, 'app-1')!.metadata!.ownerReferences).toEqual([]);

    f.rcs.mutate(NS, 'app-1', (rc) => { rc.metadata!.labels = { [Labels.DeploymentConfig]: NAME }; });
    await syncCatch(f);
    expect(f.rcs.get(NS, 'app-1')!.metadata!.ownerReferences).toEqual([expect.objectContaining({ uid: 'dc-uid', controller: true })]);
  });

  it('#22 never more than one non-terminal RC, even when cancelling after the deployer succeeded', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc());
    await settle(f);
    deployerSets(f, 'app-1', 'Running');
    userEdits(f, setImage('nginx:2'));
    await settle(f);
    deployerSets(f, 'app-1', 'Complete', 1); // succeeded despite the cancel request
    await settle(f);
    const active = f.rcs.list(NS).filter((rc) => !['Complete', 'Failed'].includes(rc.metadata!.annotations![Annotations.Phase]!));
    expect(active.map((rc) => rc.metadata!.name)).toEqual(['app-2']);
    deployerSets(f, 'app-2', 'Complete', 1);
    await settle(f);
    expect(progressing(f)).toMatchObject({ reason: 'NewReplicationControllerAvailable' });
  });

  it('#23 an empty image never produces an RC, however often it flips', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ image: '' }));
    for (let i = 0; i < 10; i++) {
      userEdits(f, setImage(i % 2 ? ' ' : ''));
      await settle(f);
    }
    expect(rcNames(f)).toEqual([]);
    userEdits(f, setImage('nginx:1'));
    await settle(f);
    expect(rcNames(f)).toEqual(['app-1']);
  });

  it('#24 adoption: a DC re-created over orphaned RCs resumes latestVersion at the newest adopted RC', async () => {
    const f = newFakeCluster();
    const old = makeDc({ latestVersion: 2 });
    f.rcs.put({ ...rcFor(old, 1, { replicas: 0 }) });
    f.rcs.put(rcFor(old, 2, { replicas: 1 }));
    for (const name of ['app-1', 'app-2']) f.rcs.mutate(NS, name, (rc) => { rc.metadata!.ownerReferences = []; });
    f.dcs.put(makeDc({ replicas: 2 }));

    // The ConfigChange trigger's bump to 1 is followed in the same sync (§4.2 step 9) by the
    // catch-up to the newest adopted RC.
    await sync(f);
    expect(f.api.find({ verb: 'patch' })).toHaveLength(2);
    expect(storedDc(f).status?.latestVersion).toBe(2);
    await sync(f);
    expect(storedDc(f).status?.latestVersion).toBe(2);
    await settle(f);
    expect(rcNames(f)).toEqual(['app-1', 'app-2']);
    expect(f.rcs.get(NS, 'app-2')!.spec!.replicas).toBe(2);
    userEdits(f, setImage('nginx:2'));
    await settle(f);
    expect(rcNames(f)).toEqual(['app-1', 'app-2', 'app-3']);
  });
});

describe('RC creation failures (§4.6)', () => {
  it('AlreadyExists with a stale cache: our RC is claimed and the sync waits for the cache', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ latestVersion: 1 });
    f.dcs.put(dc);
    f.rcLister.pause();
    f.rcs.put(rcFor(dc, 1, { phase: 'New' }));
    const err = await syncCatch(f);
    expect(err).toBeInstanceOf(RetriableError);
    expect((err as Error).message).toBe('caches for RC ns/app-1 are stale, waiting to catch up');
    expect(f.recorder.reasons()).toEqual([]);
    expect(f.api.writeSummary()).toEqual(['create replicationcontrollers ns/app-1']);
  });

  it('AlreadyExists for an RC owned by someone else: creation failure reported on the DC', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ latestVersion: 1 });
    f.dcs.put(dc);
    f.rcLister.pause();
    const foreign = rcFor(dc, 1);
    foreign.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'Other', name: 'x', uid: 'other', controller: true }];
    f.rcs.put(foreign);
    const err = await syncCatch(f);
    expect((err as Error).message).toBe("couldn't create deployment for deployment config ns/app: deployment ns/app-1 already exists and it couldn't be adopted");
    expect(f.recorder.summary()).toEqual(["Warning DeploymentCreationFailed: Couldn't deploy version 1: deployment ns/app-1 already exists and it couldn't be adopted"]);
    expect(progressing(f)).toMatchObject({ status: 'False', reason: 'ReplicationControllerCreateError' });
  });

  it('other create errors: event, Progressing=False, retriable error', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ latestVersion: 1 }));
    f.api.failOn({ verb: 'create' }, new Error('quota exceeded'));
    const err = await syncCatch(f);
    expect(err).toBeInstanceOf(RetriableError);
    expect(progressing(f)).toMatchObject({ status: 'False', reason: 'ReplicationControllerCreateError', message: 'quota exceeded' });
  });

  it('an unencodable DC is a FatalError and nothing is created', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ latestVersion: 1 });
    (dc.metadata as Record<string, unknown>).annotations = { x: 'y' };
    f.dcs.put(dc);
    const real = f.dcLister.get.bind(f.dcLister);
    f.dcLister.get = (ns, name) => {
      const obj = structuredClone(real(ns, name)!);
      (obj.metadata.annotations as Record<string, unknown>).x = 1n;
      return obj;
    };
    await expect(sync(f)).rejects.toBeInstanceOf(FatalError);
    expect(f.api.writes()).toEqual([]);
  });
});

describe('malformed RCs never crash the sync', () => {
  it('an RC with a bad version annotation counts as version -1', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ latestVersion: 1 });
    f.dcs.put(dc);
    f.rcs.put(rcFor(dc, 1, { replicas: 1 }));
    const bad = rcFor(dc, 1, { phase: 'Complete', replicas: 0 });
    bad.metadata!.name = 'app-weird';
    bad.metadata!.annotations![Annotations.LatestVersion] = 'nope';
    f.rcs.put(bad);
    await sync(f);
    expect(f.api.find({ verb: 'create' })).toEqual([]);
    expect(f.rcs.get(NS, 'app-1')!.spec!.replicas).toBe(1);
  });

  it('an unparsable encoded config is a retriable error and other DCs are unaffected', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ latestVersion: 1 });
    f.dcs.put(dc);
    const rc = rcFor(dc, 1, { replicas: 1 });
    rc.metadata!.annotations![Annotations.EncodedConfig] = '{not json';
    f.rcs.put(rc);
    const other = makeDc();
    other.metadata.name = 'other';
    other.metadata.uid = 'other-uid';
    f.dcs.put(other);

    const err = await syncCatch(f);
    expect(err).toBeInstanceOf(RetriableError);
    expect((err as Error).message).toMatch(/^triggerActivated failed: couldn't decode deployment config from deployment ns\/app-1/);
    await settle(f, 5);
    await sync(f, 'ns/other');
    await sync(f, 'ns/other');
    expect(f.rcs.get(NS, 'other-1')).toBeDefined();
  });
});
