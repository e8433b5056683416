/**
 * A watcher that runs next to every deployer e2e test and checks the rollout invariants a user
 * relies on, from the pod and RC watch streams of one namespace:
 *
 * - a DeploymentConfig never has more than one unterminated deployer pod (design.md §4.4: a new
 *   RC, hence a new deployer pod, only appears once every older rollout is terminal);
 * - an RC's phase annotation never moves backwards: New < Pending < Running < Complete | Failed,
 *   and a terminal phase is final (§5.2; only `rollout retry` may reset it, which these tests do
 *   not use unless they opt in).
 *
 * It also keeps a millisecond timeline of phase/replica/pod changes and lets a test subscribe to
 * every change (e.g. to sample replica counts during a rolling update).
 */
import { Watch, type KubeConfig, type V1Pod, type V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Labels } from '../../src/apis/constants.js';
import { apis, kubeConfig } from './kube.js';

const phaseRank: Record<string, number> = { New: 0, Pending: 1, Running: 2, Complete: 3, Failed: 3 };
const terminalPodPhases = new Set(['Succeeded', 'Failed']);

/** What the watcher currently knows about the namespace (keyed by object name). */
export interface ObservedState {
  readonly pods: ReadonlyMap<string, V1Pod>;
  readonly rcs: ReadonlyMap<string, V1ReplicationController>;
}

export interface TimelineEntry {
  /** Local receive time, ms since the epoch. */
  readonly ms: number;
  readonly text: string;
}

export interface InvariantOptions {
  /** Allow Failed/Complete → New (what `rollout retry` does). */
  allowRetry?: boolean;
}

/** True for a deployer pod (not a hook pod): labelled deployer-pod-for, without a pod type label. */
export function isDeployerPod(pod: V1Pod): boolean {
  const labels = pod.metadata?.labels ?? {};
  return labels[Labels.DeployerPodFor] !== undefined && labels[Labels.DeployerPodType] === undefined;
}

/** Ready condition True and not being deleted. */
export function isReadyPod(pod: V1Pod): boolean {
  return pod.metadata?.deletionTimestamp === undefined
    && (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

export class InvariantWatcher {
  /** Human-readable descriptions of every invariant violation seen. */
  readonly violations: string[] = [];
  /** Number of watch/list notifications processed, per resource. */
  readonly counts = { pods: 0, rcs: 0 };
  readonly timeline: TimelineEntry[] = [];

  private readonly pods = new Map<string, V1Pod>();
  private readonly rcs = new Map<string, V1ReplicationController>();
  /** RC uid → highest phase seen. */
  private readonly phases = new Map<string, string>();
  private readonly listeners = new Set<(state: ObservedState, kind: 'pod' | 'rc') => void>();
  private readonly aborts: AbortController[] = [];
  private stopped = false;

  private constructor(readonly namespace: string, private readonly kc: KubeConfig, private readonly opts: InvariantOptions) {}

  /** Lists and starts watching pods and RCs of `namespace`; resolves once both watches run. */
  static async start(namespace: string, opts: InvariantOptions = {}, kc = kubeConfig()): Promise<InvariantWatcher> {
    const w = new InvariantWatcher(namespace, kc, opts);
    await Promise.all([w.run('pods'), w.run('replicationcontrollers')]);
    return w;
  }

  /** Subscribes to every processed change; returns the unsubscribe function. */
  onChange(listener: (state: ObservedState, kind: 'pod' | 'rc') => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get state(): ObservedState {
    return { pods: this.pods, rcs: this.rcs };
  }

  /** The timeline as text with times relative to `fromMs`. */
  formatTimeline(fromMs: number, filter: (e: TimelineEntry) => boolean = () => true): string {
    return this.timeline.filter(filter).map((e) => `${String(e.ms - fromMs).padStart(6)} ms  ${e.text}`).join('\n');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const a of this.aborts) a.abort();
  }

  private async run(resource: 'pods' | 'replicationcontrollers'): Promise<void> {
    const { core } = apis(this.kc);
    const list = resource === 'pods'
      ? await core.listNamespacedPod({ namespace: this.namespace })
      : await core.listNamespacedReplicationController({ namespace: this.namespace });
    // A relist after a broken watch must forget objects deleted meanwhile, or a pod that vanished
    // during the outage would still count as running.
    const listed = new Set(list.items.map((i) => i.metadata?.name ?? ''));
    const known = resource === 'pods' ? this.pods : this.rcs;
    for (const [name, obj] of [...known]) {
      if (!listed.has(name)) this.handle(resource, 'DELETED', obj);
    }
    for (const item of list.items) this.handle(resource, 'ADDED', item);
    const restart = () => {
      if (this.stopped) return;
      setTimeout(() => { this.run(resource).catch(restart); }, 500);
    };
    const abort = await new Watch(this.kc).watch(
      `/api/v1/namespaces/${this.namespace}/${resource}`,
      { resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true },
      (type, obj) => {
        if (type === 'BOOKMARK' || type === 'ERROR') return;
        this.handle(resource, type, obj);
      },
      () => restart(),
    );
    this.aborts.push(abort);
  }

  private handle(resource: 'pods' | 'replicationcontrollers', type: string, obj: V1Pod | V1ReplicationController): void {
    if (this.stopped) return;
    const name = obj.metadata?.name ?? '';
    if (resource === 'pods') {
      this.counts.pods++;
      this.onPod(type, name, obj as V1Pod);
    } else {
      this.counts.rcs++;
      this.onRc(type, name, obj as V1ReplicationController);
    }
    const state = this.state;
    for (const l of this.listeners) l(state, resource === 'pods' ? 'pod' : 'rc');
  }

  private onPod(type: string, name: string, pod: V1Pod): void {
    const before = this.pods.get(name);
    if (type === 'DELETED') this.pods.delete(name); else this.pods.set(name, pod);
    const describe = (p: V1Pod | undefined) => p === undefined ? 'gone'
      : `${p.status?.phase ?? '-'}${isReadyPod(p) ? '/Ready' : ''}${p.metadata?.deletionTimestamp ? '/deleting' : ''}`;
    const was = describe(before);
    const now = type === 'DELETED' ? 'gone' : describe(pod);
    if (was !== now) this.timeline.push({ ms: Date.now(), text: `pod ${name}: ${was} -> ${now}` });

    // At most one unterminated deployer pod per DC.
    const dcOf = (p: V1Pod) => p.metadata?.annotations?.[Annotations.DeploymentConfig] ?? p.metadata?.labels?.[Labels.DeployerPodFor]?.replace(/-\d+$/, '');
    if (!isDeployerPod(pod)) return;
    const dc = dcOf(pod);
    const live = [...this.pods.values()].filter((p) => isDeployerPod(p) && dcOf(p) === dc && !terminalPodPhases.has(p.status?.phase ?? ''));
    if (live.length > 1) {
      this.violations.push(`DC ${dc} has ${live.length} unterminated deployer pods: ${live.map((p) => `${p.metadata?.name}(${p.status?.phase})`).join(', ')}`);
    }
  }

  private onRc(type: string, name: string, rc: V1ReplicationController): void {
    const before = this.rcs.get(name);
    if (type === 'DELETED') this.rcs.delete(name); else this.rcs.set(name, rc);
    const uid = rc.metadata?.uid ?? name;
    const phase = rc.metadata?.annotations?.[Annotations.Phase];
    const describe = (r: V1ReplicationController | undefined) => r === undefined ? 'gone'
      : `${r.metadata?.annotations?.[Annotations.Phase] ?? '-'} spec=${r.spec?.replicas ?? 0} replicas=${r.status?.replicas ?? 0} ready=${r.status?.readyReplicas ?? 0} available=${r.status?.availableReplicas ?? 0}`;
    const was = describe(before);
    const now = type === 'DELETED' ? 'gone' : describe(rc);
    if (was !== now) this.timeline.push({ ms: Date.now(), text: `rc ${name}: ${now}` });

    if (phase === undefined || type === 'DELETED') return;
    const prev = this.phases.get(uid);
    if (prev === undefined || prev === phase) {
      this.phases.set(uid, phase);
      return;
    }
    const prevRank = phaseRank[prev];
    const rank = phaseRank[phase];
    const retry = this.opts.allowRetry === true && phase === 'New' && (prev === 'Failed' || prev === 'Complete');
    if (retry) {
      this.phases.set(uid, phase);
      return;
    }
    if (prevRank === undefined || rank === undefined || rank <= prevRank) {
      this.violations.push(`RC ${name} phase moved backwards or out of a terminal phase: ${prev} -> ${phase}`);
      return;
    }
    this.phases.set(uid, phase);
  }
}
