/**
 * Wiring of the deployer controller (design.md §5.1): RC adds, resyncs and updates that change
 * what the sync reads (rcChangeMattersToDeployer) enqueue RCs that carry the
 * `openshift.io/deployment-config.name` annotation; pod updates and deletes enqueue the RC
 * named by the pod's `openshift.io/deployment.name` annotation (deployer, hook and application
 * pods all carry it). Pod adds are not handled.
 */
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Labels } from '../apis/constants.js';
import { DeployerPods, ReplicationControllers } from '../apis/resources.js';
import { ActionableError } from '../controller/errors.js';
import type { ImageStreamClient } from '../image/ports.js';
import { MutationCache } from '../controller/mutation-cache.js';
import type {
  Clock, EventClient, EventRecorder, EventSource, InformerSource, Lister, OwnCreates, PodClient, ReplicationControllerClient,
} from '../controller/ports.js';
import { recordingPodClient } from '../controller/recording-clients.js';
import { newController, newQueue, type Controller, type ControllerContext } from '../controller/runner.js';
import type { WorkQueue } from '../controller/workqueue.js';
import { objectKey } from '../util/keys.js';
import { InlineRollouts } from './inline.js';
import type { DeployerControllerOptions } from './options.js';
import { onDeployerDropped, syncDeployment, type DeployerSyncDeps } from './sync.js';

export interface DeployerControllerClients {
  readonly rcs: ReplicationControllerClient;
  readonly pods: PodClient;
  readonly recorder: EventRecorder;
  /** The RC lister that sees this process's own writes (the shared mutation cache). */
  readonly rcLister: Lister<V1ReplicationController>;
  /** RCs this process created (the DC controller's new versions), announced before their watch event. */
  readonly ownCreates?: OwnCreates<V1ReplicationController>;
  /** Creates the deployer service account and role binding in a namespace (undefined: never). */
  readonly ensureDeployerAccess?: (namespace: string) => Promise<string[] | void>;
  /** Pod-less rollouts: the RCs of a DC from an index (default: a scan of the namespace). */
  readonly rcsOfDc?: (namespace: string, dcName: string) => V1ReplicationController[];
  /** Pod-less rollouts: lists RC events to forward their warnings to the DC. */
  readonly events?: EventClient;
  /** Pod-less rollouts: ImageStreams for tagImages hooks. */
  readonly imageStreams?: (namespace: string) => ImageStreamClient;
}

/**
 * The deployer and hook pods this controller creates or patches, visible to its syncs before
 * their watch events (a mutation cache over the pod informer, as for RCs). Without it, the sync
 * that follows our Pending write often ran before the informer had the new deployer pod and
 * failed with "not in the cache yet" until it had (OpenShift's own retry, kept for pods another
 * process created: after a restart, the controller's creates are not remembered).
 */
export function withOwnPodWrites(pods: Lister<V1Pod>, client: PodClient, clock: Clock): { podLister: Lister<V1Pod>; podClient: PodClient } {
  const cache = new MutationCache<V1Pod>(pods, clock);
  return { podLister: cache, podClient: recordingPodClient(client, cache) };
}

/**
 * `NewDeployerController`: caches RCs and deployer pods, wires their events into a queue and
 * drives each RC's phase; a key dropped after its retries gets OpenShift's FailedRetry event.
 */
export function newDeployerController(
  informers: InformerSource,
  clients: DeployerControllerClients,
  ctx: ControllerContext,
  options: DeployerControllerOptions,
): Controller {
  const rcs = informers.informerFor<V1ReplicationController>(ReplicationControllers);
  const pods = informers.informerFor<V1Pod>(DeployerPods);
  const name = 'deployer';
  const queue = newQueue(ctx, name);
  const inline = new InlineRollouts();
  wireDeployerController({ rcs, pods, rcLister: rcs, queue, inline, ownCreates: clients.ownCreates });
  const own = withOwnPodWrites(pods, clients.pods, ctx.clock);
  const deps: DeployerSyncDeps = {
    rcLister: clients.rcLister, podLister: own.podLister, rcClient: clients.rcs, podClient: own.podClient, recorder: clients.recorder,
    clock: ctx.clock, log: ctx.log.child({ controller: name }), ensureDeployerAccess: clients.ensureDeployerAccess, options,
    inline, rcsOfDc: clients.rcsOfDc, events: clients.events, imageStreams: clients.imageStreams,
    enqueueAfter: (key, delayMs) => queue.addAfter(key, delayMs),
  };
  const sync = (key: string, sctx: { willBeDropped: boolean }) => syncDeployment(deps, key, sctx.willBeDropped);
  return newController(ctx, name, queue, sync, {
    onDropped: (key, err) => {
      if (err instanceof ActionableError) onDeployerDropped(deps, key, err);
    },
  });
}

/** Own creates remembered until their add event arrives (see wireDeployerController). */
const MaxAnnouncedCreates = 10_000;

export const isDeploymentRc = (rc: V1ReplicationController): boolean =>
  Boolean(rc.metadata?.annotations?.[Annotations.DeploymentConfig]);

/**
 * Whether an RC update can change what the deployer controller's sync decides: its annotations
 * (phase, cancellation, the encoded config, the deployer pod bookkeeping), spec.replicas (test
 * mode scales to 0), deletion. Status writes by the RC manager cannot.
 */
export function rcChangeMattersToDeployer(old: V1ReplicationController, rc: V1ReplicationController): boolean {
  const a = old.metadata ?? {};
  const b = rc.metadata ?? {};
  if (a.uid !== b.uid || a.deletionTimestamp !== b.deletionTimestamp || old.spec?.replicas !== rc.spec?.replicas) return true;
  const x = a.annotations ?? {};
  const y = b.annotations ?? {};
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const k of keys) if (x[k] !== y[k]) return true;
  return false;
}

/** Key of the RC a pod belongs to, when that RC is cached; undefined otherwise. */
export function rcKeyForPod(pod: V1Pod, rcLister: Lister<V1ReplicationController>): string | undefined {
  const rcName = pod.metadata?.annotations?.[Annotations.Deployment];
  const namespace = pod.metadata?.namespace;
  if (!rcName || !namespace) return undefined;
  return rcLister.get(namespace, rcName) ? objectKey(namespace, rcName) : undefined;
}

export function wireDeployerController(opts: {
  rcs: EventSource<V1ReplicationController>;
  pods: EventSource<V1Pod>;
  rcLister: Lister<V1ReplicationController>;
  queue: WorkQueue;
  inline?: InlineRollouts;
  ownCreates?: OwnCreates<V1ReplicationController>;
}): void {
  const { rcs, pods, rcLister, queue, inline, ownCreates } = opts;
  const enqueueRc = (rc: V1ReplicationController) => {
    if (isDeploymentRc(rc) && rc.metadata?.namespace && rc.metadata.name) queue.add(objectKey(rc.metadata.namespace, rc.metadata.name));
  };
  // An RC this process just created (a new version) is synced at once, from the mutation cache,
  // instead of one watch round trip later: the rollout's first step (the first scale of a
  // pod-less rollout, the deployer pod) is taken sooner, and more often before the RC manager's
  // first sync of the RC, which then creates the pods at once instead of first writing the
  // status of an RC at 0 replicas, a write our scale can conflict with (design.md §5.1).
  // The informer's add event for exactly that version (same resourceVersion) is then no news.
  const announced = new Map<string, string | undefined>();
  ownCreates?.onCreated((rc) => {
    if (!isDeploymentRc(rc) || !rc.metadata?.namespace || !rc.metadata.name) return;
    // An add event that never comes (the RC deleted before the watch saw it) leaves its entry:
    // bounded, since forgetting one only costs a sync.
    if (announced.size >= MaxAnnouncedCreates) announced.clear();
    announced.set(objectKey(rc.metadata.namespace, rc.metadata.name), rc.metadata.resourceVersion);
    enqueueRc(rc);
  });
  rcs.on('add', (rc) => {
    const key = objectKey(rc.metadata?.namespace ?? '', rc.metadata?.name ?? '');
    if (announced.has(key)) {
      const rv = announced.get(key);
      announced.delete(key);
      if (rv !== undefined && rv === rc.metadata?.resourceVersion) return;
    }
    enqueueRc(rc);
  });
  rcs.on('update', (old, rc) => {
    // A pod-less rollout in flight reads its RCs' status (§6.8): any change of one of its DC's
    // RCs wakes it.
    const dc = rc.metadata?.labels?.[Labels.DeploymentConfig];
    const inflight = dc && inline ? inline.inflightFor(objectKey(rc.metadata?.namespace ?? '', dc)) : undefined;
    if (inflight) queue.add(inflight);
    // A periodic resync (same object) always reconciles; a real update only when it changed
    // what the phase machine reads, not for the RC manager's status writes.
    if (old.metadata?.resourceVersion !== rc.metadata?.resourceVersion && !rcChangeMattersToDeployer(old, rc)) return;
    enqueueRc(rc);
  });
  const enqueueForPod = (pod: V1Pod) => {
    const key = rcKeyForPod(pod, rcLister);
    if (key) queue.add(key);
  };
  pods.on('update', (old, pod) => {
    if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
    enqueueForPod(pod);
  });
  pods.on('delete', enqueueForPod);
  rcs.on('delete', (rc) => inline?.forgetDeleted(objectKey(rc.metadata?.namespace ?? '', rc.metadata?.name ?? '')));
}
