/**
 * int-or-string arithmetic of k8s.io/apimachinery `intstr` and kubectl's `ResolveFenceposts`.
 */
import type { IntOrString } from '../apis/deploymentconfig.js';

const percentPattern = /^([0-9]+)%$/;

/**
 * `GetScaledValueFromIntOrPercent`: an integer is returned as is; `N%` is resolved against
 * `total`, rounding up or down. A malformed string throws.
 */
export function scaledValue(value: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return value;
  const match = percentPattern.exec(value);
  if (!match) {
    if (/^[0-9]+$/.test(value)) return Number.parseInt(value, 10);
    throw new Error(`invalid value for IntOrString: invalid value "${value}": must be an integer or a percentage`);
  }
  const percent = Number.parseInt(match[1]!, 10);
  const scaled = (percent * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** `ResolveFenceposts`: surge rounds up, unavailable rounds down; both 0 forces unavailable to 1. */
export function resolveFenceposts(
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}
