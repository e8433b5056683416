/**
 * Canonical JSON (sorted keys, undefined dropped): the deep equality used for templates and status.
 * `dropNulls`: a field whose value is null is left out too, as a Go decoder reads it as absent.
 */
export function canonicalJson(value: unknown, opts: { readonly dropNulls?: boolean } = {}): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)) {
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      return Object.fromEntries((opts.dropNulls ? keys.filter((k) => record[k] !== null) : keys).map((k) => [k, record[k]]));
    }
    return v;
  }) ?? 'undefined';
}
