/**
 * Rate limiters for the work queue, mirroring client-go's `workqueue/default_rate_limiters.go`.
 * A limiter answers "how long must this item wait before it is processed again" and keeps the
 * per-item failure history that drives the retry budget (`numRequeues`).
 */

/** Decides requeue delays for items and tracks how often each was requeued. */
export interface RateLimiter {
  /** Delay in milliseconds before `item` may be processed again; counts as one requeue. */
  when(item: string): number;
  /** Clears the item's failure history (call after a successful sync or when giving up). */
  forget(item: string): void;
  /** How many times the item has been requeued since the last `forget`. */
  numRequeues(item: string): number;
}

/** Monotonic millisecond time source, injectable so tests can move time by hand. */
export type NowMs = () => number;

/**
 * Per-item exponential backoff: `baseDelayMs * 2^failures`, capped at `maxDelayMs`.
 * Defaults (5 ms, 1000 s) are client-go's, which gives OpenShift's documented 5 ms, 10 ms, 20 ms …
 * pattern and roughly 82 s of cumulative waiting before the 15-retry drop.
 */
export class ItemExponentialFailureRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly baseDelayMs = 5,
    private readonly maxDelayMs = 1_000_000,
  ) {}

  when(item: string): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    // 2 ** exp becomes Infinity long before it can overflow into NaN, and min() handles that.
    return Math.min(this.baseDelayMs * 2 ** exp, this.maxDelayMs);
  }

  forget(item: string): void {
    this.failures.delete(item);
  }

  numRequeues(item: string): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * Global token bucket (`qps` refill, `burst` capacity) shared by all items, so a mass failure
 * cannot hammer the API server. Like golang.org/x/time/rate `Reserve()`, a token is always
 * reserved and the returned delay is how long until that reservation becomes valid.
 * It keeps no per-item history: `numRequeues` is always 0.
 */
export class BucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps = 10,
    private readonly burst = 100,
    private readonly now: NowMs = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  when(_item: string): number {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
    this.last = t;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  forget(_item: string): void {}

  numRequeues(_item: string): number {
    return 0;
  }
}

/** Combines limiters: the delay is the longest any of them asks for; requeues the highest count. */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: readonly RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  when(item: string): number {
    // Every limiter must see the call (each records a failure / reserves a token), so no short-circuit.
    return this.limiters.reduce((max, l) => Math.max(max, l.when(item)), 0);
  }

  forget(item: string): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: string): number {
    return this.limiters.reduce((max, l) => Math.max(max, l.numRequeues(item)), 0);
  }
}

/**
 * The default controller rate limiter used by OpenShift's DC and deployer controllers
 * (design.md §4.1): max(per-item 5 ms·2^n capped at 1000 s, bucket 10 qps / burst 100).
 */
export function defaultControllerRateLimiter(now?: NowMs): RateLimiter {
  return new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(5, 1_000_000), new BucketRateLimiter(10, 100, now));
}
