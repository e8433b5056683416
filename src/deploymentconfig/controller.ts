/**
 * Wiring of the DeploymentConfig controller (design.md §4.1): DC events enqueue the DC; RC update
 * and delete events enqueue the DC named by the RC's `openshift.io/deployment-config.name`
 * annotation, if that DC is in the cache. RC adds are not handled, as in OpenShift: the sync that
 * bumps latestVersion creates the RC (design.md §4.2 step 9), and its error requeues the DC should
 * the create or the status write after it fail. While a rollout is in progress, RC changes that
 * only show its progress (replica counts, the phase moving from New to Pending to Running) are
 * batched (`--status-batch-period`), so the DC status follows a rollout's steps without one write
 * per step.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Phase } from '../apis/constants.js';
import { isInProgress } from '../apps/index.js';
import { rcVersion } from '../apps/rc-version.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import type { ImageStream } from '../apis/imagestream.js';
import { DeploymentConfigs, ImageStreams, ReplicationControllers } from '../apis/resources.js';
import type {
  DeploymentConfigClient, EventRecorder, EventSource, InformerSource, Lister, ReplicationControllerClient,
} from '../controller/ports.js';
import { newController, newQueue, type Controller, type ControllerContext } from '../controller/runner.js';
import { isNewer } from '../controller/mutation-cache.js';
import type { WorkQueue } from '../controller/workqueue.js';
import type { CrossNamespaceGate } from '../image/cross-namespace.js';
import { tagResolverFor } from '../image/resolve.js';
import { objectKey, splitKey } from '../util/keys.js';
import { rcNameFor } from '../util/naming.js';
import { syncDeploymentConfig } from './sync.js';

export interface DeploymentConfigControllerClients {
  /** Writers that record into the listers below (mutation caches shared by every controller). */
  readonly dcs: DeploymentConfigClient;
  readonly rcs: ReplicationControllerClient;
  readonly recorder: EventRecorder;
  /** Listers that see this process's own writes before their watch events arrive. */
  readonly dcLister: Lister<DeploymentConfig>;
  readonly rcLister: Lister<V1ReplicationController>;
  /** The RCs a DC may claim, from the RC informer's index (see rc-index.ts). */
  readonly rcsForDc: (dc: DeploymentConfig) => V1ReplicationController[];
}

export interface DeploymentConfigControllerOptions {
  /**
   * Resolve ImageStreamTags for instantiate requests from the ImageStream cache. Off when the
   * image trigger controller (and so the ImageStream CRD) is disabled: nothing is resolved.
   */
  readonly resolveImageTags: boolean;
  /** Decides on instantiate's references to another namespace's images (docs/image-triggers.md). */
  readonly crossNamespace?: CrossNamespaceGate;
  /** See wireDeploymentConfigController; the manager's `--status-batch-period`. */
  readonly statusBatchMs?: number;
}

/**
 * `NewDeploymentConfigController`: caches DCs and RCs (and ImageStreams when tags are resolved),
 * wires their events into a queue and syncs each DC key.
 */
export function newDeploymentConfigController(
  informers: InformerSource,
  clients: DeploymentConfigControllerClients,
  ctx: ControllerContext,
  opts: DeploymentConfigControllerOptions,
): Controller {
  const dcs = informers.informerFor<DeploymentConfig>(DeploymentConfigs);
  const rcs = informers.informerFor<V1ReplicationController>(ReplicationControllers);
  const streams = opts.resolveImageTags ? informers.informerFor<ImageStream>(ImageStreams) : undefined;
  const name = 'deploymentconfig';
  const queue = newQueue(ctx, name);
  const settled = new SettledStatusWrites();
  wireDeploymentConfigController({ dcs, rcs, dcLister: dcs, rcLister: clients.rcLister, queue, settled, statusBatchMs: opts.statusBatchMs });
  const log = ctx.log.child({ controller: name });
  const sync = (key: string) => syncDeploymentConfig({
    dcLister: clients.dcLister, rcLister: clients.rcLister, dcClient: clients.dcs, rcClient: clients.rcs,
    recorder: clients.recorder, clock: ctx.clock,
    // Every line of one sync names the object it is about.
    log: log.child(splitKey(key)),
    resolveImageTag: streams ? tagResolverFor((namespace, stream) => streams.get(namespace, stream)) : undefined,
    crossNamespace: opts.crossNamespace,
    rcsForDc: clients.rcsForDc,
    onStatusWritten: (written) => settled.record(written),
  }, key);
  return newController(ctx, name, queue, sync);
}

/** Key of the DC an RC belongs to, when that DC is cached; undefined otherwise. */
export function dcKeyForRc(rc: V1ReplicationController, dcLister: Lister<DeploymentConfig>): string | undefined {
  const dc = cachedDcForRc(rc, dcLister);
  return dc ? objectKey(dc.metadata?.namespace ?? '', dc.metadata?.name ?? '') : undefined;
}

/** The cached DC named by an RC's `openshift.io/deployment-config.name` annotation, if any. */
function cachedDcForRc(rc: V1ReplicationController, dcLister: Lister<DeploymentConfig>): DeploymentConfig | undefined {
  const dcName = rc.metadata?.annotations?.[Annotations.DeploymentConfig];
  const namespace = rc.metadata?.namespace;
  return namespace && dcName ? dcLister.get(namespace, dcName) : undefined;
}

/**
 * The RC annotations the DC controller reads (claiming, status, conditions, triggers, cleanup,
 * reconcile). The deployer's bookkeeping (update-source-id, original-replicas, the deployer pod
 * timestamps) is not among them.
 */
const annotationsReadByDcSync = [
  Annotations.Cancelled, Annotations.DeployerPodIgnore, Annotations.Deployment, Annotations.DeploymentConfig,
  Annotations.DeploymentReplicas, Annotations.DesiredReplicas, Annotations.EncodedConfig, Annotations.LatestVersion,
  Annotations.Phase, Annotations.StatusReason,
] as const;

const sameJson = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The phases a rollout moves through, in order, before its outcome (Complete or Failed). */
const progressPhases: readonly string[] = [Phase.New, Phase.Pending, Phase.Running];
/** A phase's place in progressPhases; -1 for the outcome, an unknown value or none. */
const progressRank = (phase: string | undefined): number => progressPhases.indexOf(phase ?? '');

/**
 * What an RC update means to its DC's sync. Only the fields the DC controller reads can matter
 * (labels, owner references, deletion, the annotations above, spec.replicas, the template's
 * images, and the replica counts summed into the DC status); the RC manager's other status writes
 * (observedGeneration, fullyLabeledReplicas, conditions) and the deployer's bookkeeping cannot,
 * and re-syncing the DC for them is wasted work (one no-op sync each). So: nothing, progress of a
 * rollout (replica counts: spec.replicas and the status counts summed into the DC status; or the
 * phase moving forward from New to Pending to Running, which changes no more than the DC's
 * Progressing message), or anything else a sync reads (the outcome Complete or Failed, any other
 * phase change, a cancellation, a claim, deletion, images).
 */
export function rcChangeToDc(old: V1ReplicationController, rc: V1ReplicationController): 'none' | 'progress' | 'other' {
  const a = old.metadata ?? {};
  const b = rc.metadata ?? {};
  if (a.deletionTimestamp !== b.deletionTimestamp || a.uid !== b.uid) return 'other';
  if (!sameJson(a.labels, b.labels) || !sameJson(a.ownerReferences, b.ownerReferences)) return 'other';
  let progress = false;
  for (const key of annotationsReadByDcSync) {
    const before = a.annotations?.[key];
    const after = b.annotations?.[key];
    if (before === after) continue;
    if (key === Annotations.Phase && progressRank(before) >= 0 && progressRank(after) > progressRank(before)) {
      progress = true;
      continue;
    }
    return 'other';
  }
  const images = (x: V1ReplicationController) => (x.spec?.template?.spec?.containers ?? []).map((c) => c.image);
  if (!sameJson(images(old), images(rc))) return 'other';
  if (progress || old.spec?.replicas !== rc.spec?.replicas) return 'progress';
  const s = old.status;
  const t = rc.status;
  if (s?.replicas !== t?.replicas || s?.readyReplicas !== t?.readyReplicas || s?.availableReplicas !== t?.availableReplicas) return 'progress';
  return 'none';
}

/**
 * Whether the DC's latest RC is being rolled out (New, Pending or Running). Its replica counts and
 * phase then change step by step, and the DC's status may follow them a batch period late: the
 * rollout's outcome (Complete or Failed) is never batched.
 *
 * `changed`, the RC whose update is asked about, counts as the latest when its version (from its
 * name, §10.3) is newer than the cached DC's latestVersion: the sync that bumped the version and
 * created that RC has written the DC, but the informer may not have delivered the write yet when
 * the RC's first step (its phase, its first scale) comes in, a few milliseconds later.
 */
export function rolloutInProgress(dc: DeploymentConfig, rcLister: Lister<V1ReplicationController>, changed?: V1ReplicationController): boolean {
  const namespace = dc.metadata?.namespace;
  const name = dc.metadata?.name;
  const version = dc.status?.latestVersion ?? 0;
  if (!namespace || !name) return false;
  if (changed && isInProgress(changed) && rcVersion(changed).version > version) return true;
  if (!(version > 0)) return false;
  const latest = rcLister.get(namespace, rcNameFor(name, version));
  return latest !== undefined && isInProgress(latest);
}

/**
 * The statuses this process's DC syncs wrote as their last act (status.ts `updateStatus`: the
 * whole status, computed from the DC and RCs the sync saw), by DC key and resourceVersion, until
 * their watch events come back. The wiring then knows such an event brings nothing a sync has not
 * already acted on. Writes that a sync makes on its way (a latestVersion bump, an instantiate
 * acknowledgement, adoption) are not recorded: the sync after them finishes the job. At most one
 * entry per DC (the latest write), dropped by the DC's next event.
 */
export class SettledStatusWrites {
  private readonly written = new Map<string, string>();

  record(dc: DeploymentConfig): void {
    const rv = dc.metadata?.resourceVersion;
    if (dc.metadata?.namespace && dc.metadata.name && rv) this.written.set(objectKey(dc.metadata.namespace, dc.metadata.name), rv);
  }

  /**
   * Whether `dc` is the recorded write of its key. The entry is forgotten once this or a newer
   * version shows up; an older one (the event of a write the same sync made before) leaves it.
   */
  take(dc: DeploymentConfig): boolean {
    const key = objectKey(dc.metadata?.namespace ?? '', dc.metadata?.name ?? '');
    const rv = this.written.get(key);
    if (rv === undefined) return false;
    if (rv === dc.metadata?.resourceVersion) {
      this.written.delete(key);
      return true;
    }
    if (!isNewer({ metadata: { resourceVersion: rv } }, dc)) this.written.delete(key);
    return false;
  }

  size(): number {
    return this.written.size;
  }
}

/**
 * Whether a DC update changed only the status: same generation (the spec), labels, annotations,
 * owner references, finalizers and deletion. What a DC sync decides from.
 */
export function onlyStatusChanged(old: DeploymentConfig, dc: DeploymentConfig): boolean {
  const a = old.metadata ?? {};
  const b = dc.metadata ?? {};
  return a.generation === b.generation && a.deletionTimestamp === b.deletionTimestamp && a.uid === b.uid
    && sameJson(a.labels, b.labels) && sameJson(a.annotations, b.annotations)
    && sameJson(a.ownerReferences, b.ownerReferences) && sameJson(a.finalizers, b.finalizers);
}

export function wireDeploymentConfigController(opts: {
  dcs: EventSource<DeploymentConfig>;
  rcs: EventSource<V1ReplicationController>;
  dcLister: Lister<DeploymentConfig>;
  /** Needed with statusBatchMs, to tell whether a DC's rollout is in progress. */
  rcLister?: Lister<V1ReplicationController>;
  queue: WorkQueue;
  /** Status writes that ended a sync (see SettledStatusWrites); undefined: every update enqueues. */
  settled?: SettledStatusWrites;
  /**
   * During a rollout, RC changes that only show its progress (rcChangeToDc) re-sync the DC at most
   * once per this many milliseconds (design.md §4.1); 0 or undefined: at once.
   */
  statusBatchMs?: number;
}): void {
  const { dcs, rcs, dcLister, rcLister, queue, settled } = opts;
  const batchMs = opts.statusBatchMs ?? 0;
  const enqueueDc = (dc: DeploymentConfig) => {
    if (dc.metadata?.namespace && dc.metadata.name) queue.add(objectKey(dc.metadata.namespace, dc.metadata.name));
  };
  dcs.on('add', enqueueDc);
  dcs.on('update', (old, dc) => {
    // The watch event of the status a sync wrote as its last act brings back what that sync
    // computed from the DC and RCs it saw; a later change of either has its own event, so a sync
    // for it decides nothing new (such syncs were a third of the DC syncs of a rollout). A
    // periodic resync (the same object) always reconciles.
    const ownSettledStatus = settled?.take(dc) === true;
    if (ownSettledStatus && old.metadata?.resourceVersion !== dc.metadata?.resourceVersion && onlyStatusChanged(old, dc)) return;
    enqueueDc(dc);
  });
  dcs.on('delete', (dc) => {
    settled?.take(dc);
    enqueueDc(dc);
  });
  const enqueueOwner = (rc: V1ReplicationController) => {
    const key = dcKeyForRc(rc, dcLister);
    if (key) queue.add(key);
  };
  rcs.on('update', (old, rc) => {
    if (old.metadata?.resourceVersion === rc.metadata?.resourceVersion) return;
    const change = rcChangeToDc(old, rc);
    if (change === 'none') return;
    const dc = cachedDcForRc(rc, dcLister);
    if (!dc) return;
    const key = objectKey(dc.metadata?.namespace ?? '', dc.metadata?.name ?? '');
    if (change === 'progress' && batchMs > 0 && rcLister && rolloutInProgress(dc, rcLister, rc)) queue.addBatched(key, batchMs);
    else queue.add(key);
  });
  rcs.on('delete', enqueueOwner);
}
