import { describe, expect, it } from '@jest/globals';
import type { DeploymentCondition, DeploymentConfigStatus } from '../../../src/apis/deploymentconfig.js';
import { newCondition, setCondition } from '../../../src/deploymentconfig/conditions.js';
import { calculateStatus } from '../../../src/deploymentconfig/status.js';
import { newFakeCluster } from '../../support/fakes.js';
import { deployerSets, imageTrigger, makeDc, NS, rcFor, settle, storedDc, sync, userEdits, type RcOptions } from './fixtures.js';

const T0 = new Date('2024-01-01T00:00:00Z');
const T1 = new Date('2024-01-01T01:00:00Z');
const cond = (status: DeploymentCondition['status'], reason: string, at: Date, message = 'm') => newCondition('Progressing', status, reason, message, at);

describe('setCondition', () => {
  it.each<[string, DeploymentCondition, Partial<DeploymentCondition>]>([
    ['same status and reason: untouched (even the message)', cond('True', 'A', T1, 'new'), { lastUpdateTime: '2024-01-01T00:00:00Z', lastTransitionTime: '2024-01-01T00:00:00Z', message: 'm' }],
    ['same status, new reason: keeps lastTransitionTime', cond('True', 'B', T1), { reason: 'B', lastUpdateTime: '2024-01-01T01:00:00Z', lastTransitionTime: '2024-01-01T00:00:00Z' }],
    ['new status: both times now', cond('False', 'A', T1), { status: 'False', lastUpdateTime: '2024-01-01T01:00:00Z', lastTransitionTime: '2024-01-01T01:00:00Z' }],
  ])('%s', (_l, next, expected) => {
    const status: DeploymentConfigStatus = { conditions: [cond('True', 'A', T0), newCondition('Available', 'True', '', 'ok', T0)] };
    setCondition(status, next);
    const progressing = status.conditions!.find((c) => c.type === 'Progressing')!;
    expect(progressing).toMatchObject(expected);
  });

  it('a changed condition moves to the end of the list', () => {
    const status: DeploymentConfigStatus = { conditions: [cond('True', 'A', T0), newCondition('Available', 'True', '', 'ok', T0)] };
    setCondition(status, cond('False', 'A', T1));
    expect(status.conditions!.map((c) => c.type)).toEqual(['Available', 'Progressing']);
  });
});

describe('calculateStatus conditions', () => {
  const dc = makeDc({ latestVersion: 1, replicas: 4 });
  it.each<[string, RcOptions, unknown]>([
    ['Pending → Unknown, waiting for the deployer pod', { phase: 'Pending' }, { status: 'Unknown', reason: '', message: 'replication controller "app-1" is waiting for pod "app-1-deploy" to run' }],
    ['Complete → NewReplicationControllerAvailable', { phase: 'Complete', replicas: 4 }, { status: 'True', reason: 'NewReplicationControllerAvailable', message: 'replication controller "app-1" successfully rolled out' }],
    ['Failed → ProgressDeadlineExceeded', { phase: 'Failed' }, { status: 'False', reason: 'ProgressDeadlineExceeded', message: 'replication controller "app-1" has failed progressing' }],
    ['Failed + cancelled → RolloutCancelled', { phase: 'Failed', cancelled: true }, { status: 'False', reason: 'RolloutCancelled', message: 'rollout of replication controller "app-1" was cancelled' }],
    ['Running with progress → ReplicationControllerUpdated', { phase: 'Running', replicas: 2 }, { status: 'True', reason: 'ReplicationControllerUpdated', message: 'replication controller "app-1" is progressing' }],
    ['Running without progress → untouched (absent)', { phase: 'Running', replicas: 0 }, undefined],
    ['New → untouched (absent)', { phase: 'New' }, undefined],
  ])('%s', (_l, rc, expected) => {
    const status = calculateStatus(dc, [rcFor(dc, 1, rc)], true, T0);
    const p = status.conditions!.find((c) => c.type === 'Progressing');
    if (expected === undefined) expect(p).toBeUndefined();
    else expect(p).toMatchObject(expected as object);
  });

  it.each<[number, number, string]>([
    [4, 3, 'True'], [4, 2, 'False'], [0, 0, 'False'], [1, 1, 'True'],
  ])('Available with replicas %p and %p available → %p (25%% maxUnavailable)', (replicas, available, expected) => {
    const d = makeDc({ latestVersion: 1, replicas });
    d.spec.strategy = { type: 'Rolling', rollingParams: { maxSurge: '25%', maxUnavailable: '25%' } };
    const status = calculateStatus(d, [rcFor(d, 1, { replicas, available })], true, T0);
    expect(status.conditions!.find((c) => c.type === 'Available')?.status).toBe(expected);
  });
});

describe('status writes', () => {
  it('a second sync with nothing changed writes nothing, and condition timestamps are preserved', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ replicas: 2 }));
    await settle(f);
    deployerSets(f, 'app-1', 'Complete', 2);
    await settle(f);
    const before = storedDc(f).status;
    f.clock.advance(3600_000);
    f.api.clearActions();
    await sync(f);
    await sync(f);
    expect(f.api.writes()).toEqual([]);
    expect(storedDc(f).status).toEqual(before);
    expect(before?.conditions?.find((c) => c.type === 'Available')?.lastTransitionTime).toBe('2024-01-01T00:00:00Z');
  });

  it('a replica change updates the status but keeps unchanged conditions', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ replicas: 2 }));
    await settle(f);
    deployerSets(f, 'app-1', 'Complete', 2);
    await settle(f);
    f.clock.advance(60_000);
    f.rcs.mutate(NS, 'app-1', (rc) => { rc.status = { replicas: 2, availableReplicas: 1, readyReplicas: 1 }; });
    await settle(f);
    const st = storedDc(f).status!;
    expect(st.availableReplicas).toBe(1);
    expect(st.conditions?.find((c) => c.type === 'Progressing')?.lastTransitionTime).toBe('2024-01-01T00:00:00Z');
  });

  it('observedGeneration write only when generation moved', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ triggers: [] }));
    await sync(f);
    f.api.clearActions();
    await sync(f);
    expect(f.api.writes()).toEqual([]);
    userEdits(f, (dc) => { dc.spec.replicas = 3; });
    await sync(f);
    expect(storedDc(f).status?.observedGeneration).toBe(2);
  });
});

describe('WaitingForImages (not OpenShift)', () => {
  it('an initial rollout blocked on unresolved image triggers says so in Progressing=Unknown', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ image: '', triggers: [imageTrigger('app:latest', ['web'])] }));
    await settle(f);
    expect(f.rcs.list(NS)).toEqual([]);
    expect(storedDc(f).status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'Unknown',
      reason: 'WaitingForImages',
      message: 'deployment config "app" is waiting for images: ImageChange triggers not yet resolved: ns/app:latest (containers: web); containers without an image: web',
    });
    f.api.clearActions();
    await sync(f);
    expect(f.api.writes()).toEqual([]); // no hot loop

    userEdits(f, (dc) => {
      dc.spec.template!.spec!.containers[0]!.image = 'reg/app@sha256:1';
      dc.spec.triggers![0]!.imageChangeParams!.lastTriggeredImage = 'reg/app@sha256:1';
    });
    await settle(f);
    expect(f.rcs.get(NS, 'app-1')).toBeDefined();
    expect(storedDc(f).status?.conditions?.find((c) => c.type === 'Progressing')?.reason).toBe('NewReplicationControllerCreated');
  });

  it('resolved trigger but image still unset in a container: skip via triggers is also visible', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ triggers: [imageTrigger('a:1', ['web'], 'img@1'), imageTrigger('b:1', ['web'])] }));
    await settle(f);
    expect(storedDc(f).status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({
      reason: 'WaitingForImages', message: expect.stringContaining('ns/b:1 (containers: web)'),
    });
  });
});
