/**
 * Pure helpers over DCs and their RCs (library-go `appsutil/util.go`). No I/O.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, CancelledTrue, Labels, Phase } from '../apis/constants.js';
import type { DeploymentConfig, DeploymentTriggerPolicy } from '../apis/deploymentconfig.js';
import { resolveFenceposts } from '../util/intstr.js';

/** `ns/name`, OpenShift's `LabelForDeploymentConfig` / `LabelForDeployment`. */
export const labelFor = (obj: { metadata?: { namespace?: string; name?: string } }): string =>
  `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

/** The DC version an RC was made for; −1 when the annotation is missing or not an integer. */
export function versionOf(rc: V1ReplicationController): number {
  const raw = rc.metadata?.annotations?.[Annotations.LatestVersion];
  // Go's strconv.ParseInt(…, 10, 64): optional sign, decimal digits, nothing else.
  if (raw === undefined || !/^[+-]?[0-9]+$/.test(raw)) return -1;
  const n = Number.parseInt(raw, 10);
  return Number.isSafeInteger(n) ? n : -1;
}

/** The raw phase annotation (`''` when missing): unknown values are kept, as OpenShift does. */
export const phaseOf = (rc: V1ReplicationController): string => rc.metadata?.annotations?.[Annotations.Phase] ?? '';

/** Complete or Failed. */
export function isTerminal(rc: V1ReplicationController): boolean {
  const phase = phaseOf(rc);
  return phase === Phase.Complete || phase === Phase.Failed;
}

/** The cancelled annotation equals `true`, compared case-insensitively. */
export function isCancelled(rc: V1ReplicationController): boolean {
  return (rc.metadata?.annotations?.[Annotations.Cancelled] ?? '').toLowerCase() === CancelledTrue;
}

/** Sorts by version, newest first (stable, so ties keep list order). Returns a new array. */
export const byVersionDesc = (rcs: readonly V1ReplicationController[]): V1ReplicationController[] =>
  [...rcs].sort((a, b) => versionOf(b) - versionOf(a));

/** Sorts by version, oldest first. Returns a new array. */
export const byVersionAsc = (rcs: readonly V1ReplicationController[]): V1ReplicationController[] =>
  [...rcs].sort((a, b) => versionOf(a) - versionOf(b));

export interface LatestDeploymentInfo {
  /** True when the newest RC is the one for `status.latestVersion`. */
  latestExists: boolean;
  /** The highest-versioned RC, even when it is not the latest (used by adoption catch-up). */
  candidate?: V1ReplicationController;
}

/** `LatestDeploymentInfo` (§3.2 step 5). */
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
 * `DeploymentsForCleanup` (§3.9), oldest first: RCs older than the active one, or, with no
 * active RC, every RC but the latest.
 */
export function deploymentsForCleanup(dc: DeploymentConfig, rcs: readonly V1ReplicationController[]): V1ReplicationController[] {
  const active = activeDeployment(rcs);
  const latestVersion = dc.status?.latestVersion ?? 0;
  const relevant = active
    ? rcs.filter((rc) => rc !== active && versionOf(rc) < versionOf(active))
    : rcs.filter((rc) => versionOf(rc) !== latestVersion);
  return byVersionAsc(relevant);
}

/** `MaxUnavailable`: 0 unless Rolling; malformed values (caught by validation) count as 0. */
export function maxUnavailable(dc: DeploymentConfig): number {
  const strategy = dc.spec.strategy;
  if ((strategy?.type ?? 'Rolling') !== 'Rolling') return 0;
  try {
    const p = strategy?.rollingParams;
    return resolveFenceposts(p?.maxSurge, p?.maxUnavailable, dc.spec.replicas ?? 0).unavailable;
  } catch {
    return 0;
  }
}

const triggersOf = (dc: DeploymentConfig): DeploymentTriggerPolicy[] => dc.spec.triggers ?? [];

/** Has a ConfigChange trigger. */
export const hasChangeTrigger = (dc: DeploymentConfig): boolean => triggersOf(dc).some((t) => t.type === 'ConfigChange');

/** Has an ImageChange trigger (with params; a trigger without them is invalid and ignored). */
export const hasImageChangeTrigger = (dc: DeploymentConfig): boolean =>
  triggersOf(dc).some((t) => t.type === 'ImageChange' && t.imageChangeParams !== undefined);

/** Has any trigger that can start a rollout on its own. */
export const hasTriggers = (dc: DeploymentConfig): boolean => hasChangeTrigger(dc) || hasImageChangeTrigger(dc);

/** `HasLastTriggeredImage`: every ImageChange trigger has resolved an image. */
export const allImageTriggersResolved = (dc: DeploymentConfig): boolean =>
  triggersOf(dc).every((t) => t.type !== 'ImageChange' || !!t.imageChangeParams?.lastTriggeredImage);

/** ImageChange triggers that have not resolved an image yet. */
export const unresolvedImageTriggers = (dc: DeploymentConfig): DeploymentTriggerPolicy[] =>
  triggersOf(dc).filter((t) => t.type === 'ImageChange' && t.imageChangeParams && !t.imageChangeParams.lastTriggeredImage);

/** Sorted `k=v,k=v` form of a label map (labels.SelectorFromSet(...).String()). */
export function selectorString(labels: Record<string, string>): string {
  return Object.keys(labels).sort().map((k) => `${k}=${labels[k]}`).join(',');
}

/** The scale subresource selector (§1.11): spec.selector plus `deploymentconfig=<name>`. */
export function scaleSelector(dc: DeploymentConfig): string {
  return selectorString({ ...(dc.spec.selector ?? {}), [Labels.DeploymentConfigShort]: dc.metadata.name ?? '' });
}

/** Label selector of all RCs of a DC (`ConfigSelector`). */
export const configSelector = (dcName: string): Record<string, string> => ({ [Labels.DeploymentConfig]: dcName });

/** Sum of a numeric field over RCs. */
export function sumOf(rcs: readonly V1ReplicationController[], pick: (rc: V1ReplicationController) => number | undefined): number {
  return rcs.reduce((acc, rc) => acc + (pick(rc) ?? 0), 0);
}

/** Metav1.Time JSON form: RFC 3339 with second precision. */
export const formatTime = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** True when any regular container has an empty (or all-whitespace) image (§3.2 step 8). */
export const hasEmptyImage = (dc: DeploymentConfig): boolean =>
  (dc.spec.template?.spec?.containers ?? []).some((c) => (c.image ?? '').trim() === '');

/** Canonical JSON (sorted keys, undefined dropped): the deep-equality used for templates/status. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)) {
      return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
    }
    return v;
  }) ?? 'undefined';
}
