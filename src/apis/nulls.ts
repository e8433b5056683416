/**
 * A DC's spec as OpenShift's typed API read it: a field whose value is null is absent (Go's JSON
 * decoder leaves the field at its zero value). The CRD keeps such nulls: its optional fields are
 * nullable so that a server-side apply of `env:` with no value, or of an object emptied to `{}`
 * (which the apply turns into null), is accepted as OpenShift accepted it (docs/crd.md, "Null
 * fields"). Every reader drops them first, so no sync and no answer of API mode's front sees one
 * (docs/design.md §7.1).
 *
 * Null elements of a list are kept: Go reads them as zero values, not as absent items, and
 * validation judges those.
 */
import { isObject } from '../util/is-object.js';

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

/** `dc` with the null fields of its spec dropped; the same reference when there are none. */
export function specWithoutNulls<T extends { spec?: unknown }>(dc: T): T {
  if (!isObject(dc) || !isObject(dc.spec)) return dc;
  const spec = withoutNullFields(dc.spec);
  return spec === dc.spec ? dc : { ...dc, spec };
}
