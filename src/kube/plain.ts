/**
 * Normalizes objects from client-node's typed APIs to the plain JSON form the API server sends.
 *
 * Typed APIs deserialize `date-time` fields into `Date` objects and leave unset fields as
 * `undefined` keys, while watch events (and CustomObjectsApi) deliver raw JSON with RFC 3339
 * strings. Sync code and caches must see one shape, so every object leaving src/kube/ goes
 * through `toPlain`: timestamps are ALWAYS strings, and no key holds `undefined`.
 */
import { formatTime } from '../apps/time.js';

/**
 * Returns a deep copy of `obj` in plain JSON form: `Date` → RFC 3339 string, `undefined`
 * properties removed. Already-plain input is copied unchanged.
 */
export function toPlain<T>(obj: T): T {
  return convert(obj) as T;
}

function convert(v: unknown): unknown {
  if (v instanceof Date) return formatTime(v, 'milliseconds');
  if (Array.isArray(v)) return v.map(convert);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) {
      if (val === undefined) continue;
      out[k] = convert(val);
    }
    return out;
  }
  return v;
}
