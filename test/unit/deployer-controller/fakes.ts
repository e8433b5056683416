/**
 * Minimal in-memory ports for the deployer sync tests: listers backed by maps and clients that
 * record every call in order (sample-controller fixture style) and can be told to fail.
 */
import type { V1Pod, V1ReplicationController, V1Scale } from '@kubernetes/client-node';
import type {
  EventRecorder, InvolvedObject, Lister, PatchType, PodClient, ReplicationControllerClient,
} from '../../../src/controller/ports.js';
import { mergePatch } from '../../support/fakes.js';

interface Named { metadata?: { name?: string; namespace?: string } }

export class MemoryLister<T extends Named> implements Lister<T> {
  private readonly items = new Map<string, T>();
  constructor(items: T[] = []) {
    for (const item of items) this.add(item);
  }
  add(item: T): void {
    this.items.set(`${item.metadata?.namespace ?? ''}/${item.metadata?.name ?? ''}`, item);
  }
  get(namespace: string, name: string): T | undefined {
    return this.items.get(`${namespace}/${name}`);
  }
  list(namespace?: string): T[] {
    return [...this.items.values()].filter((item) => namespace === undefined || item.metadata?.namespace === namespace);
  }
}

export interface Action {
  verb: 'create' | 'update' | 'patch' | 'delete';
  resource: 'pods' | 'replicationcontrollers';
  namespace: string;
  name: string;
  patchType?: PatchType;
  /** The RC after the write (create/update/patch) or the pod written. */
  body?: unknown;
  /** The patch as sent. */
  patch?: unknown;
}

/** Records calls; `fail[verb]` (or a function of the name) makes that call reject. */
export class RecordingPodClient implements PodClient {
  readonly actions: Action[] = [];
  failCreate?: unknown;
  failDelete?: (name: string) => unknown;
  failPatch?: (name: string) => unknown;
  constructor(private readonly created: (pod: V1Pod) => V1Pod = (pod) => pod) {}
  async get(): Promise<V1Pod> { throw new Error('not used'); }
  async list(): Promise<V1Pod[]> { throw new Error('not used'); }
  async create(namespace: string, pod: V1Pod): Promise<V1Pod> {
    this.actions.push({ verb: 'create', resource: 'pods', namespace, name: pod.metadata?.name ?? '', body: pod });
    if (this.failCreate) throw this.failCreate;
    return this.created(structuredClone(pod));
  }
  async patch(namespace: string, name: string, patch: unknown, type: PatchType): Promise<V1Pod> {
    this.actions.push({ verb: 'patch', resource: 'pods', namespace, name, patchType: type, body: patch });
    const err = this.failPatch?.(name);
    if (err) throw err;
    return {};
  }
  async delete(namespace: string, name: string): Promise<void> {
    this.actions.push({ verb: 'delete', resource: 'pods', namespace, name });
    const err = this.failDelete?.(name);
    if (err) throw err;
  }
}

/**
 * Records RC writes. `patch` (merge) applies to the RC in `base` (the sync's lister) and records
 * the resulting object; `failUpdate` makes updates and patches reject.
 */
export class RecordingRcClient implements ReplicationControllerClient {
  readonly actions: Action[] = [];
  failUpdate?: unknown;
  constructor(private readonly base?: Lister<V1ReplicationController>) {}
  async get(): Promise<V1ReplicationController> { throw new Error('not used'); }
  async list(): Promise<V1ReplicationController[]> { throw new Error('not used'); }
  async create(): Promise<V1ReplicationController> { throw new Error('not used'); }
  async update(rc: V1ReplicationController): Promise<V1ReplicationController> {
    this.actions.push({ verb: 'update', resource: 'replicationcontrollers', namespace: rc.metadata?.namespace ?? '', name: rc.metadata?.name ?? '', body: rc });
    if (this.failUpdate) throw this.failUpdate;
    return rc;
  }
  async patch(namespace: string, name: string, patch: unknown, type: PatchType): Promise<V1ReplicationController> {
    if (type !== 'merge') throw new Error(`patch type ${type} not supported by this fake`);
    const current = this.base?.get(namespace, name);
    if (!current) throw new Error(`no RC ${namespace}/${name} to patch`);
    const result = mergePatch(current, patch) as V1ReplicationController;
    this.actions.push({ verb: 'patch', resource: 'replicationcontrollers', namespace, name, patchType: type, body: result, patch });
    if (this.failUpdate) throw this.failUpdate;
    return result;
  }
  async delete(): Promise<void> { throw new Error('not used'); }
  async getScale(): Promise<V1Scale> { throw new Error('not used'); }
  async updateScale(): Promise<V1Scale> { throw new Error('not used'); }

  /** The RCs as written by update() or patch(), in order. */
  get updates(): V1ReplicationController[] {
    return this.actions.filter((a) => a.verb === 'update' || a.verb === 'patch').map((a) => a.body as V1ReplicationController);
  }
}

export interface RecordedEvent { object: InvolvedObject; type: 'Normal' | 'Warning'; reason: string; message: string }

export class RecordingRecorder implements EventRecorder {
  readonly events: RecordedEvent[] = [];
  event(object: InvolvedObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.events.push({ object, type, reason, message });
  }
}
