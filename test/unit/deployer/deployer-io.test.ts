import { describe, expect, it, jest } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { ApiError, isNotFound } from '../../../src/controller/errors.js';
import { WaitTimeoutError, WatchedObjectDeletedError } from '../../../src/deployer/ports.js';
import { InitialEventsTimeoutMs, KubeDeployerWatchers, type DeployerLists, type WatchLike } from '../../../src/kube/deployer-io.js';

/** A Watch stand-in: records the request and lets the test push events. */
class StubWatch implements WatchLike {
  requests: { path: string; query: Record<string, unknown> }[] = [];
  private callback?: (type: string, obj: unknown) => void;

  async watch(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: unknown) => void,
  ): Promise<AbortController> {
    this.requests.push({ path, query });
    this.callback = callback;
    return new AbortController();
  }

  push(type: string, obj: unknown): void {
    this.callback?.(type, obj);
  }
}

const rc = (replicas: number, available: number): V1ReplicationController => ({
  metadata: { name: 'web-1', namespace: 'ns', resourceVersion: String(10 + available), uid: 'u1' },
  spec: { replicas },
  status: { replicas, availableReplicas: available },
});

/** LISTs that answer `items` at resourceVersion 5 and record each request. */
function recordingLists(items: V1ReplicationController[]) {
  const lists: unknown[] = [];
  const core: DeployerLists = {
    replicationControllers: async (namespace, selector) => {
      lists.push({ namespace, ...selector });
      return { items, metadata: { resourceVersion: '5' } };
    },
    pods: async () => ({ items: [] }),
  };
  return { core, lists };
}

function watchers(items: V1ReplicationController[]) {
  const watch = new StubWatch();
  const { core, lists } = recordingLists(items);
  return { w: new KubeDeployerWatchers(core, watch), watch, lists };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('KubeDeployerWatchers.waitFor', () => {
  it('lists and watches the one RC by field selector, resolving on the first matching event', async () => {
    const { w, watch, lists } = watchers([rc(2, 0)]);
    const p = w.waitFor('ns', 'web-1', (r) => r.status?.availableReplicas === 2, 10_000);
    await tick();
    expect(lists).toEqual([{ namespace: 'ns', fieldSelector: 'metadata.name=web-1' }]);
    expect(watch.requests[0]).toEqual({
      path: '/api/v1/namespaces/ns/replicationcontrollers',
      query: { fieldSelector: 'metadata.name=web-1', resourceVersion: '5', allowWatchBookmarks: 'true' },
    });
    watch.push('MODIFIED', rc(2, 1));
    watch.push('MODIFIED', rc(2, 2));
    await expect(p).resolves.toMatchObject({ status: { availableReplicas: 2 } });
  });

  it('resolves from the initial list without waiting for events', async () => {
    const { w } = watchers([rc(1, 1)]);
    await expect(w.waitFor('ns', 'web-1', (r) => r.status?.availableReplicas === 1, 10_000)).resolves.toBeDefined();
  });

  it('rejects with NotFound when the RC is not in the initial list', async () => {
    const { w } = watchers([]);
    const err = await w.waitFor('ns', 'web-1', () => true, 10_000).catch((e: unknown) => e);
    expect(isNotFound(err)).toBe(true);
  });

  it('rejects when the RC is deleted, and on timeout', async () => {
    const { w, watch } = watchers([rc(2, 0)]);
    const deleted = w.waitFor('ns', 'web-1', () => false, 10_000);
    await tick();
    watch.push('DELETED', rc(2, 0));
    await expect(deleted).rejects.toBeInstanceOf(WatchedObjectDeletedError);

    const slow = watchers([rc(2, 0)]).w.waitFor('ns', 'web-1', () => false, 20);
    await expect(slow).rejects.toBeInstanceOf(WaitTimeoutError);
  });

  it('a timeout longer than a Node timer holds (~24.8 days, a legal timeoutSeconds) does not fire after 1 ms', async () => {
    jest.useFakeTimers();
    try {
      const { w } = watchers([rc(2, 0)]);
      let outcome: unknown;
      w.waitFor('ns', 'web-1', () => false, 30 * 86_400_000).catch((e: unknown) => { outcome = e; });
      await jest.advanceTimersByTimeAsync(1000);
      expect(outcome).toBeUndefined();
      await jest.advanceTimersByTimeAsync(30 * 86_400_000 - 1001);
      expect(outcome).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1);
      expect(outcome).toBeInstanceOf(WaitTimeoutError);
    } finally {
      jest.useRealTimers();
    }
  });

  it('passes predicate errors through (UID checks)', async () => {
    const { w } = watchers([rc(2, 0)]);
    await expect(w.waitFor('ns', 'web-1', () => { throw new Error('uid changed'); }, 10_000)).rejects.toThrow('uid changed');
  });
});

describe('KubeDeployerWatchers: one feed per object for the whole run', () => {
  it('serves later waits on the same RC from the open watch: one LIST and one WATCH in all', async () => {
    const { w, watch, lists } = watchers([rc(1, 0)]);
    const first = w.waitFor('ns', 'web-1', (r) => r.status?.availableReplicas === 1, 10_000);
    await tick();
    watch.push('MODIFIED', rc(1, 1));
    await first;
    const second = w.waitFor('ns', 'web-1', (r) => r.spec?.replicas === 3, 10_000);
    await tick();
    watch.push('MODIFIED', rc(3, 1));
    await expect(second).resolves.toMatchObject({ spec: { replicas: 3 } });
    expect(lists).toHaveLength(1);
    expect(watch.requests).toHaveLength(1);
    w.close();
  });

  it('re-lists only a feed that stayed silent for recheckMs (a stalled watch), not a live one', async () => {
    const { w, watch, lists } = watchers([rc(2, 0)]);
    const p = w.waitFor('ns', 'web-1', () => false, 10_000, { recheckMs: 40 });
    p.catch(() => undefined);
    await tick();
    // Live: an event every 10 ms keeps the feed from being re-listed.
    for (let i = 0; i < 8; i++) {
      watch.push('MODIFIED', rc(2, 0));
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(lists).toHaveLength(1);
    // Silent: re-listed within about two intervals.
    await new Promise((r) => setTimeout(r, 120));
    expect(lists.length).toBeGreaterThan(1);
    w.close();
  });

  it('re-lists a silent feed at doubling gaps while the re-lists find nothing the watch missed; news brings it back to one interval', async () => {
    jest.useFakeTimers();
    try {
      let items = [rc(2, 0)];
      const watch = new StubWatch();
      const lists: number[] = [];
      const core: DeployerLists = {
        replicationControllers: async () => {
          lists.push(Date.now());
          return { items, metadata: { resourceVersion: '5' } };
        },
        pods: async () => ({ items: [] }),
      };
      const w = new KubeDeployerWatchers(core, watch);
      const start = Date.now();
      w.waitFor('ns', 'web-1', () => false, 100_000, { recheckMs: 1000 }).catch(() => undefined);
      // 1 + 2 + 4 + 8 + 8 intervals of silence: re-lists at 1, 3, 7, 15 and 23 s.
      await jest.advanceTimersByTimeAsync(23_500);
      expect(lists.map((t) => Math.round((t - start) / 1000))).toEqual([0, 1, 3, 7, 15, 23]);
      // A re-list that finds a change the watch did not deliver: back to one interval.
      items = [rc(2, 1)];
      await jest.advanceTimersByTimeAsync(8_000);
      expect(lists).toHaveLength(7);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(lists).toHaveLength(8);
      // Nothing new again at 32 s: next at 34 s, then 4 s later; an event at 35 s resets it to one interval (36 s, not 39 s).
      await jest.advanceTimersByTimeAsync(2_000);
      expect(lists).toHaveLength(9);
      await jest.advanceTimersByTimeAsync(500);
      watch.push('MODIFIED', rc(2, 1));
      await jest.advanceTimersByTimeAsync(1_500);
      expect(lists).toHaveLength(10);
      w.close();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('KubeDeployerWatchers: notOlderThan', () => {
  it('does not decide on states from before our own write that the shared watch still delivers', async () => {
    const { w, watch } = watchers([rc(1, 1)]);
    let decided: V1ReplicationController | undefined;
    const p = w.waitFor('ns', 'web-1', () => true, 10_000, { notOlderThan: '30' }).then((r) => { decided = r; });
    await tick();
    watch.push('MODIFIED', { ...rc(1, 1), metadata: { ...rc(1, 1).metadata, resourceVersion: '29' } });
    await tick();
    expect(decided).toBeUndefined();
    watch.push('MODIFIED', { ...rc(2, 1), metadata: { ...rc(2, 1).metadata, resourceVersion: '30' } });
    await p;
    expect(decided?.spec?.replicas).toBe(2);
    w.close();
  });
});

describe('KubeDeployerWatchers: a refused watch', () => {
  it('fails the wait with the API error instead of waiting for its timeout', async () => {
    const core: DeployerLists = {
      replicationControllers: async () => ({ items: [rc(2, 0)], metadata: { resourceVersion: '5' } }),
      pods: async () => ({ items: [] }),
    };
    const refusing: WatchLike = { watch: async () => { throw new ApiError('forbidden', 403, 'Forbidden'); } };
    const w = new KubeDeployerWatchers(core, refusing);
    const err = await w.waitFor('ns', 'web-1', () => false, 10_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(403);
    w.close();
  });
});

describe('KubeDeployerWatchers: streamed initial lists (WatchList)', () => {
  /** A Watch stand-in whose first request can be refused, and whose streams can be ended. */
  class StreamingStub implements WatchLike {
    requests: { path: string; query: Record<string, unknown>; aborted: () => boolean }[] = [];
    private callbacks: ((type: string, obj: unknown) => void)[] = [];
    private dones: ((err?: unknown) => void)[] = [];
    constructor(private readonly refuseFirst?: ApiError) {}

    async watch(
      path: string,
      query: Record<string, string | number | boolean | undefined>,
      callback: (type: string, obj: unknown) => void,
      done: (err?: unknown) => void,
    ): Promise<AbortController> {
      const c = new AbortController();
      this.requests.push({ path, query, aborted: () => c.signal.aborted });
      if (this.refuseFirst && this.requests.length === 1) throw this.refuseFirst;
      this.callbacks.push(callback);
      this.dones.push(done);
      return c;
    }

    push(type: string, obj: unknown, stream = this.callbacks.length - 1): void {
      this.callbacks[stream]?.(type, obj);
    }

    end(stream = this.dones.length - 1): void {
      this.dones[stream]?.();
    }
  }

  const initialEventsEnd = (resourceVersion: string) =>
    ({ metadata: { resourceVersion, annotations: { 'k8s.io/initial-events-end': 'true' } } });

  function streaming(watch: WatchLike, items: V1ReplicationController[] = [rc(2, 0)]) {
    const { core, lists } = recordingLists(items);
    return { w: new KubeDeployerWatchers(core, watch, { streamingLists: true }), lists };
  }

  it('takes the initial state from one watch request and waits on that same watch: no LIST', async () => {
    const watch = new StreamingStub();
    const { w, lists } = streaming(watch);
    const p = w.waitFor('ns', 'web-1', (r) => r.status?.availableReplicas === 2, 10_000);
    await tick();
    expect(watch.requests.map((r) => r.query)).toEqual([{
      fieldSelector: 'metadata.name=web-1', sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true',
    }]);
    watch.push('ADDED', rc(2, 0));
    // A plain bookmark does not end the initial events; the wait has not decided yet.
    watch.push('BOOKMARK', { metadata: { resourceVersion: '10' } });
    watch.push('BOOKMARK', initialEventsEnd('11'));
    await tick();
    watch.push('MODIFIED', rc(2, 2));
    await expect(p).resolves.toMatchObject({ status: { availableReplicas: 2 } });
    expect(lists).toEqual([]);
    expect(watch.requests).toHaveLength(1);
    w.close();
  });

  it('reports NotFound for an object the stream did not contain, as the LIST did', async () => {
    const watch = new StreamingStub();
    const { w } = streaming(watch);
    const p = w.waitFor('ns', 'web-1', () => true, 10_000);
    await tick();
    watch.push('BOOKMARK', initialEventsEnd('11'));
    expect(isNotFound(await p.catch((e: unknown) => e))).toBe(true);
    w.close();
  });

  it('re-opens an ended watch from the bookmark\'s resourceVersion, without a LIST', async () => {
    jest.useFakeTimers();
    try {
      const watch = new StreamingStub();
      const { w, lists } = streaming(watch);
      const p = w.waitFor('ns', 'web-1', (r) => r.status?.availableReplicas === 2, 60_000);
      await jest.advanceTimersByTimeAsync(0);
      watch.push('ADDED', rc(2, 0));
      watch.push('BOOKMARK', initialEventsEnd('11'));
      await jest.advanceTimersByTimeAsync(0);
      watch.end();
      await jest.advanceTimersByTimeAsync(1000);
      expect(watch.requests[1]?.query).toEqual({ fieldSelector: 'metadata.name=web-1', resourceVersion: '11', allowWatchBookmarks: 'true' });
      watch.push('MODIFIED', rc(2, 2));
      await expect(p).resolves.toMatchObject({ status: { availableReplicas: 2 } });
      expect(lists).toEqual([]);
      w.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('falls back to LIST and WATCH when the server refuses the stream as invalid (WatchList off)', async () => {
    const watch = new StreamingStub(new ApiError('sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled', 422, 'Invalid'));
    const { w, lists } = streaming(watch, [rc(2, 1)]);
    await expect(w.waitFor('ns', 'web-1', (r) => r.status?.availableReplicas === 1, 10_000)).resolves.toBeDefined();
    expect(lists).toHaveLength(1);
    expect(watch.requests[1]?.query).toEqual({ fieldSelector: 'metadata.name=web-1', resourceVersion: '5', allowWatchBookmarks: 'true' });
    w.close();
  });

  it('fails the wait with any other refusal (Forbidden), as a refused LIST would', async () => {
    const watch = new StreamingStub(new ApiError('forbidden', 403, 'Forbidden'));
    const { w, lists } = streaming(watch);
    const err = await w.waitFor('ns', 'web-1', () => true, 10_000).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe(403);
    expect(lists).toEqual([]);
    w.close();
  });

  it('falls back to LIST and WATCH when the stream ends before its initial events did', async () => {
    const watch = new StreamingStub();
    const { w, lists } = streaming(watch, [rc(2, 1)]);
    const p = w.waitFor('ns', 'web-1', (r) => r.status?.availableReplicas === 1, 10_000);
    await tick();
    watch.push('ADDED', rc(2, 0));
    watch.end();
    await expect(p).resolves.toMatchObject({ status: { availableReplicas: 1 } });
    expect(lists).toHaveLength(1);
    expect(watch.requests).toHaveLength(2);
    w.close();
  });

  it('a server that ignores sendInitialEvents (no end bookmark): the stream is dropped after InitialEventsTimeoutMs and the feed LISTs', async () => {
    jest.useFakeTimers();
    try {
      const watch = new StreamingStub();
      const { w, lists } = streaming(watch, [rc(2, 1)]);
      let outcome: unknown;
      w.waitFor('ns', 'web-1', (r) => r.status?.availableReplicas === 1, 60_000).then((r) => { outcome = r; });
      await jest.advanceTimersByTimeAsync(0);
      watch.push('ADDED', rc(2, 0));
      await jest.advanceTimersByTimeAsync(InitialEventsTimeoutMs - 1);
      expect(outcome).toBeUndefined();
      expect(lists).toEqual([]);
      await jest.advanceTimersByTimeAsync(1);
      expect(watch.requests[0]?.aborted()).toBe(true);
      expect(lists).toHaveLength(1);
      expect(outcome).toMatchObject({ status: { availableReplicas: 1 } });
      w.close();
    } finally {
      jest.useRealTimers();
    }
  });
});
