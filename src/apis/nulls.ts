/**
 * A DC's spec as OpenShift's typed API read it: a field whose value is null is absent (Go's JSON
 * decoder leaves the field at its zero value). The CRD keeps such nulls: its optional fields are
 * nullable so that a server-side apply of `env:` with no value, or of an object emptied to `{}`
 * (which the apply turns into null), is accepted as OpenShift accepted it (docs/crd.md, "Null
 * fields"). Every reader drops them first, so no sync and no answer of API mode's front sees one
 * (docs/design.md §7.1).
 *
 * Null elements of a list are kept: Go reads them as zero values, not as absent items, and
 * validation judges those. A null value in a map of strings (`labels: {tier: }`) is not dropped
 * either: Go read it as "", and every reader makes it "" (a label `tier=""` on the pods, a
 * `nodeSelector` that asks for `disk=""`); dropping the key would change what the DC means, and
 * could empty a selector. A null value in a map of Quantities (`limits: {cpu: }`) is "0" for the
 * same reason: Go read it as the zero Quantity, and a native Deployment stores "0" as well.
 */
import { isObject } from '../util/is-object.js';
import type { MarkedSkeleton } from './marked-skeleton.js';
import { DcSpecQuantityMaps } from './quantities.generated.js';
import { DcSpecStringMaps } from './string-maps.generated.js';

/** Where a spec holds maps whose null values OpenShift read as a zero: that zero at each such map. */
type MapZeros = string | { readonly p?: Readonly<Record<string, MapZeros>>; readonly i?: MapZeros; readonly a?: MapZeros };

/** `node`'s marked maps with `zero` at each, merged into `into` (whose maps are others). */
function withMapZeros(into: MapZeros | undefined, node: MarkedSkeleton, zero: string): MapZeros {
  if (node === 1) return zero;
  const base = typeof into === 'object' ? into : {};
  const p: Record<string, MapZeros> = { ...base.p };
  for (const [k, child] of Object.entries(node.p ?? {})) p[k] = withMapZeros(p[k], child, zero);
  return {
    ...(Object.keys(p).length > 0 ? { p } : {}),
    ...(node.i !== undefined ? { i: withMapZeros(base.i, node.i, zero) } : base.i !== undefined ? { i: base.i } : {}),
    ...(node.a !== undefined ? { a: withMapZeros(base.a, node.a, zero) } : base.a !== undefined ? { a: base.a } : {}),
  };
}

/** One walk for both kinds of map: "" for a string, "0" (the zero Quantity) for a Quantity. */
const DcSpecMapZeros = withMapZeros(withMapZeros(undefined, DcSpecStringMaps, ''), DcSpecQuantityMaps, '0');

/**
 * `value` with every null value of the maps that `node` marks replaced by that map's zero, at any
 * depth; the same reference when there is none. Values of other types are left alone.
 */
function withNullMapValuesAsZeros<T>(value: T, node: MapZeros): T {
  if (Array.isArray(value)) {
    if (typeof node === 'string' || node.i === undefined) return value;
    const items = node.i;
    let out: unknown[] | undefined;
    value.forEach((item: unknown, i) => {
      const kept = withNullMapValuesAsZeros(item, items);
      if (kept !== item) (out ??= [...value])[i] = kept;
    });
    return (out ?? value) as T;
  }
  if (!isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    if (typeof node === 'string') {
      if (field === null) (out ??= { ...value })[key] = node;
      continue;
    }
    const child = node.p !== undefined ? node.p[key] : node.a;
    if (child === undefined) continue;
    const kept = withNullMapValuesAsZeros(field, child);
    if (kept !== field) (out ??= { ...value })[key] = kept;
  }
  return (out ?? value) as T;
}

/** `value` without null-valued object fields, at any depth; the same reference when it has none. */
export function withoutNullFields<T>(value: T): T {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item: unknown, i) => {
      const kept = withoutNullFields(item);
      if (kept !== item) (out ??= [...value])[i] = kept;
    });
    return (out ?? value) as T;
  }
  if (!isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    if (field === null) {
      out ??= { ...value };
      delete out[key];
      continue;
    }
    const kept = withoutNullFields(field);
    if (kept !== field) (out ??= { ...value })[key] = kept;
  }
  return (out ?? value) as T;
}

/**
 * A DC's spec as OpenShift read it: null fields dropped, null values of its maps of strings "" and
 * of its maps of Quantities "0"; the same reference when there are none.
 */
export function dcSpecWithoutNulls<T>(spec: T): T {
  return withoutNullFields(withNullMapValuesAsZeros(spec, DcSpecMapZeros));
}

/**
 * `dc` with its spec as OpenShift read it (dcSpecWithoutNulls); the same reference when it holds no
 * null.
 */
export function specWithoutNulls<T extends { spec?: unknown }>(dc: T): T {
  if (!isObject(dc) || !isObject(dc.spec)) return dc;
  const spec = dcSpecWithoutNulls(dc.spec);
  return spec === dc.spec ? dc : { ...dc, spec };
}
