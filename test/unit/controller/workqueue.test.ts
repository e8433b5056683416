import { describe, expect, it } from '@jest/globals';
import { ItemExponentialFailureRateLimiter } from '../../../src/controller/rate-limiter.js';
import { WorkQueue, type WorkQueueMetrics } from '../../../src/controller/workqueue.js';
import { FakeTimers } from '../../support/timers.js';

function newQueue(timers = new FakeTimers(), metrics?: WorkQueueMetrics) {
  return { timers, q: new WorkQueue({ name: 'test', timers, rateLimiter: new ItemExponentialFailureRateLimiter(5, 1000), metrics }) };
}

/** Resolves to the value if `p` settles within the current macrotask, else 'pending'. */
async function peek<T>(p: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((r) => setImmediate(() => r('pending')))]);
}

describe('WorkQueue', () => {
  it('deduplicates keys that are added several times before being taken', async () => {
    const { q } = newQueue();
    q.add('ns/a');
    q.add('ns/b');
    q.add('ns/a');
    expect(q.len()).toBe(2);
    expect(await q.get()).toBe('ns/a');
    expect(await q.get()).toBe('ns/b');
    expect(await peek(q.get())).toBe('pending');
  });

  it('never hands out a key that is processing; a re-add is processed again after done', async () => {
    const { q } = newQueue();
    q.add('k');
    expect(await q.get()).toBe('k');
    q.add('k');
    q.add('k');
    expect(q.len()).toBe(0);
    const second = q.get();
    expect(await peek(second)).toBe('pending');
    q.done('k');
    expect(await second).toBe('k');
    q.done('k');
    expect(await peek(q.get())).toBe('pending');
  });

  it('wakes a waiting get() when a key is added', async () => {
    const { q } = newQueue();
    const waiting = q.get();
    q.add('x');
    expect(await waiting).toBe('x');
  });

  it('addAfter delays the key and the earliest deadline wins', async () => {
    const { q, timers } = newQueue();
    q.addAfter('k', 1000);
    q.addAfter('k', 100);
    q.addAfter('k', 500);
    expect(q.len()).toBe(0);
    timers.advance(99);
    expect(q.len()).toBe(0);
    timers.advance(1);
    expect(q.len()).toBe(1);
    expect(timers.pending()).toBe(0);
    expect(await q.get()).toBe('k');
  });

  it.each([
    ['30 days (more than a timer holds)', 30 * 86_400_000],
    ['not a number', Number.NaN],
  ])('addAfter with a delay of %s never fires early (Node fires such timers after 1 ms: a hot requeue loop)', (_name, delay) => {
    const { q, timers } = newQueue();
    q.addAfter('k', delay);
    timers.advance(1);
    expect(q.len()).toBe(0);
    timers.advance(2 ** 31 - 2);
    expect(q.len()).toBe(1);
  });

  it('addBatched folds a burst into one add, a period after its first call', async () => {
    const { q, timers } = newQueue();
    q.addBatched('k', 500);
    timers.advance(300);
    q.addBatched('k', 500);
    expect(q.len()).toBe(0);
    timers.advance(200);
    expect(q.len()).toBe(1);
    expect(await q.get()).toBe('k');
    q.done('k');
    expect(timers.pending()).toBe(0);
    // The next burst starts a new period.
    q.addBatched('k', 500);
    timers.advance(499);
    expect(q.len()).toBe(0);
    timers.advance(1);
    expect(q.len()).toBe(1);
  });

  it('addBatched adds nothing for a queued key, and a key handed out drops its batch', async () => {
    const { q, timers } = newQueue();
    q.add('k');
    q.addBatched('k', 500);
    expect(timers.pending()).toBe(0);
    expect(await q.get()).toBe('k');
    q.done('k');
    // A batch waiting when another add hands the key out: that sync reads everything the batch
    // waited for, so no second sync follows.
    q.addBatched('k', 500);
    q.add('k');
    expect(await q.get()).toBe('k');
    q.done('k');
    timers.advance(1000);
    expect(q.len()).toBe(0);
    expect(timers.pending()).toBe(0);
    // Marked dirty while processing: done() re-queues it, no timer needed.
    q.add('k');
    expect(await q.get()).toBe('k');
    q.add('k');
    q.addBatched('k', 500);
    expect(timers.pending()).toBe(0);
    q.done('k');
    expect(q.len()).toBe(1);
  });

  it('addBatched with a period of 0 adds at once; shutDown cancels a batch', () => {
    const { q, timers } = newQueue();
    q.addBatched('now', 0);
    expect(q.len()).toBe(1);
    q.addBatched('later', 500);
    q.shutDown();
    expect(timers.pending()).toBe(0);
  });

  it('addRateLimited backs off exponentially and forget resets it', () => {
    const { q, timers } = newQueue();
    q.addRateLimited('k');
    q.addRateLimited('k'); // second request: 10 ms, later than the pending 5 ms timer → keeps 5 ms
    expect(q.numRequeues('k')).toBe(2);
    timers.advance(5);
    expect(q.len()).toBe(1);
    q.forget('k');
    expect(q.numRequeues('k')).toBe(0);
  });

  it('shutDown makes get() return undefined and ignores further adds', async () => {
    const { q, timers } = newQueue();
    const waiting = q.get();
    q.add('a');
    await waiting;
    q.addAfter('later', 10);
    q.shutDown();
    q.add('b');
    timers.advance(100);
    expect(await q.get()).toBeUndefined();
    expect(q.len()).toBe(0);
    const blocked = newQueue().q;
    const pending = blocked.get();
    blocked.shutDown();
    expect(await pending).toBeUndefined();
  });

  it('shutDownWithDrain waits for keys in flight', async () => {
    const { q } = newQueue();
    q.add('a');
    const key = await q.get();
    const drained = q.shutDownWithDrain();
    expect(await peek(drained)).toBe('pending');
    q.done(key!);
    await expect(drained).resolves.toBeUndefined();
  });

  it('reports metrics: depth, adds, latency, work duration, retries', async () => {
    const calls: string[] = [];
    const metrics: WorkQueueMetrics = {
      setDepth: (d) => calls.push(`depth=${d}`),
      incAdds: () => calls.push('add'),
      observeQueueLatency: (s) => calls.push(`latency=${s}`),
      observeWorkDuration: (s) => calls.push(`work=${s}`),
      incRetries: () => calls.push('retry'),
    };
    const { q, timers } = newQueue(new FakeTimers(), metrics);
    q.add('k');
    timers.advance(2000);
    await q.get();
    timers.advance(500);
    q.done('k');
    q.addRateLimited('k');
    expect(calls).toEqual(['add', 'depth=1', 'depth=0', 'latency=2', 'work=0.5', 'retry']);
  });
});
