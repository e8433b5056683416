/**
 * oc's DeploymentConfigStatusViewer (semantics §8.5) as a pure function, plus one guard this
 * project needs: a CRD does not bump `metadata.generation` when `status.latestVersion` moves
 * (instantiate), so a Progressing condition may still describe the PREVIOUS rollout. When the
 * caller knows the latest RC and it is missing or still running, the condition is treated as stale.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { ConditionReason, ConditionType } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { isTerminal } from './rc.js';

/** One evaluation: a progress line, or done (with an error message when it failed). */
export interface RolloutStatus {
  /** Line to print (no trailing newline). */
  readonly message?: string;
  readonly done: boolean;
  /** Failure text; implies done unless `retryable`. */
  readonly error?: string;
}

/**
 * Evaluates the DC the way `oc rollout status` does.
 * @param latestRc the RC `<dc>-<latestVersion>`: null when known to be missing, undefined when not looked up.
 * @param commandName prefix for hints, e.g. `dcctl` (oc says `oc`).
 */
export function rolloutStatus(
  dc: DeploymentConfig,
  desiredRevision: number,
  latestRc: V1ReplicationController | null | undefined,
  commandName: string,
): RolloutStatus {
  const name = dc.metadata.name ?? '';
  const status = dc.status ?? {};
  const latest = status.latestVersion ?? 0;
  const triggers = dc.spec.triggers;
  if (latest === 0) {
    if ((triggers ?? []).some((t) => t.type === 'ImageChange')) {
      return { message: `Deployment config "${name}" waiting on image update`, done: false };
    }
    if (triggers !== undefined && triggers !== null && triggers.length === 0) {
      return { done: true, error: `Deployment config "${name}" waiting on manual update (use '${commandName} rollout latest ${name}')` };
    }
  }
  if (desiredRevision > 0 && latest !== desiredRevision) {
    return { done: true, error: `desired revision (${desiredRevision}) is different from the running revision (${latest})` };
  }
  const cond = (status.conditions ?? []).find((c) => c.type === ConditionType.Progressing);
  const stale = latestRc === null || (latestRc !== undefined && !isTerminal(latestRc));
  if ((dc.metadata.generation ?? 0) <= (status.observedGeneration ?? 0)) {
    const reason = stale ? undefined : cond?.reason;
    if (reason === ConditionReason.NewReplicationControllerAvailable) return { message: cond?.message ?? '', done: true };
    if (reason === ConditionReason.ProgressDeadlineExceeded || reason === ConditionReason.RolloutCancelled) {
      return { done: true, error: cond?.message ?? '' };
    }
    if (reason === ConditionReason.DeploymentConfigPaused) {
      return { done: true, error: `Deployment config "${name}" is paused. Resume to continue watching the status of the rollout.` };
    }
    const specReplicas = dc.spec.replicas ?? 0;
    const updated = status.updatedReplicas ?? 0;
    const replicas = status.replicas ?? 0;
    const available = status.availableReplicas ?? 0;
    if (latestRc !== null) {
      if (updated < specReplicas) {
        return { message: `Waiting for rollout to finish: ${updated} out of ${specReplicas} new replicas have been updated...`, done: false };
      }
      if (replicas > updated) {
        return { message: `Waiting for rollout to finish: ${replicas - updated} old replicas are pending termination...`, done: false };
      }
      if (available < updated) {
        return { message: `Waiting for rollout to finish: ${available} of ${updated} updated replicas are available...`, done: false };
      }
    }
  }
  return { message: 'Waiting for latest deployment config spec to be observed by the controller loop...', done: false };
}
