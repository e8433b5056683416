/**
 * client-node implementations of the deployer's wait, log and apply ports
 * (src/deployer/ports.ts).
 *
 * Waits share one list+watch per object (or per pod label selector) for the whole deployer run
 * (Feed): LIST once, WATCH from the list's resourceVersion, and evaluate every wait on that
 * object at each event. With `streamingLists` the LIST is one watch request instead (kube's
 * WatchList, `sendInitialEvents`, on by default in kube 1.32 and since 1.34): the server streams
 * the current objects, marks their end with a bookmark and goes on with the changes, one request
 * where a LIST and a WATCH were two. A server that refuses it, or ends the stream or stays silent
 * before that bookmark, gets the LIST and WATCH instead (docs/design.md §6.2).
 *
 * A watch that ends or fails is re-established after a short pause (a relist when the
 * resourceVersion expired); with `recheckMs`, a feed silent for that long is
 * re-LISTed, so a silently stalled watch (client-node issues #596/#958) costs at most one
 * interval. A re-LIST that finds nothing the watch had not delivered shows the watch is keeping
 * up: the next one waits twice the silence (up to `MaxRecheckBackoff` intervals), until an event
 * or a re-LIST with news brings it back to one interval. A rollout waiting many seconds for pods
 * to become ready (or for a busy RC manager) then re-LISTs a few times, not once a second.
 */
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { ApiError } from '../controller/errors.js';
import type { ListedRcs, PodWatcher, Predicate, RcWatcher, WaitOptions } from '../deployer/ports.js';
import { WaitTimeoutError, WatchedObjectDeletedError } from '../deployer/ports.js';
import { toPlain } from './plain.js';
import { resourceVersionNumber } from '../util/resource-version.js';
import { setLongTimeout, timerPeriodMs } from '../util/sleep.js';

interface Named {
  metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> };
}

interface ListResult<T> {
  items: T[];
  resourceVersion: string;
}

/** Pause before re-opening a watch that ended, so a flapping server is not hammered. */
const rewatchDelayMs = 1000;

/**
 * How long a streamed initial list may take before the feed gives up on it and LISTs: a server
 * older than kube 1.27 ignores `sendInitialEvents` and never sends the bookmark that ends it.
 */
export const InitialEventsTimeoutMs = 10_000;

/** The annotation of the bookmark that ends a watch's initial events (kube's WatchList). */
const InitialEventsEndAnnotation = 'k8s.io/initial-events-end';

/** Most intervals of silence before a re-LIST, after re-LISTs that found nothing new. */
export const MaxRecheckBackoff = 8;

/**
 * A watch as client-node's Watch and RestClient.watch (src/kube/rest.ts) make one: resolves with
 * the controller that ends it once the server accepted it, rejects with an ApiError when refused.
 */
export interface WatchLike {
  watch(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    callback: (type: string, object: unknown) => void,
    done: (err?: unknown) => void,
  ): Promise<AbortController>;
}

/** A LIST answer: the items and the list's resourceVersion. */
export interface ListAnswer<T> {
  items: T[];
  metadata?: { resourceVersion?: string };
}

/** The LISTs the feeds make; failures are ApiErrors. */
export interface DeployerLists {
  replicationControllers(namespace: string, selector: { fieldSelector?: string; labelSelector?: string }): Promise<ListAnswer<V1ReplicationController>>;
  pods(namespace: string, selector: { fieldSelector?: string; labelSelector?: string }): Promise<ListAnswer<V1Pod>>;
}

/**
 * One list+watch of a collection (one named object by field selector, or the pods of a label
 * selector), kept open for the whole deployer run and shared by every wait on it: a rollout
 * waits on the same two RCs and the same pods again and again, and re-listing for each wait is
 * what made the deployer poll. A watch that ends is re-opened from the last resourceVersion
 * (relisting only after 410 Gone); `relist()` refreshes the state by a plain LIST, coalesced
 * when several waits ask at once.
 */
class Feed<T extends Named> {
  readonly objects = new Map<string, T>();
  /** Resolves after the first list; rejects with its error (a failed first list is retried by the next wait). */
  readonly ready: Promise<void>;
  /** performance.now() of the last event, bookmark or list. */
  lastActivity = performance.now();
  /** Intervals of silence before the next re-LIST: 1, doubled by each re-LIST without news. */
  recheckBackoff = 1;
  private readonly changeListeners = new Set<() => void>();
  private readonly deleteListeners = new Set<(obj: T) => void>();
  private readonly errorListeners = new Set<(err: unknown) => void>();
  private resourceVersion = '';
  private controller: AbortController | undefined;
  private rewatch: NodeJS.Timeout | undefined;
  private closed = false;
  private relisting: Promise<void> | undefined;
  // Events and relists are applied one at a time, in order.
  private chain: Promise<void> = Promise.resolve();
  failed = false;
  /** Why the watch could not be opened, for waits that subscribe after it happened. */
  watchError: unknown;

  constructor(
    private readonly watch: WatchLike,
    private readonly path: string,
    private readonly query: Record<string, string>,
    private readonly list: () => Promise<ListResult<T>>,
    streaming = false,
  ) {
    this.ready = this.enqueue(async () => {
      if (streaming && await this.streamInitialList()) return;
      if (this.closed) return;
      await this.applyList(true);
      this.startWatch();
    });
    this.ready.catch(() => {
      this.failed = true;
    });
  }

  /**
   * Calls `onChange` after every applied event or list, `onDelete` for each deleted object,
   * `onError` when the watch cannot be opened; returns the unsubscribe.
   */
  subscribe(onChange: () => void, onDelete: (obj: T) => void, onError: (err: unknown) => void): () => void {
    this.changeListeners.add(onChange);
    this.deleteListeners.add(onDelete);
    this.errorListeners.add(onError);
    return () => {
      this.changeListeners.delete(onChange);
      this.deleteListeners.delete(onDelete);
      this.errorListeners.delete(onError);
    };
  }

  /** Re-reads the collection by LIST (deletions seen since are reported); concurrent calls share one LIST. */
  relist(): Promise<void> {
    this.relisting ??= this.enqueue(() => this.applyList(false)).finally(() => {
      this.relisting = undefined;
    });
    return this.relisting;
  }

  /** Stops watching; waits still on this feed end with an error. */
  close(): void {
    this.closed = true;
    if (this.rewatch) clearTimeout(this.rewatch);
    this.controller?.abort();
    this.notify();
  }

  isClosed(): boolean {
    return this.closed;
  }

  /** The revision the objects are current at: the last list's, bookmark's or event's. */
  currentResourceVersion(): string {
    return this.resourceVersion;
  }

  private enqueue(step: () => Promise<void> | void): Promise<void> {
    const run = this.chain.then(async () => {
      if (!this.closed) await step();
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  private notify(): void {
    for (const l of [...this.changeListeners]) l();
  }

  private async applyList(initial: boolean): Promise<void> {
    const result = await this.list();
    this.lastActivity = performance.now();
    const seen = new Set<string>();
    let news = false;
    for (const item of result.items) {
      const name = item.metadata?.name ?? '';
      seen.add(name);
      if (this.objects.get(name)?.metadata?.resourceVersion !== item.metadata?.resourceVersion) news = true;
      this.objects.set(name, item);
    }
    for (const [name, obj] of this.objects) {
      if (seen.has(name)) continue;
      news = true;
      this.objects.delete(name);
      if (!initial) for (const l of [...this.deleteListeners]) l(obj);
    }
    this.recheckBackoff = news || initial ? 1 : Math.min(this.recheckBackoff * 2, MaxRecheckBackoff);
    this.resourceVersion = result.resourceVersion;
    this.notify();
  }

  /**
   * The initial list as a watch (WatchList): collects the streamed objects until the bookmark
   * that ends them, then serves the feed from that same watch. Resolves false when the caller
   * must LIST and WATCH instead: the server refused the request as invalid (WatchList off),
   * or the stream ended, failed or stayed without that bookmark for InitialEventsTimeoutMs.
   * Any other refusal (Forbidden, …) rejects, as a failed LIST would.
   */
  private streamInitialList(): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const initial = new Map<string, T>();
      let synced = false;
      let gaveUp = false;
      let stream: AbortController | undefined;
      const giveUp = (): void => {
        if (synced || gaveUp) return;
        gaveUp = true;
        clearTimeout(timer);
        stream?.abort();
        resolve(false);
      };
      const timer = setTimeout(giveUp, InitialEventsTimeoutMs);
      const query = { ...this.query, sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true' };
      this.watch
        .watch(this.path, query, (type: string, raw: unknown) => {
          if (gaveUp) return;
          if (synced) {
            this.onWatchEvent(type, raw as T);
            return;
          }
          const obj = raw as T;
          if (type === 'BOOKMARK') {
            if (obj.metadata?.annotations?.[InitialEventsEndAnnotation] !== 'true') return;
            synced = true;
            clearTimeout(timer);
            this.objects.clear();
            for (const [name, item] of initial) this.objects.set(name, item);
            this.resourceVersion = obj.metadata?.resourceVersion ?? '';
            this.lastActivity = performance.now();
            this.recheckBackoff = 1;
            this.notify();
            resolve(true);
            return;
          }
          if (type === 'ERROR') {
            giveUp();
            return;
          }
          const name = obj.metadata?.name ?? '';
          if (type === 'DELETED') initial.delete(name);
          else initial.set(name, obj);
        }, () => {
          if (synced) this.onWatchEnded();
          else giveUp();
        })
        .then((c) => {
          stream = c;
          if (gaveUp) c.abort();
          else this.controller = c;
          if (this.closed) c.abort();
        }, (err: unknown) => {
          clearTimeout(timer);
          if (gaveUp) return;
          gaveUp = true;
          // An invalid request (422, or 400): a server with WatchList turned off (kube 1.33's
          // default) refuses the parameter; the LIST and WATCH serve it.
          if (err instanceof ApiError && (err.code === 400 || err.code === 422)) resolve(false);
          else reject(err);
        });
    });
  }

  private startWatch(): void {
    if (this.closed) return;
    const query = { ...this.query, resourceVersion: this.resourceVersion, allowWatchBookmarks: 'true' };
    void this.watch
      .watch(this.path, query, (type: string, raw: unknown) => this.onWatchEvent(type, raw as T), () => this.onWatchEnded())
      .then((c) => {
        this.controller = c;
        if (this.closed) c.abort();
      }, (err: unknown) => {
        // The watch request itself was refused (e.g. Forbidden): the waits on this feed fail
        // with that error, as a failed LIST would, and the next wait starts a new feed.
        this.failed = true;
        this.watchError = err;
        for (const l of [...this.errorListeners]) l(this.watchError);
      });
  }

  private onWatchEvent(type: string, obj: T): void {
    void this.enqueue(() => {
      this.lastActivity = performance.now();
      if (type === 'BOOKMARK') {
        this.resourceVersion = obj.metadata?.resourceVersion ?? this.resourceVersion;
        return;
      }
      if (type === 'ERROR') {
        // Usually 410 Gone: our resourceVersion is too old; start over from a list.
        this.resourceVersion = '';
        this.controller?.abort();
        return;
      }
      // Kept as parsed: both WatchLikes hand over the JSON the server sent, already the plain form
      // toPlain makes of client-node's typed answers, so a copy of each RC (managedFields and
      // the encoded config included) would only cost an interpreted deployer CPU (docs/design.md §6.1).
      const name = obj.metadata?.name ?? '';
      this.resourceVersion = obj.metadata?.resourceVersion ?? this.resourceVersion;
      this.recheckBackoff = 1;
      if (type === 'DELETED') {
        this.objects.delete(name);
        for (const l of [...this.deleteListeners]) l(obj);
      } else {
        this.objects.set(name, obj);
      }
      this.notify();
    });
  }

  /** A watch that ended is re-opened after a pause, from a fresh LIST when its resourceVersion expired. */
  private onWatchEnded(): void {
    if (this.closed) return;
    this.rewatch = setTimeout(() => {
      void this.enqueue(async () => {
        if (this.resourceVersion === '') await this.applyList(false);
        this.startWatch();
      }).catch(() => {
        // The relist failed: try again later; waits still time out on their own.
        this.resourceVersion = '';
        this.rewatch = setTimeout(() => this.startWatch(), rewatchDelayMs);
      });
    }, rewatchDelayMs);
  }
}

interface WaitSpec<T extends Named, R> {
  /** Decides on the current set of objects: a value ends the wait, undefined continues. */
  evaluate: (objects: Map<string, T>) => R | undefined;
  /** Called for a deleted object; a returned error ends the wait. */
  onDelete?: (obj: T) => Error | undefined;
  /** Checked once the feed has its first list; a thrown error ends the wait. */
  checkInitial?: (objects: Map<string, T>) => void;
  timeoutMs: number;
  recheckMs?: number;
}

/**
 * Waits on a shared feed: evaluates the current state at once and after every change. With
 * `recheckMs`, a feed that has been silent (no event, bookmark or list) for that long is
 * re-LISTed, so a silently stalled watch (client-node issues #596/#958) delays a decision by at
 * most one interval, as OpenShift's polling would, while a live watch costs no requests.
 */
function waitOnFeed<T extends Named, R>(feed: Feed<T>, spec: WaitSpec<T, R>): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    let finished = false;
    let unsubscribe: (() => void) | undefined;
    let recheck: NodeJS.Timeout | undefined;
    const timeout = Number.isFinite(spec.timeoutMs)
      ? setLongTimeout(() => finish(new WaitTimeoutError()), spec.timeoutMs)
      : undefined;

    function finish(err: unknown, value?: R): void {
      if (finished) return;
      finished = true;
      timeout?.clear();
      if (recheck) clearInterval(recheck);
      unsubscribe?.();
      if (err !== undefined) reject(err);
      else resolve(value as R);
    }

    function decide(): void {
      if (finished) return;
      if (feed.isClosed()) {
        finish(new Error('the deployer stopped watching'));
        return;
      }
      try {
        const result = spec.evaluate(feed.objects);
        if (result !== undefined) finish(undefined, result);
      } catch (err) {
        finish(err);
      }
    }

    feed.ready.then(() => {
      if (finished) return;
      try {
        spec.checkInitial?.(feed.objects);
      } catch (err) {
        finish(err);
        return;
      }
      unsubscribe = feed.subscribe(decide, (obj) => {
        const err = spec.onDelete?.(obj);
        if (err) finish(err);
      }, (err) => finish(err));
      decide();
      // The current state already decided the wait, or the watch that would bring news failed.
      if (feed.watchError !== undefined) finish(feed.watchError);
      const every = spec.recheckMs;
      if (!finished && every !== undefined && every > 0) {
        recheck = setInterval(() => {
          if (performance.now() - feed.lastActivity >= every * feed.recheckBackoff) feed.relist().catch((err: unknown) => finish(err));
        }, timerPeriodMs(every));
      }
    }, (err: unknown) => finish(err));
  });
}

/**
 * Whether `obj` is a state from before resourceVersion `rv`. kube-apiserver's resourceVersions
 * are etcd revisions (integers); anything else is never treated as older.
 */
function olderThan(obj: Named, rv: string | undefined): boolean {
  const own = resourceVersionNumber(obj.metadata?.resourceVersion);
  const at = resourceVersionNumber(rv);
  return own !== undefined && at !== undefined && own < at;
}

function notFound(kind: string, namespace: string, name: string): ApiError {
  return new ApiError(`${kind} "${name}" not found in namespace ${namespace}`, 404, 'NotFound');
}

/** RcWatcher and PodWatcher over LISTs and a WatchLike, with one shared feed per object or selector. */
export class KubeDeployerWatchers implements RcWatcher, PodWatcher {
  // Keyed by resource and selector; each feed holds one kind of object.
  private readonly feeds = new Map<string, Feed<never>>();
  /** The feeds of listAndWatch: sets of RCs that serve the waits on their members. */
  private readonly rcSets: { namespace: string; feed: Feed<V1ReplicationController> }[] = [];

  /**
   * `streamingLists`: each feed's initial list is a WatchList stream (one request instead of a
   * LIST and a WATCH), falling back to the LIST where the server does not stream.
   */
  constructor(
    private readonly lists: DeployerLists,
    private readonly watch: WatchLike,
    private readonly options: { streamingLists?: boolean } = {},
  ) {}

  /** Stops every watch (the deployer process calls this before exiting). */
  close(): void {
    for (const f of this.feeds.values()) f.close();
    this.feeds.clear();
    this.rcSets.length = 0;
  }

  async listAndWatch(namespace: string, labelSelector: string): Promise<ListedRcs> {
    const feed = this.feed<V1ReplicationController>(`replicationcontrollers/${namespace}?${labelSelector}`, () => {
      const made = new Feed<V1ReplicationController>(this.watch, `/api/v1/namespaces/${namespace}/replicationcontrollers`, { labelSelector }, async () => {
        const list = await this.lists.replicationControllers(namespace, { labelSelector });
        return { items: list.items.map((i) => toPlain(i)), resourceVersion: list.metadata?.resourceVersion ?? '' };
      }, this.options.streamingLists);
      this.rcSets.push({ namespace, feed: made });
      return made;
    });
    await feed.ready;
    return { items: [...feed.objects.values()], resourceVersion: feed.currentResourceVersion() };
  }

  waitFor(
    namespace: string,
    name: string,
    predicate: Predicate<V1ReplicationController>,
    timeoutMs: number,
    options?: WaitOptions,
  ): Promise<V1ReplicationController> {
    // An RC of a set listed by listAndWatch is served by that set's list+watch.
    const set = this.rcSets.find((s) => s.namespace === namespace && !s.feed.failed && !s.feed.isClosed() && s.feed.objects.has(name));
    if (set) return this.waitOn(set.feed, 'replicationcontrollers', namespace, name, predicate, timeoutMs, options);
    return this.waitForOne('replicationcontrollers', namespace, name, predicate, timeoutMs, options,
      (fieldSelector) => this.lists.replicationControllers(namespace, { fieldSelector }));
  }

  waitForPod(
    namespace: string,
    name: string,
    predicate: Predicate<V1Pod>,
    timeoutMs: number,
    options?: WaitOptions,
  ): Promise<V1Pod> {
    return this.waitForOne('pods', namespace, name, predicate, timeoutMs, options,
      (fieldSelector) => this.lists.pods(namespace, { fieldSelector }));
  }

  /** The feed for `key`, created on first use; a feed whose first list failed is replaced. */
  private feed<T extends Named>(key: string, make: () => Feed<T>): Feed<T> {
    const existing = this.feeds.get(key);
    if (existing && !existing.failed) return existing as unknown as Feed<T>;
    const created = make();
    this.feeds.set(key, created as unknown as Feed<never>);
    return created;
  }

  /** Waits until `predicate` holds for one named object of `resource`. */
  private waitForOne<T extends V1ReplicationController | V1Pod>(
    resource: 'replicationcontrollers' | 'pods',
    namespace: string,
    name: string,
    predicate: Predicate<T>,
    timeoutMs: number,
    options: WaitOptions | undefined,
    listFn: (fieldSelector: string) => Promise<ListAnswer<T>>,
  ): Promise<T> {
    const fieldSelector = `metadata.name=${name}`;
    const feed = this.feed<T>(`${resource}/${namespace}/${name}`, () => new Feed<T>(this.watch, `/api/v1/namespaces/${namespace}/${resource}`, { fieldSelector }, async () => {
      const list = await listFn(fieldSelector);
      return { items: list.items.map((i) => toPlain(i)), resourceVersion: list.metadata?.resourceVersion ?? '' };
    }, this.options.streamingLists));
    return this.waitOn(feed, resource, namespace, name, predicate, timeoutMs, options);
  }

  /** Waits until `predicate` holds for the object `name` of `feed`. */
  private waitOn<T extends V1ReplicationController | V1Pod>(
    feed: Feed<T>,
    resource: 'replicationcontrollers' | 'pods',
    namespace: string,
    name: string,
    predicate: Predicate<T>,
    timeoutMs: number,
    options: WaitOptions | undefined,
  ): Promise<T> {
    return waitOnFeed(feed, {
      checkInitial: (objects) => {
        if (!objects.has(name)) throw notFound(resource, namespace, name);
      },
      evaluate: (objects) => {
        const obj = objects.get(name);
        if (obj === undefined || olderThan(obj, options?.notOlderThan)) return undefined;
        return predicate(obj) ? obj : undefined;
      },
      onDelete: (obj) => (obj.metadata?.name === name ? new WatchedObjectDeletedError(`${resource} ${namespace}/${name} was deleted`, obj) : undefined),
      timeoutMs,
      recheckMs: options?.recheckMs,
    });
  }

  waitForPods(
    namespace: string,
    labelSelector: string,
    predicate: Predicate<V1Pod[]>,
    timeoutMs: number,
    options?: WaitOptions,
  ): Promise<V1Pod[]> {
    const feed = this.feed<V1Pod>(`pods/${namespace}?${labelSelector}`, () => new Feed<V1Pod>(this.watch, `/api/v1/namespaces/${namespace}/pods`, { labelSelector }, async () => {
      const list = await this.lists.pods(namespace, { labelSelector });
      return { items: list.items.map((i) => toPlain(i)), resourceVersion: list.metadata?.resourceVersion ?? '' };
    }, this.options.streamingLists));
    return waitOnFeed(feed, {
      evaluate: (objects) => {
        const pods = [...objects.values()];
        return predicate(pods) ? pods : undefined;
      },
      timeoutMs,
      recheckMs: options?.recheckMs,
    });
  }
}
