/**
 * The deployer controller's sync (`handle(rc, willBeDropped)` of openshift-controller-manager
 * `pkg/apps/deployer/deployer_controller.go`), design.md §5.3: it drives an RC's
 * `openshift.io/deployment.phase` from the state of its deployer pod.
 */
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { Annotations, ConditionReason, Labels, Phase, StatusReasons } from '../apis/constants.js';
import { DecodeError, decodeDeploymentConfig } from '../apis/encoded.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { ActionableError, FatalError, RetriableError, isConflict, isNotFound } from '../controller/errors.js';
import type {
  Clock, EventRecorder, Lister, PodClient, ReplicationControllerClient,
} from '../controller/ports.js';
import { eventTarget, formatGoTime, isCancelledAnnotation } from '../apps/index.js';
import { aggregateMessage, errorMessage } from '../util/error-message.js';
import { goQuote } from '../util/go-format.js';
import { splitKey } from '../util/keys.js';
import { deployerPodNameFor, rcLabelValue } from '../util/naming.js';
import type { DeployerControllerOptions } from './options.js';
import { canTransitionPhase, isTerminalPhase, nextStatus, nextStatusComp } from './phase.js';
import { makeDeployerPod } from './pod.js';
import { deployerModeFor, InlineRollouts, isInlineRc, runInlineStep, type InlineDeps, type InlineOutcome } from './inline.js';
import { rolloutTimeoutSeconds } from './timeout.js';

/** Everything the deployer sync reads and writes through. */
export interface DeployerSyncDeps {
  rcLister: Lister<V1ReplicationController>;
  podLister: Lister<V1Pod>;
  rcClient: ReplicationControllerClient;
  podClient: PodClient;
  recorder: EventRecorder;
  clock: Clock;
  options: DeployerControllerOptions;
  log?: Logger;
  /**
   * Not OpenShift's: makes sure the namespace has what deployer pods run as (the `deployer`
   * service account and its role binding) before EVERY deployer pod is created there (they may
   * have been deleted since; OpenShift's platform provisions them in every namespace, a plain
   * cluster does not). Returns what it re-created; throws DeployerAccessMissingError when they
   * are missing and may not be created (--manage-deployer-access=false).
   */
  ensureDeployerAccess?: (namespace: string) => Promise<string[] | void>;
  /** Pod-less rollouts (§6.8): what this process remembers of them, and their other ports. */
  inline?: InlineRollouts;
  rcsOfDc?: InlineDeps['rcsOfDc'];
  events?: InlineDeps['events'];
  imageStreams?: InlineDeps['imageStreams'];
  enqueueAfter?: InlineDeps['enqueueAfter'];
}

/**
 * Syncs the RC behind `key` (`namespace/name`). An RC missing from the cache is done. See
 * handleDeployment for the algorithm and the errors it throws.
 */
export async function syncDeployment(deps: DeployerSyncDeps, key: string, willBeDropped: boolean): Promise<void> {
  const { namespace, name } = splitKey(key);
  const cached = deps.rcLister.get(namespace, name);
  if (!cached) {
    // Deleted (its delete event forgets it too; this covers a delete the watch never showed).
    deps.inline?.forgetDeleted(key);
    return;
  }
  try {
    // The cache object itself, read only: a pass never writes to it (it builds what it writes
    // from copies; the unit tests' listers hand out frozen objects, so a write would throw
    // there). A deep copy per sync cost about 3 % of the controller's CPU during rollouts.
    await handleDeployment(deps, cached, willBeDropped);
  } catch (err) {
    // An RC whose encoded config cannot be read is retried like OpenShift does, but visibly.
    if (err instanceof DecodeError) {
      deps.recorder.event(cached, 'Warning', ConditionReason.InvalidReplicationController, `Cannot read this rollout's configuration: ${err.message}`);
    }
    throw err;
  }
}

/**
 * One pass of the state machine for `rc` (the cached object: read only, never written to).
 *
 * 1. `next` starts as the current phase, or as the phase derived from the `<rc>-deploy` pod in the
 *    cache (with its Succeeded/Failed bookkeeping, see applyDeployerOutcome).
 * 2. Per current phase:
 *    - New: cancelled → Pending and delete every deployer-labelled pod. Otherwise decode the
 *      encoded config (errors are thrown and retried); past the strategy's timeoutSeconds since
 *      RC creation → Failed ("unable to create deployer pod", RolloutTimeout). No deployer pod →
 *      create one (unless `deploy.openshift.io/deployer-pod.ignore`) and go Pending; a pod
 *      annotated for another RC → Failed; our own pod (created before a crash) is adopted.
 *    - Pending/Running: deployer pod gone → Failed, except that a Pending RC is retried (the cache
 *      may lag the create) until `willBeDropped`; present → delete pods if cancelled, else give
 *      the deployer/hook pods owner references.
 *    - Failed: cancelled → delete pods again (hooks created after the first cleanup); else owner
 *      references. Complete: nothing (deployer pods are kept for logs; GC removes them with the RC).
 * 3. Only when canTransitionPhase(current, next) the RC is patched (JSON merge patch) with the
 *    new phase and the annotations changed above; terminal test-mode RCs are scaled to 0 in the
 *    same patch.
 *
 * Throws FatalError when the pod manifest cannot be built, ActionableError when the pod cannot be
 * created or not all pods could be deleted, RetriableError for a Pending RC whose pod is not in
 * the cache yet and for RC update conflicts, and DecodeError or ApiError otherwise.
 */
export async function handleDeployment(deps: DeployerSyncDeps, rc: V1ReplicationController, willBeDropped: boolean): Promise<void> {
  const { podLister, recorder } = deps;
  const namespace = rc.metadata?.namespace ?? '';
  const rcName = rc.metadata?.name ?? '';
  const label = `${namespace}/${rcName}`;
  const original = rc.metadata?.annotations ?? {};
  const updated: Record<string, string> = { ...original };
  const emit = (type: 'Normal' | 'Warning', reason: string, message: string): void =>
    recorder.event(eventTarget(rc), type, reason, message);

  const current: string | undefined = original[Annotations.Phase];
  let next: string | undefined = current;
  // OpenShift reads cancellation from the RC object, which its nextStatus mutates on success; the
  // local flag reproduces that within this pass.
  let cancelled = isCancelledAnnotation(original);
  let unknownPhaseCancelled = false;
  let inline: InlineOutcome | undefined;

  const deployerPodName = deployerPodNameFor(rcName);
  const deployer = podLister.get(namespace, deployerPodName);
  // An unknown phase is not derived from the deployer pod (its pod may well have succeeded):
  // only a cancellation moves it, in the switch below.
  const knownPhase = (Object.values(Phase) as string[]).includes(current ?? '');
  if (deployer && knownPhase) {
    next = nextStatus(deployer);
    if (next === Phase.Complete && cancelled) {
      // The pod won the race with the cancellation. OpenShift intends to drop the cancel
      // annotations here but (since 2018) edits an object it never writes, leaving a Complete RC
      // marked cancelled; this removes them from what is written (design.md §10.1 item 1).
      delete updated[Annotations.Cancelled];
      delete updated[Annotations.StatusReason];
      cancelled = false;
      emit('Warning', 'FailedCancellation', 'Succeeded before cancel recorded');
    }
    applyDeployerOutcome(deployer, next, updated);
  }

  switch (current) {
    case Phase.New: {
      if (cancelled) {
        // Pending (not Failed) so the DC controller keeps the rollout in flight until its pods
        // are gone; the next pass without a deployer pod fails it.
        next = Phase.Pending;
        await cleanupDeployerPods(deps, rc);
        break;
      }
      const config = decodeDeploymentConfig(rc);
      const timeoutSeconds = rolloutTimeoutSeconds(config);
      if (rolloutExceededTimeout(timeoutSeconds, rc, deps.clock.now())) {
        next = Phase.Failed;
        updated[Annotations.StatusReason] = StatusReasons.FailedToCreateDeployerPod;
        emit('Warning', 'RolloutTimeout',
          `Rollout for ${goQuote(label)} failed to create deployer pod (timeoutSeconds: ${timeoutSeconds}s)`);
        deps.log?.info({ namespace, name: rcName, timeoutSeconds }, 'Failing rollout: deployer pod not created in time');
        break;
      }
      if (!deployer) {
        if (Object.hasOwn(original, Annotations.DeployerPodIgnore)) return;
        const { mode, invalid } = deployerModeFor(config, deps.options.defaultDeployer ?? 'pod');
        if (invalid !== undefined) {
          emit('Warning', 'InvalidDeployerMode',
            `metadata.annotations[${goQuote(Annotations.DeployerMode)}]: unsupported value ${goQuote(invalid)}: want "inline" or "pod"; using ${mode}`);
        }
        if (mode === 'inline') {
          inline = await runInlineStep(inlineDeps(deps), rc, config, updated, current);
          next = inline.next;
          break;
        }
        let manifest: V1Pod;
        try {
          manifest = makeDeployerPod(rc, config, deps.options);
        } catch (err) {
          throw new FatalError(`fatal error handling rollout: couldn't make deployer pod for ${goQuote(label)}: ${errorMessage(err)}`, { cause: err });
        }
        let created: V1Pod;
        try {
          const provisioned = await deps.ensureDeployerAccess?.(namespace);
          if (provisioned && provisioned.length > 0) {
            emit('Normal', 'DeployerAccessCreated', `Created missing ${provisioned.join(' and ')} for deployer pods in namespace "${namespace}"`);
          }
          created = await deps.podClient.create(namespace, manifest);
        } catch (err) {
          // Typically quota or admission: surface it where `oc describe dc` shows it.
          emit('Warning', 'FailedCreate', `Error creating deployer pod: ${errorMessage(err)}`);
          throw new ActionableError(`couldn't create deployer pod for ${goQuote(label)}: ${errorMessage(err)}`, { cause: err });
        }
        recordDeployerPod(created, updated);
        next = Phase.Pending;
        deps.log?.info({ namespace, name: rcName, pod: created.metadata?.name }, 'Created deployer pod');
      } else if ((deployer.metadata?.annotations?.[Annotations.Deployment] ?? '') !== rcName) {
        next = Phase.Failed;
        updated[Annotations.StatusReason] = StatusReasons.UnrelatedPodExists;
        emit('Warning', 'FailedCreate',
          `Error creating deployer pod since another pod with the same name (${goQuote(deployer.metadata?.name ?? '')}) exists`);
      } else {
        // Our pod from a pass whose RC update was lost: adopt it instead of creating again.
        recordDeployerPod(deployer, updated);
        next = nextStatusComp(next, Phase.Pending);
      }
      break;
    }
    case Phase.Pending:
    case Phase.Running: {
      if (isInlineRc(rc) && !deployer) {
        if (cancelled) {
          // Cancelled: the hook pods go, the rollout fails; the DC controller scales back.
          await cleanupDeployerPods(deps, rc);
          next = Phase.Failed;
          break;
        }
        inline = await runInlineStep(inlineDeps(deps), rc, decodeDeploymentConfig(rc), updated, current);
        next = inline.next;
        if (next === undefined) {
          await writeInlineProgress(deps, rc, original, updated, inline);
          return;
        }
        break;
      }
      if (!deployer) {
        next = Phase.Failed;
        // Cancelled: we deleted the pod ourselves; the canceller already set the reason.
        if (!cancelled) {
          if (!willBeDropped && current === Phase.Pending) {
            throw new RetriableError(`deployer pod ${goQuote(deployerPodName)} for ${goQuote(label)} is not in the cache yet`);
          }
          updated[Annotations.StatusReason] = StatusReasons.DeployerPodNoLongerExists;
          emit('Warning', 'Failed', `Deployer pod ${goQuote(deployerPodName)} has gone missing`);
          deps.log?.warn({ namespace, name: rcName, pod: deployerPodName }, 'Failing rollout: deployer pod disappeared');
        }
      } else if (cancelled) {
        await cleanupDeployerPods(deps, rc);
      } else {
        await setDeployerPodsOwnerRef(deps, rc);
      }
      break;
    }
    case Phase.Failed:
      if (cancelled) await cleanupDeployerPods(deps, rc);
      else await setDeployerPodsOwnerRef(deps, rc);
      break;
    case Phase.Complete:
      // Complete keeps its deployer pods.
      break;
    default:
      // An unknown phase (hand-edited, or written by a deployer or hook pod) is left alone, which
      // would block the DC forever; the DC controller reports it (ReplicaFailure condition). A
      // cancellation (`rollout cancel`) ends it as Failed like any other cancelled rollout.
      if (cancelled) {
        await cleanupDeployerPods(deps, rc);
        next = Phase.Failed;
        unknownPhaseCancelled = true;
      }
      break;
  }

  if (!(unknownPhaseCancelled || canTransitionPhase(current, next)) || next === undefined) return;

  updated[Annotations.Phase] = next;
  // A JSON merge patch of only what this pass changed, not an update of the whole cached RC:
  // the deployer process (annotations, scale) and the RC manager (status) write the same RC
  // throughout a rollout, and an update would fail with 409 Conflict whenever one of them wrote
  // since our cache last saw it. Only this controller moves the phase forward (`rollout retry`
  // resets a Failed RC, a phase never left here), and our own last write is in the cache
  // (MutationCache), so the transition is decided on the current phase.
  const patch: { metadata: { annotations: Record<string, string | null> }; spec?: { replicas: number } } = {
    metadata: { annotations: annotationChanges(original, updated) },
  };
  // A pod-less rollout's first scale of the new RC goes with its phase change.
  if (inline?.replicas !== undefined) patch.spec = { replicas: inline.replicas };
  // Test DCs must end at 0 replicas whatever the deployer did (origin ab2a675dd). An absent
  // spec.replicas is the API default 1.
  if ((rc.spec?.replicas ?? 1) !== 0 && isTerminalPhase(next)) {
    const config = tryDecode(rc);
    if (config?.spec?.test === true) patch.spec = { replicas: 0 };
  }
  try {
    await deps.rcClient.patch(namespace, rcName, patch, 'merge');
  } catch (err) {
    const text = `couldn't update rollout status for ${goQuote(label)} to ${next}: ${errorMessage(err)}`;
    if (isConflict(err)) throw new RetriableError(text, { cause: err });
    throw new Error(text, { cause: err });
  }
  deps.log?.info({ namespace, name: rcName, from: current, to: next, replicas: patch.spec?.replicas ?? rc.spec?.replicas }, 'Updated rollout status');
  if (next === Phase.Failed && isCancelledAnnotation(updated)) {
    emit('Normal', 'RolloutCancelled', `Rollout for ${goQuote(label)} cancelled`);
  }
}

const fallbackInline = new InlineRollouts();

function inlineDeps(deps: DeployerSyncDeps): InlineDeps {
  return {
    rcLister: deps.rcLister, podLister: deps.podLister, rcClient: deps.rcClient, podClient: deps.podClient,
    recorder: deps.recorder, clock: deps.clock, inline: deps.inline ?? fallbackInline, rcsOfDc: deps.rcsOfDc,
    events: deps.events, imageStreams: deps.imageStreams, enqueueAfter: deps.enqueueAfter, log: deps.log,
  };
}

/**
 * Writes a pod-less rollout's progress that moves no phase: the stage annotation and the new
 * RC's replicas, in one merge patch, only when something changed.
 */
async function writeInlineProgress(
  deps: DeployerSyncDeps,
  rc: V1ReplicationController,
  original: Record<string, string>,
  updated: Record<string, string>,
  outcome: InlineOutcome,
): Promise<void> {
  const annotations = annotationChanges(original, updated);
  const replicasChange = outcome.replicas !== undefined && outcome.replicas !== rc.spec?.replicas;
  if (Object.keys(annotations).length === 0 && !replicasChange) return;
  const patch: { metadata: { annotations: Record<string, string | null> }; spec?: { replicas: number } } = { metadata: { annotations } };
  if (replicasChange) patch.spec = { replicas: outcome.replicas! };
  await deps.rcClient.patch(rc.metadata?.namespace ?? '', rc.metadata?.name ?? '', patch, 'merge');
}

/**
 * Emits OpenShift's `FailedRetry` event when the runner drops a key after its retry budget, for
 * ActionableErrors only (deployer pod creation and cleanup failures): `Stop retrying: <err>`.
 * Pass as the runner's `onDropped`.
 */
export function onDeployerDropped(
  deps: Pick<DeployerSyncDeps, 'rcLister' | 'recorder'>,
  key: string,
  err: unknown,
): void {
  if (!(err instanceof ActionableError)) return;
  const { namespace, name } = splitKey(key);
  const rc = deps.rcLister.get(namespace, name);
  if (!rc) return;
  deps.recorder.event(eventTarget(rc), 'Warning', 'FailedRetry', `Stop retrying: ${err.message}`);
}


/** Deletes every pod labelled `openshift.io/deployer-pod-for.name=<rc>` (deployer, hooks, custom). */
async function cleanupDeployerPods(deps: DeployerSyncDeps, rc: V1ReplicationController): Promise<void> {
  const namespace = rc.metadata?.namespace ?? '';
  const rcName = rc.metadata?.name ?? '';
  let cleanedAll = true;
  for (const pod of deployerPodsFor(deps.podLister, namespace, rcName)) {
    const podName = pod.metadata?.name ?? '';
    try {
      await deps.podClient.delete(namespace, podName);
    } catch (err) {
      if (isNotFound(err)) continue;
      // Keep deleting the others; one error covers them all.
      cleanedAll = false;
      deps.log?.warn({ namespace, name: rcName, pod: podName, err }, 'Could not delete deployer pod');
    }
  }
  if (!cleanedAll) throw new ActionableError(`couldn't clean up all deployer pods for ${goQuote(`${namespace}/${rcName}`)}`);
}

/**
 * Gives deployer-labelled pods without any owner reference a plain one to the RC, so hook pods are
 * garbage-collected with the RC when history is pruned. Errors are collected and thrown together.
 */
async function setDeployerPodsOwnerRef(deps: DeployerSyncDeps, rc: V1ReplicationController): Promise<void> {
  const namespace = rc.metadata?.namespace ?? '';
  const rcName = rc.metadata?.name ?? '';
  const errors: unknown[] = [];
  for (const pod of deployerPodsFor(deps.podLister, namespace, rcName)) {
    if ((pod.metadata?.ownerReferences?.length ?? 0) > 0) continue;
    // What CreateTwoWayMergePatch yields here: ownerReferences has no merge key, so it is replaced.
    const patch = {
      metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: rcName, uid: rc.metadata?.uid ?? '' }] },
    };
    try {
      await deps.podClient.patch(namespace, pod.metadata?.name ?? '', patch, 'strategic');
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, aggregateMessage(errors));
}

function deployerPodsFor(podLister: Lister<V1Pod>, namespace: string, rcName: string): V1Pod[] {
  return podLister.list(namespace).filter((pod) => pod.metadata?.labels?.[Labels.DeployerPodFor] === rcLabelValue(rcName));
}

/** Succeeded/Failed bookkeeping of OpenShift's nextStatus, applied to the annotations to write. */
function applyDeployerOutcome(pod: V1Pod, phase: string, updated: Record<string, string>): void {
  if (phase !== Phase.Complete && phase !== Phase.Failed) return;
  const terminated = pod.status?.containerStatuses?.find((status) => status.state?.terminated)?.state?.terminated;
  if (terminated) updated[Annotations.DeployerPodCompletedAt] = formatGoTime(terminated.finishedAt);
  if (phase === Phase.Complete) {
    // Vestigial bookkeeping; "" for Rolling, whose updater already removed desired-replicas.
    updated[Annotations.DeploymentReplicas] = updated[Annotations.DesiredReplicas] ?? '';
    delete updated[Annotations.DesiredReplicas];
  }
}

/** The merge-patch form of the annotation changes: changed or added keys, removed ones as null. */
export function annotationChanges(before: Record<string, string>, after: Record<string, string>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(after)) if (before[k] !== v) out[k] = v;
  for (const k of Object.keys(before)) if (!Object.hasOwn(after, k)) out[k] = null;
  return out;
}

function recordDeployerPod(pod: V1Pod, updated: Record<string, string>): void {
  updated[Annotations.DeployerPod] = pod.metadata?.name ?? '';
  updated[Annotations.DeployerPodCreatedAt] = formatGoTime(pod.metadata?.creationTimestamp);
  if (pod.status?.startTime) updated[Annotations.DeployerPodStartedAt] = formatGoTime(pod.status.startTime);
}

/**
 * Whole seconds since the RC was created exceed `timeoutSeconds` (0 or less: no timeout). An RC
 * without a readable creationTimestamp (never the case for stored objects) does not time out.
 */
function rolloutExceededTimeout(timeoutSeconds: number, rc: V1ReplicationController, now: Date): boolean {
  if (timeoutSeconds <= 0) return false;
  const raw = rc.metadata?.creationTimestamp as Date | string | undefined;
  if (raw === undefined || raw === null) return false;
  const created = (raw instanceof Date ? raw : new Date(raw)).getTime();
  if (Number.isNaN(created)) return false;
  return Math.trunc((now.getTime() - created) / 1000) > timeoutSeconds;
}

function tryDecode(rc: V1ReplicationController): DeploymentConfig | undefined {
  try {
    return decodeDeploymentConfig(rc);
  } catch {
    return undefined;
  }
}
