/**
 * The deployer's watch of RC Warning events (src/kube/rc-warnings.ts): what it asks the server for,
 * what it keeps, and that anything that may have lost an event makes it answer undefined (the
 * deployer then lists, as without the watch).
 */
import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../../src/controller/errors.js';
import type { WatchLike } from '../../../src/kube/deployer-io.js';
import { MaxCollectedWarnings, watchRcWarnings } from '../../../src/kube/rc-warnings.js';

type Callback = (type: string, object: unknown) => void;

/** A WatchLike the test drives: records the request, hands out the callbacks. */
function fakeWatch(refuse?: Error) {
  const calls: { path: string; query: Record<string, unknown> }[] = [];
  let send: Callback = () => undefined;
  let end: (err?: unknown) => void = () => undefined;
  const controller = new AbortController();
  const watch: WatchLike = {
    watch: async (path, query, callback, done) => {
      calls.push({ path, query });
      if (refuse) throw refuse;
      send = callback;
      end = done;
      return controller;
    },
  };
  return { watch, calls, controller, send: (type: string, obj: unknown) => send(type, obj), end: (err?: unknown) => end(err) };
}

const event = (name: string, reason: string, count = 1) => ({
  metadata: { name, namespace: 'ns', resourceVersion: String(100 + count) },
  involvedObject: { kind: 'ReplicationController', name: 'web-2', namespace: 'ns' },
  type: 'Warning', reason, message: `${reason} x${count}`, count,
});

describe('watchRcWarnings', () => {
  it('watches the namespace\'s RC Warning events from the given resourceVersion', async () => {
    const w = fakeWatch();
    const warnings = await watchRcWarnings(w.watch, 'team-a', '4711');
    expect(warnings).toBeDefined();
    expect(w.calls).toEqual([{
      path: '/api/v1/namespaces/team-a/events',
      query: { fieldSelector: 'involvedObject.kind=ReplicationController,type=Warning', resourceVersion: '4711' },
    }]);
  });

  it('keeps the latest state of each event in arrival order; deleted ones go, bookmarks are ignored', async () => {
    const w = fakeWatch();
    const warnings = (await watchRcWarnings(w.watch, 'ns', '1'))!;
    w.send('ADDED', event('web-2.a', 'FailedCreate'));
    w.send('ADDED', event('web-2.b', 'FailedDelete'));
    w.send('MODIFIED', event('web-2.a', 'FailedCreate', 3));
    w.send('BOOKMARK', { metadata: { resourceVersion: '200' } });
    w.send('ADDED', event('web-2.c', 'Gone'));
    w.send('DELETED', event('web-2.c', 'Gone'));
    expect(warnings.collected()?.map((e) => `${e.metadata?.name} ${e.message}`)).toEqual(['web-2.a FailedCreate x3', 'web-2.b FailedDelete x1']);
  });

  it('a flood of warnings cannot grow the deployer\'s memory: past MaxCollectedWarnings it gives up the watch (and lists at the end)', async () => {
    const w = fakeWatch();
    const warnings = (await watchRcWarnings(w.watch, 'ns', '1'))!;
    for (let i = 0; i < MaxCollectedWarnings; i++) w.send('ADDED', event(`web-2.${i}`, 'Forged'));
    // Updates of a kept event are still taken.
    w.send('MODIFIED', event('web-2.0', 'Forged', 2));
    expect(warnings.collected()).toHaveLength(MaxCollectedWarnings);
    expect(w.controller.signal.aborted).toBe(false);
    w.send('ADDED', event('web-2.one-too-many', 'Forged'));
    expect(warnings.collected()).toBeUndefined();
    expect(w.controller.signal.aborted).toBe(true);
  });

  it('an ERROR event (a compacted revision) or an early end: undefined from then on, and the watch is stopped', async () => {
    for (const breakIt of [(w: ReturnType<typeof fakeWatch>) => w.send('ERROR', { code: 410, reason: 'Expired' }), (w: ReturnType<typeof fakeWatch>) => w.end()]) {
      const w = fakeWatch();
      const warnings = (await watchRcWarnings(w.watch, 'ns', '1'))!;
      w.send('ADDED', event('web-2.a', 'FailedCreate'));
      breakIt(w);
      w.send('ADDED', event('web-2.b', 'FailedCreate'));
      expect(warnings.collected()).toBeUndefined();
      expect(w.controller.signal.aborted).toBe(true);
    }
  });

  it('a refused watch or a resourceVersion that is not a revision: undefined (the deployer lists instead)', async () => {
    expect(await watchRcWarnings(fakeWatch(new ApiError('Forbidden', 403, 'Forbidden')).watch, 'ns', '1')).toBeUndefined();
    const w = fakeWatch();
    expect(await watchRcWarnings(w.watch, 'ns', '')).toBeUndefined();
    expect(await watchRcWarnings(w.watch, 'ns', 'abc')).toBeUndefined();
    expect(w.calls).toEqual([]);
  });

  it('close stops the watch; what it collected stays readable and its own end is no break', async () => {
    const w = fakeWatch();
    const warnings = (await watchRcWarnings(w.watch, 'ns', '1'))!;
    w.send('ADDED', event('web-2.a', 'FailedCreate'));
    warnings.close();
    w.end();
    expect(w.controller.signal.aborted).toBe(true);
    expect(warnings.collected()?.map((e) => e.reason)).toEqual(['FailedCreate']);
  });
});
