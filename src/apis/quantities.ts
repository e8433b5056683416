/**
 * Quantities written as fractional numbers (`cpu: 0.5`, `cpu: .25`). OpenShift's decoder read a
 * JSON number into a Quantity like the same digits in a string (0.5 is 500m), so its API took
 * such DCs; a CRD's schema takes a Quantity only as an integer or a string (docs/crd.md,
 * "Stricter than OpenShift"). `dcctl import` and API mode's front write such a number as the
 * string of its digits, which kube-apiserver reads as OpenShift did. Pure.
 */
import type { MarkedSkeleton } from './marked-skeleton.js';
import { DcQuantities } from './quantities.generated.js';


/** One number written as a string: its field path (`spec.template.spec.containers[0]...`) and text. */
export interface RewrittenQuantity {
  readonly path: string;
  readonly text: string;
}

/**
 * Rewrites, in place, every finite non-integer number at a Quantity of `node` (a DC's, by
 * default) as its string, and returns them. Integers stay (the CRD takes them); anything else is
 * left for the server to judge.
 */
export function fractionalQuantitiesAsStrings(value: unknown, node: MarkedSkeleton = DcQuantities, path = ''): RewrittenQuantity[] {
  if (node === 1) return [];
  const out: RewrittenQuantity[] = [];
  if (Array.isArray(value)) {
    const items = node.i;
    if (items !== undefined) value.forEach((v, i) => out.push(...visit(value, i, v, items, `${path}[${i}]`)));
    return out;
  }
  if (value === null || typeof value !== 'object') return out;
  const record = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(record)) {
    const field = node.p?.[k];
    if (field !== undefined) out.push(...visit(record, k, v, field, path ? `${path}.${k}` : k));
    else if (node.a !== undefined && node.p === undefined) out.push(...visit(record, k, v, node.a, `${path}[${JSON.stringify(k)}]`));
  }
  return out;
}

function visit(parent: Record<string, unknown> | unknown[], key: string | number, v: unknown, node: MarkedSkeleton, path: string): RewrittenQuantity[] {
  if (node !== 1) return fractionalQuantitiesAsStrings(v, node, path);
  if (typeof v !== 'number' || !Number.isFinite(v) || Number.isInteger(v)) return [];
  const text = String(v);
  (parent as Record<string | number, unknown>)[key] = text;
  return [{ path, text }];
}
