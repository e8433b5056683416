/**
 * The one fake cluster of the unit tests: in-memory implementations of the ports in
 * src/controller/ports.ts, src/deployer/ports.ts and src/image/ports.ts.
 *
 * One `FakeApi` holds the ordered action log, error reactors and the clock; one `ObjectStore`
 * per resource plays the API server's storage. Clients record an `Action` for every call and then
 * apply it to the store with API-server semantics:
 *
 * - create: 409 AlreadyExists on a taken name; assigns uid, resourceVersion, generation 1 and
 *   creationTimestamp (from the clock).
 * - update / updateStatus: 404 when missing; 409 Conflict on a stale resourceVersion (a missing
 *   one is allowed for core kinds, rejected with 422 for DCs, which disallow unconditional
 *   updates); the main resource keeps the stored status, `/status` keeps the stored spec;
 *   `generation` increments when the spec changes.
 * - patch: `merge` (RFC 7386), `strategic` (merge with list merge keys such as ownerReferences
 *   by uid, containers by name, and `$patch: delete`), `json` (RFC 6902 add/remove/replace/test).
 *   A `metadata.uid` in the patch is a precondition (409 Conflict on mismatch).
 * - delete: 404 when missing; the propagation policy / grace period is recorded as the body.
 *
 * - pods: a created pod's status is `Pending` (the API server's create strategy).
 *
 * Every successful write is also kept in `api.commits` with the object before and after it (what
 * `simulation.ts` reacts to, and what tests summarise), and every change of a store, seeded or
 * written, is a watch event (`ObjectStore.watch`).
 *
 * Listers (`FakeLister`) read the same store but return deep-FROZEN copies, so code that mutates
 * cache objects fails loudly; `pause()` freezes the lister's view to simulate a stale informer
 * cache and `resume()` catches it up. The deployer's ports (src/deployer/ports.ts) wait on the
 * stores' watch events with the FakeClock's timers (`rcWatcher`, `podWatcher`), and serve logs
 * (`logs`); `deployerDeps(f)` bundles them.
 * ImageStreams (src/image/ports.ts) are one more store. `FakeInformer` turns a store's watch events
 * into the informer handlers the controllers' wiring registers.
 *
 * Its own tests: test/unit/support/.
 *
 * Typical use:
 *   const f = newFakeCluster();
 *   f.rcs.put(rc);                               // seed without recording an action
 *   f.api.failOn({ verb: 'update', resource: 'replicationcontrollers' }, conflict(...), 1);
 *   await syncDeploymentConfig(f, 'ns/name');    // f satisfies DeploymentConfigSyncDeps
 *   expect(f.api.writes()).toEqual([...]);
 */
import type { CoreV1Event, V1ObjectMeta, V1Pod, V1ReplicationController, V1Scale } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../../src/apis/deploymentconfig.js';
import { ApiError } from '../../src/controller/errors.js';
import type {
  Clock, DeploymentConfigClient, EventClient, EventRecorder, InvolvedObject, Lister, PatchType, PodClient,
  PropagationPolicy, ReplicationControllerClient, SharedInformer,
} from '../../src/controller/ports.js';
import type {
  DeployerDeps, ListedRcs, PodLogs, PodWatcher, Predicate, RcWatcher, WaitOptions,
} from '../../src/deployer/ports.js';
import { WaitTimeoutError, WatchedObjectDeletedError } from '../../src/deployer/ports.js';
import type { ImageStream } from '../../src/apis/imagestream.js';
import type { ImageStreamClient } from '../../src/image/ports.js';
import { FakeClock } from './clock.js';
import type { WorkQueue } from '../../src/controller/workqueue.js';

// ---------------------------------------------------------------------------------------------
// Errors shaped like the kube layer's normalised ApiError.

export const notFound = (resource: string, name: string): ApiError =>
  new ApiError(`${resource} "${name}" not found`, 404, 'NotFound');
export const conflict = (resource: string, name: string, detail = 'the object has been modified; please apply your changes to the latest version and try again'): ApiError =>
  new ApiError(`Operation cannot be fulfilled on ${resource} "${name}": ${detail}`, 409, 'Conflict');
export const alreadyExists = (resource: string, name: string): ApiError =>
  new ApiError(`${resource} "${name}" already exists`, 409, 'AlreadyExists');
export const invalid = (resource: string, name: string, detail: string): ApiError =>
  new ApiError(`${resource} "${name}" is invalid: ${detail}`, 422, 'Invalid');
export const serverError = (detail = 'internal error'): ApiError => new ApiError(detail, 500, 'InternalError');

// ---------------------------------------------------------------------------------------------
// Clock, actions, reactors.

export { FakeClock } from './clock.js';

export type Verb = 'get' | 'list' | 'create' | 'update' | 'patch' | 'delete';

/** One recorded client call. `body` is a deep copy of what was sent (or the delete options). */
export interface Action {
  verb: Verb;
  resource: string;
  subresource?: string;
  namespace: string;
  name: string;
  body?: unknown;
  patchType?: PatchType;
  fieldManager?: string;
  dryRun?: boolean;
}

/** A write that succeeded: the request and the stored object before and after it. */
export interface Commit {
  action: Action;
  before?: unknown;
  after?: unknown;
}

/** Called for every action before it is applied; throw to make the call fail. */
export type Reactor = (action: Action) => void;

/** Selects actions: every given field must be equal. */
export type ActionMatch = Partial<Pick<Action, 'verb' | 'resource' | 'subresource' | 'namespace' | 'name'>>;

export const matches = (action: Action, match: ActionMatch): boolean =>
  Object.entries(match).every(([k, v]) => (action as unknown as Record<string, unknown>)[k] === v);

/** Shared state of all fake clients: the action log, reactors, clock and id counters. */
export class FakeApi {
  readonly actions: Action[] = [];
  /** The writes that succeeded, in order (requests that failed are only in `actions`). */
  readonly commits: Commit[] = [];
  private readonly reactors: Reactor[] = [];
  private readonly commitListeners = new Set<(commit: Commit) => void>();
  private rv = 100;
  private uids = 0;
  constructor(readonly clock: FakeClock = new FakeClock()) {}

  /** Records the action, then runs the reactors (which may throw to fail the call). */
  record(action: Action): void {
    this.actions.push(structuredClone(action));
    for (const reactor of this.reactors) reactor(action);
  }

  /** Adds a reactor; returns a function that removes it. */
  onAction(reactor: Reactor): () => void {
    this.reactors.push(reactor);
    return () => {
      const i = this.reactors.indexOf(reactor);
      if (i >= 0) this.reactors.splice(i, 1);
    };
  }

  /** Fails the next `times` matching calls (default: all) with `error` (or a fresh one per call). */
  failOn(match: ActionMatch, error: Error | ((action: Action) => Error), times = Number.POSITIVE_INFINITY): void {
    let left = times;
    this.onAction((action) => {
      if (left <= 0 || !matches(action, match)) return;
      left--;
      throw typeof error === 'function' ? error(action) : error;
    });
  }

  /** Actions that change state (everything but get/list). */
  writes(match: ActionMatch = {}): Action[] {
    return this.actions.filter((a) => a.verb !== 'get' && a.verb !== 'list' && matches(a, match));
  }

  /** Matching actions, in order. */
  find(match: ActionMatch): Action[] {
    return this.actions.filter((a) => matches(a, match));
  }

  /** Compact `verb resource[/sub] ns/name` strings of the writes, handy for ordered assertions. */
  writeSummary(): string[] {
    return this.writes().map((a) => `${a.verb} ${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.namespace}/${a.name}`);
  }

  /** Records that `action` succeeded, with the object's states around it. */
  commit(action: Action, before: unknown, after: unknown): void {
    const commit = structuredClone({ action, before, after });
    this.commits.push(commit);
    for (const l of [...this.commitListeners]) l(structuredClone(commit));
  }

  /** Calls `listener` after every successful write (what the cluster's other actors react to). */
  onCommit(listener: (commit: Commit) => void): () => void {
    this.commitListeners.add(listener);
    return () => {
      this.commitListeners.delete(listener);
    };
  }

  clearActions(): void {
    this.actions.length = 0;
    this.commits.length = 0;
  }

  nextResourceVersion(): string {
    return String(++this.rv);
  }

  /** The last resourceVersion handed out: what a list made now would be current at. */
  currentResourceVersion(): string {
    return String(this.rv);
  }

  nextUid(): string {
    return `uid-${++this.uids}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Storage.

interface KubeObject {
  metadata?: V1ObjectMeta;
}

const keyOf = (namespace: string | undefined, name: string | undefined): string => `${namespace ?? ''}/${name ?? ''}`;

function deepFreeze<T>(obj: T): T {
  if (obj && typeof obj === 'object' && !Object.isFrozen(obj)) {
    Object.freeze(obj);
    for (const v of Object.values(obj as object)) deepFreeze(v);
  }
  return obj;
}

/** A watch event of one store, as a watch would deliver it (`old`: the state before). */
export interface StoreEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: T;
  old?: T;
}

/**
 * The API server's storage for one resource. Reads return copies. Every change (seeded or
 * written through a client) bumps the object's resourceVersion and is delivered synchronously
 * to the `watch` listeners, as a watch event.
 */
export class ObjectStore<T extends KubeObject> {
  private readonly objects = new Map<string, T>();
  private readonly listeners = new Set<(event: StoreEvent<T>) => void>();
  constructor(readonly api: FakeApi, readonly resource: string) {}

  get(namespace: string, name: string): T | undefined {
    const obj = this.objects.get(keyOf(namespace, name));
    return obj === undefined ? undefined : structuredClone(obj);
  }

  list(namespace?: string): T[] {
    return [...this.objects.values()]
      .filter((o) => namespace === undefined || o.metadata?.namespace === namespace)
      .map((o) => structuredClone(o));
  }

  /**
   * Seeds or overwrites an object WITHOUT recording an action (test setup, or simulating another
   * writer). Missing uid/generation/creationTimestamp are filled in; the resourceVersion is the
   * store's next one, unless `keepResourceVersion` restores the object at the version it names
   * (for tests that assert the version a client sends; the fake's own versions start above 100).
   */
  put(obj: T, o: { keepResourceVersion?: boolean } = {}): T {
    const copy = structuredClone(obj);
    copy.metadata ??= {};
    copy.metadata.uid ??= this.api.nextUid();
    copy.metadata.generation ??= 1;
    copy.metadata.creationTimestamp ??= this.api.clock.now();
    if (!o.keepResourceVersion || copy.metadata.resourceVersion === undefined) copy.metadata.resourceVersion = this.api.nextResourceVersion();
    this.store(copy);
    return structuredClone(copy);
  }

  /** Changes a stored object (as another writer would) and bumps its resourceVersion. */
  mutate(namespace: string, name: string, fn: (obj: T) => void): T {
    const stored = this.objects.get(keyOf(namespace, name));
    if (!stored) throw new Error(`fake ${this.resource} ${namespace}/${name} does not exist`);
    const obj = structuredClone(stored);
    fn(obj);
    obj.metadata ??= {};
    obj.metadata.resourceVersion = this.api.nextResourceVersion();
    this.store(obj);
    return structuredClone(obj);
  }

  /** Removes an object without recording an action. */
  remove(namespace: string, name: string): boolean {
    const key = keyOf(namespace, name);
    const old = this.objects.get(key);
    if (!old) return false;
    this.objects.delete(key);
    this.emit({ type: 'DELETED', object: structuredClone(old) });
    return true;
  }

  /** Stores without touching metadata (used by the clients after they set it). */
  store(obj: T): void {
    const key = keyOf(obj.metadata?.namespace, obj.metadata?.name);
    const old = this.objects.get(key);
    this.objects.set(key, obj);
    this.emit(old === undefined
      ? { type: 'ADDED', object: structuredClone(obj) }
      : { type: 'MODIFIED', object: structuredClone(obj), old: structuredClone(old) });
  }

  /** The stored object itself (not a copy); for the clients. */
  raw(namespace: string, name: string): T | undefined {
    return this.objects.get(keyOf(namespace, name));
  }

  /** Delivers every later change to `listener`; returns a function that stops it. */
  watch(listener: (event: StoreEvent<T>) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private emit(event: StoreEvent<T>): void {
    for (const l of [...this.listeners]) l(event);
  }
}

/**
 * Informer-cache view of a store. Returns deep-frozen copies. `pause()` keeps serving the
 * snapshot taken at that moment (a stale cache) until `resume()`.
 */
export class FakeLister<T extends KubeObject> implements Lister<T> {
  private snapshot?: Map<string, T>;
  constructor(protected readonly source: ObjectStore<T>) {}

  get(namespace: string, name: string): T | undefined {
    const obj = this.snapshot ? structuredClone(this.snapshot.get(keyOf(namespace, name))) : this.source.get(namespace, name);
    return obj === undefined ? undefined : deepFreeze(obj);
  }

  list(namespace?: string): T[] {
    const all = this.snapshot
      ? [...this.snapshot.values()].filter((o) => namespace === undefined || o.metadata?.namespace === namespace).map((o) => structuredClone(o))
      : this.source.list(namespace);
    return all.map((o) => deepFreeze(o));
  }

  /** Stop following the store (simulates a lagging watch). */
  pause(): void {
    this.snapshot = new Map(this.source.list().map((o) => [keyOf(o.metadata?.namespace, o.metadata?.name), o]));
  }

  resume(): void {
    this.snapshot = undefined;
  }
}

/**
 * A shared informer over a store (SharedInformer of src/controller/ports.ts): reads as a lister,
 * and hands every watch event of the store to the `add`/`update`/`delete` handlers (frozen
 * copies, as cache objects), as the informers the controllers are wired to do.
 */
export class FakeInformer<T extends KubeObject> extends FakeLister<T> implements SharedInformer<T> {
  private readonly handlers = { add: [] as Array<(obj: T) => void>, update: [] as Array<(oldObj: T, newObj: T) => void>, delete: [] as Array<(obj: T) => void> };
  constructor(source: ObjectStore<T>) {
    super(source);
    source.watch(({ type, object, old }) => {
      if (type === 'ADDED') for (const h of this.handlers.add) h(deepFreeze(structuredClone(object)));
      else if (type === 'MODIFIED') for (const h of this.handlers.update) h(deepFreeze(structuredClone(old!)), deepFreeze(structuredClone(object)));
      else for (const h of this.handlers.delete) h(deepFreeze(structuredClone(object)));
    });
  }
  on(event: 'add' | 'delete', handler: (obj: T) => void): void;
  on(event: 'update', handler: (oldObj: T, newObj: T) => void): void;
  on(event: 'add' | 'update' | 'delete', handler: ((obj: T) => void) | ((oldObj: T, newObj: T) => void)): void {
    if (event === 'update') this.handlers.update.push(handler as (oldObj: T, newObj: T) => void);
    else this.handlers[event].push(handler as (obj: T) => void);
  }
}

// ---------------------------------------------------------------------------------------------
// Patches.

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** List merge keys of the strategic-merge patch for the fields unit tests touch. */
const mergeKeys: Record<string, string> = {
  ownerReferences: 'uid', containers: 'name', initContainers: 'name', env: 'name', volumes: 'name',
  volumeMounts: 'mountPath', ports: 'containerPort', conditions: 'type', tolerations: 'key',
};

/** A small strategic-merge patch: merge-patch semantics plus keyed list merging and `$patch: delete`. */
export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    const key = mergeKeys[k];
    if (v === null) {
      delete out[k];
    } else if (key && Array.isArray(v)) {
      let list = Array.isArray(out[k]) ? [...(out[k] as unknown[])] : [];
      for (const item of v) {
        if (!isPlainObject(item)) continue;
        const { $patch: directive, ...rest } = item;
        const idx = list.findIndex((e) => isPlainObject(e) && e[key] === item[key]);
        if (directive === 'delete') {
          if (idx >= 0) list = list.filter((_, i) => i !== idx);
        } else if (idx >= 0) {
          list[idx] = strategicMergePatch(list[idx], rest);
        } else {
          list.push(structuredClone(rest));
        }
      }
      out[k] = list;
    } else {
      out[k] = strategicMergePatch(out[k], v);
    }
  }
  return out;
}

interface JsonPatchOp { op: string; path: string; value?: unknown; from?: string }

const pointer = (path: string): string[] => path.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** RFC 6902 add/remove/replace/test. Throws a plain Error on a failed test or a bad path. */
export function jsonPatch(target: unknown, ops: JsonPatchOp[]): unknown {
  const doc = { root: structuredClone(target) } as Record<string, unknown>;
  for (const op of ops) {
    const parts = ['root', ...pointer(op.path)];
    const last = parts.pop()!;
    let parent: unknown = doc;
    for (const p of parts) {
      parent = Array.isArray(parent) ? parent[Number(p)] : (parent as Record<string, unknown> | undefined)?.[p];
      if (parent === undefined || parent === null) throw new Error(`json patch: path ${op.path} does not exist`);
    }
    const container = parent as Record<string, unknown> | unknown[];
    const index = Array.isArray(container) ? (last === '-' ? container.length : Number(last)) : -1;
    switch (op.op) {
      case 'test': {
        const current = Array.isArray(container) ? container[index] : (container as Record<string, unknown>)[last];
        if (JSON.stringify(current) !== JSON.stringify(op.value)) throw new Error(`json patch: test failed at ${op.path}`);
        break;
      }
      case 'add':
        if (Array.isArray(container)) container.splice(index, 0, structuredClone(op.value));
        else (container as Record<string, unknown>)[last] = structuredClone(op.value);
        break;
      case 'replace':
        if (Array.isArray(container)) container[index] = structuredClone(op.value);
        else {
          if (!(last in container)) throw new Error(`json patch: path ${op.path} does not exist`);
          (container as Record<string, unknown>)[last] = structuredClone(op.value);
        }
        break;
      case 'remove':
        if (Array.isArray(container)) container.splice(index, 1);
        else {
          if (!(last in container)) throw new Error(`json patch: path ${op.path} does not exist`);
          delete (container as Record<string, unknown>)[last];
        }
        break;
      default:
        throw new Error(`json patch: unsupported op ${op.op}`);
    }
  }
  return doc.root;
}

// ---------------------------------------------------------------------------------------------
// Label selectors (equality-based, plus `k!=v`, `k`, `!k`).

export function matchesSelector(labels: Record<string, string> | undefined, selector: string | undefined): boolean {
  if (!selector) return true;
  const l = labels ?? {};
  return selector.split(',').map((s) => s.trim()).filter(Boolean).every((req) => {
    let m: RegExpExecArray | null;
    if ((m = /^([^!=]+)!=(.*)$/.exec(req))) return l[m[1]!.trim()] !== m[2]!.trim();
    if ((m = /^([^!=]+)==?(.*)$/.exec(req))) return l[m[1]!.trim()] === m[2]!.trim();
    if (req.startsWith('!')) return !(req.slice(1) in l);
    return req in l;
  });
}

// ---------------------------------------------------------------------------------------------
// Generic client behaviour.

interface ResourceOptions {
  /** API group, for error messages as the API server words them (`deploymentconfigs.apps.openshift.io "x" not found`). */
  group?: string;
  /** PUT without a resourceVersion is rejected (AllowUnconditionalUpdate=false). */
  requireResourceVersion: boolean;
  /** Has a /status subresource: main writes keep the stored status. */
  statusSubresource: boolean;
}

const specOf = (obj: unknown): unknown => (obj as { spec?: unknown }).spec;

/**
 * get/list/create/update/patch (and the delete the subclasses expose) over an ObjectStore, with the
 * API server's rules; a port's fake is this plus what is particular to its resource.
 */
export class FakeResourceClient<T extends KubeObject> {
  constructor(readonly api: FakeApi, readonly objects: ObjectStore<T>, private readonly options: ResourceOptions) {}

  get resource(): string {
    return this.objects.resource;
  }

  /** The resource as error messages name it. */
  get qualified(): string {
    return this.options.group ? `${this.resource}.${this.options.group}` : this.resource;
  }

  protected existing(namespace: string, name: string): T {
    const obj = this.objects.raw(namespace, name);
    if (!obj) throw notFound(this.qualified, name);
    return obj;
  }

  async get(namespace: string, name: string, subresource?: string): Promise<T> {
    this.api.record({ verb: 'get', resource: this.resource, subresource, namespace, name });
    return structuredClone(this.existing(namespace, name));
  }

  async list(namespace: string, labelSelector?: string): Promise<T[]> {
    this.api.record({ verb: 'list', resource: this.resource, namespace, name: '', body: labelSelector ? { labelSelector } : undefined });
    return this.objects.list(namespace).filter((o) => matchesSelector(o.metadata?.labels, labelSelector));
  }

  async create(namespace: string, body: T): Promise<T> {
    const name = body.metadata?.name ?? '';
    const action: Action = { verb: 'create', resource: this.resource, namespace, name, body };
    this.api.record(action);
    if (!name) throw invalid(this.qualified, '', 'metadata.name: Required value: name is required');
    if (body.metadata?.namespace && body.metadata.namespace !== namespace) {
      throw new ApiError('the namespace of the provided object does not match the namespace sent on the request', 400, 'BadRequest');
    }
    if (this.objects.raw(namespace, name)) throw alreadyExists(this.qualified, name);
    const obj = structuredClone(body);
    obj.metadata = {
      ...obj.metadata,
      namespace,
      uid: this.api.nextUid(),
      resourceVersion: this.api.nextResourceVersion(),
      generation: 1,
      creationTimestamp: this.api.clock.now(),
    };
    this.prepareForCreate(obj);
    this.objects.store(obj);
    this.api.commit(action, undefined, obj);
    return structuredClone(obj);
  }

  async update(body: T, subresource?: 'status'): Promise<T> {
    const namespace = body.metadata?.namespace ?? '';
    const name = body.metadata?.name ?? '';
    const action: Action = { verb: 'update', resource: this.resource, subresource, namespace, name, body };
    this.api.record(action);
    const stored = this.existing(namespace, name);
    const rv = body.metadata?.resourceVersion;
    if (!rv && this.options.requireResourceVersion) {
      throw invalid(this.qualified, name, 'metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
    }
    if (rv && rv !== stored.metadata?.resourceVersion) throw conflict(this.qualified, name);
    if (body.metadata?.uid && body.metadata.uid !== stored.metadata?.uid) {
      throw conflict(this.qualified, name, `Precondition failed: UID in precondition: ${body.metadata.uid}, UID in object meta: ${stored.metadata?.uid ?? ''}`);
    }
    const next = this.merge(stored, structuredClone(body), subresource === 'status');
    this.objects.store(next);
    this.api.commit(action, stored, next);
    return structuredClone(next);
  }

  /** `dryRun`: validated and answered as if stored, but nothing is stored (dryRun=All). */
  async patch(namespace: string, name: string, patch: unknown, type: PatchType, o: { subresource?: string; dryRun?: boolean } = {}): Promise<T> {
    const { subresource, dryRun = false } = o;
    const action: Action = { verb: 'patch', resource: this.resource, subresource, namespace, name, body: patch, patchType: type, ...(dryRun ? { dryRun } : {}) };
    this.api.record(action);
    const stored = this.existing(namespace, name);
    let patched: T;
    try {
      patched = (type === 'json' ? jsonPatch(stored, patch as JsonPatchOp[])
        : type === 'strategic' ? strategicMergePatch(stored, patch) : mergePatch(stored, patch)) as T;
    } catch (err) {
      throw invalid(this.qualified, name, (err as Error).message);
    }
    if (patched.metadata?.uid !== stored.metadata?.uid) {
      throw conflict(this.qualified, name, `Precondition failed: UID in precondition: ${patched.metadata?.uid ?? ''}, UID in object meta: ${stored.metadata?.uid ?? ''}`);
    }
    // A resourceVersion in the patch is optimistic concurrency, as in an update.
    if (patched.metadata?.resourceVersion !== stored.metadata?.resourceVersion) throw conflict(this.qualified, name);
    const next = this.merge(stored, patched, subresource === 'status');
    if (dryRun) return structuredClone(next);
    this.objects.store(next);
    this.api.commit(action, stored, next);
    return structuredClone(next);
  }

  protected async remove(namespace: string, name: string, options?: Record<string, unknown>): Promise<void> {
    const action: Action = { verb: 'delete', resource: this.resource, namespace, name, body: options };
    this.api.record(action);
    const stored = this.existing(namespace, name);
    this.objects.remove(namespace, name);
    this.api.commit(action, stored, undefined);
  }

  /** What the API server's create strategy resets (pods: status starts Pending). */
  protected prepareForCreate(_obj: T): void {}

  /** Applies subresource rules, generation and resourceVersion bookkeeping. */
  private merge(stored: T, incoming: T, statusWrite: boolean): T {
    const storedStatus = (stored as { status?: unknown }).status;
    let next: T;
    if (statusWrite) {
      // /status: only status (and metadata bookkeeping) is taken from the request.
      next = structuredClone(stored);
      (next as { status?: unknown }).status = (incoming as { status?: unknown }).status;
    } else {
      next = incoming;
      if (this.options.statusSubresource) {
        if (storedStatus === undefined) delete (next as { status?: unknown }).status;
        else (next as { status?: unknown }).status = structuredClone(storedStatus);
      }
    }
    next.metadata = {
      ...next.metadata,
      uid: stored.metadata?.uid,
      creationTimestamp: stored.metadata?.creationTimestamp,
      resourceVersion: this.api.nextResourceVersion(),
      generation: (stored.metadata?.generation ?? 1)
        + (!statusWrite && JSON.stringify(specOf(next)) !== JSON.stringify(specOf(stored)) ? 1 : 0),
    };
    return next;
  }
}

// ---------------------------------------------------------------------------------------------
// Port implementations.

export class FakeDeploymentConfigClient extends FakeResourceClient<DeploymentConfig> implements DeploymentConfigClient {
  constructor(api: FakeApi, objects: ObjectStore<DeploymentConfig>) {
    super(api, objects, { requireResourceVersion: true, statusSubresource: true, group: 'apps.openshift.io' });
  }
  updateStatus(dc: DeploymentConfig): Promise<DeploymentConfig> {
    return this.update(dc, 'status');
  }
}

export class FakeReplicationControllerClient extends FakeResourceClient<V1ReplicationController> implements ReplicationControllerClient {
  constructor(api: FakeApi, objects: ObjectStore<V1ReplicationController>) {
    super(api, objects, { requireResourceVersion: false, statusSubresource: true });
  }
  delete(namespace: string, name: string, propagationPolicy?: PropagationPolicy): Promise<void> {
    return this.remove(namespace, name, propagationPolicy ? { propagationPolicy } : undefined);
  }
  async getScale(namespace: string, name: string): Promise<V1Scale> {
    const rc = await this.get(namespace, name, 'scale');
    return {
      apiVersion: 'autoscaling/v1', kind: 'Scale',
      metadata: { name, namespace, uid: rc.metadata?.uid, resourceVersion: rc.metadata?.resourceVersion },
      spec: { replicas: rc.spec?.replicas ?? 0 },
      status: { replicas: rc.status?.replicas ?? 0 },
    };
  }
  async updateScale(namespace: string, name: string, scale: V1Scale): Promise<V1Scale> {
    const action: Action = { verb: 'update', resource: this.resource, subresource: 'scale', namespace, name, body: scale };
    this.api.record(action);
    const stored = this.existing(namespace, name);
    const rv = scale.metadata?.resourceVersion;
    if (rv && rv !== stored.metadata?.resourceVersion) throw conflict(this.qualified, name);
    const replicas = scale.spec?.replicas ?? 0;
    const next = this.objects.mutate(namespace, name, (rc) => {
      if (rc.spec?.replicas === replicas) return;
      rc.spec = { ...(rc.spec ?? {}), replicas };
      rc.metadata = { ...rc.metadata, generation: (rc.metadata?.generation ?? 1) + 1 };
    });
    this.api.commit(action, stored, next);
    return { ...scale, metadata: { ...scale.metadata, resourceVersion: next.metadata?.resourceVersion }, status: { replicas: next.status?.replicas ?? 0 } };
  }
}

export class FakePodClient extends FakeResourceClient<V1Pod> implements PodClient {
  constructor(api: FakeApi, objects: ObjectStore<V1Pod>) {
    super(api, objects, { requireResourceVersion: false, statusSubresource: true });
  }
  /** As the API server's pod strategy: a new pod's status is `Pending`, whatever was sent. */
  protected override prepareForCreate(pod: V1Pod): void {
    pod.status = { phase: 'Pending' };
  }
  /** Deletion is immediate (no graceful termination is simulated). */
  delete(namespace: string, name: string, gracePeriodSeconds?: number): Promise<void> {
    return this.remove(namespace, name, gracePeriodSeconds === undefined ? undefined : { gracePeriodSeconds });
  }
}

export class FakeEventClient implements EventClient {
  constructor(readonly api: FakeApi, readonly objects: ObjectStore<CoreV1Event>) {}
  async create(namespace: string, event: CoreV1Event): Promise<void> {
    const action: Action = { verb: 'create', resource: 'events', namespace, name: event.metadata?.name ?? '', body: event };
    this.api.record(action);
    const name = event.metadata?.name ?? `event-${this.api.nextUid()}`;
    if (this.objects.raw(namespace, name)) throw alreadyExists('events', name);
    this.api.commit(action, undefined, this.objects.put({ ...event, metadata: { ...event.metadata, name, namespace } }));
  }
  /** Merge patch (count/lastTimestamp of a repeated event); 404 once the event is gone. */
  async patch(namespace: string, name: string, patch: unknown): Promise<void> {
    const action: Action = { verb: 'patch', resource: 'events', namespace, name, body: patch, patchType: 'merge' };
    this.api.record(action);
    const stored = this.objects.get(namespace, name);
    if (!stored) throw notFound('events', name);
    const next = this.objects.mutate(namespace, name, (e) => Object.assign(e, mergePatch(e, patch)));
    this.api.commit(action, stored, next);
  }
  async list(namespace: string, fieldSelector?: string): Promise<CoreV1Event[]> {
    this.api.record({ verb: 'list', resource: 'events', namespace, name: '', body: fieldSelector ? { fieldSelector } : undefined });
    const all = this.objects.list(namespace);
    if (!fieldSelector) return all;
    const wanted = Object.fromEntries(fieldSelector.split(',').map((p) => p.split('=') as [string, string]));
    return all.filter((e) => Object.entries(wanted).every(([k, v]) => {
      const value = k.split('.').reduce<unknown>((o, part) => (o as Record<string, unknown> | undefined)?.[part], e);
      return String(value) === v;
    }));
  }
}

/** A recorded event. */
export interface RecordedEvent {
  object: InvolvedObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** Keeps every event in order; `object` is reduced to its identifying fields. */
export class RecordingEventRecorder implements EventRecorder {
  readonly events: RecordedEvent[] = [];
  event(object: InvolvedObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const { apiVersion, kind, name, namespace, uid, resourceVersion } = object as InvolvedObject & { metadata?: V1ObjectMeta };
    const meta = (object as { metadata?: V1ObjectMeta }).metadata;
    const ref: InvolvedObject = { apiVersion, kind, name: name ?? meta?.name, namespace: namespace ?? meta?.namespace, uid: uid ?? meta?.uid };
    // A flat reference names the version it was made from (the deployer controller's); an object's own is left out.
    if (resourceVersion !== undefined) ref.resourceVersion = resourceVersion;
    this.events.push({ object: ref, type, reason, message });
  }
  reasons(): string[] {
    return this.events.map((e) => e.reason);
  }
  /** `Type Reason: message` strings. */
  summary(): string[] {
    return this.events.map((e) => `${e.type} ${e.reason}: ${e.message}`);
  }
  clear(): void {
    this.events.length = 0;
  }
}

export class FakeImageStreamClient extends FakeResourceClient<ImageStream> implements ImageStreamClient {
  constructor(api: FakeApi, objects: ObjectStore<ImageStream>) {
    super(api, objects, { requireResourceVersion: true, statusSubresource: true, group: 'image.openshift.io' });
  }
  updateStatus(stream: ImageStream): Promise<ImageStream> {
    return this.update(stream, 'status');
  }
}

// ---------------------------------------------------------------------------------------------
// The deployer's ports (src/deployer/ports.ts): waits on the stores' watch events, logs, apply.

const olderThan = (obj: KubeObject, resourceVersion: string | undefined): boolean =>
  resourceVersion !== undefined && Number(obj.metadata?.resourceVersion ?? 0) < Number(resourceVersion);

/**
 * One wait: checks `read()` now and at every watch event of `store`, with the clock's timer for
 * the timeout. `read` returning undefined means the object is gone.
 */
function waitOn<T, S extends KubeObject>(
  store: ObjectStore<S>,
  clock: FakeClock,
  read: () => T | undefined,
  predicate: Predicate<T>,
  timeoutMs: number,
  deleted: () => Error,
  skip: (value: T) => boolean = () => false,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let cancelTimer = (): void => {};
    let stopWatch = (): void => {};
    let settled = false;
    const done = (err: unknown, value?: T): void => {
      if (settled) return;
      settled = true;
      stopWatch();
      cancelTimer();
      if (err) reject(err);
      else resolve(value as T);
    };
    const check = (): void => {
      const value = read();
      if (value === undefined) return done(deleted());
      if (skip(value)) return;
      try {
        if (predicate(structuredClone(value))) done(undefined, structuredClone(value));
      } catch (err) {
        done(err);
      }
    };
    stopWatch = store.watch(() => check());
    if (Number.isFinite(timeoutMs)) cancelTimer = clock.setTimer(timeoutMs, () => done(new WaitTimeoutError()));
    check();
  });
}

/** Waits on one object of `store`: 404 when it is not there at the start, as the list would say. */
function waitForObject<T extends KubeObject>(
  store: ObjectStore<T>, clock: FakeClock, namespace: string, name: string,
  predicate: Predicate<T>, timeoutMs: number, options: WaitOptions | undefined,
): Promise<T> {
  if (!store.raw(namespace, name)) return Promise.reject(notFound(store.resource, name));
  let last: T | undefined;
  const read = (): T | undefined => {
    const current = store.get(namespace, name);
    if (current !== undefined) last = current;
    return current;
  };
  return waitOn(store, clock, read, predicate, timeoutMs,
    () => new WatchedObjectDeletedError(`${store.resource} "${name}" was deleted`, last),
    (obj) => olderThan(obj, options?.notOlderThan));
}

export class FakeRcWatcher implements RcWatcher {
  /** Sets listed so far: as the real watcher, a second listAndWatch of one set reuses its list+watch. */
  private readonly listed = new Set<string>();
  constructor(private readonly rcs: ObjectStore<V1ReplicationController>, private readonly clock: FakeClock, private readonly api?: FakeApi) {}
  /** The list half is recorded as a `list` of replicationcontrollers (the watch is free here), once per set. */
  async listAndWatch(namespace: string, labelSelector: string): Promise<ListedRcs> {
    const key = `${namespace}?${labelSelector}`;
    if (!this.listed.has(key)) this.api?.record({ verb: 'list', resource: 'replicationcontrollers', namespace, name: '', body: { labelSelector } });
    this.listed.add(key);
    return {
      items: this.rcs.list(namespace).filter((rc) => matchesSelector(rc.metadata?.labels, labelSelector)),
      resourceVersion: this.rcs.api.currentResourceVersion(),
    };
  }
  waitFor(namespace: string, name: string, predicate: Predicate<V1ReplicationController>, timeoutMs: number, options?: WaitOptions): Promise<V1ReplicationController> {
    return waitForObject(this.rcs, this.clock, namespace, name, predicate, timeoutMs, options);
  }
}

export class FakePodWatcher implements PodWatcher {
  constructor(private readonly pods: ObjectStore<V1Pod>, private readonly clock: FakeClock) {}
  waitForPod(namespace: string, name: string, predicate: Predicate<V1Pod>, timeoutMs: number, options?: WaitOptions): Promise<V1Pod> {
    return waitForObject(this.pods, this.clock, namespace, name, predicate, timeoutMs, options);
  }
  waitForPods(namespace: string, labelSelector: string, predicate: Predicate<V1Pod[]>, timeoutMs: number): Promise<V1Pod[]> {
    const read = (): V1Pod[] => this.pods.list(namespace).filter((p) => matchesSelector(p.metadata?.labels, labelSelector));
    return waitOn(this.pods, this.clock, read, predicate, timeoutMs, () => new Error('unreachable: a pod list is never deleted'));
  }
}

/** Container logs by pod: `texts` holds each pod's whole log; `unavailable` plays a node without a kubelet server. */
export class FakePodLogs implements PodLogs {
  readonly texts = new Map<string, string>();
  unavailable = false;
  async follow(namespace: string, pod: string, _container: string, out: NodeJS.WritableStream): Promise<void> {
    if (this.unavailable) throw new ApiError('the server could not find the requested resource', 404, 'NotFound');
    out.write(this.texts.get(keyOf(namespace, pod)) ?? '');
  }
}


// ---------------------------------------------------------------------------------------------
// Everything wired together.

/** All fakes sharing one API; its fields satisfy the sync-deps interfaces of the controllers. */
export interface FakeCluster {
  api: FakeApi;
  clock: FakeClock;
  dcs: ObjectStore<DeploymentConfig>;
  rcs: ObjectStore<V1ReplicationController>;
  pods: ObjectStore<V1Pod>;
  events: ObjectStore<CoreV1Event>;
  streams: ObjectStore<ImageStream>;
  dcLister: FakeLister<DeploymentConfig>;
  rcLister: FakeLister<V1ReplicationController>;
  podLister: FakeLister<V1Pod>;
  streamLister: FakeLister<ImageStream>;
  dcClient: FakeDeploymentConfigClient;
  rcClient: FakeReplicationControllerClient;
  podClient: FakePodClient;
  eventClient: FakeEventClient;
  streamClient: FakeImageStreamClient;
  recorder: RecordingEventRecorder;
  rcWatcher: FakeRcWatcher;
  podWatcher: FakePodWatcher;
  logs: FakePodLogs;
}

export function newFakeCluster(clock: FakeClock = new FakeClock()): FakeCluster {
  const api = new FakeApi(clock);
  const dcs = new ObjectStore<DeploymentConfig>(api, 'deploymentconfigs');
  const rcs = new ObjectStore<V1ReplicationController>(api, 'replicationcontrollers');
  const pods = new ObjectStore<V1Pod>(api, 'pods');
  const events = new ObjectStore<CoreV1Event>(api, 'events');
  const streams = new ObjectStore<ImageStream>(api, 'imagestreams');
  return {
    api, clock, dcs, rcs, pods, events, streams,
    dcLister: new FakeLister(dcs),
    rcLister: new FakeLister(rcs),
    podLister: new FakeLister(pods),
    streamLister: new FakeLister(streams),
    dcClient: new FakeDeploymentConfigClient(api, dcs),
    rcClient: new FakeReplicationControllerClient(api, rcs),
    podClient: new FakePodClient(api, pods),
    eventClient: new FakeEventClient(api, events),
    streamClient: new FakeImageStreamClient(api, streams),
    recorder: new RecordingEventRecorder(),
    rcWatcher: new FakeRcWatcher(rcs, clock, api),
    podWatcher: new FakePodWatcher(pods, clock),
    logs: new FakePodLogs(),
  };
}

/** The deployer process's ports over the cluster (`imageStreams` only when asked for). */
export function deployerDeps(f: FakeCluster, o: { imageStreams?: boolean } = {}): DeployerDeps {
  return {
    rcs: f.rcClient, pods: f.podClient, events: f.eventClient,
    rcWatcher: f.rcWatcher, podWatcher: f.podWatcher, logs: f.logs, clock: f.clock,
    ...(o.imageStreams ? { imageStreams: f.streamClient } : {}),
  };
}

/** Takes every key queued so far, in queue order, marking each done: what a wiring test enqueued. */
export async function drainQueue(queue: WorkQueue): Promise<string[]> {
  const keys: string[] = [];
  while (queue.len() > 0) {
    const k = await queue.get();
    if (k === undefined) break;
    keys.push(k);
    queue.done(k);
  }
  return keys;
}
