/**
 * RFC 7386 JSON merge patch creation. A merge patch MERGES nested maps, so sending a whole new
 * template would keep labels or annotations the target revision no longer has; sending the diff
 * (removed keys as null) makes the stored object equal to the intended one.
 */
import { isObject } from './is-object.js';

/**
 * Returns the patch that turns `original` into `modified`, or undefined when they are equal.
 * Arrays and scalars are replaced wholesale, as merge patch semantics require.
 */
export function createMergePatch(original: unknown, modified: unknown): unknown {
  if (isObject(original) && isObject(modified)) {
    const patch: Record<string, unknown> = {};
    for (const key of Object.keys(original)) {
      if (original[key] !== undefined && (!(key in modified) || modified[key] === undefined)) patch[key] = null;
    }
    for (const [key, value] of Object.entries(modified)) {
      if (value === undefined) continue;
      const sub = createMergePatch(original[key], value);
      if (sub !== undefined) patch[key] = sub;
    }
    return Object.keys(patch).length > 0 ? patch : undefined;
  }
  if (jsonEqual(original, modified)) return undefined;
  return modified === undefined ? null : structuredClone(modified);
}

/** Applies a merge patch (RFC 7386) to a clone of `target`; used by tests and dry runs. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const result: Record<string, unknown> = isObject(target) ? structuredClone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => jsonEqual(a[k], b[k]));
  }
  return false;
}
