/** Read-only helpers over the RC annotation contract (semantics §2), as appsutil provides them. */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, CancelledTrue, Labels, Phase } from '../apis/constants.js';
import { rcLabelValue } from '../util/naming.js';

/** `openshift.io/deployment-config.latest-version`; unparsable → -1 (appsutil.DeploymentVersionFor). */
export function versionOf(rc: V1ReplicationController): number {
  const raw = rc.metadata?.annotations?.[Annotations.LatestVersion];
  if (raw === undefined || !/^-?\d+$/.test(raw)) return -1;
  return Number.parseInt(raw, 10);
}

/** Phase annotation, '' when absent. */
export const phaseOf = (rc: V1ReplicationController): string => rc.metadata?.annotations?.[Annotations.Phase] ?? '';

export const isTerminal = (rc: V1ReplicationController): boolean =>
  phaseOf(rc) === Phase.Complete || phaseOf(rc) === Phase.Failed;

export const isInProgress = (rc: V1ReplicationController): boolean =>
  phaseOf(rc) === Phase.New || phaseOf(rc) === Phase.Pending || phaseOf(rc) === Phase.Running;

export const isCancelled = (rc: V1ReplicationController): boolean =>
  (rc.metadata?.annotations?.[Annotations.Cancelled] ?? '').toLowerCase() === CancelledTrue;

/** Label selector for all RCs of a DC (appsutil.ConfigSelector). */
export const configSelector = (dcName: string): string => `${Labels.DeploymentConfig}=${dcName}`;

/** Label selector for the deployer and hook pods of an RC (appsutil.DeployerPodSelector). */
export const deployerPodSelector = (rcName: string): string => `${Labels.DeployerPodFor}=${rcLabelValue(rcName)}`;

/** Sorts by version, ascending; returns a new array. */
export const byVersionAsc = (rcs: readonly V1ReplicationController[]): V1ReplicationController[] =>
  [...rcs].sort((a, b) => versionOf(a) - versionOf(b));
