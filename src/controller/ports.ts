/**
 * The interfaces sync code reads and writes through. The kube/ layer implements them against the
 * API server; unit tests implement them in memory. Objects returned by listers belong to the
 * cache: never mutate them, deep-copy first (`structuredClone`).
 */
import type { V1Pod, V1ReplicationController, V1Scale, CoreV1Event } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import type { ResourceDescription } from '../apis/resources.js';

export interface Lister<T> {
  get(namespace: string, name: string): T | undefined;
  /** All objects, or those of one namespace. */
  list(namespace?: string): T[];
}

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';
export type PatchType = 'merge' | 'strategic' | 'json';

/** Writes on DeploymentConfigs. Errors are ApiError (see controller/errors.ts). */
export interface DeploymentConfigClient {
  get(namespace: string, name: string): Promise<DeploymentConfig>;
  /** PUT .../status with the object's resourceVersion (409 on a stale one). */
  updateStatus(dc: DeploymentConfig): Promise<DeploymentConfig>;
  /** PUT the main resource (spec and metadata) with optimistic concurrency. */
  update(dc: DeploymentConfig): Promise<DeploymentConfig>;
  patch(namespace: string, name: string, patch: unknown, type: 'merge' | 'json'): Promise<DeploymentConfig>;
}

export interface ReplicationControllerClient {
  get(namespace: string, name: string): Promise<V1ReplicationController>;
  list(namespace: string, labelSelector?: string): Promise<V1ReplicationController[]>;
  create(namespace: string, rc: V1ReplicationController): Promise<V1ReplicationController>;
  update(rc: V1ReplicationController): Promise<V1ReplicationController>;
  patch(namespace: string, name: string, patch: unknown, type: PatchType): Promise<V1ReplicationController>;
  delete(namespace: string, name: string, propagationPolicy?: PropagationPolicy): Promise<void>;
  getScale(namespace: string, name: string): Promise<V1Scale>;
  updateScale(namespace: string, name: string, scale: V1Scale): Promise<V1Scale>;
}

export interface PodClient {
  get(namespace: string, name: string): Promise<V1Pod>;
  list(namespace: string, labelSelector?: string): Promise<V1Pod[]>;
  create(namespace: string, pod: V1Pod): Promise<V1Pod>;
  patch(namespace: string, name: string, patch: unknown, type: PatchType): Promise<V1Pod>;
  delete(namespace: string, name: string, gracePeriodSeconds?: number): Promise<void>;
}

export interface EventClient {
  create(namespace: string, event: CoreV1Event): Promise<void>;
  list(namespace: string, fieldSelector?: string): Promise<CoreV1Event[]>;
  /** Merge-patches an event (used to bump count/lastTimestamp of a repeated event). Optional for fakes. */
  patch?(namespace: string, name: string, patch: unknown): Promise<void>;
}

/** A reference events attach to. */
export interface InvolvedObject {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

/** Best-effort event emission: never throws into sync code. */
export interface EventRecorder {
  /** `object` is a flat reference or a whole API object (its metadata names it). */
  event(object: InvolvedObject | { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string } }, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/**
 * Injected time source so phase timeouts and condition timestamps are testable. Two readings, as
 * Go's time.Time carries: the wall clock for what is written or compared with timestamps of the
 * API, and elapsed time for durations within this process (TTLs, deadlines), which a step of the
 * wall clock (NTP, a resumed VM) must neither cut short nor stretch (design.md §1.2).
 */
export interface Clock {
  now(): Date;
  /** Milliseconds from an arbitrary origin on a clock that is never stepped (performance.now()). */
  monotonicMs(): number;
}

export const systemClock: Clock = { now: () => new Date(), monotonicMs: () => performance.now() };

/** The event side of an informer: what controllers register their enqueue handlers on. */
export interface EventSource<T> {
  on(event: 'add' | 'delete', handler: (obj: T) => void): void;
  on(event: 'update', handler: (oldObj: T, newObj: T) => void): void;
}

/**
 * Objects this process created, announced as soon as the API server answered the create: the
 * informer's add event for them arrives one watch round trip later (see MutationCache).
 */
export interface OwnCreates<T> {
  onCreated(handler: (obj: T) => void): void;
}

/** A started-on-demand cache of one collection: read through the lister, watched through events. */
export interface SharedInformer<T> extends Lister<T>, EventSource<T> {}

/** Where controllers get their informers (the informer factory of src/kube/, or a test fake). */
export interface InformerSource {
  informerFor<T>(resource: ResourceDescription): SharedInformer<T>;
}
