/**
 * `calculateStatus` / `updateStatus` (§4.9). The status is computed purely and written only when
 * it differs, so an unchanged DC produces no write (and no watch event, and no hot loop).
 */
import { ConditionReason, ConditionType } from '../apis/constants.js';
import type { V1ReplicationController } from '@kubernetes/client-node';
import type { DeploymentCondition, DeploymentConfig, DeploymentConfigStatus } from '../apis/deploymentconfig.js';
import type { DeploymentConfigClient, EventRecorder } from '../controller/ports.js';
import { newCondition, setCondition, updateConditions } from './conditions.js';
import { rcProblems } from '../apps/rc-problems.js';
import { latestDeploymentInfo, scaleSelector } from '../apps/index.js';
import { canonicalJson } from '../util/canonical-json.js';

/** Sum of a numeric field over RCs. */
function sumOf(rcs: readonly V1ReplicationController[], pick: (rc: V1ReplicationController) => number | undefined): number {
  return rcs.reduce((acc, rc) => acc + (pick(rc) ?? 0), 0);
}

/** The status the DC should have given its owned RCs. Does not modify `dc`. */
export function calculateStatus(
  dc: DeploymentConfig,
  rcs: readonly V1ReplicationController[],
  updateObservedGeneration: boolean,
  now: Date,
  additional: readonly DeploymentCondition[] = [],
): DeploymentConfigStatus {
  const previous = dc.status ?? {};
  const { latestExists, candidate } = latestDeploymentInfo(dc, rcs);
  const latest = latestExists ? candidate : undefined;
  const available = sumOf(rcs, (rc) => rc.status?.availableReplicas);
  const total = sumOf(rcs, (rc) => rc.spec?.replicas);

  const status: DeploymentConfigStatus = {
    latestVersion: previous.latestVersion ?? 0,
    observedGeneration: updateObservedGeneration ? (dc.metadata.generation ?? 0) : (previous.observedGeneration ?? 0),
    replicas: sumOf(rcs, (rc) => rc.status?.replicas),
    updatedReplicas: latest ? (latest.status?.replicas ?? 0) : 0,
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
    readyReplicas: sumOf(rcs, (rc) => rc.status?.readyReplicas),
    selector: scaleSelector(dc),
  };
  if (previous.details !== undefined) status.details = structuredClone(previous.details);
  status.conditions = structuredClone(previous.conditions ?? []);
  if (previous.lastInstantiateRequest !== undefined) status.lastInstantiateRequest = structuredClone(previous.lastInstantiateRequest);

  updateConditions(dc, status, latest, now);
  // The invalid-RC condition describes the current sync only: once a sync gets past the RC
  // (it was fixed or replaced), it goes away.
  const rcProblem = rcProblems(rcs);
  if (!additional.some((c) => c.type === ConditionType.ReplicaFailure) && rcProblem === undefined) {
    status.conditions = status.conditions.filter(
      (c) => !(c.type === ConditionType.ReplicaFailure && c.reason === ConditionReason.InvalidReplicationController));
  }
  if (rcProblem !== undefined) setInvalidRcCondition(status, rcProblem, now);
  for (const cond of additional) setCondition(status, cond);
  return status;
}

/**
 * ReplicaFailure=True/InvalidReplicationController with `message`; unlike setCondition, a new
 * message replaces the old one (another RC became implausible), keeping lastTransitionTime.
 */
function setInvalidRcCondition(status: DeploymentConfigStatus, message: string, now: Date): void {
  const current = status.conditions?.find((c) => c.type === ConditionType.ReplicaFailure);
  const next = newCondition(ConditionType.ReplicaFailure, 'True', ConditionReason.InvalidReplicationController, message, now);
  if (current?.status === 'True' && current.reason === ConditionReason.InvalidReplicationController) {
    if (current.message === message) return;
    next.lastTransitionTime = current.lastTransitionTime;
  }
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== ConditionType.ReplicaFailure), next];
}

/** Deep equality of two statuses (undefined fields count as absent). */
export const statusEqual = (a: DeploymentConfigStatus | undefined, b: DeploymentConfigStatus | undefined): boolean =>
  canonicalJson(a ?? {}) === canonicalJson(b ?? {});

/**
 * Writes the calculated status when it differs from the current one. No conflict retry: a 409
 * propagates and the key is requeued, as in OpenShift. Every caller makes this its sync's last
 * write (or throws after it), so the write is reported to `onStatusWritten` as one that settles
 * the sync (SettledStatusWrites in controller.ts).
 */
export async function updateStatus(
  deps: { dcClient: DeploymentConfigClient; clock: { now(): Date }; recorder?: EventRecorder; onStatusWritten?: (written: DeploymentConfig) => void },
  dc: DeploymentConfig,
  rcs: readonly V1ReplicationController[],
  updateObservedGeneration: boolean,
  additional: readonly DeploymentCondition[] = [],
): Promise<DeploymentConfig | undefined> {
  const next = calculateStatus(dc, rcs, updateObservedGeneration, deps.clock.now(), additional);
  if (statusEqual(next, dc.status)) return undefined;
  // An RC annotation the controllers cannot act on is reported once, when it first shows up in the status (each sync
  // would otherwise patch the aggregated event: a write per sync is what this guards against).
  const problem = rcProblems(rcs);
  const before = dc.status?.conditions?.find((c) => c.type === ConditionType.ReplicaFailure);
  if (problem !== undefined && before?.message !== problem && !additional.some((c) => c.type === ConditionType.ReplicaFailure)) {
    deps.recorder?.event(dc, 'Warning', ConditionReason.InvalidReplicationController, problem);
  }
  const copy = structuredClone(dc);
  copy.status = next;
  const written = await deps.dcClient.updateStatus(copy);
  deps.onStatusWritten?.(written);
  return written;
}
