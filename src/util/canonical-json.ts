/**
 * Canonical JSON (sorted keys, undefined dropped): the deep equality used for templates and status.
 * `dropEmpty`: a field whose value is null, an empty list or an object with no field left is left
 * out too, as a Go decode and encode of an API object reads a null as absent, drops an empty
 * `omitempty` list or map and writes an empty struct whether it was sent or not.
 */
export function canonicalJson(value: unknown, opts: { readonly dropEmpty?: boolean } = {}): string {
  const dropped = opts.dropEmpty ? isEmpty : () => false;
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)) {
      const record = v as Record<string, unknown>;
      return Object.fromEntries(Object.keys(record).sort().filter((k) => !dropped(record[k])).map((k) => [k, record[k]]));
    }
    return v;
  }) ?? 'undefined';
}

/** Null, an empty list, or an object whose every field is empty in turn. */
function isEmpty(v: unknown): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v !== 'object' || v instanceof Date) return false;
  return Object.values(v as Record<string, unknown>).every((field) => field === undefined || isEmpty(field));
}
