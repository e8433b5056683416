/**
 * Small pure helpers shared by the deployer strategies: the `--until` condition, RC accessors
 * and Go-compatible formatting of values that appear in messages.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Phase } from '../apis/constants.js';

/**
 * Thrown when the `--until` condition is reached. Not a failure: the command prints
 * `--> <message>` and exits 0 (OpenShift's `ConditionReachedErr`).
 */
export class ConditionReachedError extends Error {
  override readonly name = 'ConditionReachedError';
}

const intPattern = /^[+-]?[0-9]+$/;

/** `strat.Percentage`: `N%` → N; anything else is not a percentage. */
export function parsePercentage(until: string | undefined): number | undefined {
  if (!until || !until.endsWith('%')) return undefined;
  const digits = until.slice(0, -1);
  return intPattern.test(digits) ? Number.parseInt(digits, 10) : undefined;
}

/** `strat.PercentageBetween`: `until` is `N%` with min ≤ N ≤ max. */
export function percentageBetween(until: string | undefined, min: number, max: number): boolean {
  const value = parsePercentage(until);
  return value !== undefined && value >= min && value <= max;
}

/** Message text of any thrown value. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `strconv.Atoi` of an annotation: undefined when absent or not a (32-bit) integer. */
export function intAnnotation(rc: V1ReplicationController | undefined, key: string): number | undefined {
  const raw = rc?.metadata?.annotations?.[key];
  if (raw === undefined || raw === '' || !intPattern.test(raw)) return undefined;
  const value = Number.parseInt(raw, 10);
  return value >= -2147483648 && value <= 2147483647 ? value : undefined;
}

/** `DeploymentVersionFor`: the latest-version annotation, −1 when missing or unparsable. */
export function deploymentVersion(rc: V1ReplicationController | undefined): number {
  return intAnnotation(rc, Annotations.LatestVersion) ?? -1;
}

/** `IsCompleteDeployment`. */
export function isComplete(rc: V1ReplicationController): boolean {
  return rc.metadata?.annotations?.[Annotations.Phase] === Phase.Complete;
}

/** `spec.replicas`, which the API server defaults to 1. */
export function specReplicas(rc: V1ReplicationController): number {
  return rc.spec?.replicas ?? 1;
}

export function statusReplicas(rc: V1ReplicationController): number {
  return rc.status?.replicas ?? 0;
}

export function rcName(rc: V1ReplicationController): string {
  return rc.metadata?.name ?? '';
}

export function rcNamespace(rc: V1ReplicationController): string {
  return rc.metadata?.namespace ?? '';
}

/** `LabelForDeployment`: `<namespace>/<name>`. */
export function labelFor(rc: V1ReplicationController): string {
  return `${rcNamespace(rc)}/${rcName(rc)}`;
}

/** Go's `%v` of a `map[string]string`: `map[k1:v1 k2:v2]` with sorted keys. */
export function formatGoMap(map: Record<string, string> | undefined): string {
  const entries = Object.keys(map ?? {}).sort().map((k) => `${k}:${map?.[k] ?? ''}`);
  return `map[${entries.join(' ')}]`;
}

/** Equality selector string of a label map (`k1=v1,k2=v2`, sorted like `labels.Set.String`). */
export function selectorString(selector: Record<string, string> | undefined): string {
  return Object.keys(selector ?? {}).sort().map((k) => `${k}=${selector?.[k] ?? ''}`).join(',');
}

/** Go's `%q` of a string, close enough for messages (JSON escaping). */
export function goQuote(value: string): string {
  return JSON.stringify(value);
}
