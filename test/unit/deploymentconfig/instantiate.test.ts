import { describe, expect, it } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { applyDefaults } from '../../../src/apps/defaults.js';
import { decideInstantiate, parseInstantiateRequest, pendingInstantiateRequest } from '../../../src/deploymentconfig/triggers.js';
import { newFakeCluster, serverError, type FakeCluster } from '../../support/fakes.js';
import { deployerSets, imageTrigger, makeDc, NS, rcFor, settle, storedDc, sync, syncCatch, userEdits, type DcOptions } from './fixtures.js';

const withRequest = (dc: DeploymentConfig, value: string): DeploymentConfig => {
  dc.metadata.annotations = { ...(dc.metadata.annotations ?? {}), [Annotations.InstantiateRequest]: value };
  return dc;
};
const request = (f: FakeCluster, value: string): void => {
  f.dcs.mutate(NS, 'app', (dc) => { withRequest(dc, value); });
};

describe('parseInstantiateRequest', () => {
  it.each<[string, unknown]>([
    ['abc', { ok: true, request: { id: 'abc' } }],
    ['123', { ok: true, request: { id: '123' } }],
    ['"quoted"', { ok: true, request: { id: 'quoted' } }],
    ['{"id":"r1","force":true,"latest":true}', { ok: true, request: { id: 'r1', force: true, latest: true } }],
    ['{"id":"r2","excludeTriggers":["ImageChange"]}', { ok: true, request: { id: 'r2', excludeTriggers: ['ImageChange'] } }],
    ['{"id":', { ok: false, id: '{"id":', message: expect.stringMatching(/^invalid instantiate request in annotation "deploy\.dcctl\.io\/instantiate": not valid JSON/) }],
    ['{"force":true}', { ok: false, id: '{"force":true}', message: expect.stringContaining('"id" must be a non-empty string') }],
    ['{"id":"x","force":"yes"}', { ok: false, id: '{"id":"x","force":"yes"}', message: expect.stringContaining('"force" must be a boolean') }],
    ['[1]', { ok: false, id: '[1]', message: expect.stringContaining('expected a JSON object') }],
    ['{"id":"x","excludeTriggers":["Nope"]}', { ok: false, id: '{"id":"x","excludeTriggers":["Nope"]}', message: expect.stringContaining('excludeTriggers') }],
  ])('%p', (value, expected) => {
    expect(parseInstantiateRequest(withRequest(makeDc(), value))).toEqual(expected);
  });

  it.each([[''], ['   ']])('blank %p is no request', (value) => {
    expect(parseInstantiateRequest(withRequest(makeDc(), value))).toBeUndefined();
  });

  it('an acknowledged id is not pending any more', () => {
    const dc = withRequest(makeDc(), 'r1');
    dc.status = { latestVersion: 1, lastInstantiateRequest: { id: 'r1', outcome: 'Triggered', latestVersion: 1, time: 't' } };
    expect(pendingInstantiateRequest(dc)).toBeUndefined();
    dc.metadata.annotations![Annotations.InstantiateRequest] = 'r2';
    expect(pendingInstantiateRequest(dc)).toEqual({ ok: true, request: { id: 'r2' } });
  });
});

describe('decideInstantiate (canTrigger)', () => {
  const decoded = makeDc({ latestVersion: 1 });
  it.each<[string, DcOptions, (dc: DeploymentConfig) => void, boolean, unknown]>([
    ['paused → rejected', { paused: true, latestVersion: 1 }, () => {}, true,
      { outcome: 'Rejected', message: 'deployment config "app" is paused - unpause to request a new deployment' }],
    ['unresolved image → rejected even when forced', { latestVersion: 1, triggers: [imageTrigger('is:1', ['web'])] }, () => {}, true,
      { outcome: 'Rejected', message: 'cannot trigger a deployment for "app" because it contains unresolved images' }],
    ['force → manual change', { latestVersion: 1 }, () => {}, true,
      { outcome: 'Triggered', message: 'manual change', details: { message: 'manual change', causes: [{ type: 'Manual' }] } }],
    ['nothing changed → not triggered', { latestVersion: 1 }, () => {}, false,
      { outcome: 'NotTriggered', message: 'deployment config "app" cannot be instantiated' }],
    ['template changed with a ConfigChange trigger → config change', { latestVersion: 1 }, (dc) => { dc.spec.template!.spec!.containers[0]!.image = 'nginx:9'; }, false,
      { outcome: 'Triggered', message: 'config change', details: { message: 'config change', causes: [{ type: 'ConfigChange' }] } }],
    ['template changed without triggers → not triggered', { latestVersion: 1, triggers: [] }, (dc) => { dc.spec.template!.spec!.containers[0]!.image = 'nginx:9'; }, false,
      { outcome: 'NotTriggered', message: 'deployment config "app" cannot be instantiated' }],
    ['resolved automatic image trigger not in the decoded config → image change', { latestVersion: 1, triggers: [imageTrigger('is:1', ['web'], 'nginx@sha256:1')] }, () => {}, false,
      { outcome: 'Triggered', message: 'image change', details: { message: 'image change', causes: [{ type: 'ImageChange', imageTrigger: { from: { kind: 'ImageStreamTag', name: 'is:1', namespace: 'ns' } } }] } }],
    ['non-automatic resolved trigger is no cause', { latestVersion: 1, triggers: [imageTrigger('is:1', ['web'], 'nginx@sha256:1', false)] }, () => {}, false,
      { outcome: 'NotTriggered', message: 'deployment config "app" cannot be instantiated' }],
  ])('%s', (_l, opts, edit, force, expected) => {
    const dc = applyDefaults(makeDc(opts));
    edit(dc);
    expect(decideInstantiate(dc, decoded, { id: 'x', force })).toEqual(expected);
  });

  it('same trigger with a different lastTriggeredImage is an image change', () => {
    const prev = makeDc({ latestVersion: 1, triggers: [imageTrigger('is:1', ['web'], 'img@1')] });
    const dc = makeDc({ latestVersion: 1, triggers: [imageTrigger('is:1', ['web'], 'img@2')] });
    expect(decideInstantiate(dc, prev, { id: 'x' }).outcome).toBe('Triggered');
    expect(decideInstantiate(prev, prev, { id: 'x' }).outcome).toBe('NotTriggered');
  });
});

describe('instantiate through the controller', () => {
  it('force on a trigger-less DC at version 0: one write bumps latestVersion and acks, then the RC is created', async () => {
    const f = newFakeCluster();
    f.dcs.put(withRequest(makeDc({ triggers: [] }), '{"id":"r1","force":true,"latest":true}'));
    await sync(f);
    // The bump (with its acknowledgement) is stored before the RC exists; the same sync then
    // creates it (§4.2 step 9).
    expect(f.api.writeSummary()).toEqual([
      'update deploymentconfigs/status ns/app', 'create replicationcontrollers ns/app-1', 'update deploymentconfigs/status ns/app',
    ]);
    expect(storedDc(f).status).toMatchObject({
      latestVersion: 1,
      details: { message: 'manual change', causes: [{ type: 'Manual' }] },
      lastInstantiateRequest: { id: 'r1', outcome: 'Triggered', message: 'manual change', latestVersion: 1, time: '2024-01-01T00:00:00Z' },
    });
    await settle(f);
    expect(f.rcs.get(NS, 'app-1')?.metadata?.annotations?.[Annotations.StatusReason]).toBe('manual change');
  });

  it('replaying the same id does nothing more (idempotent)', async () => {
    const f = newFakeCluster();
    f.dcs.put(withRequest(makeDc({ triggers: [] }), '{"id":"r1","force":true}'));
    await settle(f);
    deployerSets(f, 'app-1', 'Complete', 1);
    await settle(f);
    f.api.clearActions();
    request(f, '{"id":"r1","force":true}');
    await settle(f);
    expect(f.api.writes()).toEqual([]);
    expect(storedDc(f).status?.latestVersion).toBe(1);

    request(f, '{"id":"r2","force":true}');
    await settle(f);
    expect(storedDc(f).status?.latestVersion).toBe(2);
    expect(storedDc(f).status?.lastInstantiateRequest).toMatchObject({ id: 'r2', outcome: 'Triggered', latestVersion: 2 });
  });

  it('crash-safe: when the status write fails nothing is acknowledged and the retry triggers exactly once', async () => {
    const f = newFakeCluster();
    f.dcs.put(withRequest(makeDc({ triggers: [] }), 'r1'));
    f.api.failOn({ verb: 'update', subresource: 'status' }, serverError('etcd timeout'), 1);
    const err = await syncCatch(f);
    expect((err as Error).message).toBe('etcd timeout');
    expect(storedDc(f).status?.lastInstantiateRequest).toBeUndefined();
    await settle(f);
    expect(storedDc(f).status?.lastInstantiateRequest).toMatchObject({ id: 'r1', outcome: 'NotTriggered' });
    expect(storedDc(f).status?.latestVersion).toBe(0);
  });

  it.each<[string, DcOptions, string, unknown]>([
    ['paused', { paused: true }, '{"id":"p","force":true}',
      { outcome: 'Rejected', message: 'deployment config "app" is paused - unpause to request a new deployment', latestVersion: 0 }],
    ['unresolved images', { triggers: [imageTrigger('is:1', ['web'])] }, '{"id":"u","force":true}',
      { outcome: 'Rejected', message: 'cannot trigger a deployment for "app" because it contains unresolved images', latestVersion: 0 }],
    ['malformed JSON', { triggers: [] }, '{"id": nope}',
      { id: '{"id": nope}', outcome: 'Rejected', message: expect.stringContaining('not valid JSON'), latestVersion: 0 }],
  ])('%s → rejected and acknowledged, nothing rolled out', async (_l, opts, value, ack) => {
    const f = newFakeCluster();
    f.dcs.put(withRequest(makeDc(opts), value));
    await settle(f);
    expect(storedDc(f).status?.lastInstantiateRequest).toMatchObject(ack as object);
    expect(f.rcs.list(NS)).toEqual([]);
  });

  it('not triggered when nothing changed and force is off', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc());
    await settle(f);
    deployerSets(f, 'app-1', 'Complete', 1);
    await settle(f);
    request(f, '{"id":"n1"}');
    await settle(f);
    expect(storedDc(f).status).toMatchObject({ latestVersion: 1, lastInstantiateRequest: { id: 'n1', outcome: 'NotTriggered', latestVersion: 1 } });
  });

  it('waits (no ack) while the RC of latestVersion does not exist yet, then decides', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ latestVersion: 2 });
    f.dcs.put(withRequest(dc, '{"id":"w","force":true}'));
    f.rcs.put(rcFor(dc, 1, { phase: 'Running' }));
    await syncCatch(f);
    expect(storedDc(f).status?.lastInstantiateRequest).toBeUndefined();
    deployerSets(f, 'app-1', 'Failed');
    await settle(f);
    expect(f.rcs.get(NS, 'app-2')).toBeDefined();
    expect(storedDc(f).status?.lastInstantiateRequest).toMatchObject({ id: 'w', outcome: 'Triggered', latestVersion: 3 });
  });

  it('the ack survives later status calculations', async () => {
    const f = newFakeCluster();
    f.dcs.put(withRequest(makeDc({ triggers: [] }), 'r1'));
    await settle(f);
    userEdits(f, (dc) => { dc.spec.replicas = 2; });
    await settle(f);
    expect(storedDc(f).status?.lastInstantiateRequest?.id).toBe('r1');
  });
});
