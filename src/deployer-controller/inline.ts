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
import { Annotations, ConditionReason, DeployerModes, Labels, Phase, type DeployerMode } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { byVersionDesc, defaultInPlace, eventTarget, isComplete, selectorString, versionOf } from '../apps/index.js';
import { repeatedWarnings } from '../apps/rc-warnings.js';
import { isAlreadyExists, isNotFound } from '../controller/errors.js';
import type { Clock, EventClient, EventRecorder, Lister, PodClient, ReplicationControllerClient } from '../controller/ports.js';
import type { ImageStreamClient } from '../image/ports.js';
import { createHookPodManifest, hookCompletedMessage, hookFailureOutcome, hookStartedMessage, tagHookImages } from '../deployer/hooks.js';
import { decideStage, hasRunningPod, rolloutStages, stageTiming, type RolloutStage, type StageDecision } from '../deployer/steps.js';
import { intAnnotation, specReplicas } from '../deployer/util.js';
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

/**
 * How far a recorded stage time may lie after this process's clock (another replica's clock,
 * after a failover) or before the RC's creation (the API server's clock).
 */
export const InlineStageClockSkewMs = 5_000;

/**
 * `<index> <time>` of the inline-stage annotation, exactly as formatInlineStage writes it (an
 * index of at most 6 digits, an RFC 3339 UTC time with milliseconds); undefined otherwise.
 */
export function parseInlineStage(value: string | undefined): { index: number; since: number } | undefined {
  const m = /^(\d{1,6}) (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)$/.exec(value ?? '');
  if (!m) return undefined;
  const since = Date.parse(m[2]!);
  // The round trip refuses dates Date.parse would roll over (month 13, February 30).
  return Number.isNaN(since) || new Date(since).toISOString() !== m[2] ? undefined : { index: Number(m[1]), since };
}

export const formatInlineStage = (index: number, since: number): string => `${index} ${new Date(since).toISOString()}`;

/**
 * Why the strategy's timing in `config` (the encoded config, not yet defaulted) breaks the CRD's
 * rules (whole seconds, at least 1), naming the field; undefined when it keeps them.
 */
export function strategyTimingProblem(config: DeploymentConfig): string | undefined {
  const strategy = config.spec?.strategy;
  const fields: Array<[string, unknown]> = [
    ['recreateParams.timeoutSeconds', strategy?.recreateParams?.timeoutSeconds],
    ['rollingParams.updatePeriodSeconds', strategy?.rollingParams?.updatePeriodSeconds],
    ['rollingParams.intervalSeconds', strategy?.rollingParams?.intervalSeconds],
    ['rollingParams.timeoutSeconds', strategy?.rollingParams?.timeoutSeconds],
  ];
  for (const [field, value] of fields) {
    if (value === undefined || (Number.isSafeInteger(value) && (value as number) >= 1)) continue;
    return `spec.strategy.${field}: invalid value ${JSON.stringify(value)}: must be a whole number of seconds of at least 1`;
  }
  return undefined;
}

/** What the recorded stage is checked against: only what this controller can vouch for. */
interface StageEvidence {
  readonly stages: readonly RolloutStage[];
  readonly to: V1ReplicationController;
  readonly from?: V1ReplicationController;
  /** The RC's creationTimestamp (server-set): no stage of its rollout started before it. */
  readonly createdAt?: number;
  readonly now: number;
  /** The stage this process itself last recorded for the rollout, if it has run it. */
  readonly ownStage?: number;
  readonly hookPod: (stage: HookStage) => V1Pod | undefined;
}

/**
 * The recorded stage of a rollout in flight, or why it cannot be believed (design.md §6.8): the
 * annotation is written by this controller, but anyone who may patch RCs can rewrite it, and a
 * copy may be stale. It is believed only when it parses; its index is a stage of this rollout
 * (never at or past the end: reaching the end completes the rollout and removes the record); its
 * time is neither before the RC existed nor after this clock (beyond InlineStageClockSkewMs each);
 * and its index is not ahead of what this process recorded itself or, when this process has not
 * run the rollout yet (restart, failover), every stage before it left its trace (a hook that may
 * fail the rollout has a Succeeded pod, a scale down left the old RC at 0, a scale up left the
 * new one above 0).
 */
export function recordedStage(raw: string | undefined, e: StageEvidence): { index: number; since: number } | { problem: string } {
  if (raw === undefined) return { problem: 'is missing from a rollout in flight (it is recorded with the first step)' };
  const parsed = parseInlineStage(raw);
  if (!parsed) return { problem: `unsupported value ${goQuote(raw)}: want "<stage index> <RFC 3339 UTC time>", as this controller writes it` };
  const { index, since } = parsed;
  if (index >= e.stages.length) return { problem: `stage ${index} is past the last of this rollout's ${e.stages.length} stages` };
  // The creation time is the API server's clock (whole seconds), the record this controller's.
  if (e.createdAt !== undefined && since < e.createdAt - InlineStageClockSkewMs) {
    return { problem: `stage time ${new Date(since).toISOString()} is before the replication controller was created (${new Date(e.createdAt).toISOString()})` };
  }
  if (since > e.now + InlineStageClockSkewMs) {
    return { problem: `stage time ${new Date(since).toISOString()} is after this controller's clock (${new Date(e.now).toISOString()})` };
  }
  if (e.ownStage !== undefined) {
    // This process ran (or checked, when it resumed) every stage up to its own record.
    return index > e.ownStage ? { problem: `stage ${index} is ahead of stage ${e.ownStage}, the last this controller recorded` } : parsed;
  }
  for (const stage of e.stages.slice(0, index)) {
    const missing = missingTrace(stage, e);
    if (missing) return { problem: `stage ${index} is past ${missing}` };
  }
  return parsed;
}

/** What a finished `stage` must have left behind and has not; undefined when its trace is there (or it leaves none). */
function missingTrace(stage: RolloutStage, e: StageEvidence): string | undefined {
  switch (stage.kind) {
    case 'hook': {
      // tagImages hooks and Ignore hooks (whose pod may never have been created) leave no trace
      // that must exist; the bounds above and this process's own record are all there is.
      if (!stage.hook.execNewPod || stage.hook.failurePolicy === 'Ignore') return undefined;
      const pod = e.hookPod(stage);
      if (pod?.status?.phase === 'Succeeded') return undefined;
      const podName = getPodName(e.to.metadata?.name ?? '', stage.suffix);
      return `the ${stage.point} hook, whose pod ${podName} ${pod ? 'has not succeeded' : 'does not exist'}`;
    }
    case 'scaleDownFrom':
    case 'rolling':
      return e.from && specReplicas(e.from) !== 0
        ? `the scale down of ${e.from.metadata?.name ?? ''}, which still has ${specReplicas(e.from)} replicas`
        : undefined;
    case 'scaleTo':
      return stage.replicas > 0 && specReplicas(e.to) === 0 ? `the scale up of ${e.to.metadata?.name ?? ''}, which has 0 replicas` : undefined;
    case 'until':
      return undefined;
  }
}

interface StageMemory {
  readonly stage: number;
  /** When this process saw the stage start, or the recorded start it resumed from. */
  readonly since: number;
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
  /** The DC key of each RC key in `memory`, to forget an RC that is deleted in flight. */
  private readonly dcOf = new Map<string, string>();
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
    this.dcOf.set(key, dcKey);
    this.inflight.set(dcKey, key);
  }

  forget(key: string, dcKey: string): void {
    this.memory.delete(key);
    this.dcOf.delete(key);
    for (const hook of this.createdHooks) if (hook.startsWith(`${key}/`)) this.createdHooks.delete(hook);
    if (this.inflight.get(dcKey) === key) this.inflight.delete(dcKey);
  }

  /**
   * Forgets the RC `key` when it is gone: a rollout ends by forget(), but an RC deleted in flight
   * (its DC deleted, or anyone who may delete RCs) never ends, and its entries stayed for the
   * life of the process, one set per deleted RC.
   */
  forgetDeleted(key: string): void {
    this.forget(key, this.dcOf.get(key) ?? '');
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
 * One step of the pod-less rollout of `rc` (the cached object, read only), in phase New
 * (starting) or Running; `config` is its freshly decoded encoded config, owned by this step
 * (defaulted in place).
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
  config = defaultInPlace(config);
  const dcName = config.metadata.name ?? '';
  const dcKey = `${namespace}/${dcName}`;
  const emit = (type: 'Normal' | 'Warning', reason: string, message: string): void =>
    deps.recorder.event(eventTarget(rc), type, reason, message);

  // The DC whose RCs this rollout scales is named by the encoded config, which anyone who may
  // patch RCs can rewrite: it must be the one in the RC's immutable name `<dc>-<version>`.
  const ownDc = name.startsWith(`${dcName}-`) && /^[0-9]+$/.test(name.slice(dcName.length + 1));
  const rcs = !ownDc ? [] : byVersionDesc(deps.rcsOfDc?.(namespace, dcName)
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

  /** A value the rollout cannot act on: reported naming it, and the rollout fails (once: Failed is final). */
  const refuse = (problem: string, consequence = ''): Promise<InlineOutcome> => {
    emit('Warning', ConditionReason.InvalidReplicationController, problem + consequence);
    return end(Phase.Failed, problem);
  };

  if (!ownDc) {
    return refuse(`metadata.annotations[${goQuote(Annotations.EncodedConfig)}]: metadata.name: invalid value ${goQuote(dcName)}: replication controller ${goQuote(name)} is not a version of it`);
  }
  const desired = intAnnotation(rc, Annotations.DesiredReplicas);
  if (desired === undefined) return end(Phase.Failed, `deployment ${name} has already run to completion`);
  if (desired < 0) {
    return refuse(`metadata.annotations[${goQuote(Annotations.DesiredReplicas)}]: invalid value ${goQuote(String(desired))}: must be 0 or more`);
  }
  // The encoded config bypassed the CRD's rules (anyone who may patch RCs can rewrite it): a wait
  // of 0, a negative or a non-number would requeue at once, forever, or never time out.
  const badTiming = strategyTimingProblem(config);
  if (badTiming) return refuse(`metadata.annotations[${goQuote(Annotations.EncodedConfig)}]: ${badTiming}`);
  if (from && versionOf(rc) < versionOf(from)) return end(Phase.Failed, `deployment ${name} is older than ${from.metadata?.name ?? ''}`);
  const stages = (rolloutStages(config, from !== undefined, desired) ?? []).filter((s) => s.kind !== 'until');
  const timing = stageTiming(config);

  const recalled = state.recall(key);
  let index = 0;
  let since = now;
  let next: string | undefined;
  if (current === Phase.New) {
    await scaleDownOlder(deps, rcs, rc, from, emit);
    updated[Annotations.DeployerMode] = 'inline';
    next = Phase.Running;
  } else {
    const recorded = recordedStage(updated[Annotations.InlineStage], {
      stages, to: rc, from, createdAt: timestampMs(rc.metadata?.creationTimestamp), now, ownStage: recalled?.stage,
      hookPod: (stage) => deps.podLister.get(namespace, getPodName(name, stage.suffix)),
    });
    if ('problem' in recorded) {
      // Neither skip a step nor extend a deadline on a value nobody can vouch for: fail, once
      // (the annotation is removed with the phase; a Failed rollout is never synced again).
      return refuse(`metadata.annotations[${goQuote(Annotations.InlineStage)}]: ${recorded.problem}`,
        '; the rollout is failed rather than resumed from a stage this controller cannot vouch for (\'rollout retry\' starts it again)');
    }
    ({ index, since } = recorded);
    // The start this process saw itself wins over a later one written since: no extension.
    if (recalled?.stage === index) since = Math.min(since, recalled.since);
  }

  // A rollout this process did not start (failover, restart): count from now on, never shorter.
  const resumedAt = Math.max(since, state.activeSince);
  let memory: StageMemory = recalled?.stage === index ? { ...recalled, since }
    : recalled || current === Phase.New ? { stage: index, since, lastProgressAt: since }
      : { stage: index, since, lastScaleAt: resumedAt, lastProgressAt: resumedAt };
  let enteredNow = current === Phase.New;
  let fromPodsRunning: boolean | undefined;
  let replicas: number | undefined;
  let requeueMs: number | undefined;
  let scaledUpAfterDown = false;
  const originalOld = intAnnotation(from, Annotations.OriginalReplicas);

  const advance = (): void => {
    index++;
    since = now;
    memory = { stage: index, since: now, lastProgressAt: now };
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
        // What follows a scale is a wait for the RCs (their watch events wake the rollout, see
        // waitForRcsUntil in steps.ts) bounded by the stage's timeout, and in a rolling update
        // the next scale down, updatePeriodSeconds after this step.
        requeueMs = stage.kind === 'rolling' ? Math.max(timing.updatePeriodMs, 1) : Math.max(since + timing.timeoutMs - now, 1);
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
 * the RC manager) are repeated on the DC when the rollout fails, at most MaxRepeatedWarnings per
 * RC (src/apps/rc-warnings.ts).
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
    const { repeat, skipped } = repeatedWarnings(events, rc);
    for (const e of repeat) deps.recorder.event(eventTarget(to), 'Warning', e.reason ?? '', e.message ?? '');
    if (skipped > 0) deps.log?.info({ namespace, name, skipped }, 'More Warning events of the replication controller than are repeated on the DC');
  }
}

/** A server-set timestamp (Date or RFC 3339 string) in epoch milliseconds; undefined when unreadable. */
function timestampMs(value: Date | string | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = (value instanceof Date ? value : new Date(value)).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}
