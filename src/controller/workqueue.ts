/**
 * A key-only, rate-limited work queue with client-go semantics (`workqueue.Type`,
 * `delaying_queue.go`, `rate_limiting_queue.go`):
 *
 * - Dedup: a key waiting in the queue is stored once, however often it is added.
 * - Exclusivity: a key handed out by `get()` is "processing" until `done()`. Adding it meanwhile
 *   marks it dirty; it is queued again only when `done()` is called, so two workers never sync
 *   the same key at the same time and the latest state is always reconciled afterwards.
 * - Delays: `addAfter` keeps one timer per key (the earliest wins); `addRateLimited` asks the
 *   rate limiter for the delay; `addBatched` folds a burst of adds into one, a period after the
 *   first.
 */
import { MaxTimerDelayMs } from '../util/sleep.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';

/** Optional instrumentation hooks (a prom-client adapter can implement these). */
export interface WorkQueueMetrics {
  /** Number of keys waiting to be handed out. */
  setDepth(depth: number): void;
  /** Called for every `add` that reached the queue (including deduplicated ones). */
  incAdds(): void;
  /** Seconds a key waited in the queue before a worker took it. */
  observeQueueLatency(seconds: number): void;
  /** Seconds between `get()` and `done()` for a key. */
  observeWorkDuration(seconds: number): void;
  /** Called for every `addRateLimited`. */
  incRetries(): void;
}

/** Time and timer source; injectable so delays are testable without waiting. */
export interface QueueTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Real timers. Timers are unref'd: a pending requeue alone must not keep the process alive. */
export const systemTimers: QueueTimers = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface WorkQueueOptions {
  /** Used in logs and metrics labels. */
  readonly name: string;
  /** @default defaultControllerRateLimiter() */
  readonly rateLimiter?: RateLimiter;
  /** @default systemTimers */
  readonly timers?: QueueTimers;
  readonly metrics?: WorkQueueMetrics;
}

/** See the module comment for the semantics. */
export class WorkQueue {
  readonly name: string;
  private readonly rateLimiter: RateLimiter;
  private readonly timers: QueueTimers;
  private readonly metrics: WorkQueueMetrics | undefined;

  private queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly waiting = new Map<string, { readyAt: number; handle: unknown }>();
  private readonly batched = new Map<string, unknown>();
  private readonly addedAt = new Map<string, number>();
  private readonly startedAt = new Map<string, number>();
  private readonly getters: Array<() => void> = [];
  private drainWaiters: Array<() => void> = [];
  private shuttingDown = false;

  constructor(opts: WorkQueueOptions) {
    this.name = opts.name;
    this.rateLimiter = opts.rateLimiter ?? defaultControllerRateLimiter();
    this.timers = opts.timers ?? systemTimers;
    this.metrics = opts.metrics;
  }

  /** Queues `key` unless it is already queued; ignored after shutdown. */
  add(key: string): void {
    if (this.shuttingDown) return;
    this.metrics?.incAdds();
    if (this.dirty.has(key)) return;
    this.dirty.add(key);
    this.addedAt.set(key, this.timers.now());
    // A key being processed is re-queued by done(); queuing it now would let a second worker take it.
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.metrics?.setDepth(this.queue.length);
    this.getters.shift()?.();
  }

  /**
   * Adds `key` after `delayMs`. If the key is already waiting, the earlier deadline wins, so a
   * long backoff never postpones an explicit short requeue (and vice versa).
   */
  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    // Node fires a timer whose delay is above 2^31-1 ms (~24.8 days) or not a number after 1 ms:
    // a legal long wait (updatePeriodSeconds has no upper bound) or a bad computation would turn
    // into a hot requeue loop. Waiting the longest a timer holds is never earlier than asked.
    delayMs = Number.isNaN(delayMs) ? MaxTimerDelayMs : Math.min(delayMs, MaxTimerDelayMs);
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const readyAt = this.timers.now() + delayMs;
    const existing = this.waiting.get(key);
    if (existing) {
      if (existing.readyAt <= readyAt) return;
      this.timers.clearTimeout(existing.handle);
    }
    const handle = this.timers.setTimeout(() => {
      this.waiting.delete(key);
      this.add(key);
    }, delayMs);
    this.waiting.set(key, { readyAt, handle });
  }

  /**
   * Adds `key` once `periodMs` after the first of a burst of calls, so the burst costs one sync
   * (kube's endpoints controller's `--endpoint-updates-batch-period`). Nothing to do when the key
   * is already queued: its sync has not read the caches yet. Handing the key out for any reason
   * drops the batch, since that sync reads everything the batch waited for.
   */
  addBatched(key: string, periodMs: number): void {
    if (this.shuttingDown) return;
    if (!(periodMs > 0)) {
      this.add(key);
      return;
    }
    if (this.dirty.has(key) || this.batched.has(key)) return;
    const handle = this.timers.setTimeout(() => {
      this.batched.delete(key);
      this.add(key);
    }, Math.min(periodMs, MaxTimerDelayMs));
    this.batched.set(key, handle);
  }

  /** Adds `key` after the rate limiter's delay; this counts as one requeue of the key. */
  addRateLimited(key: string): void {
    this.metrics?.incRetries();
    this.addAfter(key, this.rateLimiter.when(key));
  }

  /** Resets the key's backoff and retry count (does not remove it from the queue). */
  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  /** How many times the key was `addRateLimited` since the last `forget`. */
  numRequeues(key: string): number {
    return this.rateLimiter.numRequeues(key);
  }

  /**
   * Waits for the next key and marks it processing; the caller must call `done(key)` afterwards.
   * Resolves `undefined` once the queue is shut down (remaining keys are not handed out: the
   * controller is stopping and the next leader relists everything anyway).
   */
  async get(): Promise<string | undefined> {
    for (;;) {
      if (this.shuttingDown) return undefined;
      const key = this.queue.shift();
      if (key !== undefined) {
        this.metrics?.setDepth(this.queue.length);
        this.dirty.delete(key);
        this.processing.add(key);
        const batch = this.batched.get(key);
        if (batch !== undefined) {
          this.timers.clearTimeout(batch);
          this.batched.delete(key);
        }
        const now = this.timers.now();
        const added = this.addedAt.get(key);
        this.addedAt.delete(key);
        if (added !== undefined) this.metrics?.observeQueueLatency((now - added) / 1000);
        this.startedAt.set(key, now);
        return key;
      }
      await new Promise<void>((resolve) => this.getters.push(resolve));
    }
  }

  /** Marks `key` finished; if it was added while processing, it is queued again now. */
  done(key: string): void {
    if (!this.processing.delete(key)) return;
    const started = this.startedAt.get(key);
    this.startedAt.delete(key);
    if (started !== undefined) this.metrics?.observeWorkDuration((this.timers.now() - started) / 1000);
    if (this.dirty.has(key) && !this.shuttingDown) {
      this.queue.push(key);
      this.metrics?.setDepth(this.queue.length);
      this.getters.shift()?.();
    }
    if (this.processing.size === 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** Number of keys waiting to be handed out (not counting delayed or processing ones). */
  len(): number {
    return this.queue.length;
  }

  /** True once `shutDown` or `shutDownWithDrain` was called. */
  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Stops handing out work: pending and future `get()` calls resolve `undefined`; adds are ignored. */
  shutDown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    for (const { handle } of this.waiting.values()) this.timers.clearTimeout(handle);
    this.waiting.clear();
    for (const handle of this.batched.values()) this.timers.clearTimeout(handle);
    this.batched.clear();
    this.queue = [];
    this.dirty.clear();
    this.addedAt.clear();
    this.metrics?.setDepth(0);
    const getters = this.getters.splice(0);
    for (const g of getters) g();
  }

  /** Like `shutDown`, then resolves once every key currently processing has been `done()`. */
  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return;
    await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }
}
