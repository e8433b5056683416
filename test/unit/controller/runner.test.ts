import { describe, expect, it } from '@jest/globals';
import { ApiError, FatalError, RetriableError } from '../../../src/controller/errors.js';
import { ItemExponentialFailureRateLimiter } from '../../../src/controller/rate-limiter.js';
import { systemClock } from '../../../src/controller/ports.js';
import { memoryLog, sleep, until } from '../../support/wait.js';
import { Controller, newController, newQueue, type SyncContext } from '../../../src/controller/runner.js';
import { WorkQueue } from '../../../src/controller/workqueue.js';

// Real timers with a 1 ms base delay keep the retry schedule short (1, 2, 4 … ms, capped at 4 ms).
const fastQueue = () => new WorkQueue({ name: 't', rateLimiter: new ItemExponentialFailureRateLimiter(1, 4) });

describe('Controller', () => {
  it('forgets a key after a successful sync', async () => {
    const queue = fastQueue();
    const { log } = memoryLog();
    let calls = 0;
    const c = new Controller({ name: 't', queue, workers: 1, log, sync: async () => { calls++; if (calls < 3) throw new Error('boom'); } });
    await c.run();
    queue.add('ns/a');
    await until(() => calls === 3);
    await sleep(20);
    expect(calls).toBe(3);
    expect(queue.numRequeues('ns/a')).toBe(0);
    await c.shutdown();
  });

  it('never retries a FatalError', async () => {
    const queue = fastQueue();
    const { log, lines } = memoryLog();
    let calls = 0;
    const c = new Controller({ name: 't', queue, workers: 1, log, sync: async () => { calls++; throw new FatalError('cannot encode'); } });
    await c.run();
    queue.add('ns/a');
    await until(() => calls === 1);
    await sleep(30);
    expect(calls).toBe(1);
    expect(queue.numRequeues('ns/a')).toBe(0);
    expect(lines.some((l) => l['level'] === 50 && l['key'] === 'ns/a')).toBe(true);
    await c.shutdown();
  });

  it('drops a key after maxRetries requeues, reports it, and flags the last tries', async () => {
    const queue = fastQueue();
    const { log, lines } = memoryLog();
    const contexts: SyncContext[] = [];
    const dropped: Array<[string, unknown]> = [];
    const err = new Error('still failing');
    const c = new Controller({
      name: 'deploymentconfig', queue, workers: 2, log, maxRetries: 15,
      sync: async (_key, ctx) => { contexts.push(ctx); throw err; },
      onDropped: (key, e) => dropped.push([key, e]),
    });
    await c.run();
    queue.add('ns/dc');
    await until(() => dropped.length === 1);
    await sleep(30);
    expect(contexts).toHaveLength(16); // the first try plus 15 retries
    expect(contexts.map((x) => x.numRequeues)).toEqual([...Array(16).keys()]);
    expect(contexts.filter((x) => x.willBeDropped).map((x) => x.numRequeues)).toEqual([13, 14, 15]);
    expect(dropped).toEqual([['ns/dc', err]]);
    expect(queue.numRequeues('ns/dc')).toBe(0);
    const drop = lines.find((l) => typeof l['msg'] === 'string' && (l['msg'] as string).startsWith('Dropping'));
    expect(drop).toMatchObject({ msg: 'Dropping deploymentconfig ns/dc out of the queue', level: 40 });
    await c.shutdown();
  });

  it('logs conflicts and RetriableErrors at debug, other errors louder', async () => {
    const queue = fastQueue();
    const { log, lines } = memoryLog();
    const errors = [new ApiError('conflict', 409, 'Conflict'), new RetriableError('cache behind'), new Error('other')];
    let i = 0;
    const c = new Controller({ name: 't', queue, workers: 1, log, sync: async () => { const e = errors[i++]; if (e) throw e; } });
    await c.run();
    queue.add('k');
    await until(() => i === 4);
    await c.shutdown();
    const requeues = lines.filter((l) => l['msg'] === 'Error syncing; requeuing').map((l) => l['level']);
    expect(requeues).toEqual([20, 20, 30]);
  });

  it('runs at most `workers` syncs at once and never the same key twice concurrently', async () => {
    const queue = fastQueue();
    const { log } = memoryLog();
    let active = 0;
    let maxActive = 0;
    const activeKeys = new Set<string>();
    let overlap = false;
    let done = 0;
    const c = new Controller({
      name: 't', queue, workers: 3, log,
      sync: async (key) => {
        if (activeKeys.has(key)) overlap = true;
        activeKeys.add(key);
        active++;
        maxActive = Math.max(maxActive, active);
        await sleep(10);
        active--;
        activeKeys.delete(key);
        done++;
      },
    });
    await c.run();
    for (let i = 0; i < 9; i++) queue.add(`k${i}`);
    await sleep(2);
    queue.add('k0'); // re-added while processing
    await until(() => done === 10);
    expect(maxActive).toBe(3);
    expect(overlap).toBe(false);
    await c.shutdown();
  });

  it('shutdown waits for in-flight syncs and stops taking work', async () => {
    const queue = fastQueue();
    const { log } = memoryLog();
    const finished: string[] = [];
    const c = new Controller({ name: 't', queue, workers: 1, log, sync: async (key) => { await sleep(30); finished.push(key); } });
    await c.run();
    queue.add('a');
    queue.add('b');
    await sleep(5);
    await c.shutdown();
    expect(finished).toEqual(['a']);
  });
});

describe('newController', () => {
  it('runs the sync through the context metrics under the controller name, with the given options', async () => {
    const { log } = memoryLog();
    const timed: string[] = [];
    const queueNames: string[] = [];
    const dropped: string[] = [];
    const ctx = {
      workers: 1, log, clock: systemClock,
      metrics: {
        queue: (name: string) => { queueNames.push(name); return undefined as never; },
        timeSync: (name: string, sync: (key: string, c: SyncContext) => Promise<void>) =>
          async (key: string, c: SyncContext) => { timed.push(`${name} ${key}`); await sync(key, c); },
      },
    };
    const queue = new WorkQueue({ name: 'x', rateLimiter: new ItemExponentialFailureRateLimiter(1, 4) });
    const c = newController(ctx, 'x', queue, async () => { throw new Error('always'); }, { maxRetries: 2, onDropped: (key) => dropped.push(key) });
    await c.run();
    queue.add('ns/a');
    await until(() => dropped.length === 1);
    await c.shutdown();
    expect(dropped).toEqual(['ns/a']);
    expect(timed.length).toBeGreaterThanOrEqual(2);
    expect(timed[0]).toBe('x ns/a');
    newQueue(ctx, 'named');
    expect(queueNames).toEqual(['named']);
  });
});
