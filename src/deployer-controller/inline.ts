/**
 * Pod-less rollouts (design.md §6.8): the deployer controller runs a Rolling or Recreate rollout
 * itself, one step per sync, as kube's Deployment controller does. Each sync observes the RCs
 * (and the stage's hook pod) in the caches, asks the shared step core (src/deployer/steps.ts) for
 * the next step of the current stage, takes it and requeues. The stage reached is recorded on the
 * RC (`deploy.dcctl.io/inline-stage`), and every step is idempotent (scaling to a count, creating
 * a hook pod of a fixed name), so after a crash or a leader failover the next sync resumes where
 * the rollout was: a finished stage is never run again, a hook pod that exists is observed and
 * never created twice.
 */
import type { CoreV1Event, V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, DeployerModes, Labels, Phase, type DeployerMode } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { applyDefaults, byVersionDesc, eventTarget, isComplete, selectorString, versionOf } from '../apps/index.js';
import { isAlreadyExists, isNotFound } from '../controller/errors.js';
import type { Clock, EventClient, EventRecorder, Lister, PodClient, ReplicationControllerClient } from '../controller/ports.js';
import type { ImageStreamClient } from '../image/ports.js';
import { createHookPodManifest, hookCompletedMessage, hookFailureOutcome, hookStartedMessage, tagHookImages } from '../deployer/hooks.js';
import { decideStage, hasRunningPod, rolloutStages, stageTiming, type RolloutStage, type StageDecision } from '../deployer/steps.js';
import { intAnnotation } from '../deployer/util.js';
import { errorMessage } from '../util/error-message.js';
import { goQuote } from '../util/go-format.js';
import { getPodName } from '../util/naming.js';
import type { Logger } from 'pino';

/** Whether `config`'s rollouts run inline, from its annotation or the controller's default. */
export function deployerModeFor(config: DeploymentConfig, defaultMode: DeployerMode): { mode: DeployerMode; invalid?: string } {
  const type = config.spec?.strategy?.type ?? 'Rolling';
  const requested = config.metadata?.annotations?.[Annotations.DeployerMode];
  const invalid = requested !== undefined && !(DeployerModes as readonly string[]).includes(requested) ? requested : undefined;
  // Custom strategies run the user's image: always in a deployer pod.
  if (type !== 'Rolling' && type !== 'Recreate') return { mode: 'pod', invalid };
  if (requested === 'inline' || requested === 'pod') return { mode: requested };
  return { mode: defaultMode, invalid };
}

/** The RC's rollout runs inline (marked so when it started; the mark never changes). */
export const isInlineRc = (rc: V1ReplicationController): boolean =>
  rc.metadata?.annotations?.[Annotations.DeployerMode] === 'inline';

/** `<index> <time>` of the inline-stage annotation; undefined when absent or unreadable. */
export function parseInlineStage(value: string | undefined): { index: number; since: number } | undefined {
  const m = /^(\d+) (\S+)$/.exec(value ?? '');
  if (!m) return undefined;
  const since = Date.parse(m[2]!);
  return Number.isNaN(since) ? undefined : { index: Number(m[1]), since };
}

export const formatInlineStage = (index: number, since: number): string => `${index} ${new Date(since).toISOString()}`;

interface StageMemory {
  readonly stage: number;
  lastScaleAt?: number;
  lastProgressAt: number;
}

/**
 * What this process remembers of the inline rollouts in flight: when each last scaled (for
 * `updatePeriodSeconds`) and made progress (for the rolling progress deadline), and which RC is
 * in flight for each DC (so that status changes of its other RCs wake it). Lost on restart on
 * purpose: a resumed rollout counts both from when this process started acting, so it may wait
 * longer than the spec asks after a failover, never shorter.
 */
export class InlineRollouts {
  private readonly memory = new Map<string, StageMemory>();
  private readonly inflight = new Map<string, string>();
  /** Hook pods this process created (`<ns>/<rc>/<pod>`), whether or not their stage got recorded. */
  private readonly createdHooks = new Set<string>();
  /** When this process first synced (its leadership began). */
  activeSince?: number;

  hookCreated(hookKey: string): void {
    this.createdHooks.add(hookKey);
  }

  /** Whether this process created that hook pod (so a missing one was deleted, never to be re-created). */
  createdHook(hookKey: string): boolean {
    return this.createdHooks.has(hookKey);
  }

  recall(key: string): StageMemory | undefined {
    return this.memory.get(key);
  }

  remember(key: string, dcKey: string, memory: StageMemory): void {
    this.memory.set(key, memory);
    this.inflight.set(dcKey, key);
  }

  forget(key: string, dcKey: string): void {
    this.memory.delete(key);
    for (const hook of this.createdHooks) if (hook.startsWith(`${key}/`)) this.createdHooks.delete(hook);
    if (this.inflight.get(dcKey) === key) this.inflight.delete(dcKey);
  }

  /** The key of the inline rollout in flight for the DC `namespace/name`, if any. */
  inflightFor(dcKey: string): string | undefined {
    return this.inflight.get(dcKey);
  }
}

/** What the inline step reads and writes through. */
export interface InlineDeps {
  readonly rcLister: Lister<V1ReplicationController>;
  readonly podLister: Lister<V1Pod>;
  readonly rcClient: ReplicationControllerClient;
  readonly podClient: PodClient;
  readonly recorder: EventRecorder;
  readonly clock: Clock;
  readonly inline: InlineRollouts;
  /** The RCs of a DC (an index); default: the namespace's RCs filtered by label. */
  readonly rcsOfDc?: (namespace: string, dcName: string) => V1ReplicationController[];
  /** Lists the RCs' Warning events, forwarded to the DC when a rollout ends (as the deployer does). */
  readonly events?: EventClient;
  /**
   * ImageStreams for tagImages hooks, acting as the deployer service account of the RC's
   * namespace (never with the controller's own rights: `to.namespace` is written by whoever
   * edits the DC).
   */
  readonly imageStreams?: (namespace: string) => ImageStreamClient;
  /** Requeues the RC's key after a delay (waits of a rollout never block a worker). */
  readonly enqueueAfter?: (key: string, delayMs: number) => void;
  readonly log?: Logger;
}

/** The result of one inline step: a phase to move to (written by the caller) and `to`'s new replicas. */
export interface InlineOutcome {
  readonly next?: string;
  readonly replicas?: number;
}

type HookStage = Extract<RolloutStage, { kind: 'hook' }>;

/**
 * One step of the pod-less rollout of `rc` (a private copy), in phase New (starting) or Running.
 * `updated` holds the annotations to write; the caller writes them with the phase when `next` is
 * set, else this writes them (with `to`'s replicas) itself. Scaling `from` and creating hook pods
 * are written here. Throws on API errors (the sync is retried with backoff; every step taken so
 * far is idempotent).
 */
export async function runInlineStep(
  deps: InlineDeps,
  rc: V1ReplicationController,
  config: DeploymentConfig,
  updated: Record<string, string>,
  current: string,
): Promise<InlineOutcome> {
  const now = deps.clock.now().getTime();
  const state = deps.inline;
  state.activeSince ??= now;
  const namespace = rc.metadata?.namespace ?? '';
  const name = rc.metadata?.name ?? '';
  const key = `${namespace}/${name}`;
  const label = key;
  config = applyDefaults(config);
  const dcName = config.metadata.name ?? '';
  const dcKey = `${namespace}/${dcName}`;
  const emit = (type: 'Normal' | 'Warning', reason: string, message: string): void =>
    deps.recorder.event(eventTarget(rc), type, reason, message);

  const rcs = byVersionDesc(deps.rcsOfDc?.(namespace, dcName)
    ?? deps.rcLister.list(namespace).filter((c) => c.metadata?.labels?.[Labels.DeploymentConfig] === dcName));
  let from = rcs.find((c) => c.metadata?.name !== name && isComplete(c));

  const end = async (next: string, message?: string): Promise<InlineOutcome> => {
    if (message !== undefined) {
      emit('Warning', 'RolloutFailed', `Rollout of ${goQuote(label)} failed: ${message}`);
      deps.log?.info({ namespace, name, reason: message }, 'Inline rollout failed');
    }
    delete updated[Annotations.InlineStage];
    // A failure's cause is often a Warning of the RC manager (quota, admission): repeated on the
    // DC, as the deployer does. A rollout that completed is not worth two LISTs of events.
    if (next === Phase.Failed) await forwardWarnings(deps, rc, from);
    state.forget(key, dcKey);
    return { next };
  };

  const desired = intAnnotation(rc, Annotations.DesiredReplicas);
  if (desired === undefined) return end(Phase.Failed, `deployment ${name} has already run to completion`);
  if (from && versionOf(rc) < versionOf(from)) return end(Phase.Failed, `deployment ${name} is older than ${from.metadata?.name ?? ''}`);
  const stages = (rolloutStages(config, from !== undefined, desired) ?? []).filter((s) => s.kind !== 'until');
  const timing = stageTiming(config);

  let { index, since } = parseInlineStage(updated[Annotations.InlineStage]) ?? { index: 0, since: now };
  let next: string | undefined;
  if (current === Phase.New) {
    await scaleDownOlder(deps, rcs, rc, from, emit);
    updated[Annotations.DeployerMode] = 'inline';
    index = 0;
    since = now;
    next = Phase.Running;
  }

  const recalled = state.recall(key);
  // A rollout this process did not start (failover, restart): count from now on, never shorter.
  const resumedAt = Math.max(since, state.activeSince);
  let memory: StageMemory = recalled?.stage === index ? recalled
    : recalled || current === Phase.New ? { stage: index, lastProgressAt: since }
      : { stage: index, lastScaleAt: resumedAt, lastProgressAt: resumedAt };
  let enteredNow = current === Phase.New;
  let fromPodsRunning: boolean | undefined;
  let replicas: number | undefined;
  let requeueMs: number | undefined;
  let scaledUpAfterDown = false;
  const originalOld = intAnnotation(from, Annotations.OriginalReplicas);

  const advance = (): void => {
    index++;
    since = now;
    memory = { stage: index, lastProgressAt: now };
    fromPodsRunning = undefined;
    enteredNow = true;
  };

  for (;;) {
    const stage = stages[index];
    if (!stage) {
      // Every stage done: the rollout is complete (the deployer pod's `--> Success`).
      // As the pod mode leaves them: Rolling's updater removed desired-replicas before the
      // deployer controller recorded the (then empty) deployment.replicas.
      updated[Annotations.DeploymentReplicas] = stages.some((s) => s.kind === 'rolling') ? '' : String(desired);
      delete updated[Annotations.DesiredReplicas];
      delete updated[Annotations.UpdateSourceId];
      return end(Phase.Complete);
    }
    const hookPod = stage.kind === 'hook' ? deps.podLister.get(namespace, getPodName(name, stage.suffix)) : undefined;
    let decision: StageDecision = decideStage(stage, {
      to: rc, from, desired, originalOld, hookPod, fromPodsRunning, now, stageSince: since,
      lastScaleAt: memory.lastScaleAt, lastProgressAt: memory.lastProgressAt,
    }, timing);

    if (decision.kind === 'createHookPod' && stage.kind === 'hook') {
      decision = await startHook(deps, rc, config, stage, enteredNow, emit);
    }
    if (decision.kind === 'checkFromPods' && from) {
      const pods = await deps.podClient.list(namespace, selectorString(from.spec?.selector));
      fromPodsRunning = hasRunningPod(pods);
      continue;
    }

    switch (decision.kind) {
      case 'done':
        if (decision.warning) emit('Warning', 'OldPodsRunning', decision.warning);
        if (stage.kind === 'hook' && hookPod?.status?.phase === 'Succeeded') emit('Normal', 'Completed', hookCompletedMessage(rc, stage.point));
        advance();
        continue;
      case 'hookFailed': {
        const hook = stage as HookStage;
        const outcome = hookFailureOutcome(hook.hook, rc, hook.point, decision.message);
        if (outcome) emit('Warning', 'Failed', outcome.event);
        if (!outcome || outcome.abort) return end(Phase.Failed, `${hook.point} hook failed: ${outcome?.abort ?? decision.message}`);
        advance();
        continue;
      }
      case 'fail':
        return end(Phase.Failed, decision.message);
      case 'scale':
        emit('Normal', 'ScalingReplicationController', decision.message);
        if (decision.target === 'to') {
          replicas = decision.replicas;
          if (stage.kind === 'rolling' && from) updated[Annotations.UpdateSourceId] = `${from.metadata?.name ?? ''}:${from.metadata?.uid ?? ''}`;
        } else if (from) {
          const patch: { spec: { replicas: number }; metadata?: { annotations: Record<string, string> } } = { spec: { replicas: decision.replicas } };
          if (stage.kind === 'rolling' && originalOld === undefined) {
            patch.metadata = { annotations: { [Annotations.OriginalReplicas]: String(from.spec?.replicas ?? 1) } };
          }
          await deps.rcClient.patch(namespace, from.metadata?.name ?? '', patch, 'merge');
        }
        memory.lastScaleAt = now;
        memory.lastProgressAt = now;
        requeueMs = stage.kind === 'rolling' ? Math.max(Math.min(timing.updatePeriodMs, timing.intervalMs), 1) : timing.intervalMs;
        if (stage.kind === 'rolling' && decision.target === 'from' && from && !scaledUpAfterDown) {
          // The next round's scale up may follow a scale down at once (the updater sleeps only
          // before scaling down): decide again on the old RC as just written.
          from = { ...from, spec: { ...from.spec, replicas: decision.replicas } };
          scaledUpAfterDown = true;
          continue;
        }
        break;
      case 'wait':
        requeueMs = decision.recheckMs;
        break;
      case 'createHookPod':
      case 'checkFromPods':
        break;
    }
    break;
  }

  updated[Annotations.InlineStage] = formatInlineStage(index, since);
  state.remember(key, dcKey, memory);
  if (requeueMs !== undefined) deps.enqueueAfter?.(key, requeueMs);
  return { next, replicas };
}

/**
 * Starts the hook of `stage`: tagImages run here and are done (or failed) at once; execNewPod
 * creates the hook pod (`<rc>-hook-<point>`, owned by the RC). A hook stage entered in an earlier
 * sync whose pod is missing from the cache is looked up first: only a pod that is really gone
 * (deleted while running) fails the hook, a pod the cache has not seen yet is waited for.
 */
async function startHook(
  deps: InlineDeps,
  rc: V1ReplicationController,
  config: DeploymentConfig,
  stage: HookStage,
  enteredNow: boolean,
  emit: (type: 'Normal' | 'Warning', reason: string, message: string) => void,
): Promise<StageDecision> {
  const namespace = rc.metadata?.namespace ?? '';
  const name = rc.metadata?.name ?? '';
  const { hook, point } = stage;
  if (hook.tagImages && hook.tagImages.length > 0) {
    emit('Normal', 'Started', hookStartedMessage(hook, rc, point));
    try {
      await tagHookImages(deps.imageStreams?.(namespace), hook.tagImages, rc, point, (line) => deps.log?.info({ namespace, name }, line));
    } catch (err) {
      return { kind: 'hookFailed', message: errorMessage(err) };
    }
    emit('Normal', 'Completed', hookCompletedMessage(rc, point));
    return { kind: 'done' };
  }
  if (!hook.execNewPod) return { kind: 'done' };
  const podName = getPodName(name, stage.suffix);
  const hookKey = `${namespace}/${name}/${podName}`;
  // A hook pod this process created whose stage it could not record yet (the RC write failed and
  // the sync is retried) is looked up like one of a recorded stage: gone means deleted, not new.
  if (!enteredNow || deps.inline.createdHook(hookKey)) {
    try {
      await deps.podClient.get(namespace, podName);
      return { kind: 'wait' };
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    return { kind: 'hookFailed', message: `${point}: pod/${podName}[${namespace}] unexpectedly deleted` };
  }
  let manifest: V1Pod;
  try {
    // The hook's deadline counts from the rollout's start, as it counts from the deployer pod's.
    const created = rc.metadata?.creationTimestamp as Date | string | undefined;
    manifest = createHookPodManifest(hook, rc, config.spec.strategy ?? {}, stage.suffix, created ? new Date(created) : deps.clock.now(), deps.clock.now());
  } catch (err) {
    return { kind: 'hookFailed', message: errorMessage(err) };
  }
  manifest.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'ReplicationController', name, uid: rc.metadata?.uid ?? '' }];
  emit('Normal', 'Started', hookStartedMessage(hook, rc, point));
  try {
    await deps.podClient.create(namespace, manifest);
  } catch (err) {
    // Created by an earlier pass whose stage write was lost: it is observed, not run again.
    if (!isAlreadyExists(err)) return { kind: 'hookFailed', message: `couldn't create lifecycle pod for ${name}: ${errorMessage(err)}` };
  }
  deps.inline.hookCreated(hookKey);
  return { kind: 'wait' };
}

/** `runDeployer` step 4: every other RC of the DC with replicas, except `from`, goes to 0. */
async function scaleDownOlder(
  deps: InlineDeps,
  rcs: readonly V1ReplicationController[],
  to: V1ReplicationController,
  from: V1ReplicationController | undefined,
  emit: (type: 'Normal' | 'Warning', reason: string, message: string) => void,
): Promise<void> {
  for (const candidate of rcs) {
    const candidateName = candidate.metadata?.name ?? '';
    if (candidateName === to.metadata?.name || candidateName === from?.metadata?.name) continue;
    if (!candidate.spec?.replicas) continue;
    try {
      await deps.rcClient.patch(candidate.metadata?.namespace ?? '', candidateName, { spec: { replicas: 0 } }, 'merge');
      emit('Normal', 'ScalingReplicationController', `Scaled older deployment ${candidateName} down`);
    } catch (err) {
      emit('Warning', 'FailedScale', `Couldn't scale down prior deployment ${candidateName}: ${errorMessage(err)}`);
    }
  }
}

/**
 * `RecordConfigWarnings` of the deployer: Warning events of the RCs (quota, admission failures of
 * the RC manager) are repeated on the DC when the rollout ends.
 */
async function forwardWarnings(deps: InlineDeps, to: V1ReplicationController, from: V1ReplicationController | undefined): Promise<void> {
  if (!deps.events) return;
  for (const rc of [to, from]) {
    if (!rc) continue;
    const namespace = rc.metadata?.namespace ?? '';
    const name = rc.metadata?.name ?? '';
    let events: CoreV1Event[];
    try {
      events = await deps.events.list(namespace, [
        'involvedObject.kind=ReplicationController', `involvedObject.name=${name}`, `involvedObject.namespace=${namespace}`,
        ...(rc.metadata?.uid ? [`involvedObject.uid=${rc.metadata.uid}`] : []),
      ].join(','));
    } catch (err) {
      deps.log?.warn({ namespace, name, err }, 'Could not list events of the replication controller');
      continue;
    }
    for (const e of events) {
      if (e.type === 'Warning') deps.recorder.event(eventTarget(to), 'Warning', e.reason ?? '', e.message ?? '');
    }
  }
}
