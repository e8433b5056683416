/**
 * In-memory cluster for deployer tests: RCs with a simulated RC manager (scaling makes pods and
 * status follow after a tick), hook pods that run to a configured outcome, events, watches, and
 * an auto-advancing fake clock (time jumps to the next timer whenever everything is blocked).
 */
import type { CoreV1Event, V1Pod, V1ReplicationController, V1Scale } from '@kubernetes/client-node';
import { Annotations, ApiVersion, Kind, Labels } from '../../../src/apis/constants.js';
import type { DeploymentConfig, DeploymentStrategy } from '../../../src/apis/deploymentconfig.js';
import { ApiError } from '../../../src/controller/errors.js';
import type { EventClient, PodClient, ReplicationControllerClient } from '../../../src/controller/ports.js';
import type {
  DeployerDeps, PodLogs, PodWatcher, Predicate, RcApplier, RcWatcher,
} from '../../../src/deployer/ports.js';
import { WaitTimeoutError, WatchedObjectDeletedError } from '../../../src/deployer/ports.js';
import { deployerPodNameFor } from '../../../src/util/naming.js';
import { FakeClock } from '../../support/clock.js';
import { rcFor } from '../../support/builders.js';

export { FakeClock } from '../../support/clock.js';

/** A WritableStream that collects text. */
export class Output {
  text = '';
  write(chunk: string | Uint8Array): boolean {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  }
  get lines(): string[] {
    return this.text.split('\n').filter((l) => l !== '');
  }
  asStream(): NodeJS.WritableStream {
    return this as unknown as NodeJS.WritableStream;
  }
}

export interface HookOutcome {
  phase: 'Succeeded' | 'Failed';
  message?: string;
  logs?: string;
}

type Listener = (type: 'ADDED' | 'MODIFIED' | 'DELETED') => void;

const matches = (labels: Record<string, string> | undefined, selector: string | undefined): boolean => {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [k, v] = term.split('=');
    return labels?.[k ?? ''] === v;
  });
};

const key = (ns: string, name: string): string => `${ns}/${name}`;

/** The fake cluster. Everything is stored as plain JSON and copied in and out. */
export class FakeCluster {
  readonly clock = new FakeClock();
  readonly rcs = new Map<string, V1ReplicationController>();
  readonly pods = new Map<string, V1Pod>();
  readonly events: CoreV1Event[] = [];
  /** Chronological record of writes, e.g. `scale web-1 0`, `create pod web-2-hook-pre`. */
  readonly actions: string[] = [];
  /** Time the RC manager takes to react to a scale. */
  tickMs = 500;
  /** RCs whose pods never become Ready. */
  readonly neverReady = new Set<string>();
  /** Outcome of hook pods by pod name (default: success with a log line). */
  readonly hookOutcomes = new Map<string, HookOutcome>();
  /** When set, pods/log fails like a node without a kubelet server. */
  logsUnavailable = false;
  /** Pods the RC manager never deletes (e.g. stuck terminating on a lost node). */
  readonly sticky = new Set<string>();
  /** Errors returned by the next updateScale calls, in order. */
  readonly scaleErrors: Error[] = [];
  /** Field ownership for server-side apply: annotation key → manager. */
  private readonly owners = new Map<string, string>();
  private rv = 1;
  private uid = 1;
  private readonly listeners = new Set<Listener>();

  private notify(type: 'ADDED' | 'MODIFIED' | 'DELETED'): void {
    for (const l of [...this.listeners]) l(type);
  }

  private bump<T extends { metadata?: { resourceVersion?: string } }>(obj: T): T {
    obj.metadata = { ...(obj.metadata ?? {}), resourceVersion: String(++this.rv) };
    return obj;
  }

  addRc(rc: V1ReplicationController): V1ReplicationController {
    const copy = structuredClone(rc);
    copy.metadata!.uid ??= `uid-${this.uid++}`;
    copy.metadata!.generation ??= 1;
    copy.status ??= { replicas: 0 };
    this.rcs.set(key(copy.metadata!.namespace!, copy.metadata!.name!), this.bump(copy));
    // Existing replicas start with running, ready pods.
    const replicas = copy.spec?.replicas ?? 0;
    for (let i = 0; i < replicas; i++) this.addAppPod(copy, i);
    this.refreshStatus(copy);
    this.notify('ADDED');
    return structuredClone(copy);
  }

  addPod(pod: V1Pod): void {
    this.pods.set(key(pod.metadata!.namespace!, pod.metadata!.name!), this.bump(structuredClone(pod)));
    this.notify('ADDED');
  }

  rc(ns: string, name: string): V1ReplicationController {
    const rc = this.rcs.get(key(ns, name));
    if (!rc) throw new Error(`no rc ${name}`);
    return structuredClone(rc);
  }

  private appPodCounter = 0;

  private addAppPod(rc: V1ReplicationController, _i: number): void {
    const ns = rc.metadata!.namespace!;
    const name = `${rc.metadata!.name}-${(this.appPodCounter++).toString(36)}`;
    const ready = !this.neverReady.has(rc.metadata!.name!);
    const now = this.clock.now().toISOString();
    this.pods.set(key(ns, name), this.bump<V1Pod>({
      metadata: { name, namespace: ns, labels: { ...(rc.spec?.selector ?? {}) }, creationTimestamp: now as unknown as Date },
      spec: { containers: [{ name: 'app', image: 'x' }] },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: now as unknown as Date }],
      },
    }));
  }

  private podsOf(rc: V1ReplicationController): V1Pod[] {
    const ns = rc.metadata!.namespace!;
    return [...this.pods.values()].filter(
      (p) => p.metadata?.namespace === ns && matches(p.metadata?.labels, selectorOf(rc)),
    );
  }

  private refreshStatus(rc: V1ReplicationController): void {
    const pods = this.podsOf(rc);
    const minReady = rc.spec?.minReadySeconds ?? 0;
    const now = this.clock.now().getTime();
    const ready = pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
    const available = ready.filter((p) => {
      const since = Date.parse(String(p.status?.conditions?.[0]?.lastTransitionTime));
      return minReady === 0 || since + minReady * 1000 < now;
    });
    rc.status = {
      ...(rc.status ?? {}),
      replicas: pods.length,
      readyReplicas: ready.length,
      availableReplicas: available.length,
      observedGeneration: rc.metadata?.generation,
    };
  }

  /** The RC manager: one tick after a scale, pods and status match spec. */
  private scheduleReconcile(ns: string, name: string): void {
    this.clock.setTimer(this.tickMs, () => {
      const rc = this.rcs.get(key(ns, name));
      if (!rc) return;
      const want = rc.spec?.replicas ?? 0;
      const pods = this.podsOf(rc);
      for (let i = pods.length; i < want; i++) this.addAppPod(rc, i);
      for (const p of pods.slice(want)) {
        if (!this.sticky.has(p.metadata!.name!)) this.pods.delete(key(ns, p.metadata!.name!));
      }
      this.refreshStatus(rc);
      this.bump(rc);
      this.notify('MODIFIED');
      const minReady = rc.spec?.minReadySeconds ?? 0;
      if (minReady > 0) {
        // Availability changes with time alone; re-evaluate once it can have.
        this.clock.setTimer(minReady * 1000 + 1, () => {
          const cur = this.rcs.get(key(ns, name));
          if (!cur) return;
          this.refreshStatus(cur);
          this.bump(cur);
          this.notify('MODIFIED');
        });
      }
    });
  }

  private setSpecReplicas(ns: string, name: string, replicas: number): void {
    const rc = this.rcs.get(key(ns, name))!;
    if (rc.spec?.replicas !== replicas) {
      rc.spec = { ...(rc.spec ?? {}), replicas };
      rc.metadata!.generation = (rc.metadata!.generation ?? 1) + 1;
      this.actions.push(`scale ${name} ${replicas}`);
    }
    this.bump(rc);
    this.notify('MODIFIED');
    this.scheduleReconcile(ns, name);
  }

  /** Runs a hook pod: Running after a tick, then its outcome after another. */
  private runHookPod(ns: string, name: string): void {
    const outcome = this.hookOutcomes.get(name) ?? { phase: 'Succeeded', logs: `${name} ran\n` };
    this.clock.setTimer(this.tickMs, () => {
      const pod = this.pods.get(key(ns, name));
      if (!pod) return;
      pod.status = { ...(pod.status ?? {}), phase: 'Running', containerStatuses: [{ name: 'lifecycle', restartCount: 0, ready: true, image: 'x', imageID: '' }] };
      this.bump(pod);
      this.notify('MODIFIED');
      this.clock.setTimer(this.tickMs, () => {
        const p = this.pods.get(key(ns, name));
        if (!p) return;
        p.status = { ...(p.status ?? {}), phase: outcome.phase, message: outcome.message };
        this.bump(p);
        this.notify('MODIFIED');
      });
    });
  }

  readonly rcClient: ReplicationControllerClient = {
    get: async (ns, name) => {
      const rc = this.rcs.get(key(ns, name));
      if (!rc) throw new ApiError(`replicationcontrollers "${name}" not found`, 404, 'NotFound');
      return structuredClone(rc);
    },
    list: async (ns, selector) =>
      [...this.rcs.values()]
        .filter((r) => r.metadata?.namespace === ns && matches(r.metadata?.labels, selector))
        .map((r) => structuredClone(r)),
    create: async () => {
      throw new Error('not used');
    },
    update: async (rc) => {
      const cur = this.rcs.get(key(rc.metadata!.namespace!, rc.metadata!.name!));
      if (!cur) throw new ApiError('not found', 404, 'NotFound');
      if (rc.metadata?.resourceVersion && rc.metadata.resourceVersion !== cur.metadata?.resourceVersion) {
        throw new ApiError('conflict', 409, 'Conflict');
      }
      const next = structuredClone(rc);
      next.status = cur.status;
      next.metadata!.generation = cur.metadata?.generation;
      this.rcs.set(key(rc.metadata!.namespace!, rc.metadata!.name!), this.bump(next));
      this.actions.push(`update ${rc.metadata!.name}`);
      this.notify('MODIFIED');
      return structuredClone(next);
    },
    patch: async () => {
      throw new Error('not used');
    },
    delete: async (ns, name) => {
      this.rcs.delete(key(ns, name));
      this.notify('DELETED');
    },
    getScale: async (ns, name) => {
      const rc = await this.rcClient.get(ns, name);
      return {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name, namespace: ns, resourceVersion: rc.metadata?.resourceVersion },
        spec: { replicas: rc.spec?.replicas ?? 0 },
        status: { replicas: rc.status?.replicas ?? 0 },
      } satisfies V1Scale;
    },
    updateScale: async (ns, name, scale) => {
      const err = this.scaleErrors.shift();
      if (err) throw err;
      const cur = this.rcs.get(key(ns, name));
      if (!cur) throw new ApiError('not found', 404, 'NotFound');
      this.setSpecReplicas(ns, name, scale.spec?.replicas ?? 0);
      return this.rcClient.getScale(ns, name);
    },
  };

  readonly podClient: PodClient = {
    get: async (ns, name) => {
      const pod = this.pods.get(key(ns, name));
      if (!pod) throw new ApiError(`pods "${name}" not found`, 404, 'NotFound');
      return structuredClone(pod);
    },
    list: async (ns, selector) =>
      [...this.pods.values()]
        .filter((p) => p.metadata?.namespace === ns && matches(p.metadata?.labels, selector))
        .map((p) => structuredClone(p)),
    create: async (ns, pod) => {
      const name = pod.metadata!.name!;
      if (this.pods.has(key(ns, name))) throw new ApiError(`pods "${name}" already exists`, 409, 'AlreadyExists');
      const stored = this.bump(structuredClone(pod));
      stored.metadata!.namespace = ns;
      stored.status = { phase: 'Pending' };
      this.pods.set(key(ns, name), stored);
      this.actions.push(`create pod ${name}`);
      this.notify('ADDED');
      this.runHookPod(ns, name);
      return structuredClone(stored);
    },
    patch: async () => {
      throw new Error('not used');
    },
    delete: async (ns, name) => {
      this.pods.delete(key(ns, name));
      this.actions.push(`delete pod ${name}`);
      this.notify('DELETED');
    },
  };

  readonly eventClient: EventClient = {
    create: async (_ns, event) => {
      this.events.push(structuredClone(event));
    },
    list: async (ns, fieldSelector) =>
      this.events.filter((e) => {
        if (e.metadata?.namespace !== ns) return false;
        return (fieldSelector ?? '').split(',').filter(Boolean).every((term) => {
          const [path, value] = term.split('=');
          const field = path?.replace('involvedObject.', '') as keyof CoreV1Event['involvedObject'];
          return e.involvedObject[field] === value;
        });
      }),
  };

  private waitOn<T>(
    read: () => T | undefined,
    initialMissing: () => Error | undefined,
    predicate: Predicate<T>,
    timeoutMs: number,
    deleted?: () => Error,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const missing = initialMissing();
      if (missing) return reject(missing);
      let cancel = (): void => {};
      const done = (err: unknown, value?: T): void => {
        this.listeners.delete(listener);
        cancel();
        if (err) reject(err);
        else resolve(value as T);
      };
      const check = (): void => {
        const obj = read();
        if (obj === undefined) return done(deleted?.() ?? new Error('gone'));
        try {
          if (predicate(structuredClone(obj))) done(undefined, structuredClone(obj));
        } catch (err) {
          done(err);
        }
      };
      const listener: Listener = () => check();
      this.listeners.add(listener);
      if (Number.isFinite(timeoutMs)) cancel = this.clock.setTimer(timeoutMs, () => done(new WaitTimeoutError()));
      check();
    });
  }

  readonly rcWatcher: RcWatcher = {
    waitFor: (ns, name, predicate, timeoutMs) =>
      this.waitOn(
        () => this.rcs.get(key(ns, name)),
        () => (this.rcs.has(key(ns, name)) ? undefined : new ApiError('not found', 404, 'NotFound')),
        predicate,
        timeoutMs,
        () => new WatchedObjectDeletedError(`rc ${name} deleted`, undefined),
      ),
  };

  readonly podWatcher: PodWatcher = {
    waitForPod: (ns, name, predicate, timeoutMs) =>
      this.waitOn(
        () => this.pods.get(key(ns, name)),
        () => (this.pods.has(key(ns, name)) ? undefined : new ApiError('not found', 404, 'NotFound')),
        predicate,
        timeoutMs,
        () => new WatchedObjectDeletedError(`pod ${name} deleted`, undefined),
      ),
    waitForPods: (ns, selector, predicate, timeoutMs) =>
      this.waitOn(
        () => [...this.pods.values()].filter((p) => p.metadata?.namespace === ns && matches(p.metadata?.labels, selector)),
        () => undefined,
        predicate,
        timeoutMs,
      ),
  };

  readonly logs: PodLogs = {
    follow: async (ns, pod, _container, out) => {
      if (this.logsUnavailable) throw new ApiError('the server could not find the requested resource', 404, 'NotFound');
      const outcome = this.hookOutcomes.get(pod);
      out.write(outcome ? (outcome.logs ?? '') : `${pod} ran\n`);
      void ns;
    },
  };

  readonly applier: RcApplier = {
    applyAnnotations: async (ns, name, annotations, manager) => {
      const rc = this.rcs.get(key(ns, name));
      if (!rc) throw new ApiError('not found', 404, 'NotFound');
      for (const [k, v] of Object.entries(annotations)) {
        const owner = this.owners.get(`${name}/${k}`);
        if (owner && owner !== manager && rc.metadata?.annotations?.[k] !== v) {
          throw new ApiError(`Apply failed with 1 conflict: conflict with "${owner}"`, 409, 'Conflict');
        }
      }
      for (const k of Object.keys(annotations)) this.owners.set(`${name}/${k}`, manager);
      rc.metadata!.annotations = { ...(rc.metadata!.annotations ?? {}), ...annotations };
      this.bump(rc);
      this.actions.push(`apply ${name}`);
      this.notify('MODIFIED');
      return structuredClone(rc);
    },
  };

  deps(): DeployerDeps {
    return {
      rcs: this.rcClient,
      pods: this.podClient,
      events: this.eventClient,
      rcWatcher: this.rcWatcher,
      podWatcher: this.podWatcher,
      logs: this.logs,
      applier: this.applier,
      clock: this.clock,
      uuid: () => '00000000-0000-0000-0000-000000000000',
    };
  }
}

function selectorOf(rc: V1ReplicationController): string {
  return Object.entries(rc.spec?.selector ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
}

export const NS = 'ns';

/** A DC fixture with one container `app`. */
export function makeDc(name: string, strategy: DeploymentStrategy, opts: { replicas?: number; minReadySeconds?: number } = {}): DeploymentConfig {
  return {
    apiVersion: ApiVersion,
    kind: Kind,
    metadata: { name, namespace: NS, uid: `dc-uid-${name}`, resourceVersion: '7' },
    spec: {
      replicas: opts.replicas ?? 3,
      minReadySeconds: opts.minReadySeconds,
      selector: { app: name },
      strategy,
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{
            name: 'app',
            image: 'registry/app:1',
            env: [{ name: 'A', value: 'base' }, { name: 'B', value: 'base' }],
            volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: 'other', mountPath: '/other' }],
          }],
          volumes: [{ name: 'data', emptyDir: {} }, { name: 'other', emptyDir: {} }],
        },
      },
    },
    status: { latestVersion: 1 },
  };
}

/** The RC `<dc>-<version>` as the DC controller makes it, plus its deployer pod. */
export function addRcFor(
  cluster: FakeCluster,
  dc: DeploymentConfig,
  version: number,
  opts: { phase?: string; replicas?: number; desired?: number | null; annotations?: Record<string, string> } = {},
): V1ReplicationController {
  const made = rcFor(dc, version, { phase: opts.phase ?? 'Running', replicas: opts.replicas ?? 0, defaulted: false });
  const name = made.metadata!.name!;
  const annotations = made.metadata!.annotations!;
  annotations[Annotations.DeployerPod] = deployerPodNameFor(name);
  if (opts.desired === null) delete annotations[Annotations.DesiredReplicas];
  else annotations[Annotations.DesiredReplicas] = String(opts.desired ?? dc.spec.replicas ?? 0);
  Object.assign(annotations, opts.annotations ?? {});
  delete made.status;
  const rc = cluster.addRc(made);
  cluster.addPod({
    metadata: { name: deployerPodNameFor(name), namespace: NS, labels: { [Labels.DeployerPodFor]: name } },
    spec: { containers: [{ name: 'deployment', image: 'deployer' }] },
    status: { phase: 'Running', startTime: cluster.clock.now().toISOString() as unknown as Date },
  });
  return rc;
}
