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
 * could empty a selector.
 */
import { isObject } from '../util/is-object.js';
import type { MarkedSkeleton } from './marked-skeleton.js';
import { DcSpecStringMaps } from './string-maps.generated.js';

/**
 * `value` with every null value of the maps of strings that `node` marks as "", at any depth; the
 * same reference when there is none. Values of other types are left alone.
 */
export function withEmptyStringsForNullMapValues<T>(value: T, node: MarkedSkeleton): T {
  if (Array.isArray(value)) {
    if (node === 1 || node.i === undefined) return value;
    const items = node.i;
    let out: unknown[] | undefined;
    value.forEach((item: unknown, i) => {
      const kept = withEmptyStringsForNullMapValues(item, items);
      if (kept !== item) (out ??= [...value])[i] = kept;
    });
    return (out ?? value) as T;
  }
  if (!isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    if (node === 1) {
      if (field === null) (out ??= { ...value })[key] = '';
      continue;
    }
    const child = node.p !== undefined ? node.p[key] : node.a;
    if (child === undefined) continue;
    const kept = withEmptyStringsForNullMapValues(field, child);
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
 * A DC's spec as OpenShift read it: null fields dropped, null values of its maps of strings "";
 * the same reference when there are none.
 */
export function dcSpecWithoutNulls<T>(spec: T): T {
  return withoutNullFields(withEmptyStringsForNullMapValues(spec, DcSpecStringMaps));
}

/**
 * `dc` with the null fields of its spec dropped and the null values of its maps of strings made "";
 * the same reference when there are none.
 */
export function specWithoutNulls<T extends { spec?: unknown }>(dc: T): T {
  if (!isObject(dc) || !isObject(dc.spec)) return dc;
  const spec = dcSpecWithoutNulls(dc.spec);
  return spec === dc.spec ? dc : { ...dc, spec };
}
