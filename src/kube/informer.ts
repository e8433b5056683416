/**
 * A list+watch cache with event handlers (client-go's reflector + store + shared informer, in
 * one small class), written directly on client-node's `Watch` because `ListWatch` (1.4.0) stays
 * stopped after errors, reconnects without backoff, has no resync and no stall detection.
 *
 * Guarantees:
 * - `start()` resolves only once a list has succeeded (`hasSynced()` is then true); list
 *   failures are retried with backoff, never swallowed.
 * - Errors never stop the informer: it relists after exponential backoff with jitter
 *   (`initialBackoffMs` doubling to `maxBackoffMs`), so objects deleted during an outage still
 *   produce `delete` events (relist diff).
 * - 410 Gone (HTTP or watch ERROR event) → immediate relist.
 * - The server closes each watch after `watchTimeoutSeconds`; a watch that shows no sign of
 *   life (no connect, event or bookmark) for `watchdogMs` is aborted and re-established.
 * - Every `resyncMs`, `update(obj, obj)` is called for every cached object, which is how
 *   controllers get their periodic full reconciliation (OpenShift: 10 minutes).
 * - Cached objects are plain JSON (timestamps are strings, see plain.ts) and READ-ONLY.
 * - `delete` handlers receive the last known state of the object.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { Lister } from '../controller/ports.js';
import { isGone, type ApiError } from '../controller/errors.js';
import { toApiError } from './errors.js';
import { ListWatchFailureReporter } from './informer-failures.js';
import { sleep } from '../util/sleep.js';
import { toPlain } from './plain.js';

/** The subset of client-node's `Watch` the informer uses (a seam for unit tests). */
export interface WatchLike {
  watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: unknown, watchObj?: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController>;
}

export interface ListResult<T> {
  items: T[];
  metadata?: { resourceVersion?: string };
}

export interface InformerOptions<T extends KubernetesObject> {
  /** Collection path, e.g. `/api/v1/namespaces/ns/pods` or `/apis/g/v/plural` (all namespaces). */
  readonly path: string;
  /** Lists the same collection; MUST apply the same selectors as `labelSelector`/`fieldSelector`. */
  readonly list: () => Promise<ListResult<T>>;
  /** Applied to the watch. */
  readonly labelSelector?: string;
  /** Applied to the watch. */
  readonly fieldSelector?: string;
  /** Period of the synthetic update(obj, obj) for every cached object; 0 disables. @default 0 */
  readonly resyncMs?: number;
  /** Server-side watch timeout, bounding a silently dead connection. @default 300 */
  readonly watchTimeoutSeconds?: number;
  /** Restart a watch with no connect/event for this long. @default (watchTimeoutSeconds + 30) s */
  readonly watchdogMs?: number;
  /** @default 1000 */
  readonly initialBackoffMs?: number;
  /** @default 30000 */
  readonly maxBackoffMs?: number;
  /** How long 429/503 "not ready yet" answers are logged at debug only (informer-failures.ts). @default 20000 */
  readonly notReadyQuietMs?: number;
  readonly log: Logger;
  /**
   * Opens the watches: the small JSON client's (src/kube/rest.ts) or client-node's `Watch`, which
   * the caller builds, so that this module loads no client-node (design.md §1.1).
   */
  readonly watch: WatchLike;
  /**
   * Applied to every listed or watched object before it is cached (client-go's
   * `SetTransform`): drop what no controller reads, so the cache holds less. Must return a
   * plain object with the same metadata name, namespace and resourceVersion.
   */
  readonly transform?: (obj: T) => T;
  /**
   * Secondary indexes (client-go's Indexers): name → function giving the index values of an
   * object. `byIndex(name, value)` then answers without scanning the whole cache.
   */
  readonly indexers?: Record<string, (obj: T) => string[]>;
}

/** managedFields are dropped from every cache (see cache-transforms.ts). */
export { stripManagedFields } from './cache-transforms.js';

export type AddHandler<T> = (obj: T) => void;
export type UpdateHandler<T> = (oldObj: T, newObj: T) => void;
export type DeleteHandler<T> = (obj: T) => void;

/** A started-on-demand, self-healing cache of one resource collection. */
export interface Informer<T extends KubernetesObject> extends Lister<T> {
  on(event: 'add', handler: AddHandler<T>): void;
  on(event: 'update', handler: UpdateHandler<T>): void;
  on(event: 'delete', handler: DeleteHandler<T>): void;
  /** Starts list+watch; resolves once the first list is in the cache (or when stopped first). */
  start(): Promise<void>;
  hasSynced(): boolean;
  /** Stops watching and all timers; the cache keeps its last content. */
  stop(): void;
  /** Resource version of the last list or watch event ('' before the first list). */
  lastResourceVersion(): string;
  /** Cached objects whose `indexName` index yields `value` (see InformerOptions.indexers). */
  byIndex(indexName: string, value: string): T[];
}

/** Creates an informer; handlers registered before `start()` see the initial adds. */
export function createInformer<T extends KubernetesObject>(opts: InformerOptions<T>): Informer<T> {
  return new ListWatchInformer<T>(opts.watch, opts);
}

type WatchOutcome =
  | { kind: 'closed'; sawActivity: boolean }
  | { kind: 'gone' }
  | { kind: 'stalled' }
  | { kind: 'error'; err: unknown }
  | { kind: 'stopped' };

/** Cache key: `namespace/name`, or `name` for cluster-scoped objects. */
export function cacheKey(obj: KubernetesObject): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? '';
  return ns ? `${ns}/${name}` : name;
}

class ListWatchInformer<T extends KubernetesObject> implements Informer<T> {
  private readonly cache = new Map<string, T>();
  /** index name → index value → cache keys. */
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  private readonly handlers = { add: [] as AddHandler<T>[], update: [] as UpdateHandler<T>[], delete: [] as DeleteHandler<T>[] };
  private readonly log: Logger;
  private readonly watchTimeoutSeconds: number;
  private readonly watchdogMs: number;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly notReadyQuietMs: number;

  private running = false;
  /** Bumped on every start so a loop left over from before a stop()/start() pair exits. */
  private generation = 0;
  private synced = false;
  private rv = '';
  private syncedWaiters: Array<() => void> = [];
  private resyncTimer: ReturnType<typeof setInterval> | undefined;
  /** Ends the watch in progress when stop() is called. */
  private wake: (() => void) | undefined;
  /** Aborted by stop(): cuts a retry backoff short. */
  private stopping = new AbortController();
  private currentAbort: AbortController | undefined;

  constructor(
    private readonly watcher: WatchLike,
    private readonly opts: InformerOptions<T>,
  ) {
    this.log = opts.log.child({ path: opts.path });
    this.watchTimeoutSeconds = opts.watchTimeoutSeconds ?? 300;
    this.watchdogMs = opts.watchdogMs ?? (this.watchTimeoutSeconds + 30) * 1000;
    this.initialBackoffMs = opts.initialBackoffMs ?? 1000;
    this.maxBackoffMs = opts.maxBackoffMs ?? 30_000;
    this.notReadyQuietMs = opts.notReadyQuietMs ?? 20_000;
  }

  on(event: 'add' | 'update' | 'delete', handler: AddHandler<T> | UpdateHandler<T>): void {
    (this.handlers[event] as unknown[]).push(handler);
  }

  get(namespace: string, name: string): T | undefined {
    return this.cache.get(namespace ? `${namespace}/${name}` : name);
  }

  byIndex(indexName: string, value: string): T[] {
    if (!this.opts.indexers?.[indexName]) throw new Error(`no index ${indexName}`);
    const keys = this.indices.get(indexName)?.get(value);
    if (!keys) return [];
    const out: T[] = [];
    for (const k of keys) {
      const obj = this.cache.get(k);
      if (obj) out.push(obj);
    }
    return out;
  }

  /** Sets or deletes (obj undefined) a cache entry, keeping the indexes in step. */
  private store(key: string, obj: T | undefined): void {
    const prev = this.cache.get(key);
    if (obj === undefined) this.cache.delete(key);
    else this.cache.set(key, obj);
    const indexers = this.opts.indexers;
    if (!indexers) return;
    for (const [name, fn] of Object.entries(indexers)) {
      let index = this.indices.get(name);
      if (!index) this.indices.set(name, (index = new Map()));
      const before = prev ? fn(prev) : [];
      const after = obj ? fn(obj) : [];
      for (const v of before) {
        if (after.includes(v)) continue;
        const set = index.get(v);
        set?.delete(key);
        if (set?.size === 0) index.delete(v);
      }
      for (const v of after) {
        let set = index.get(v);
        if (!set) index.set(v, (set = new Set()));
        set.add(key);
      }
    }
  }

  list(namespace?: string): T[] {
    const all = [...this.cache.values()];
    return namespace === undefined ? all : all.filter((o) => o.metadata?.namespace === namespace);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  lastResourceVersion(): string {
    return this.rv;
  }

  start(): Promise<void> {
    const synced = this.synced
      ? Promise.resolve()
      : new Promise<void>((resolve) => this.syncedWaiters.push(resolve));
    if (!this.running) {
      this.running = true;
      this.stopping = new AbortController();
      this.loop(++this.generation).catch((err: unknown) => this.log.error({ err }, 'Informer loop crashed'));
      const resyncMs = this.opts.resyncMs ?? 0;
      if (resyncMs > 0) {
        this.resyncTimer = setInterval(() => this.resync(), resyncMs);
        this.resyncTimer.unref?.();
      }
    }
    return synced;
  }

  stop(): void {
    if (!this.running) return;
    this.running = false;
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    this.resyncTimer = undefined;
    this.currentAbort?.abort();
    this.wake?.();
    this.stopping.abort();
    this.releaseSyncedWaiters();
  }

  private releaseSyncedWaiters(): void {
    const waiters = this.syncedWaiters;
    this.syncedWaiters = [];
    for (const w of waiters) w();
  }

  private async loop(gen: number): Promise<void> {
    const alive = (): boolean => this.running && this.generation === gen;
    let backoff = this.initialBackoffMs;
    let needList = true;
    const failures = new ListWatchFailureReporter(this.notReadyQuietMs);
    while (alive()) {
      let failure: unknown;
      try {
        if (needList) {
          await this.relist(alive);
          needList = false;
          backoff = this.initialBackoffMs;
          failures.succeeded();
        }
        const outcome = await this.watchOnce();
        switch (outcome.kind) {
          case 'stopped':
            return;
          case 'gone':
            this.log.info({ resourceVersion: this.rv }, 'Watch resource version expired; relisting');
            needList = true;
            continue;
          case 'stalled':
            this.log.warn({ watchdogMs: this.watchdogMs }, 'Watch went silent; restarting it');
            continue;
          case 'closed':
            if (outcome.sawActivity) {
              backoff = this.initialBackoffMs;
              continue;
            }
            // A server that closes watches at once would otherwise make us spin (client-node #1933).
            failure = new Error('watch closed without any event');
            break;
          case 'error':
            failure = outcome.err;
            break;
        }
      } catch (err) {
        failure = toApiError(err);
      }
      if (!alive()) return;
      // Relisting after a failure is what makes deletes missed during the outage visible.
      needList = true;
      if (isGone(failure)) continue;
      const delay = Math.round(backoff * (0.8 + Math.random() * 0.4));
      if (failures.level(failure) === 'debug') {
        this.log.debug({ code: (failure as ApiError).code, message: (failure as ApiError).message, delayMs: delay }, 'API server not ready yet; retrying');
      } else {
        this.log.warn({ err: failure, delayMs: delay }, 'List/watch failed; retrying');
      }
      await sleep(delay, this.stopping.signal);
      backoff = Math.min(backoff * 2, this.maxBackoffMs);
    }
  }

  private async relist(alive: () => boolean): Promise<void> {
    const result = await this.opts.list();
    if (!alive()) return;
    const fresh = new Map<string, T>();
    for (const item of result.items) {
      const obj = this.prepare(item);
      fresh.set(cacheKey(obj), obj);
    }
    const old = new Map(this.cache);
    for (const k of old.keys()) if (!fresh.has(k)) this.store(k, undefined);
    for (const [k, obj] of fresh) this.store(k, obj);
    this.rv = result.metadata?.resourceVersion ?? '';
    for (const [k, obj] of fresh) {
      const prev = old.get(k);
      if (!prev) this.emitAdd(obj);
      else if (prev.metadata?.resourceVersion !== obj.metadata?.resourceVersion) this.emitUpdate(prev, obj);
    }
    for (const [k, prev] of old) if (!fresh.has(k)) this.emitDelete(prev);
    this.log.debug({ count: fresh.size, resourceVersion: this.rv }, 'Listed');
    if (!this.synced) {
      this.synced = true;
      this.releaseSyncedWaiters();
    }
  }

  /** Runs one watch request to its end and reports how it ended. */
  private watchOnce(): Promise<WatchOutcome> {
    return new Promise<WatchOutcome>((resolve) => {
      let finished = false;
      let sawActivity = false;
      const startedAt = performance.now();
      let lastSeen = startedAt;
      let controller: AbortController | undefined;
      const finish = (outcome: WatchOutcome): void => {
        if (finished) return;
        finished = true;
        clearInterval(watchdog);
        this.wake = undefined;
        if (this.currentAbort === controller) this.currentAbort = undefined;
        controller?.abort();
        resolve(outcome);
      };
      const watchdog = setInterval(() => {
        if (performance.now() - lastSeen > this.watchdogMs) finish({ kind: 'stalled' });
      }, Math.max(10, Math.min(this.watchdogMs / 4, 5000)));
      watchdog.unref?.();
      this.wake = () => finish({ kind: 'stopped' });

      const onEvent = (phase: string, apiObj: unknown): void => {
        if (finished) return;
        lastSeen = performance.now();
        sawActivity = true;
        if (phase === 'ERROR') {
          const status = apiObj as { code?: number; reason?: string; message?: string } | undefined;
          if (status?.code === 410 || status?.reason === 'Expired' || status?.reason === 'Gone') finish({ kind: 'gone' });
          else finish({ kind: 'error', err: new Error(`watch error event: ${status?.message ?? 'unknown'}`) });
          return;
        }
        try {
          this.applyEvent(phase, apiObj as T);
        } catch (err) {
          this.log.error({ err }, 'Failed to apply watch event');
        }
      };
      const onDone = (err: unknown): void => {
        if (finished) return;
        if (!this.running) return finish({ kind: 'stopped' });
        if (err) {
          const e = toApiError(err);
          finish(isGone(e) ? { kind: 'gone' } : { kind: 'error', err: e });
        } else {
          // A quiet collection legitimately ends at timeoutSeconds without events; only an
          // immediate close with nothing delivered counts as a failure.
          finish({ kind: 'closed', sawActivity: sawActivity || performance.now() - startedAt >= 1000 });
        }
      };

      const query: Record<string, string | number | boolean | undefined> = {
        resourceVersion: this.rv || undefined,
        allowWatchBookmarks: true,
        timeoutSeconds: this.watchTimeoutSeconds,
        labelSelector: this.opts.labelSelector,
        fieldSelector: this.opts.fieldSelector,
      };
      this.watcher.watch(this.opts.path, query, onEvent, onDone).then(
        (c) => {
          controller = c;
          if (finished) {
            c.abort();
            return;
          }
          this.currentAbort = c;
          // The request was accepted: that counts as a sign of life for the watchdog.
          lastSeen = performance.now();
        },
        (err: unknown) => finish({ kind: 'error', err: toApiError(err) }),
      );
    });
  }

  /**
   * Plain JSON (see plain.ts), then the configured transform. A watch event's object is parsed
   * from the event's JSON line and held by no one else, so it is already plain and is used as
   * it is: a deep copy of every event would double the allocation of the busiest path (the
   * garbage of 1000 rollouts is what the controller's peak memory is made of, docs/design.md §1.1).
   */
  private prepare(item: T, plain = false): T {
    const obj = plain ? item : toPlain(item);
    return this.opts.transform ? this.opts.transform(obj) : obj;
  }

  private applyEvent(phase: string, raw: T): void {
    const rv = raw?.metadata?.resourceVersion;
    if (phase === 'BOOKMARK') {
      if (rv) this.rv = rv;
      return;
    }
    if (!raw?.metadata?.name) return;
    const obj = this.prepare(raw, true);
    const key = cacheKey(obj);
    if (rv) this.rv = rv;
    const prev = this.cache.get(key);
    switch (phase) {
      case 'ADDED':
      case 'MODIFIED':
        this.store(key, obj);
        if (!prev) this.emitAdd(obj);
        else if (prev.metadata?.resourceVersion !== rv) this.emitUpdate(prev, obj);
        break;
      case 'DELETED':
        this.store(key, undefined);
        this.emitDelete(obj);
        break;
      default:
        break;
    }
  }

  private resync(): void {
    if (!this.synced || !this.running) return;
    for (const obj of this.cache.values()) this.emitUpdate(obj, obj);
  }

  private emitAdd(obj: T): void {
    for (const h of this.handlers.add) this.safely(() => h(obj));
  }

  private emitUpdate(oldObj: T, newObj: T): void {
    for (const h of this.handlers.update) this.safely(() => h(oldObj, newObj));
  }

  private emitDelete(obj: T): void {
    for (const h of this.handlers.delete) this.safely(() => h(obj));
  }

  private safely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      // Handlers should only enqueue keys; a throwing one must not break the cache.
      this.log.error({ err }, 'Informer event handler threw');
    }
  }
}
