/**
 * The one description of what a Rolling or Recreate rollout does, shared by the deployer pod's
 * process (src/deployer/, which runs the stages in order and waits on watches between them) and
 * the deployer controller's pod-less mode (src/deployer-controller/inline.ts, which takes one
 * step per sync and requeues), design.md §6.3, §6.4, §6.8.
 *
 * 1. `rolloutStages` is the ordered list of stages of one rollout: hooks, scaling of `from` and
 *    `to`, acceptance, the rolling update, and the `--until` stop points of the pod mode.
 * 2. `decideStage` is the level-triggered core: given the observed state of the RCs (and of the
 *    stage's hook pod) and the clock, what is the next step of a stage, or is it done. It is pure:
 *    it never waits and never writes, so a sync that crashed after any write decides again from
 *    what it observes and neither loses nor repeats a step.
 * The arithmetic of the rolling update (fenceposts, scale up/down targets) is the rolling
 * updater's, used by both.
 */
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Defaults, HookSuffix } from '../apis/constants.js';
import type {
  DeploymentConfig, IntOrString, LifecycleHook, RecreateDeploymentStrategyParams, RollingDeploymentStrategyParams,
} from '../apis/deploymentconfig.js';
import { computeFenceposts, scaleDownTarget, scaleUpTarget } from './rolling-updater.js';
import { rcName, rcNamespace, specReplicas, statusReplicas } from './util.js';

export type HookPoint = 'pre' | 'mid' | 'post';

/** A pod-mode `--until` stop point; the inline mode has no `--until` and skips them. */
export interface UntilStage {
  readonly kind: 'until';
  /** `exact`: until === value; `between`: until is N% with min ≤ N ≤ max. */
  readonly test: { readonly exact: string } | { readonly min: number; readonly max: number };
  /** The message of the ConditionReachedError; `%s` stands for the until value. */
  readonly message: string;
}

export type RolloutStage =
  | { readonly kind: 'hook'; readonly point: HookPoint; readonly hook: LifecycleHook; readonly suffix: string }
  | UntilStage
  /** Recreate: scale `from` to 0 and wait (bounded, a timeout only warns) for its pods to stop. */
  | { readonly kind: 'scaleDownFrom' }
  /** Recreate: scale `to` to `replicas`; with `accept`, then wait for all of them to be available. */
  | { readonly kind: 'scaleTo'; readonly replicas: number; readonly accept: boolean }
  /** Rolling: move replicas from `from` to `to` within the fenceposts. */
  | { readonly kind: 'rolling' };

const hookStage = (point: HookPoint, hook: LifecycleHook | undefined): RolloutStage[] =>
  hook ? [{ kind: 'hook', point, hook, suffix: point === 'pre' ? HookSuffix.Pre : point === 'mid' ? HookSuffix.Mid : HookSuffix.Post }] : [];

/**
 * The Recreate strategy's stages (`DeployWithAcceptor`, §6.3): pre hook; scale `from` to 0;
 * mid hook; with a previous RC, `to` to 1 and the acceptance check; `to` to desired (accepted
 * here when not yet); post hook. `--until` stop points sit between them.
 */
export function recreateStages(params: RecreateDeploymentStrategyParams | undefined, hasFrom: boolean, desired: number): RolloutStage[] {
  const stages: RolloutStage[] = [
    ...hookStage('pre', params?.pre),
    { kind: 'until', test: { exact: 'pre' }, message: 'pre hook succeeded' },
  ];
  if (hasFrom) stages.push({ kind: 'scaleDownFrom' });
  stages.push({ kind: 'until', test: { exact: '0%' }, message: 'Reached 0% (no running pods)' });
  stages.push(...hookStage('mid', params?.mid));
  stages.push({ kind: 'until', test: { exact: 'mid' }, message: 'mid hook succeeded' });
  if (desired > 0) {
    if (hasFrom) {
      stages.push({ kind: 'scaleTo', replicas: 1, accept: true });
      stages.push({ kind: 'until', test: { min: 1, max: 99 }, message: 'Reached %s' });
    }
    stages.push({ kind: 'scaleTo', replicas: desired, accept: !hasFrom });
  }
  stages.push(hasFrom
    ? { kind: 'until', test: { exact: '100%' }, message: 'Reached %s' }
    : { kind: 'until', test: { min: 1, max: 100 }, message: 'Reached %s' });
  stages.push(...hookStage('post', params?.post));
  return stages;
}

/**
 * The Rolling strategy's stages (§6.4). A first rollout (no Complete RC) is the Recreate path
 * between the rolling pre and post hooks; later ones are pre hook, the rolling update, post hook.
 */
export function rollingStages(
  params: RollingDeploymentStrategyParams | undefined,
  recreateParams: RecreateDeploymentStrategyParams | undefined,
  hasFrom: boolean,
  desired: number,
): RolloutStage[] {
  if (!hasFrom) return [...hookStage('pre', params?.pre), ...recreateStages(recreateParams, false, desired), ...hookStage('post', params?.post)];
  return [
    ...hookStage('pre', params?.pre),
    { kind: 'until', test: { exact: 'pre' }, message: 'pre hook succeeded' },
    { kind: 'until', test: { exact: '0%' }, message: 'Reached 0% (before rollout)' },
    { kind: 'rolling' },
    ...hookStage('post', params?.post),
  ];
}

/** The stages of a Rolling or Recreate rollout of `config`; undefined for any other strategy. */
export function rolloutStages(config: DeploymentConfig, hasFrom: boolean, desired: number): RolloutStage[] | undefined {
  const strategy = config.spec.strategy;
  switch (strategy?.type ?? 'Rolling') {
    case 'Recreate':
      return recreateStages(strategy?.recreateParams, hasFrom, desired);
    case 'Rolling':
      return rollingStages(strategy?.rollingParams, strategy?.recreateParams, hasFrom, desired);
    default:
      return undefined;
  }
}

/** Whether a pod-mode `--until` value stops at `stage`, and with which message. */
export function untilReached(stage: UntilStage, until: string, percentage: (u: string) => number | undefined): string | undefined {
  if ('exact' in stage.test) return until === stage.test.exact ? stage.message.replace('%s', until) : undefined;
  const value = percentage(until);
  return value !== undefined && value >= stage.test.min && value <= stage.test.max ? stage.message.replace('%s', until) : undefined;
}

/** The timing parameters of a rollout, in milliseconds. */
export interface StageTiming {
  /** The strategy's timeoutSeconds (Rolling's wins for a first Rolling rollout). */
  readonly timeoutMs: number;
  /** Recreate's own timeout, used for the wait on `from`'s pods (OpenShift reads it there). */
  readonly recreateTimeoutMs: number;
  /** Rolling: at least this long between two scaling steps. */
  readonly updatePeriodMs: number;
  /** Longest gap between two looks at the state while waiting. */
  readonly intervalMs: number;
  readonly maxSurge?: IntOrString;
  readonly maxUnavailable?: IntOrString;
}

/** The timing of `config`'s strategy, defaults applied (as both strategies read it). */
export function stageTiming(config: DeploymentConfig): StageTiming {
  const strategy = config.spec.strategy;
  const rolling = strategy?.rollingParams;
  const recreate = strategy?.recreateParams;
  const recreateTimeout = recreate?.timeoutSeconds ?? Defaults.RecreateTimeoutSeconds;
  // As OpenShift's Recreate reads it: rollingParams' timeout wins when present (a first Rolling
  // rollout runs the Recreate path with the rolling timeout).
  const timeout = rolling?.timeoutSeconds ?? recreate?.timeoutSeconds
    ?? (strategy?.type === 'Recreate' ? Defaults.RecreateTimeoutSeconds : Defaults.RollingTimeoutSeconds);
  return {
    timeoutMs: timeout * 1000,
    recreateTimeoutMs: recreateTimeout * 1000,
    updatePeriodMs: (rolling?.updatePeriodSeconds ?? Defaults.RollingUpdatePeriodSeconds) * 1000,
    intervalMs: (rolling?.intervalSeconds ?? Defaults.RollingIntervalSeconds) * 1000,
    maxSurge: rolling?.maxSurge,
    maxUnavailable: rolling?.maxUnavailable,
  };
}

/** "All pods available", the acceptance check (§6.5). */
export const allReplicasAvailable = (rc: V1ReplicationController): boolean =>
  (rc.status?.availableReplicas ?? 0) === specReplicas(rc);

/** `hasRunningPod`: Pending, Running and Unknown (node unreachable) pods count as running. */
export function hasRunningPod(pods: readonly V1Pod[]): boolean {
  return pods.some((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
}

/** The RC manager has seen the RC's spec and its pod count matches it (kubectl Scaler's "synced"). */
export function rcSynced(rc: V1ReplicationController): boolean {
  return (rc.status?.observedGeneration ?? 0) >= (rc.metadata?.generation ?? 0) && statusReplicas(rc) === specReplicas(rc);
}

/** What a pod-less rollout observed, for one decision. Times are epoch milliseconds. */
export interface ObservedRollout {
  readonly to: V1ReplicationController;
  readonly from?: V1ReplicationController;
  /** Replicas the rollout ends with (`kubectl.kubernetes.io/desired-replicas`). */
  readonly desired: number;
  /** The old RC's replicas when the rolling update started (`original-replicas`). */
  readonly originalOld?: number;
  /** The hook pod of a hook stage, as cached; undefined when absent. */
  readonly hookPod?: V1Pod;
  /** Whether `from` still has running pods, once looked at; undefined: not looked at yet. */
  readonly fromPodsRunning?: boolean;
  readonly now: number;
  /** When the current stage started. */
  readonly stageSince: number;
  /** Last scaling step of this stage; undefined: none yet. */
  readonly lastScaleAt?: number;
  /** Last time a replica count moved (the rolling update's progress deadline starts here). */
  readonly lastProgressAt: number;
}

/** The next step of a stage. */
export type StageDecision =
  | { readonly kind: 'done'; readonly warning?: string }
  | { readonly kind: 'scale'; readonly target: 'to' | 'from'; readonly replicas: number; readonly message: string }
  | { readonly kind: 'createHookPod' }
  /** Look at `from`'s pods (a LIST), then decide again with `fromPodsRunning`. */
  | { readonly kind: 'checkFromPods' }
  /** Nothing to do until the state changes, or at the latest after `recheckMs` (undefined: only on change). */
  | { readonly kind: 'wait'; readonly recheckMs?: number }
  /** The hook pod failed; its failure policy decides. */
  | { readonly kind: 'hookFailed'; readonly message: string }
  | { readonly kind: 'fail'; readonly message: string };

const waitAtMost = (recheckMs: number, deadline: number, now: number): StageDecision =>
  ({ kind: 'wait', recheckMs: Math.max(1, Math.min(recheckMs, deadline - now)) });

/**
 * A wait on the RCs' own state (their spec and status): every change of them reaches the
 * pod-less rollout as a watch event of the controller's RC cache, which wakes it (design.md
 * §6.8), so between two changes a look could only find the same state. The one thing that moves
 * without an event is the clock: the recheck is the deadline. (Polling every intervalSeconds here
 * made most of the deployer controller's syncs at 1000 rollouts: a rollout waiting 100 s for its
 * pods was looked at 100 times.)
 */
const waitForRcsUntil = (deadline: number, now: number): StageDecision => ({ kind: 'wait', recheckMs: Math.max(1, deadline - now) });

/**
 * Decides the next step of `stage` from `obs`. `until` stages are done at once. The timeouts are
 * the pod mode's: a Recreate scale that does not finish only moves on (the acceptance check
 * catches it), old pods still running after the Recreate timeout only warn, an acceptance check
 * or a rolling update without progress for timeoutSeconds fails the rollout.
 */
export function decideStage(stage: RolloutStage, obs: ObservedRollout, timing: StageTiming): StageDecision {
  const { to, now } = obs;
  switch (stage.kind) {
    case 'until':
      return { kind: 'done' };
    case 'hook': {
      const pod = obs.hookPod;
      if (!pod) return { kind: 'createHookPod' };
      if (pod.status?.phase === 'Succeeded') return { kind: 'done' };
      if (pod.status?.phase === 'Failed') return { kind: 'hookFailed', message: pod.status.message ?? '' };
      return { kind: 'wait' };
    }
    case 'scaleDownFrom': {
      const from = obs.from;
      if (!from) return { kind: 'done' };
      if (specReplicas(from) !== 0) return { kind: 'scale', target: 'from', replicas: 0, message: `Scaling ${rcName(from)} down to zero` };
      const scaleDeadline = obs.stageSince + timing.timeoutMs;
      if (statusReplicas(from) !== 0 && now < scaleDeadline) return waitForRcsUntil(scaleDeadline, now);
      if (obs.fromPodsRunning === undefined) return { kind: 'checkFromPods' };
      const podsDeadline = obs.stageSince + timing.recreateTimeoutMs;
      if (!obs.fromPodsRunning) return { kind: 'done' };
      if (now < podsDeadline) return waitAtMost(1000, podsDeadline, now);
      return { kind: 'done', warning: 'Failed to wait for old pods to be terminated: timed out waiting for the condition. New pods may be scaled up before old pods get terminated!' };
    }
    case 'scaleTo': {
      if (specReplicas(to) !== stage.replicas) {
        return { kind: 'scale', target: 'to', replicas: stage.replicas, message: stage.accept && stage.replicas === 1 && obs.from
          ? `Scaling ${rcName(to)} to 1 before performing acceptance check`
          : `Scaling ${rcName(to)} to ${stage.replicas}` };
      }
      const deadline = obs.stageSince + timing.timeoutMs;
      const observed = (to.status?.observedGeneration ?? 0) >= (to.metadata?.generation ?? 0);
      if (stage.accept) {
        if (observed && allReplicasAvailable(to)) return { kind: 'done' };
        if (now >= deadline) {
          return { kind: 'fail', message: `update acceptor rejected ${rcName(to)}: pods for rc '${rcNamespace(to)}/${rcName(to)}' took longer than ${Math.round(timing.timeoutMs / 1000)} seconds to become available` };
        }
        return waitForRcsUntil(deadline, now);
      }
      if ((observed && statusReplicas(to) === stage.replicas) || now >= deadline) return { kind: 'done' };
      return waitForRcsUntil(deadline, now);
    }
    case 'rolling':
      return decideRolling(obs, timing);
  }
}

/**
 * One round of the rolling updater (§6.4) on observed state: scale up within maxSurge, else
 * (updatePeriod after the last step) scale down within minAvailable counting the new RC's
 * available replicas; done once new = desired, old = 0 and the new RC has settled. No count moving for timeoutSeconds fails, as the updater's progress deadline does.
 */
function decideRolling(obs: ObservedRollout, timing: StageTiming): StageDecision {
  const { to, now } = obs;
  const from = obs.from;
  if (!from) return { kind: 'fail', message: 'rolling update without a previous deployment' };
  const oldReplicas = specReplicas(from);
  const newReplicas = specReplicas(to);
  const progressDeadline = obs.lastProgressAt + timing.timeoutMs;
  if (newReplicas === obs.desired && oldReplicas === 0) {
    // The updater's last scale down waits, as every one of its scales does, until the RC manager
    // reports the old RC at 0: the rollout ends with the old pods gone from the RCs' status, so
    // the DC's replica counts say so in the same status write as the outcome.
    if (rcSynced(to) && rcSynced(from)) return { kind: 'done' };
    if (now > progressDeadline) return { kind: 'fail', message: 'timed out waiting for the condition' };
    return waitForRcsUntil(progressDeadline + 1, now);
  }
  // Unlike kubectl's Scaler, no wait for each scaled RC to be synced before the next step: the
  // fenceposts count spec.replicas (as the updater does) and the new RC's available replicas,
  // which a lagging status can only under-count, so a step never breaks them; a scale down and
  // the next scale up can then go in one sync, as the Deployment controller does.
  let f;
  try {
    f = computeFenceposts(timing.maxSurge, timing.maxUnavailable, obs.desired, obs.originalOld ?? oldReplicas);
  } catch (err) {
    return { kind: 'fail', message: (err as Error).message };
  }
  const up = scaleUpTarget(f, oldReplicas, newReplicas);
  if (up !== undefined) return { kind: 'scale', target: 'to', replicas: up, message: `Scaling ${rcName(to)} up to ${up}` };
  const available = to.status?.availableReplicas ?? 0;
  const down = scaleDownTarget(f, oldReplicas, newReplicas, Math.min(available, newReplicas));
  if (down !== undefined && down !== oldReplicas) {
    // The updater sleeps updatePeriod between a round's scale up and its scale down (also when
    // the round scaled nothing up), not between a scale down and the next round's scale up.
    const periodEnd = (obs.lastScaleAt ?? obs.stageSince) + timing.updatePeriodMs;
    if (now < periodEnd) return { kind: 'wait', recheckMs: periodEnd - now };
    return { kind: 'scale', target: 'from', replicas: down, message: `Scaling ${rcName(from)} down to ${down}` };
  }
  if (now > progressDeadline) return { kind: 'fail', message: 'timed out waiting for any update progress to be made' };
  return waitForRcsUntil(progressDeadline + 1, now);
}
