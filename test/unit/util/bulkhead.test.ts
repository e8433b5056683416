/**
 * The bulkhead in front of per-request API calls of endpoints anyone can reach (the webhook's dry
 * runs, the metrics endpoint's TokenReviews): a flood of callers must not become a flood of
 * requests. At most `inFlight` calls go at once, `queued` wait, the rest are refused at once.
 */
import { describe, expect, it } from '@jest/globals';
import { bulkhead } from '../../../src/util/bulkhead.js';

class Busy extends Error {}

describe('bulkhead', () => {
  it('keeps at most `inFlight` calls going, queues `queued` more in order, and refuses the rest at once', async () => {
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const call = async (i: number) => {
      started.push(i);
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((r) => releases.push(r));
      running--;
      return i;
    };
    const bounded = bulkhead(call, { inFlight: 4, queued: 10 }, () => new Busy('busy'));
    const results = Array.from({ length: 1000 }, (_, i) => bounded(i).catch((err: unknown) => err));
    const refused = await Promise.all(results.slice(14));
    expect(refused.every((e) => e instanceof Busy)).toBe(true);
    expect(started).toEqual([0, 1, 2, 3]);
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all(results.slice(0, 14))).toEqual(Array.from({ length: 14 }, (_, i) => i));
    expect(started).toEqual(Array.from({ length: 14 }, (_, i) => i));
    expect(peak).toBe(4);
    // Free again once drained.
    const next = bounded(99);
    releases.shift()!();
    await expect(next).resolves.toBe(99);
  });

  it('frees its slot when a call fails', async () => {
    const bounded = bulkhead(async () => { throw new Error('refused'); }, { inFlight: 1, queued: 0 }, () => new Busy('busy'));
    await expect(bounded()).rejects.toThrow('refused');
    await expect(bounded()).rejects.toThrow('refused');
  });
});
