/**
 * The ReplicationController side of OpenShift's apps contract (library-go `appsutil`): what the
 * annotations on an RC mean, how RCs of one DC are found and ordered, where events about them go.
 * The DC controller, the deployer controller, the deployer, the CLI and the metrics all read RCs
 * through these helpers, so they cannot disagree about a revision. Pure: no I/O.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, ApiVersion, CancelledTrue, Kind, Labels, Phase } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { decodeDeploymentConfig } from '../apis/encoded.js';
import type { InvolvedObject } from '../controller/ports.js';
import { rcLabelValue } from '../util/naming.js';
import { rcVersion } from './rc-version.js';

/** `ns/name`, OpenShift's `LabelForDeploymentConfig` / `LabelForDeployment`. */
export const labelFor = (obj: { metadata?: { namespace?: string; name?: string } }): string =>
  `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

/**
 * `DeploymentVersionFor`: the DC version an RC was made for, read from its immutable name
 * `<dc>-<N>`; the annotation is only believed when it agrees (rc-version.ts), so a
 * forged annotation can neither move latestVersion nor make an old RC look newer. −1 when the
 * name carries no version.
 */
export function versionOf(rc: V1ReplicationController | undefined): number {
  return rc ? rcVersion(rc).version : -1;
}

/** The raw phase annotation (`''` when missing): unknown values are kept, as OpenShift does. */
export const phaseOf = (rc: V1ReplicationController): string => rc.metadata?.annotations?.[Annotations.Phase] ?? '';

/** A phase annotation that is none of the five phases (missing included): nothing moves it on. */
export const hasUnknownPhase = (rc: V1ReplicationController): boolean =>
  !(Object.values(Phase) as string[]).includes(phaseOf(rc));

/** `IsTerminatedDeployment`: Complete or Failed. */
export function isTerminal(rc: V1ReplicationController): boolean {
  const phase = phaseOf(rc);
  return phase === Phase.Complete || phase === Phase.Failed;
}

/** `IsCompleteDeployment`. */
export const isComplete = (rc: V1ReplicationController): boolean => phaseOf(rc) === Phase.Complete;

/** New, Pending or Running. */
export function isInProgress(rc: V1ReplicationController): boolean {
  const phase = phaseOf(rc);
  return phase === Phase.New || phase === Phase.Pending || phase === Phase.Running;
}

/** `IsDeploymentCancelled`: the cancelled annotation equals `true`, compared case-insensitively. */
export function isCancelled(rc: V1ReplicationController): boolean {
  return isCancelledAnnotation(rc.metadata?.annotations);
}

/** `isCancelled` for an annotation map that is being edited before it is written back. */
export function isCancelledAnnotation(annotations: Record<string, string> | undefined): boolean {
  return (annotations?.[Annotations.Cancelled] ?? '').toLowerCase() === CancelledTrue;
}

/** Sorts by version, newest first (stable, so ties keep list order). Returns a new array. */
export const byVersionDesc = (rcs: readonly V1ReplicationController[]): V1ReplicationController[] =>
  [...rcs].sort((a, b) => versionOf(b) - versionOf(a));

/** Sorts by version, oldest first. Returns a new array. */
export const byVersionAsc = (rcs: readonly V1ReplicationController[]): V1ReplicationController[] =>
  [...rcs].sort((a, b) => versionOf(a) - versionOf(b));

/** Sorted `k=v,k=v` form of a label map (`labels.SelectorFromSet(set).String()`); `''` for none. */
export function selectorString(labels: Record<string, string> | undefined): string {
  return Object.keys(labels ?? {}).sort().map((k) => `${k}=${labels?.[k] ?? ''}`).join(',');
}

/** `ConfigSelector`: the labels every RC of the DC carries. */
export const configSelector = (dcName: string): Record<string, string> => ({ [Labels.DeploymentConfig]: dcName });

/** `DeployerPodSelector`: the labels of the deployer and hook pods of an RC (a long name shortened, see rcLabelValue). */
export const deployerPodSelector = (rcName: string): Record<string, string> => ({ [Labels.DeployerPodFor]: rcLabelValue(rcName) });

export interface LatestDeploymentInfo {
  /** True when the newest RC is the one for `status.latestVersion`. */
  latestExists: boolean;
  /** The highest-versioned RC, even when it is not the latest (used by adoption catch-up). */
  candidate?: V1ReplicationController;
}

/** `LatestDeploymentInfo`. */
export function latestDeploymentInfo(dc: DeploymentConfig, rcs: readonly V1ReplicationController[]): LatestDeploymentInfo {
  const latestVersion = dc.status?.latestVersion ?? 0;
  if (latestVersion === 0 || rcs.length === 0) return { latestExists: false };
  const candidate = byVersionDesc(rcs)[0]!;
  return { latestExists: versionOf(candidate) === latestVersion, candidate };
}

/**
 * `ActiveDeployment`: the Complete RC with the highest version. Versions ≤ 0 never qualify
 * (OpenShift starts its running maximum at 0).
 */
export function activeDeployment(rcs: readonly V1ReplicationController[]): V1ReplicationController | undefined {
  let active: V1ReplicationController | undefined;
  let best = 0;
  for (const rc of rcs) {
    const v = versionOf(rc);
    if (phaseOf(rc) === Phase.Complete && v > best) {
      active = rc;
      best = v;
    }
  }
  return active;
}

/**
 * `DeploymentsForCleanup`, oldest first: RCs older than the active one, or, with no active RC,
 * every RC but the latest.
 */
export function deploymentsForCleanup(dc: DeploymentConfig, rcs: readonly V1ReplicationController[]): V1ReplicationController[] {
  const active = activeDeployment(rcs);
  const latestVersion = dc.status?.latestVersion ?? 0;
  const relevant = active
    ? rcs.filter((rc) => rc !== active && versionOf(rc) < versionOf(active))
    : rcs.filter((rc) => versionOf(rc) !== latestVersion);
  return byVersionAsc(relevant);
}

/**
 * Where events about a rollout go: the DC decoded from the RC (its identity when the RC was
 * made), so `oc describe dc` shows them; an RC whose config cannot be decoded gets them itself.
 * The encoded config is an annotation anyone who may patch the RC rewrites (§10.3), so it is
 * believed only when it names this RC's own namespace and a DC whose RC this is (`<dc>-<N>`);
 * otherwise the RC gets the events: they never land in another namespace or on another DC.
 */
export function eventTarget(rc: V1ReplicationController): InvolvedObject {
  try {
    const dc = decodeDeploymentConfig(rc);
    const namespace = rc.metadata?.namespace;
    const sameNamespace = (dc.metadata.namespace ?? namespace) === namespace;
    const ownRc = !!dc.metadata.name && /^\d+$/.test((rc.metadata?.name ?? '').slice(dc.metadata.name.length + 1))
      && (rc.metadata?.name ?? '').startsWith(`${dc.metadata.name}-`);
    if (!sameNamespace || !ownRc) throw new Error('the encoded config names another object');
    return {
      apiVersion: ApiVersion,
      kind: Kind,
      name: dc.metadata.name,
      namespace,
      uid: dc.metadata.uid,
      resourceVersion: dc.metadata.resourceVersion,
    };
  } catch {
    return {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      name: rc.metadata?.name,
      namespace: rc.metadata?.namespace,
      uid: rc.metadata?.uid,
      resourceVersion: rc.metadata?.resourceVersion,
    };
  }
}
