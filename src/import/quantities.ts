/**
 * Quantities written as fractional numbers (`cpu: 0.5`, `memory: 1.5e9`). OpenShift's decoder read
 * a JSON number into a Quantity like the same digits in a string (0.5 is 500m), so templates and
 * hand-written manifests carry them; a CRD's schema takes a Quantity only as an integer or a
 * string, and refuses the whole object. Import writes such a number as the string of its digits,
 * which the server reads as OpenShift did, and reports each one.
 */
import { crdQuantities } from './crd-schemas.generated.js';
import { isObject } from './types.js';

/** Where a schema holds Quantities: 1 at a Quantity; `p` properties, `i` list items, `a` map values. */
export type QuantityNode = 1 | {
  readonly p?: Readonly<Record<string, QuantityNode>>;
  readonly i?: QuantityNode;
  readonly a?: QuantityNode;
};

/** Where the bundled CRD of `apiVersion`/`kind` holds Quantities; undefined for other kinds. */
export const bundledQuantities = (apiVersion: string, kind: string): QuantityNode | undefined => crdQuantities[`${apiVersion} ${kind}`];

/**
 * Rewrites every finite non-integer number at a Quantity of `node` as its string; returns one
 * change per rewrite. Integers stay (the CRD takes them); anything else is left for the server.
 */
export function quantitiesAsStrings(value: unknown, node: QuantityNode, path = ''): string[] {
  if (node === 1) return [];
  const changes: string[] = [];
  if (Array.isArray(value)) {
    if (node.i !== undefined) value.forEach((v, i) => changes.push(...visit(value, i, v, node.i!, `${path}[${i}]`)));
    return changes;
  }
  if (!isObject(value)) return changes;
  for (const [k, v] of Object.entries(value)) {
    const field = node.p?.[k];
    if (field !== undefined) changes.push(...visit(value, k, v, field, path ? `${path}.${k}` : k));
    else if (node.a !== undefined && node.p === undefined) changes.push(...visit(value, k, v, node.a, `${path}[${JSON.stringify(k)}]`));
  }
  return changes;
}

function visit(parent: Record<string, unknown> | unknown[], key: string | number, v: unknown, node: QuantityNode, path: string): string[] {
  if (node !== 1) return quantitiesAsStrings(v, node, path);
  if (typeof v !== 'number' || !Number.isFinite(v) || Number.isInteger(v)) return [];
  const text = String(v);
  (parent as Record<string | number, unknown>)[key] = text;
  return [`${path}: ${text} → "${text}" (a Quantity: the CRD takes a number only as an integer; OpenShift read ${text} as the same quantity)`];
}
