/**
 * Small pure helpers shared by the deployer strategies: the `--until` condition and RC accessors.
 * OpenShift's RC helpers (versions, phases, labels) live in src/apps/.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';

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

/** `strconv.Atoi` of an annotation: undefined when absent or not a (32-bit) integer. */
export function intAnnotation(rc: V1ReplicationController | undefined, key: string): number | undefined {
  const raw = rc?.metadata?.annotations?.[key];
  if (raw === undefined || raw === '' || !intPattern.test(raw)) return undefined;
  const value = Number.parseInt(raw, 10);
  return value >= -2147483648 && value <= 2147483647 ? value : undefined;
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
