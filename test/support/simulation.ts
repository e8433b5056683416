/**
 * The cluster's other actors, simulated over a FakeCluster for the deployer's unit tests (the
 * real ones run on the local plane in the e2e tests):
 *
 * - the ReplicationController manager: one tick (`tickMs`) after a scale, an RC's pods match
 *   its `spec.replicas` (Running, Ready unless the RC is in `neverReady`; pods in `sticky` are
 *   never deleted) and its status counts them (available after `minReadySeconds`);
 * - the kubelet, for the pods a client creates (hook pods): Running after a tick, then the
 *   outcome configured in `hookOutcomes` (default: Succeeded, log `<pod> ran`) after another.
 *
 * Time is the cluster's FakeClock, which jumps to the next timer once all pending work is done.
 */
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { selectorString } from '../../src/apps/deployment.js';
import { matchesSelector, newFakeCluster, type Commit, type FakeCluster } from './fakes.js';

export interface HookOutcome {
  phase: 'Succeeded' | 'Failed';
  message?: string;
  logs?: string;
}

const selectorOf = (rc: V1ReplicationController): string => selectorString(rc.spec?.selector);

export class WorkloadSimulation {
  /** Time the RC manager and the kubelet take to react. */
  tickMs = 500;
  /** RCs whose pods never become Ready. */
  readonly neverReady = new Set<string>();
  /** Outcome of hook pods by pod name. */
  readonly hookOutcomes = new Map<string, HookOutcome>();
  /** Pods the RC manager never deletes (e.g. stuck terminating on a lost node). */
  readonly sticky = new Set<string>();
  private appPods = 0;

  constructor(readonly cluster: FakeCluster) {
    cluster.api.onCommit((commit) => this.react(commit));
  }

  /** Seeds an RC as the RC manager would have left it: its replicas running and ready, status counted. */
  addRc(rc: V1ReplicationController): V1ReplicationController {
    const copy = structuredClone(rc);
    copy.status ??= { replicas: 0 };
    const stored = this.cluster.rcs.put(copy);
    for (let i = 0; i < (stored.spec?.replicas ?? 0); i++) this.addAppPod(stored);
    return this.refreshStatus(stored.metadata!.namespace!, stored.metadata!.name!)!;
  }

  private react({ action, before, after }: Commit): void {
    const { verb, resource, subresource, namespace, name } = action;
    if (resource === 'replicationcontrollers' && (verb === 'update' || verb === 'patch')) {
      const replicasChanged = (before as V1ReplicationController).spec?.replicas !== (after as V1ReplicationController).spec?.replicas;
      if (subresource === 'scale' || replicasChanged) this.clock.setTimer(this.tickMs, () => this.reconcile(namespace, name));
    } else if (resource === 'pods' && verb === 'create') {
      this.runPod(namespace, (after as V1Pod).metadata!.name!);
    }
  }

  private get clock(): FakeCluster['clock'] {
    return this.cluster.clock;
  }

  private addAppPod(rc: V1ReplicationController): void {
    const namespace = rc.metadata!.namespace!;
    const name = `${rc.metadata!.name}-${(this.appPods++).toString(36)}`;
    const ready = !this.neverReady.has(rc.metadata!.name!);
    const now = this.clock.now().toISOString();
    this.cluster.pods.put({
      metadata: { name, namespace, labels: { ...(rc.spec?.selector ?? {}) }, creationTimestamp: now as unknown as Date },
      spec: { containers: [{ name: 'app', image: 'x' }] },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: now as unknown as Date }],
      },
    });
  }

  private podsOf(rc: V1ReplicationController): V1Pod[] {
    return this.cluster.pods.list(rc.metadata!.namespace!).filter((p) => matchesSelector(p.metadata?.labels, selectorOf(rc)));
  }

  private refreshStatus(namespace: string, name: string): V1ReplicationController | undefined {
    if (!this.cluster.rcs.raw(namespace, name)) return undefined;
    return this.cluster.rcs.mutate(namespace, name, (rc) => {
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
    });
  }

  /** The RC manager's sync: pods to spec.replicas, then status. */
  private reconcile(namespace: string, name: string): void {
    const rc = this.cluster.rcs.get(namespace, name);
    if (!rc) return;
    const want = rc.spec?.replicas ?? 0;
    const pods = this.podsOf(rc);
    for (let i = pods.length; i < want; i++) this.addAppPod(rc);
    for (const p of pods.slice(want)) {
      if (!this.sticky.has(p.metadata!.name!)) this.cluster.pods.remove(namespace, p.metadata!.name!);
    }
    this.refreshStatus(namespace, name);
    const minReady = rc.spec?.minReadySeconds ?? 0;
    // Availability changes with time alone; count again once it can have.
    if (minReady > 0) this.clock.setTimer(minReady * 1000 + 1, () => this.refreshStatus(namespace, name));
  }

  /** The kubelet: Running after a tick, then the configured outcome after another. */
  private runPod(namespace: string, name: string): void {
    const outcome = this.hookOutcomes.get(name) ?? { phase: 'Succeeded', logs: `${name} ran\n` };
    this.cluster.logs.texts.set(`${namespace}/${name}`, outcome.logs ?? '');
    const setStatus = (status: V1Pod['status']): void => {
      if (this.cluster.pods.raw(namespace, name)) this.cluster.pods.mutate(namespace, name, (pod) => { pod.status = { ...(pod.status ?? {}), ...status }; });
    };
    this.clock.setTimer(this.tickMs, () => {
      setStatus({ phase: 'Running', containerStatuses: [{ name: 'lifecycle', restartCount: 0, ready: true, image: 'x', imageID: '' }] });
      this.clock.setTimer(this.tickMs, () => setStatus({ phase: outcome.phase, message: outcome.message }));
    });
  }
}

/**
 * The cluster's successful writes as short strings, for ordered assertions on what the deployer
 * did: `scale <rc> <n>` (a scale, update or patch that changed spec.replicas), `update <rc>`,
 * `patch <rc>` (a merge or JSON patch that did not), `apply <rc>`,
 * `create pod <name>`, `delete pod <name>`.
 */
export function workloadWrites(f: FakeCluster): string[] {
  return f.api.commits.flatMap(({ action, before, after }): string[] => {
    const { verb, resource, subresource, name, patchType } = action;
    if (resource === 'pods' && (verb === 'create' || verb === 'delete')) return [`${verb} pod ${name}`];
    if (resource !== 'replicationcontrollers') return [];
    if ((verb === 'update' || verb === 'patch') && subresource === 'scale') {
      const to = (after as V1ReplicationController).spec?.replicas ?? 0;
      return (before as V1ReplicationController).spec?.replicas === to ? [] : [`scale ${name} ${to}`];
    }
    if (verb === 'update' && !subresource) return [`update ${name}`];
    if (verb === 'patch' && !subresource) {
      const to = (after as V1ReplicationController).spec?.replicas ?? 0;
      return (before as V1ReplicationController).spec?.replicas === to ? [`patch ${name}`] : [`scale ${name} ${to}`];
    }
    return [];
  });
}

/** A fake cluster whose RC manager and kubelet are simulated. */
export interface SimulatedCluster extends FakeCluster {
  sim: WorkloadSimulation;
}

export function newSimulatedCluster(): SimulatedCluster {
  const f = newFakeCluster();
  return Object.assign(f, { sim: new WorkloadSimulation(f) });
}
