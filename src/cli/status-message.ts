/**
 * oc's DeploymentConfigStatusViewer (design.md §9.5) as a pure function, with one change this
 * project needs: a CRD does not bump `metadata.generation` when `status.latestVersion` moves
 * (instantiate), so the Progressing condition may still describe the PREVIOUS rollout for a
 * moment. When the caller has looked up the latest RC, its phase decides instead of the
 * condition (same messages as the controller's conditions); a missing latest RC means "waiting".
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { ConditionReason, ConditionType, Phase } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { isCancelled, phaseOf } from '../apps/index.js';

/** One evaluation: a progress line, or done (with an error message when it failed). */
export interface RolloutStatus {
  /** Line to print (no trailing newline). */
  readonly message?: string;
  readonly done: boolean;
  /** Failure text; set only together with done. */
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
  // Not in oc's viewer, which waits until its timeout when no RC can be made: the controller's
  // ReplicationControllerCreateError (it describes the current latestVersion: no trigger or
  // instantiate moves latestVersion while its RC is missing) is a failed rollout, and so is a latest RC whose
  // phase annotation nothing can move on (issue 14: both used to hide behind "Waiting...").
  if (latestRc === null && cond?.status === 'False' && cond.reason === ConditionReason.ReplicationControllerCreateError) {
    return { done: true, error: `rollout #${latest} of deployment config "${name}" cannot start: ${cond.reason}: ${cond.message ?? ''}` };
  }
  if (latestRc && !(Object.values(Phase) as string[]).includes(phaseOf(latestRc))) {
    const failure = (status.conditions ?? []).find((c) => c.type === ConditionType.ReplicaFailure && c.status === 'True');
    return {
      done: true,
      error: failure?.message ?? `replication controller "${latestRc.metadata?.name ?? ''}" has unknown phase ${JSON.stringify(phaseOf(latestRc))}`,
    };
  }
  if ((dc.metadata.generation ?? 0) <= (status.observedGeneration ?? 0)) {
    if (latestRc) {
      // The RC phase is what the controller derives the condition from (§4.9); reading it
      // directly cannot describe an older rollout.
      const rcName = latestRc.metadata?.name ?? '';
      if (phaseOf(latestRc) === Phase.Complete) return { message: `replication controller "${rcName}" successfully rolled out`, done: true };
      if (phaseOf(latestRc) === Phase.Failed) {
        return {
          done: true,
          error: isCancelled(latestRc)
            ? `rollout of replication controller "${rcName}" was cancelled`
            : `replication controller "${rcName}" has failed progressing`,
        };
      }
    }
    const reason = latestRc === undefined ? cond?.reason : undefined;
    if (reason === ConditionReason.NewReplicationControllerAvailable) return { message: cond?.message ?? '', done: true };
    if (reason === ConditionReason.ProgressDeadlineExceeded || reason === ConditionReason.RolloutCancelled) {
      return { done: true, error: cond?.message ?? '' };
    }
    if (cond?.reason === ConditionReason.DeploymentConfigPaused) {
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
