import { describe, expect, it } from '@jest/globals';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
} from '../../../src/controller/rate-limiter.js';

describe('ItemExponentialFailureRateLimiter', () => {
  it('doubles from 5 ms per item and counts requeues', () => {
    const rl = new ItemExponentialFailureRateLimiter();
    expect([1, 2, 3, 4, 5].map(() => rl.when('a'))).toEqual([5, 10, 20, 40, 80]);
    expect(rl.numRequeues('a')).toBe(5);
    expect(rl.when('b')).toBe(5);
    expect(rl.numRequeues('b')).toBe(1);
  });

  it('caps at 1000 s and never produces NaN for huge failure counts', () => {
    const rl = new ItemExponentialFailureRateLimiter();
    let last = 0;
    for (let i = 0; i < 2000; i++) last = rl.when('x');
    expect(last).toBe(1_000_000);
  });

  it('forget resets the backoff and the requeue count', () => {
    const rl = new ItemExponentialFailureRateLimiter(5, 1000);
    rl.when('a');
    rl.when('a');
    rl.forget('a');
    expect(rl.numRequeues('a')).toBe(0);
    expect(rl.when('a')).toBe(5);
  });

  it('gives the ~82 s cumulative delay OpenShift documents for 15 retries', () => {
    const rl = new ItemExponentialFailureRateLimiter();
    let total = 0;
    for (let i = 0; i < 14; i++) total += rl.when('k');
    expect(total).toBeGreaterThan(81_000);
    expect(total).toBeLessThan(83_000);
  });
});

describe('BucketRateLimiter', () => {
  it('lets a burst through, then spaces items at 1/qps', () => {
    let now = 0;
    const rl = new BucketRateLimiter(10, 3, () => now);
    expect([rl.when('a'), rl.when('b'), rl.when('c')]).toEqual([0, 0, 0]);
    expect(rl.when('d')).toBeCloseTo(100);
    expect(rl.when('e')).toBeCloseTo(200);
    now = 1000; // refills, but not beyond the burst
    expect(rl.when('f')).toBe(0);
    expect(rl.numRequeues('f')).toBe(0);
  });
});

describe('MaxOfRateLimiter', () => {
  it('returns the longest delay and the highest requeue count', () => {
    let now = 0;
    const rl = new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(5, 1000), new BucketRateLimiter(10, 1, () => now));
    expect(rl.when('a')).toBe(5); // bucket had a token
    expect(rl.when('a')).toBeCloseTo(100); // bucket empty: 100 ms > 10 ms
    expect(rl.numRequeues('a')).toBe(2);
    rl.forget('a');
    expect(rl.numRequeues('a')).toBe(0);
    now = 10_000;
    expect(rl.when('a')).toBe(5);
  });

  it('default controller limiter starts at 5 ms', () => {
    const rl = defaultControllerRateLimiter(() => 0);
    expect(rl.when('k')).toBe(5);
    expect(rl.when('k')).toBe(10);
  });
});
