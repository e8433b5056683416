/**
 * In-memory ports for CLI tests: they record every write (verb, name, patch) so tests assert the
 * exact requests a command sends, and apply merge patches so follow-up reads see the result.
 */
import type { V1Pod, V1PodTemplateSpec, V1ReplicationController, V1Scale } from '@kubernetes/client-node';
import { Annotations } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { ApiError } from '../../../src/controller/errors.js';
import type { DeploymentConfigClient, PatchType, PodClient, ReplicationControllerClient } from '../../../src/controller/ports.js';
import { applyMergePatch } from '../../../src/cli/merge-patch.js';
import type { CliContext } from '../../../src/cli/ports.js';
import { rcFor } from '../../support/builders.js';

export const NS = 'ns1';

export interface Action { verb: string; resource: string; name: string; body?: unknown; patchType?: PatchType; gracePeriodSeconds?: number }

const notFound = (resource: string, name: string): ApiError => new ApiError(`${resource} "${name}" not found`, 404, 'NotFound');

function matches(labels: Record<string, string> | undefined, selector?: string): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [k, v] = term.split('=');
    return labels?.[k as string] === v;
  });
}

export class FakeDcClient implements DeploymentConfigClient {
  readonly store = new Map<string, DeploymentConfig>();
  readonly actions: Action[] = [];
  /** Called after a patch is stored, e.g. to play the controller acknowledging a request. */
  onPatch?: (dc: DeploymentConfig) => void;
  failWith?: ApiError;
  private rv = 100;

  add(dc: DeploymentConfig): void { this.store.set(dc.metadata.name as string, structuredClone(dc)); }
  async get(namespace: string, name: string): Promise<DeploymentConfig> {
    const dc = this.store.get(name);
    if (!dc || dc.metadata.namespace !== namespace) throw notFound('deploymentconfigs.apps.openshift.io', name);
    return structuredClone(dc);
  }
  async updateStatus(dc: DeploymentConfig): Promise<DeploymentConfig> { this.store.set(dc.metadata.name as string, structuredClone(dc)); return dc; }
  async update(dc: DeploymentConfig): Promise<DeploymentConfig> { this.store.set(dc.metadata.name as string, structuredClone(dc)); return dc; }
  async patch(namespace: string, name: string, patch: unknown, type: 'merge' | 'json'): Promise<DeploymentConfig> {
    this.actions.push({ verb: 'patch', resource: 'deploymentconfigs', name, body: structuredClone(patch), patchType: type });
    if (this.failWith) throw this.failWith;
    const current = await this.get(namespace, name);
    // The API server's precondition: a resourceVersion in the patch must match the stored one.
    const precondition = (patch as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
    if (precondition !== undefined && precondition !== current.metadata.resourceVersion) {
      throw new ApiError(`Operation cannot be fulfilled on deploymentconfigs.apps.openshift.io "${name}": the object has been modified; please apply your changes to the latest version and try again`, 409, 'Conflict');
    }
    const next = applyMergePatch(current, patch) as DeploymentConfig;
    next.metadata.resourceVersion = String(++this.rv);
    this.store.set(name, next);
    this.onPatch?.(next);
    return structuredClone(next);
  }
}

export class FakeRcClient implements ReplicationControllerClient {
  readonly store = new Map<string, V1ReplicationController>();
  readonly actions: Action[] = [];
  add(rc: V1ReplicationController): void { this.store.set(rc.metadata?.name as string, structuredClone(rc)); }
  async get(_ns: string, name: string): Promise<V1ReplicationController> {
    const rc = this.store.get(name);
    if (!rc) throw notFound('replicationcontrollers', name);
    return structuredClone(rc);
  }
  async list(_ns: string, labelSelector?: string): Promise<V1ReplicationController[]> {
    return [...this.store.values()].filter((rc) => matches(rc.metadata?.labels, labelSelector)).map((rc) => structuredClone(rc));
  }
  async create(_ns: string, rc: V1ReplicationController): Promise<V1ReplicationController> { this.add(rc); return rc; }
  async update(rc: V1ReplicationController): Promise<V1ReplicationController> { this.add(rc); return rc; }
  async patch(ns: string, name: string, patch: unknown, type: PatchType): Promise<V1ReplicationController> {
    this.actions.push({ verb: 'patch', resource: 'replicationcontrollers', name, body: structuredClone(patch), patchType: type });
    const next = applyMergePatch(await this.get(ns, name), patch) as V1ReplicationController;
    this.store.set(name, next);
    return next;
  }
  async delete(_ns: string, name: string): Promise<void> { this.store.delete(name); }
  async getScale(): Promise<V1Scale> { throw new Error('not used'); }
  async updateScale(): Promise<V1Scale> { throw new Error('not used'); }
}

export class FakePodClient implements PodClient {
  readonly store = new Map<string, V1Pod>();
  readonly actions: Action[] = [];
  add(pod: V1Pod): void { this.store.set(pod.metadata?.name as string, structuredClone(pod)); }
  async get(_ns: string, name: string): Promise<V1Pod> {
    const pod = this.store.get(name);
    if (!pod) throw notFound('pods', name);
    return structuredClone(pod);
  }
  async list(_ns: string, labelSelector?: string): Promise<V1Pod[]> {
    return [...this.store.values()].filter((p) => matches(p.metadata?.labels, labelSelector)).map((p) => structuredClone(p));
  }
  async create(_ns: string, pod: V1Pod): Promise<V1Pod> { this.add(pod); return pod; }
  async patch(): Promise<V1Pod> { throw new Error('not used'); }
  async delete(_ns: string, name: string, gracePeriodSeconds?: number): Promise<void> {
    this.actions.push({ verb: 'delete', resource: 'pods', name, gracePeriodSeconds });
    this.store.delete(name);
  }
}

/** Collects writes to a stream. */
export class Sink { text = ''; write(chunk: string): boolean { this.text += chunk; return true; } }

export interface TestContext {
  ctx: CliContext;
  dcs: FakeDcClient;
  rcs: FakeRcClient;
  pods: FakePodClient;
  out: Sink;
  err: Sink;
  /** Hooks run before each watch tick (index from 0); the watch ends after `ticks` ticks. */
  ticks: Array<() => void>;
}

export const NOW = new Date('2024-05-01T12:00:00Z');

/**
 * A context over fresh fakes. The watch yields the stored DC once per entry in `ticks` (after
 * running that entry), then ends — which commands treat as their timeout expiring.
 */
export function testContext(): TestContext {
  const dcs = new FakeDcClient();
  const rcs = new FakeRcClient();
  const pods = new FakePodClient();
  const out = new Sink();
  const err = new Sink();
  const ticks: Array<() => void> = [];
  const ctx: CliContext = {
    out, err, dcs, rcs, pods,
    namespace: NS,
    clock: { now: () => NOW },
    newId: () => 'req-1',
    commandName: 'dcctl',
    watchDc: async function* (namespace, name, signal) {
      for (const tick of ticks) {
        if (signal.aborted) return;
        tick();
        yield await dcs.get(namespace, name);
      }
    },
  };
  return { ctx, dcs, rcs, pods, out, err, ticks };
}

export function template(image: string, labels: Record<string, string> = { app: 'web' }): V1PodTemplateSpec {
  return { metadata: { labels }, spec: { containers: [{ name: 'web', image, ports: [{ containerPort: 8080, protocol: 'TCP' }] }] } };
}

export function makeDc(name = 'web', opts: Partial<{ latestVersion: number; paused: boolean; image: string; triggers: DeploymentConfig['spec']['triggers']; replicas: number; generation: number; observedGeneration: number }> = {}): DeploymentConfig {
  return {
    apiVersion: 'apps.openshift.io/v1',
    kind: 'DeploymentConfig',
    metadata: { name, namespace: NS, resourceVersion: '7', generation: opts.generation ?? 1 },
    spec: {
      replicas: opts.replicas ?? 2,
      selector: { app: 'web' },
      paused: opts.paused,
      triggers: opts.triggers,
      template: template(opts.image ?? 'nginx:2'),
    },
    status: { latestVersion: opts.latestVersion ?? 0, observedGeneration: opts.observedGeneration ?? 1 },
  };
}

/** The RC for version `version` of `dc` as the controller makes it, with the given image and phase. */
export function makeRc(dc: DeploymentConfig, version: number, phase: string, opts: Partial<{ image: string; reason: string; cancelled: boolean; created: Date }> = {}): V1ReplicationController {
  const snapshot = structuredClone(dc);
  snapshot.spec.template = template(opts.image ?? `nginx:${version}`);
  return rcFor(snapshot, version, {
    phase, reason: opts.reason, cancelled: opts.cancelled, defaulted: false,
    created: opts.created ?? new Date(NOW.getTime() - 5 * 60_000),
    mutate: (rc) => { delete rc.metadata!.annotations![Annotations.StatusReason]; if (opts.reason !== undefined) rc.metadata!.annotations![Annotations.StatusReason] = opts.reason; },
  });
}
