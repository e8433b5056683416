/**
 * The fake cluster is the one model of the API server every sync test runs against: these tests
 * pin the API-server semantics it claims (test/support/fakes.ts), so a bug in the fake cannot
 * hide a bug in the code under test.
 */
import { describe, expect, it } from '@jest/globals';
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../../src/controller/errors.js';
import { WaitTimeoutError, WatchedObjectDeletedError } from '../../../src/deployer/ports.js';
import {
  FakeInformer, jsonPatch, matchesSelector, mergePatch, newFakeCluster, serverError, strategicMergePatch, type StoreEvent,
} from '../../support/fakes.js';

const rc = (name: string, labels: Record<string, string> = { app: 'web' }, replicas = 1): V1ReplicationController => ({
  metadata: { name, namespace: 'ns', labels },
  spec: { replicas, selector: labels, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
});

const dc = (): DeploymentConfig => ({
  apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig',
  metadata: { name: 'web', namespace: 'ns' },
  spec: { replicas: 1, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
  status: { latestVersion: 1 },
});

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('fake API server: writes', () => {
  it('create assigns identity, rejects a taken name with AlreadyExists and a namespace mismatch with BadRequest', async () => {
    const f = newFakeCluster();
    const created = await f.rcClient.create('ns', rc('web-1'));
    expect(created.metadata).toMatchObject({ namespace: 'ns', generation: 1, uid: expect.stringMatching(/^uid-/) });
    expect(created.metadata?.resourceVersion).toMatch(/^\d+$/);
    expect(created.metadata?.creationTimestamp).toEqual(f.clock.now());
    const again = await rejection(f.rcClient.create('ns', rc('web-1')));
    expect(isAlreadyExists(again)).toBe(true);
    expect(await rejection(f.rcClient.create('other', rc('web-2')))).toMatchObject({ code: 400 });
  });

  it('update bumps resourceVersion, rejects a stale one with 409 and a missing object with 404', async () => {
    const f = newFakeCluster();
    const first = f.rcs.put(rc('web-1'));
    const updated = await f.rcClient.update({ ...first, metadata: { ...first.metadata, labels: { app: 'web', x: 'y' } } });
    expect(Number(updated.metadata!.resourceVersion)).toBeGreaterThan(Number(first.metadata!.resourceVersion));
    expect(isConflict(await rejection(f.rcClient.update(first)))).toBe(true);
    expect(f.rcs.get('ns', 'web-1')?.metadata?.labels).toEqual({ app: 'web', x: 'y' });
    expect(isNotFound(await rejection(f.rcClient.update(rc('nosuch'))))).toBe(true);
  });

  it('DCs refuse unconditional updates (no resourceVersion) with 422', async () => {
    const f = newFakeCluster();
    f.dcs.put(dc());
    expect(await rejection(f.dcClient.update(dc()))).toMatchObject({ code: 422 });
  });

  it('the main resource keeps the stored status, /status keeps the stored spec; generation follows the spec', async () => {
    const f = newFakeCluster();
    const stored = f.dcs.put(dc());
    const main = structuredClone(stored);
    main.spec.replicas = 5;
    main.status = { latestVersion: 99 };
    const afterMain = await f.dcClient.update(main);
    expect(afterMain.status).toEqual({ latestVersion: 1 });
    expect(afterMain.metadata.generation).toBe(2);
    const status = structuredClone(afterMain);
    status.spec.replicas = 7;
    status.status = { latestVersion: 2 };
    const afterStatus = await f.dcClient.updateStatus(status);
    expect(afterStatus.spec.replicas).toBe(5);
    expect(afterStatus.status).toEqual({ latestVersion: 2 });
    expect(afterStatus.metadata.generation).toBe(2);
  });

  it('merge patch removes null fields; a uid or resourceVersion in the patch is a precondition', async () => {
    const f = newFakeCluster();
    const stored = f.rcs.put({ ...rc('web-1'), metadata: { ...rc('web-1').metadata, annotations: { a: '1', b: '2' } } });
    const patched = await f.rcClient.patch('ns', 'web-1', { metadata: { annotations: { a: null, c: '3' } } }, 'merge');
    expect(patched.metadata?.annotations).toEqual({ b: '2', c: '3' });
    const err = await rejection(f.rcClient.patch('ns', 'web-1', { metadata: { uid: 'other' } }, 'merge'));
    expect(isConflict(err)).toBe(true);
    expect(f.rcs.get('ns', 'web-1')?.metadata?.uid).toBe(stored.metadata?.uid);
    const current = f.rcs.get('ns', 'web-1')!.metadata!.resourceVersion!;
    expect(isConflict(await rejection(f.rcClient.patch('ns', 'web-1', { metadata: { resourceVersion: stored.metadata!.resourceVersion, labels: { x: 'y' } } }, 'merge')))).toBe(true);
    const fresh = await f.rcClient.patch('ns', 'web-1', { metadata: { resourceVersion: current, labels: { x: 'y' } } }, 'merge');
    expect(Number(fresh.metadata?.resourceVersion)).toBeGreaterThan(Number(current));
  });

  it('a dry-run patch is answered as if stored but changes nothing; errors name the group of a group resource', async () => {
    const f = newFakeCluster();
    const stored = f.dcs.put(dc());
    const answer = await f.dcClient.patch('ns', 'web', { spec: { replicas: 3 } }, 'merge', { dryRun: true });
    expect(answer.spec.replicas).toBe(3);
    expect(f.dcs.get('ns', 'web')).toEqual(stored);
    expect(f.api.writes()).toEqual([expect.objectContaining({ verb: 'patch', dryRun: true })]);
    expect(f.api.commits).toEqual([]);
    expect((await rejection(f.dcClient.get('ns', 'nope')) as Error).message).toBe('deploymentconfigs.apps.openshift.io "nope" not found');
  });

  it('scale updates spec.replicas (generation only when it changes) and checks the resourceVersion', async () => {
    const f = newFakeCluster();
    f.rcs.put(rc('web-1', { app: 'web' }, 2));
    const scale = await f.rcClient.getScale('ns', 'web-1');
    expect(scale.spec?.replicas).toBe(2);
    await f.rcClient.updateScale('ns', 'web-1', { ...scale, spec: { replicas: 2 } });
    expect(f.rcs.get('ns', 'web-1')?.metadata?.generation).toBe(1);
    expect(isConflict(await rejection(f.rcClient.updateScale('ns', 'web-1', { ...scale, spec: { replicas: 3 } })))).toBe(true);
    await f.rcClient.updateScale('ns', 'web-1', { spec: { replicas: 3 } });
    expect(f.rcs.get('ns', 'web-1')).toMatchObject({ spec: { replicas: 3 }, metadata: { generation: 2 } });
  });

  it('a new pod starts Pending whatever status was sent; delete answers 404 for a missing pod', async () => {
    const f = newFakeCluster();
    const pod = await f.podClient.create('ns', { metadata: { name: 'p' }, status: { phase: 'Succeeded' } });
    expect(pod.status).toEqual({ phase: 'Pending' });
    await f.podClient.delete('ns', 'p');
    expect(isNotFound(await rejection(f.podClient.delete('ns', 'p')))).toBe(true);
  });

  it('events with a taken name are refused, as the API server does', async () => {
    const f = newFakeCluster();
    const event = { metadata: { name: 'e.1', namespace: 'ns' }, involvedObject: { name: 'x' }, reason: 'R' };
    await f.eventClient.create('ns', event);
    expect(isAlreadyExists(await rejection(f.eventClient.create('ns', event)))).toBe(true);
    expect(await f.eventClient.list('ns', 'involvedObject.name=x')).toHaveLength(1);
    expect(await f.eventClient.list('ns', 'involvedObject.name=y')).toHaveLength(0);
  });

  it('records every request in `actions` and only the successful ones in `commits`, with before and after', async () => {
    const f = newFakeCluster();
    f.rcs.put(rc('web-1'));
    f.api.failOn({ verb: 'patch', resource: 'replicationcontrollers' }, serverError(), 1);
    await rejection(f.rcClient.patch('ns', 'web-1', { metadata: { labels: { x: 'y' } } }, 'merge'));
    await f.rcClient.patch('ns', 'web-1', { metadata: { labels: { x: 'z' } } }, 'merge');
    expect(f.api.writeSummary()).toEqual(['patch replicationcontrollers ns/web-1', 'patch replicationcontrollers ns/web-1']);
    expect(f.api.commits).toHaveLength(1);
    const [commit] = f.api.commits;
    expect((commit!.before as V1ReplicationController).metadata?.labels).toEqual({ app: 'web' });
    expect((commit!.after as V1ReplicationController).metadata?.labels).toEqual({ app: 'web', x: 'z' });
  });
});

describe('fake API server: reads', () => {
  it('lists by namespace and label selector (=, ==, !=, exists, !exists)', async () => {
    const f = newFakeCluster();
    f.rcs.put(rc('a', { app: 'web', tier: 'fe' }));
    f.rcs.put(rc('b', { app: 'web' }));
    f.rcs.put(rc('c', { app: 'db' }));
    f.rcs.put({ ...rc('d', { app: 'web' }), metadata: { name: 'd', namespace: 'other', labels: { app: 'web' } } });
    const names = async (selector?: string): Promise<string[]> => (await f.rcClient.list('ns', selector)).map((r) => r.metadata!.name!);
    expect(await names()).toEqual(['a', 'b', 'c']);
    expect(await names('app=web')).toEqual(['a', 'b']);
    expect(await names('app==web,tier=fe')).toEqual(['a']);
    expect(await names('app!=web')).toEqual(['c']);
    expect(await names('tier')).toEqual(['a']);
    expect(await names('!tier')).toEqual(['b', 'c']);
    expect(matchesSelector(undefined, 'x')).toBe(false);
  });

  it('listers hand out frozen copies; pause() serves a stale view until resume()', () => {
    const f = newFakeCluster();
    f.rcs.put(rc('web-1'));
    const cached = f.rcLister.get('ns', 'web-1')!;
    expect(() => { cached.spec!.replicas = 9; }).toThrow(TypeError);
    f.rcLister.pause();
    f.rcs.mutate('ns', 'web-1', (r) => { r.spec!.replicas = 4; });
    expect(f.rcLister.get('ns', 'web-1')?.spec?.replicas).toBe(1);
    f.rcLister.resume();
    expect(f.rcLister.get('ns', 'web-1')?.spec?.replicas).toBe(4);
  });

  it('stores deliver ADDED, MODIFIED (with the old state) and DELETED watch events', async () => {
    const f = newFakeCluster();
    const events: StoreEvent<V1Pod>[] = [];
    const stop = f.pods.watch((e) => events.push(e));
    await f.podClient.create('ns', { metadata: { name: 'p' } });
    await f.podClient.patch('ns', 'p', { metadata: { labels: { a: 'b' } } }, 'merge');
    await f.podClient.delete('ns', 'p');
    stop();
    f.pods.put({ metadata: { name: 'q', namespace: 'ns' } });
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(events[1]!.old?.metadata?.labels).toBeUndefined();
    expect(events[1]!.object.metadata?.labels).toEqual({ a: 'b' });
  });
});

describe('informers', () => {
  it('hand each store change to the add/update/delete handlers as frozen copies, and read like listers', () => {
    const f = newFakeCluster();
    const informer = new FakeInformer(f.rcs);
    const seen: string[] = [];
    informer.on('add', (r) => seen.push(`add ${r.metadata!.name} ${r.spec!.replicas}`));
    informer.on('update', (old, r) => {
      expect(Object.isFrozen(r)).toBe(true);
      seen.push(`update ${old.spec!.replicas}->${r.spec!.replicas}`);
    });
    informer.on('delete', (r) => seen.push(`delete ${r.metadata!.name}`));
    f.rcs.put(rc('web-1'));
    f.rcs.mutate('ns', 'web-1', (r) => { r.spec!.replicas = 2; });
    expect(informer.get('ns', 'web-1')?.spec?.replicas).toBe(2);
    f.rcs.remove('ns', 'web-1');
    expect(seen).toEqual(['add web-1 1', 'update 1->2', 'delete web-1']);
    expect(informer.list()).toEqual([]);
  });
});

describe('patch semantics', () => {
  it('merge patch (RFC 7386) replaces lists and deletes nulls', () => {
    expect(mergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { b: null, d: 3 }, l: [3] })).toEqual({ a: { c: 2, d: 3 }, l: [3] });
  });

  it('strategic merge patch merges keyed lists and honours $patch: delete', () => {
    const target = { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '1' }] } };
    expect(strategicMergePatch(target, { spec: { containers: [{ name: 'b', image: '2' }, { name: 'a', $patch: 'delete' }, { name: 'c', image: '3' }] } }))
      .toEqual({ spec: { containers: [{ name: 'b', image: '2' }, { name: 'c', image: '3' }] } });
  });

  it('JSON patch applies add/replace/remove and fails a test op', () => {
    expect(jsonPatch({ a: [1], b: 1 }, [{ op: 'add', path: '/a/-', value: 2 }, { op: 'replace', path: '/b', value: 3 }, { op: 'remove', path: '/a/0' }]))
      .toEqual({ a: [2], b: 3 });
    expect(() => jsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }])).toThrow('test failed');
  });
});

describe('deployer ports', () => {
  it('waitFor resolves at the first watched state that satisfies the predicate', async () => {
    const f = newFakeCluster();
    f.rcs.put(rc('web-1'));
    const waiting = f.rcWatcher.waitFor('ns', 'web-1', (r) => r.status?.replicas === 2, Number.POSITIVE_INFINITY);
    f.rcs.mutate('ns', 'web-1', (r) => { r.status = { replicas: 1 }; });
    f.rcs.mutate('ns', 'web-1', (r) => { r.status = { replicas: 2 }; });
    expect((await waiting).status?.replicas).toBe(2);
  });

  it('waitFor: 404 when absent at the start, WatchedObjectDeletedError with the last state, WaitTimeoutError on the clock', async () => {
    const f = newFakeCluster();
    expect(isNotFound(await rejection(f.rcWatcher.waitFor('ns', 'nosuch', () => true, 1000)))).toBe(true);
    f.rcs.put(rc('web-1'));
    const deleted = rejection(f.rcWatcher.waitFor('ns', 'web-1', () => false, Number.POSITIVE_INFINITY));
    f.rcs.remove('ns', 'web-1');
    const err = await deleted;
    expect(err).toBeInstanceOf(WatchedObjectDeletedError);
    expect(((err as WatchedObjectDeletedError).object as V1ReplicationController).metadata?.name).toBe('web-1');
    f.rcs.put(rc('web-2'));
    const start = f.clock.now().getTime();
    expect(await rejection(f.rcWatcher.waitFor('ns', 'web-2', () => false, 30_000))).toBeInstanceOf(WaitTimeoutError);
    expect(f.clock.elapsedSince(start)).toBe(30_000);
  });

  it('waitFor does not show states older than notOlderThan', async () => {
    const f = newFakeCluster();
    const stored = f.rcs.put(rc('web-1'));
    const seen: string[] = [];
    const waiting = f.rcWatcher.waitFor('ns', 'web-1', (r) => { seen.push(r.metadata!.resourceVersion!); return true; }, 1000,
      { notOlderThan: String(Number(stored.metadata!.resourceVersion) + 1) });
    const next = f.rcs.mutate('ns', 'web-1', () => undefined);
    await waiting;
    expect(seen).toEqual([next.metadata!.resourceVersion]);
  });

  it('waitForPods follows the labelled set, an empty set included', async () => {
    const f = newFakeCluster();
    f.pods.put({ metadata: { name: 'p', namespace: 'ns', labels: { app: 'web' } } });
    const gone = f.podWatcher.waitForPods('ns', 'app=web', (pods) => pods.length === 0, Number.POSITIVE_INFINITY);
    f.pods.put({ metadata: { name: 'q', namespace: 'ns', labels: { app: 'db' } } });
    f.pods.remove('ns', 'p');
    expect(await gone).toEqual([]);
  });

  it('logs: a pod\'s text, or 404 when the node serves no logs', async () => {
    const f = newFakeCluster();
    f.logs.texts.set('ns/p', 'hello\n');
    let text = '';
    await f.logs.follow('ns', 'p', 'c', { write: (s: string) => { text += s; return true; } } as unknown as NodeJS.WritableStream);
    expect(text).toBe('hello\n');
    f.logs.unavailable = true;
    expect(isNotFound(await rejection(f.logs.follow('ns', 'p', 'c', process.stdout)))).toBe(true);
  });
});
