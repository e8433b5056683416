/**
 * Worker loop and retry policy shared by both controllers (OpenShift `worker`/`work`/`handleErr`,
 * design.md §4.10 and §5.4): N workers take keys from the queue, call `sync`, and decide from the
 * error's type whether to forget, requeue with backoff, or drop the key.
 */
import type { Logger } from 'pino';
import { FatalError, RetriableError, isConflict } from './errors.js';
import type { Clock } from './ports.js';
import { WorkQueue, type WorkQueueMetrics } from './workqueue.js';

/** Passed to every sync so it can change behaviour on its last tries. */
export interface SyncContext {
  /**
   * True when this attempt is among the last two before the key is dropped
   * (`numRequeues >= maxRetries - 2`, as OpenShift's deployer controller computes it): a "not in
   * cache yet" observation is then probably not a stale cache any more.
   */
  readonly willBeDropped: boolean;
  /** How many times the key was requeued with backoff since its last success. */
  readonly numRequeues: number;
}

export type SyncFn = (key: string, ctx: SyncContext) => Promise<void>;

export interface ControllerOptions {
  /** Logged as `controller` on every line. */
  readonly name: string;
  readonly queue: WorkQueue;
  readonly sync: SyncFn;
  /** Number of concurrent workers (OpenShift uses 5). */
  readonly workers: number;
  /** @default 15 */
  readonly maxRetries?: number;
  readonly log: Logger;
  /** Called when a key exhausted its retries (e.g. to emit a `FailedRetry` Warning event). */
  readonly onDropped?: (key: string, err: unknown) => void;
}

/** Queue and sync metrics of a controller (src/metrics.ts implements them for Prometheus). */
export interface ControllerMetrics {
  queue(name: string): WorkQueueMetrics;
  /** Wraps `sync` so its duration and result are recorded under `controller`. */
  timeSync(controller: string, sync: SyncFn): SyncFn;
}

/** What every controller constructor takes besides its informers and clients. */
export interface ControllerContext {
  /** Concurrent syncs per controller. */
  readonly workers: number;
  readonly log: Logger;
  readonly clock: Clock;
  readonly metrics?: ControllerMetrics;
}

/** A rate-limited work queue named `name`, reporting to the context's metrics. */
export function newQueue(ctx: ControllerContext, name: string): WorkQueue {
  return new WorkQueue({ name, metrics: ctx.metrics?.queue(name) });
}

/** A Controller named `name` on `queue`, with the context's workers, logger and sync metrics. */
export function newController(
  ctx: ControllerContext,
  name: string,
  queue: WorkQueue,
  sync: SyncFn,
  opts: Pick<ControllerOptions, 'maxRetries' | 'onDropped'> = {},
): Controller {
  return new Controller({ name, queue, workers: ctx.workers, log: ctx.log, sync: ctx.metrics ? ctx.metrics.timeSync(name, sync) : sync, ...opts });
}

/** Default retry budget of both OpenShift controllers. */
export const DefaultMaxRetries = 15;

/** Runs `sync` for queued keys on a fixed number of workers. */
export class Controller {
  private readonly opts: ControllerOptions;
  private readonly maxRetries: number;
  private readonly log: Logger;
  private workers: Promise<void>[] = [];

  constructor(opts: ControllerOptions) {
    this.opts = opts;
    this.maxRetries = opts.maxRetries ?? DefaultMaxRetries;
    this.log = opts.log.child({ controller: opts.name });
  }

  /** Starts the workers and resolves immediately; they run until `shutdown()`. */
  async run(): Promise<void> {
    if (this.workers.length > 0) return;
    this.log.info({ workers: this.opts.workers }, 'Starting workers');
    for (let i = 0; i < this.opts.workers; i++) this.workers.push(this.runWorker());
  }

  /** Stops handing out keys and resolves once every in-flight sync has finished. */
  async shutdown(): Promise<void> {
    await this.opts.queue.shutDownWithDrain();
    await Promise.all(this.workers);
    this.log.info('Workers stopped');
  }

  private async runWorker(): Promise<void> {
    const { queue } = this.opts;
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        await this.processItem(key);
      } finally {
        queue.done(key);
      }
    }
  }

  private async processItem(key: string): Promise<void> {
    const numRequeues = this.opts.queue.numRequeues(key);
    const willBeDropped = numRequeues >= this.maxRetries - 2;
    const started = performance.now();
    let err: unknown;
    let failed = false;
    try {
      await this.opts.sync(key, { willBeDropped, numRequeues });
    } catch (e) {
      err = e;
      failed = true;
    }
    this.log.debug({ key, durationMs: Math.round(performance.now() - started), failed }, 'Finished syncing');
    this.handleErr(key, failed, err, numRequeues);
  }

  private handleErr(key: string, failed: boolean, err: unknown, numRequeues: number): void {
    const { queue } = this.opts;
    if (!failed) {
      queue.forget(key);
      return;
    }
    if (err instanceof FatalError) {
      // Retrying cannot help: the object has to change first, and that change enqueues it again.
      this.log.error({ key, err }, 'Fatal error syncing; not retrying');
      queue.forget(key);
      return;
    }
    if (numRequeues < this.maxRetries) {
      // Conflicts and "cache not caught up yet" are routine while writers race; keep them quiet.
      const quiet = isConflict(err) || err instanceof RetriableError;
      this.log[quiet ? 'debug' : 'info']({ key, err, attempt: numRequeues + 1 }, 'Error syncing; requeuing');
      queue.addRateLimited(key);
      return;
    }
    this.log.warn({ key, err }, `Dropping ${this.opts.name} ${key} out of the queue`);
    try {
      this.opts.onDropped?.(key, err);
    } catch (e) {
      this.log.error({ key, err: e }, 'onDropped handler failed');
    }
    queue.forget(key);
  }
}
