/**
 * Ports the deployer process needs beyond src/controller/ports.ts: waiting on one object (or a
 * labelled set of pods) by list+watch, following container logs, and time. src/kube/deployer-io.ts implements them against the API server; unit
 * tests implement them in memory with fake time.
 *
 * Waiting is by WATCHING, where OpenShift's deployer polls: every wait on an object (or on the
 * pods of a selector) shares one list+watch for the whole run, and decides at each event.
 * Parameters keep their meaning: `rollingParams.intervalSeconds` (OpenShift's poll interval)
 * becomes `recheckMs`, the longest time a wait goes without news of the object (an event or a
 * re-read), so a watch that went silent can delay a decision by at most one interval, as a poll
 * would; a live watch costs no request. `updatePeriodSeconds` and timeouts are unchanged.
 */
import type { CoreV1Event, V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import type { Clock, EventClient, PodClient, ReplicationControllerClient } from '../controller/ports.js';
import type { ImageStreamClient } from '../image/ports.js';
import { sleep } from '../util/sleep.js';

/** Options of a wait. */
export interface WaitOptions {
  /**
   * Longest time without re-reading the object by a plain GET/LIST besides the watch (the
   * deployer passes `intervalSeconds`), doubled after each re-read that found nothing the watch
   * had missed (src/kube/deployer-io.ts). Undefined: rely on the watch alone.
   */
  readonly recheckMs?: number;
  /**
   * The resourceVersion of our own last write to the object (from the write's response): states
   * older than it are not shown to the predicate. Waits share one watch for the whole run, and
   * a watch may still be delivering events from before our write.
   */
  readonly notOlderThan?: string;
}

/** The wait ran out of time (OpenShift: `wait.ErrWaitTimeout`). */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  constructor(message = 'timed out waiting for the condition') {
    super(message);
  }
}

/** The watched object was deleted while waiting. `object` is its last known state. */
export class WatchedObjectDeletedError extends Error {
  override readonly name = 'WatchedObjectDeletedError';
  constructor(message: string, readonly object: unknown) {
    super(message);
  }
}

/**
 * A predicate over the latest observed state. It is called with the object of the initial list
 * and of every later watch event (and recheck); returning true ends the wait. Throwing ends the
 * wait with that error (used for UID checks). It may have side effects (the hook executor starts
 * log streaming from it); it is never called concurrently.
 */
export type Predicate<T> = (obj: T) => boolean;

/**
 * The RC reads and writes of the deployer. Every write is a merge patch, which cannot conflict
 * and needs no read before it: the RC manager writes the RC's status all through a rollout, and
 * a read-modify-write costs a GET each time and races with it. Scaling is a merge patch of
 * `spec.replicas` (what kubectl's Scaler does without a precondition, here on the RC itself,
 * which the deployer's role may patch).
 */
export type DeployerRcClient = Pick<ReplicationControllerClient, 'get' | 'patch'>;

/**
 * Waits on ReplicationControllers: one RC by `fieldSelector=metadata.name=<name>`, unless it
 * belongs to a set already listed and watched with `listAndWatch` (the RCs of the DC), whose one
 * list+watch then serves every wait on its RCs.
 */
export interface RcWatcher {
  /**
   * Lists the RCs of `labelSelector` and keeps watching them for the rest of the run; resolves
   * with the listed RCs and the resourceVersion the set is current at. Later waits on any RC of
   * the set use this list+watch.
   */
  listAndWatch(namespace: string, labelSelector: string): Promise<ListedRcs>;
  /**
   * Resolves with the first observed state satisfying `predicate`. Rejects with an ApiError 404
   * when the RC is not in the initial list, WatchedObjectDeletedError when it is deleted,
   * WaitTimeoutError after `timeoutMs` (`Infinity`: no timeout).
   */
  waitFor(
    namespace: string,
    name: string,
    predicate: Predicate<V1ReplicationController>,
    timeoutMs: number,
    options?: WaitOptions,
  ): Promise<V1ReplicationController>;
}

/** What `RcWatcher.listAndWatch` resolves with. */
export interface ListedRcs {
  readonly items: V1ReplicationController[];
  /**
   * The resourceVersion of the set's list (or of the bookmark ending a streamed one): the RCs are
   * as of this revision; `''` where the source has none.
   */
  readonly resourceVersion: string;
}

/** Waits on pods. */
export interface PodWatcher {
  /** As RcWatcher.waitFor, for one pod (`fieldSelector=metadata.name=<name>`). */
  waitForPod(
    namespace: string,
    name: string,
    predicate: Predicate<V1Pod>,
    timeoutMs: number,
    options?: WaitOptions,
  ): Promise<V1Pod>;
  /**
   * Resolves with the current set of pods matching `labelSelector` once `predicate` holds for
   * it; WaitTimeoutError after `timeoutMs`. An empty set is a valid state.
   */
  waitForPods(
    namespace: string,
    labelSelector: string,
    predicate: Predicate<V1Pod[]>,
    timeoutMs: number,
    options?: WaitOptions,
  ): Promise<V1Pod[]>;
}

/** Container log streaming. */
export interface PodLogs {
  /**
   * Copies the log of `container` (follow=true) into `out` until the container's stream ends.
   * Rejects when the log cannot be fetched (e.g. the node runs no kubelet server); `out` is
   * never ended.
   */
  follow(namespace: string, pod: string, container: string, out: NodeJS.WritableStream): Promise<void>;
}

/** Time: `now()` for deadlines and event timestamps, `sleep()` for update periods and retries. */
export interface DeployerClock extends Clock {
  sleep(ms: number): Promise<void>;
}

export const systemDeployerClock: DeployerClock = {
  now: () => new Date(),
  monotonicMs: () => performance.now(),
  sleep: (ms) => sleep(ms),
};

/** The events the deployer repeats on the DC: those about RCs, of type Warning (a field selector). */
export const RcWarningSelector = 'involvedObject.kind=ReplicationController,type=Warning';

/**
 * The Warning events about the ReplicationControllers of a namespace, collected by one watch from
 * a resourceVersion on (design.md §6.2): what the deployer repeats on the DC at the end of a run,
 * without the LIST of every event of the namespace that events, which kube-apiserver does not
 * cache, cost at the end of every rollout.
 */
export interface RcWarnings {
  /** The events seen so far, latest state of each, in arrival order; undefined once the watch broke. */
  collected(): CoreV1Event[] | undefined;
  close(): void;
}

/** Everything the deployer process talks to. */
export interface DeployerDeps {
  readonly rcs: DeployerRcClient;
  readonly pods: PodClient;
  readonly events: EventClient;
  readonly rcWatcher: RcWatcher;
  readonly podWatcher: PodWatcher;
  readonly logs: PodLogs;
  readonly clock: DeployerClock;
  /** ImageStreams for tagImages hooks; without it those hooks fail (TagImagesUnsupportedMessage). */
  readonly imageStreams?: ImageStreamClient;
  /**
   * Starts collecting the namespace's RC Warning events at `resourceVersion`; undefined when the
   * watch cannot be opened (the deployer then lists at the end, as without it).
   */
  readonly watchRcWarnings?: (namespace: string, resourceVersion: string) => Promise<RcWarnings | undefined>;
  /** Releases what the ports hold open (watches); called once the run is over. */
  readonly close?: () => void;
}
