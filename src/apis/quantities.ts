/**
 * Quantities the CRD's schema refuses where OpenShift's decoder took them:
 * - a fractional number (`cpu: 0.5`, `cpu: .25`), which it read like the same digits in a string
 *   (0.5 is 500m); a CRD takes a Quantity only as an integer or a string (docs/crd.md, "Stricter
 *   than OpenShift");
 * - a null value in a map of Quantities (`limits: {cpu: }`, Helm's `{{ .Values.cpu }}` unset),
 *   which it read as the zero Quantity and stored as "0", as a native Deployment does; a create of
 *   a CRD that does not take it (one installed before it did) prunes the key.
 * `dcctl import` and API mode's front write each as the string OpenShift stored. Pure.
 */
import type { MarkedSkeleton } from './marked-skeleton.js';
import { DcQuantities } from './quantities.generated.js';

/** One Quantity written as a string: its field path (`spec.template.spec.containers[0]...`), text and what was sent. */
export interface RewrittenQuantity {
  readonly path: string;
  readonly text: string;
  readonly sent: number | null;
}

/**
 * Rewrites, in place, every finite non-integer number at a Quantity of `node` (a DC's, by
 * default) as its string, and every null value of a map of Quantities as "0", and returns them.
 * Integers stay (the CRD takes them); a null single Quantity (`sizeLimit: null`) stays, for the
 * null-field rules (OpenShift read it as absent); anything else is left for the server to judge.
 */
export function quantitiesAsOpenShiftStoredThem(value: unknown, node: MarkedSkeleton = DcQuantities, path = ''): RewrittenQuantity[] {
  if (node === 1) return [];
  const out: RewrittenQuantity[] = [];
  if (Array.isArray(value)) {
    const items = node.i;
    if (items !== undefined) value.forEach((v, i) => out.push(...visit(value, i, v, items, `${path}[${i}]`, false)));
    return out;
  }
  if (value === null || typeof value !== 'object') return out;
  const record = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(record)) {
    const field = node.p?.[k];
    if (field !== undefined) out.push(...visit(record, k, v, field, path ? `${path}.${k}` : k, false));
    else if (node.a !== undefined && node.p === undefined) out.push(...visit(record, k, v, node.a, `${path}[${JSON.stringify(k)}]`, true));
  }
  return out;
}

function visit(parent: Record<string, unknown> | unknown[], key: string | number, v: unknown, node: MarkedSkeleton, path: string, mapValue: boolean): RewrittenQuantity[] {
  if (node !== 1) return quantitiesAsOpenShiftStoredThem(v, node, path);
  let text: string;
  if (v === null && mapValue) text = '0';
  else if (typeof v === 'number' && Number.isFinite(v) && !Number.isInteger(v)) text = String(v);
  else return [];
  (parent as Record<string | number, unknown>)[key] = text;
  return [{ path, text, sent: v }];
}
