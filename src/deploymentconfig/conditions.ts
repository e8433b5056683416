/**
 * DC conditions (§4.9): `NewDeploymentCondition`, `SetDeploymentCondition`, `updateConditions`.
 * Pure; the time comes from the caller's Clock.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { ConditionReason, ConditionType, Phase } from '../apis/constants.js';
import type { DeploymentCondition, DeploymentConfig, DeploymentConfigStatus } from '../apis/deploymentconfig.js';
import { deployerPodNameFor } from '../util/naming.js';
import { formatTime, isCancelled, maxUnavailable, phaseOf, unresolvedImageTriggers } from '../apps/index.js';

/** A condition whose lastUpdateTime and lastTransitionTime are both `now`. */
export function newCondition(
  type: string, status: DeploymentCondition['status'], reason: string, message: string, now: Date,
): DeploymentCondition {
  const t = formatTime(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export const getCondition = (status: DeploymentConfigStatus, type: string): DeploymentCondition | undefined =>
  status.conditions?.find((c) => c.type === type);

export function removeCondition(status: DeploymentConfigStatus, type: string): void {
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
}

/**
 * `SetDeploymentCondition`: same status and reason → no-op (timestamps and even the message are
 * kept, which is what lets an unchanged status compare equal); same status, other reason → keeps
 * lastTransitionTime. The condition moves to the end of the list.
 */
export function setCondition(status: DeploymentConfigStatus, condition: DeploymentCondition): void {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && (current.reason ?? '') === (condition.reason ?? '')) return;
  const next = { ...condition };
  if (current && current.status === condition.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

/** `IsProgressing`: the running rollout moved replicas since the previous status. */
function isProgressing(dc: DeploymentConfig, next: DeploymentConfigStatus): boolean {
  const old = dc.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (next.replicas ?? 0) - (next.updatedReplicas ?? 0);
  return (next.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) || newOld < oldOld;
}

/** `updateConditions`: Available always; Progressing from the latest RC's phase. */
export function updateConditions(
  dc: DeploymentConfig, status: DeploymentConfigStatus, latest: V1ReplicationController | undefined, now: Date,
): void {
  const available = status.availableReplicas ?? 0;
  if (available >= (dc.spec.replicas ?? 0) - maxUnavailable(dc) && available > 0) {
    setCondition(status, newCondition(ConditionType.Available, 'True', '', 'Deployment config has minimum availability.', now));
  } else {
    setCondition(status, newCondition(ConditionType.Available, 'False', '', 'Deployment config does not have minimum availability.', now));
  }
  if (!latest) return;
  const rcName = latest.metadata?.name ?? '';
  switch (phaseOf(latest)) {
    case Phase.Pending:
      setCondition(status, newCondition(ConditionType.Progressing, 'Unknown', '',
        `replication controller "${rcName}" is waiting for pod "${deployerPodNameFor(rcName)}" to run`, now));
      break;
    case Phase.Running:
      if (isProgressing(dc, status)) {
        // Remove first so lastTransitionTime records the last progress, as OpenShift does.
        removeCondition(status, ConditionType.Progressing);
        setCondition(status, newCondition(ConditionType.Progressing, 'True', ConditionReason.ReplicationControllerUpdated,
          `replication controller "${rcName}" is progressing`, now));
      }
      break;
    case Phase.Failed:
      if (isCancelled(latest)) {
        setCondition(status, newCondition(ConditionType.Progressing, 'False', ConditionReason.RolloutCancelled,
          `rollout of replication controller "${rcName}" was cancelled`, now));
      } else {
        setCondition(status, newCondition(ConditionType.Progressing, 'False', ConditionReason.ProgressDeadlineExceeded,
          `replication controller "${rcName}" has failed progressing`, now));
      }
      break;
    case Phase.Complete:
      setCondition(status, newCondition(ConditionType.Progressing, 'True', ConditionReason.NewReplicationControllerAvailable,
        `replication controller "${rcName}" successfully rolled out`, now));
      break;
    default:
      break;
  }
}

/**
 * Not OpenShift's (it waits silently): Progressing=Unknown, reason WaitingForImages, naming the
 * ImageChange triggers without a resolved image and the containers that have no image. Unknown
 * rather than False because nothing has failed; it is the same status OpenShift uses while a
 * rollout waits for its deployer pod. Only used while no RC exists for latestVersion, so it never
 * fights the phase-derived Progressing condition (which would flip it back and forth).
 */
export function waitingForImagesCondition(dc: DeploymentConfig, now: Date): DeploymentCondition {
  const triggers = unresolvedImageTriggers(dc).map((t) => {
    const from = t.imageChangeParams!.from;
    const ref = `${from.namespace ? `${from.namespace}/` : ''}${from.name ?? ''}`;
    const containers = t.imageChangeParams!.containerNames ?? [];
    return containers.length > 0 ? `${ref} (containers: ${containers.join(', ')})` : ref;
  });
  const emptyContainers = (dc.spec.template?.spec?.containers ?? [])
    .filter((c) => (c.image ?? '').trim() === '').map((c) => c.name);
  const parts: string[] = [];
  if (triggers.length > 0) parts.push(`ImageChange triggers not yet resolved: ${triggers.join('; ')}`);
  if (emptyContainers.length > 0) parts.push(`containers without an image: ${emptyContainers.join(', ')}`);
  return newCondition(ConditionType.Progressing, 'Unknown', ConditionReason.WaitingForImages,
    `deployment config "${dc.metadata.name ?? ''}" is waiting for images: ${parts.join('; ')}`, now);
}
