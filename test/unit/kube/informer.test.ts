import { afterEach, describe, expect, it } from '@jest/globals';
import type { KubeConfig, V1ConfigMap } from '@kubernetes/client-node';
import { pino } from 'pino';
import { ApiError } from '../../../src/controller/errors.js';
import { sleep, until as waitUntil } from '../../support/wait.js';
import { createInformer, stripManagedFields, type Informer, type ListResult, type WatchLike } from '../../../src/kube/informer.js';

const until = (cond: () => boolean, timeoutMs = 2000): Promise<void> => waitUntil(cond, timeoutMs);

interface Session {
  query: Record<string, unknown>;
  emit(type: string, obj: unknown): void;
  end(err: unknown): void;
  aborted: boolean;
}

/** A Watch stand-in: each watch() call opens a session the test drives by hand. */
class FakeWatch implements WatchLike {
  sessions: Session[] = [];
  async watch(_path: string, query: Record<string, unknown>, cb: (t: string, o: unknown) => void, done: (e: unknown) => void) {
    const ctl = new AbortController();
    const s: Session = { query, emit: (t, o) => cb(t, o), end: (e) => done(e), aborted: false };
    ctl.signal.addEventListener('abort', () => { s.aborted = true; });
    this.sessions.push(s);
    return ctl;
  }
  get last(): Session {
    const s = this.sessions[this.sessions.length - 1];
    if (!s) throw new Error('no watch opened');
    return s;
  }
}

const cm = (name: string, rv: string, data: Record<string, string> = {}): V1ConfigMap => ({
  metadata: { name, namespace: 'ns', resourceVersion: rv }, data,
});

const log = pino({ level: 'silent' });
let informers: Informer<V1ConfigMap>[] = [];
afterEach(() => { for (const i of informers) i.stop(); informers = []; });

function setup(lists: Array<ListResult<V1ConfigMap> | Error>, extra: { resyncMs?: number; watchdogMs?: number; transform?: (o: V1ConfigMap) => V1ConfigMap; indexers?: Record<string, (o: V1ConfigMap) => string[]> } = {}) {
  const watch = new FakeWatch();
  let listCalls = 0;
  const inf = createInformer<V1ConfigMap>({
    path: '/api/v1/namespaces/ns/configmaps', labelSelector: 'app=x', watchTimeoutSeconds: 60,
    initialBackoffMs: 5, maxBackoffMs: 20, log, watch,
    list: async () => {
      const r = lists[Math.min(listCalls++, lists.length - 1)];
      if (r instanceof Error) throw r;
      return r!;
    },
    ...extra,
  });
  informers.push(inf);
  const events: string[] = [];
  inf.on('add', (o) => events.push(`add ${o.metadata?.name}@${o.metadata?.resourceVersion}`));
  inf.on('update', (a, b) => events.push(`update ${a.metadata?.name}@${a.metadata?.resourceVersion}->${b.metadata?.resourceVersion}`));
  inf.on('delete', (o) => events.push(`delete ${o.metadata?.name}@${o.metadata?.resourceVersion}`));
  return { inf, watch, events, listCalls: () => listCalls };
}

describe('createInformer', () => {
  it('keeps secondary indexes in step with lists, updates and deletes', async () => {
    const byColour = { colour: (o: V1ConfigMap) => (o.data?.['colour'] ? [o.data['colour']] : []) };
    const { inf, watch } = setup([
      { items: [cm('a', '1', { colour: 'red' }), cm('b', '2', { colour: 'blue' })], metadata: { resourceVersion: '10' } },
      { items: [cm('b', '2', { colour: 'blue' })], metadata: { resourceVersion: '20' } },
    ], { indexers: byColour });
    await inf.start();
    const names = (v: string) => inf.byIndex('colour', v).map((o) => o.metadata?.name);
    expect(names('red')).toEqual(['a']);
    await until(() => watch.sessions.length === 1);
    watch.last.emit('MODIFIED', cm('a', '11', { colour: 'blue' }));
    expect(names('red')).toEqual([]);
    expect(names('blue')).toEqual(['b', 'a']);
    watch.last.emit('DELETED', cm('b', '12', { colour: 'blue' }));
    expect(names('blue')).toEqual(['a']);
    watch.last.emit('ERROR', { code: 410, reason: 'Gone' });
    await until(() => inf.get('ns', 'a') === undefined);
    expect(names('blue')).toEqual(['b']);
    expect(() => inf.byIndex('size', 'x')).toThrow('no index size');
  });

  it('caches listed and watched objects through the transform (stripManagedFields drops managedFields)', async () => {
    const withFields = (o: V1ConfigMap): V1ConfigMap => ({ ...o, metadata: { ...o.metadata, managedFields: [{ manager: 'kubectl', operation: 'Apply' }] } });
    const { inf, watch, events } = setup([{ items: [withFields(cm('a', '1'))], metadata: { resourceVersion: '10' } }], { transform: stripManagedFields });
    await inf.start();
    expect(inf.get('ns', 'a')?.metadata).toEqual({ name: 'a', namespace: 'ns', resourceVersion: '1' });
    await until(() => watch.sessions.length === 1);
    watch.last.emit('MODIFIED', withFields(cm('a', '2', { k: 'v' })));
    expect(inf.get('ns', 'a')?.metadata?.managedFields).toBeUndefined();
    expect(inf.get('ns', 'a')?.data).toEqual({ k: 'v' });
    expect(events).toEqual(['add a@1', 'update a@1->2']);
  });

  it('lists, reports synced, then watches from the list resourceVersion with the selector and timeout', async () => {
    const { inf, watch, events } = setup([{ items: [cm('a', '1'), cm('b', '2')], metadata: { resourceVersion: '10' } }]);
    expect(inf.hasSynced()).toBe(false);
    await inf.start();
    expect(inf.hasSynced()).toBe(true);
    expect(events).toEqual(['add a@1', 'add b@2']);
    expect(inf.get('ns', 'a')?.metadata?.resourceVersion).toBe('1');
    expect(inf.list('ns')).toHaveLength(2);
    expect(inf.list('other')).toHaveLength(0);
    await until(() => watch.sessions.length === 1);
    expect(watch.last.query).toMatchObject({ resourceVersion: '10', labelSelector: 'app=x', timeoutSeconds: 60, allowWatchBookmarks: true });
  });

  it('applies watch events; an unchanged resourceVersion is not an update; delete gets the final object', async () => {
    const { inf, watch, events } = setup([{ items: [cm('a', '1')], metadata: { resourceVersion: '10' } }]);
    await inf.start();
    await until(() => watch.sessions.length === 1);
    watch.last.emit('ADDED', cm('c', '11'));
    watch.last.emit('MODIFIED', cm('a', '12', { k: 'v' }));
    watch.last.emit('MODIFIED', cm('a', '12', { k: 'v' }));
    watch.last.emit('BOOKMARK', { metadata: { resourceVersion: '13' } });
    watch.last.emit('DELETED', cm('c', '14'));
    expect(events).toEqual(['add a@1', 'add c@11', 'update a@1->12', 'delete c@14']);
    expect(inf.get('ns', 'a')?.data).toEqual({ k: 'v' });
    expect(inf.get('ns', 'c')).toBeUndefined();
    expect(inf.lastResourceVersion()).toBe('14');
  });

  it('keeps retrying a failing list with backoff; start() resolves only after a successful list', async () => {
    const forbidden = new ApiError('forbidden', 403, 'Forbidden');
    const { inf, listCalls } = setup([forbidden, forbidden, { items: [cm('a', '1')], metadata: { resourceVersion: '5' } }]);
    let started = false;
    const p = inf.start().then(() => { started = true; });
    await until(() => listCalls() >= 2);
    expect(started).toBe(false);
    await p;
    expect(listCalls()).toBe(3);
    expect(inf.hasSynced()).toBe(true);
  });

  it('relists on a 410 watch ERROR event and turns the diff into update/delete events', async () => {
    const { inf, watch, events } = setup([
      { items: [cm('a', '1'), cm('b', '2')], metadata: { resourceVersion: '10' } },
      { items: [cm('a', '7')], metadata: { resourceVersion: '20' } },
    ]);
    await inf.start();
    await until(() => watch.sessions.length === 1);
    watch.last.emit('ERROR', { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' });
    await until(() => watch.sessions.length === 2);
    expect(watch.sessions[0]!.aborted).toBe(true);
    expect(events).toEqual(['add a@1', 'add b@2', 'update a@1->7', 'delete b@2']);
    expect(watch.last.query['resourceVersion']).toBe('20');
  });

  it('survives a watch failure: backs off, relists, and watches again', async () => {
    const { inf, watch, listCalls } = setup([{ items: [], metadata: { resourceVersion: '1' } }]);
    await inf.start();
    await until(() => watch.sessions.length === 1);
    watch.last.end(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    await until(() => watch.sessions.length === 2);
    expect(listCalls()).toBe(2);
    // A server that closes every watch at once is treated as a failure too (no hot loop).
    watch.last.end(null);
    await until(() => watch.sessions.length === 3);
    expect(listCalls()).toBe(3);
  });

  it('re-watches from the last resourceVersion after a normal close that delivered events', async () => {
    const { inf, watch, listCalls } = setup([{ items: [], metadata: { resourceVersion: '1' } }]);
    await inf.start();
    await until(() => watch.sessions.length === 1);
    watch.last.emit('ADDED', cm('x', '5'));
    watch.last.end(null);
    await until(() => watch.sessions.length === 2);
    expect(listCalls()).toBe(1);
    expect(watch.last.query['resourceVersion']).toBe('5');
  });

  it('restarts a watch that went silent (watchdog)', async () => {
    const { inf, watch } = setup([{ items: [], metadata: { resourceVersion: '1' } }], { watchdogMs: 40 });
    await inf.start();
    await until(() => watch.sessions.length === 1);
    await until(() => watch.sessions.length === 2, 1000);
    expect(watch.sessions[0]!.aborted).toBe(true);
  });

  it('resync calls update(obj, obj) for every cached object', async () => {
    const { inf, events } = setup([{ items: [cm('a', '1'), cm('b', '2')], metadata: { resourceVersion: '1' } }], { resyncMs: 30 });
    await inf.start();
    await until(() => events.filter((e) => e.startsWith('update')).length >= 2);
    expect(events.slice(2, 4).sort()).toEqual(['update a@1->1', 'update b@2->2']);
  });

  it('normalizes Dates from typed list results to strings', async () => {
    const typed = { ...cm('a', '1'), metadata: { name: 'a', namespace: 'ns', resourceVersion: '1', creationTimestamp: new Date('2024-01-02T03:04:05Z') } };
    const { inf } = setup([{ items: [typed], metadata: { resourceVersion: '1' } }]);
    await inf.start();
    expect(inf.get('ns', 'a')?.metadata?.creationTimestamp).toBe('2024-01-02T03:04:05Z');
  });

  it('stop() releases a pending start() and stops watching', async () => {
    const { inf, watch } = setup([new Error('down')]);
    const p = inf.start();
    inf.stop();
    await expect(p).resolves.toBeUndefined();
    expect(inf.hasSynced()).toBe(false);
    await sleep(30);
    expect(watch.sessions).toHaveLength(0);
  });
});
