/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) as apimachinery's
 * `strategicpatch.StrategicMergePatch` applies it, driven by the OpenAPI patch metadata of the
 * group (schema.ts). No maintained npm package implements it, so this is a focused port of the
 * parts clients send: merge-keyed lists (containers/env/volumes/ports/…), primitive lists with
 * the merge strategy, `null` deletes, and the directives `$patch: replace|delete|merge`,
 * `$retainKeys`, `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>`.
 * Pure: the inputs are never mutated.
 */
import { SchemaCursor } from './schema.js';

/** A patch that cannot be applied; the server answers 422 (Invalid) or 400 with the message. */
export class PatchError extends Error {
  override readonly name = 'PatchError';
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonMap = { [k: string]: Json };

const PatchDirective = '$patch';
const RetainKeys = '$retainKeys';
const SetElementOrderPrefix = '$setElementOrder/';
const DeleteFromPrimitivePrefix = '$deleteFromPrimitiveList/';

const isMap = (v: unknown): v is JsonMap => v !== null && typeof v === 'object' && !Array.isArray(v);
const clone = <T>(v: T): T => structuredClone(v);

/** A value from the patch, in a message: JSON, cut after 200 characters (a body is up to 3 MiB). */
function brief(v: unknown): string {
  const text = JSON.stringify(v);
  return text.length <= 200 ? text : `${text.slice(0, 200)}… (${text.length} characters)`;
}

/** Removes every directive key from a patch value (what a `replace` stores). */
function stripDirectives(v: Json): Json {
  if (Array.isArray(v)) return v.filter((e) => !(isMap(e) && e[PatchDirective] !== undefined && Object.keys(e).length === 1)).map(stripDirectives);
  if (!isMap(v)) return v;
  const out: JsonMap = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === PatchDirective || k === RetainKeys || k.startsWith(SetElementOrderPrefix) || k.startsWith(DeleteFromPrimitivePrefix)) continue;
    if (x === null) continue;
    out[k] = stripDirectives(x);
  }
  return out;
}

/** Applies `patch` to `original` for an object whose schema is `schema`. */
export function strategicMergePatch<T>(original: T, patch: unknown, schema: SchemaCursor): T {
  if (!isMap(patch)) throw new PatchError('a strategic merge patch must be a JSON object');
  if (!isMap(original as unknown)) throw new PatchError('the object to patch must be a JSON object');
  const result = mergeMap(clone(original) as JsonMap, patch, schema);
  return (result ?? {}) as T;
}

/** Returns the merged map, or undefined when the patch deletes it (`$patch: delete`). */
function mergeMap(original: JsonMap, patch: JsonMap, schema: SchemaCursor): JsonMap | undefined {
  const directive = patch[PatchDirective];
  if (directive !== undefined) {
    if (directive === 'replace') return stripDirectives(patch) as JsonMap;
    if (directive === 'delete') return undefined;
    if (directive !== 'merge') throw new PatchError(`unknown patch type: "${String(directive)}" in map`);
  }

  const retain = patch[RetainKeys];
  if (retain !== undefined) {
    if (!Array.isArray(retain) || retain.some((k) => typeof k !== 'string')) throw new PatchError(`${RetainKeys} must be a list of strings`);
    const kept = new Set<string>(retain as string[]);
    // A key the patch deletes (null) need not be listed: `oc set volumes --overwrite` switching a
    // volume's source sends the old source as null beside a list of the new one's keys.
    for (const [k, v] of Object.entries(patch)) {
      if (v !== null && !k.startsWith('$') && !kept.has(k)) throw new PatchError(`the field "${k}" is not in ${RetainKeys} ${brief(retain)}`);
    }
    for (const k of Object.keys(original)) if (!kept.has(k)) delete original[k];
  }

  // $deleteFromPrimitiveList/<field> first, then the field's own patch, then the order.
  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith(DeleteFromPrimitivePrefix)) continue;
    const field = k.slice(DeleteFromPrimitivePrefix.length);
    if (!Array.isArray(v)) throw new PatchError(`${k} must be a list`);
    const cur = original[field];
    const deleted = new Set(v.map((d) => JSON.stringify(d)));
    if (Array.isArray(cur)) original[field] = cur.filter((e) => !deleted.has(JSON.stringify(e)));
  }

  for (const [key, value] of Object.entries(patch)) {
    if (key === PatchDirective || key === RetainKeys || key.startsWith(SetElementOrderPrefix) || key.startsWith(DeleteFromPrimitivePrefix)) continue;
    if (value === null) {
      delete original[key];
      continue;
    }
    const current = original[key];
    const meta = schema.patchMeta(key);
    const sub = schema.child(key);
    if (isMap(value)) {
      if (isMap(current) && !meta.strategies.includes('replace')) {
        const merged = mergeMap(current, value, sub);
        if (merged === undefined) delete original[key];
        else original[key] = merged;
      } else if (value[PatchDirective] === 'delete') {
        delete original[key];
      } else {
        const merged = mergeMap({}, value, sub);
        if (merged === undefined) delete original[key];
        else original[key] = merged;
      }
      continue;
    }
    if (Array.isArray(value)) {
      original[key] = Array.isArray(current) && meta.strategies.includes('merge')
        ? mergeList(current, value, meta.mergeKey, sub.elements(), key)
        : replaceList(value, sub.elements());
      continue;
    }
    original[key] = value;
  }

  for (const [k, order] of Object.entries(patch)) {
    if (!k.startsWith(SetElementOrderPrefix)) continue;
    const field = k.slice(SetElementOrderPrefix.length);
    if (!Array.isArray(order)) throw new PatchError(`${k} must be a list`);
    const cur = original[field];
    if (Array.isArray(cur)) original[field] = applyOrder(cur, order, schema.patchMeta(field).mergeKey);
  }
  return original;
}

/** A list that is not merged takes the patch's value (directive-only elements dropped). */
function replaceList(patch: Json[], elements: SchemaCursor): Json[] {
  return patch
    .filter((e) => !(isMap(e) && e[PatchDirective] !== undefined && Object.keys(e).length === 1))
    .map((e) => (isMap(e) ? (mergeMap({}, e, elements) ?? {}) : e));
}

function keyOf(e: Json, mergeKey: string): string | undefined {
  if (!isMap(e)) return undefined;
  const v = e[mergeKey];
  return v === undefined ? undefined : JSON.stringify(v);
}

// Every list merge is one pass over each list, with an index by key: the front serves every
// client from one thread, so a patch must not cost the product of the two lengths (a 3 MiB body
// holds ~100000 entries).
function mergeList(original: Json[], patch: Json[], mergeKey: string | undefined, elements: SchemaCursor, field: string): Json[] {
  // `[{$patch: replace}, ...]` replaces the whole list with the other elements.
  if (patch.some((e) => isMap(e) && e[PatchDirective] === 'replace')) {
    return patch.filter((e) => !(isMap(e) && e[PatchDirective] === 'replace')).map((e) => (isMap(e) ? stripDirectives(e) : e));
  }
  const isPrimitive = patch.every((e) => !isMap(e) && !Array.isArray(e)) && original.every((e) => !isMap(e) && !Array.isArray(e));
  if (isPrimitive) {
    const present = new Set(original);
    const out = [...original];
    for (const e of patch) {
      if (present.has(e)) continue;
      present.add(e);
      out.push(e);
    }
    return out;
  }
  if (!mergeKey) throw new PatchError(`field "${field}" is a merged list of objects without a patch merge key`);
  // Deleted entries become holes until the end, so the positions in `at` stay valid; a key
  // stored twice resolves to its first live entry, as a search from the front would.
  const out: (Json | undefined)[] = [...original];
  const at = new Map<string, { positions: number[]; next: number }>();
  out.forEach((o, i) => {
    const key = keyOf(o as Json, mergeKey);
    if (key === undefined) return;
    const entry = at.get(key);
    if (entry) entry.positions.push(i); else at.set(key, { positions: [i], next: 0 });
  });
  for (const e of patch) {
    if (!isMap(e)) throw new PatchError(`field "${field}": expected objects with key "${mergeKey}"`);
    const key = keyOf(e, mergeKey);
    if (key === undefined) throw new PatchError(`map: ${brief(e)} does not contain declared merge key: ${mergeKey}`);
    const entry = at.get(key);
    const idx = entry?.positions[entry.next];
    if (e[PatchDirective] === 'delete') {
      if (idx !== undefined) { out[idx] = undefined; entry!.next++; }
      continue;
    }
    if (idx !== undefined) {
      const merged = mergeMap(out[idx] as JsonMap, e, elements);
      if (merged === undefined) { out[idx] = undefined; entry!.next++; } else out[idx] = merged;
    } else {
      const created = mergeMap({}, e, elements);
      if (created !== undefined) { at.set(key, { positions: [out.length], next: 0 }); out.push(created); }
    }
  }
  return out.filter((e): e is Json => e !== undefined);
}

/**
 * `$setElementOrder`: the elements named in `order` take the positions such elements occupy, in
 * the order given; elements the order does not name (added by someone else) keep their places.
 */
function applyOrder(list: Json[], order: Json[], mergeKey: string | undefined): Json[] {
  const id = (e: Json): string | undefined => (mergeKey ? keyOf(e, mergeKey) : JSON.stringify(e));
  const wanted = order.map((o) => (mergeKey ? keyOf(o, mergeKey) : JSON.stringify(o)));
  const rank = new Map<string, number>();
  wanted.forEach((w, i) => { if (w !== undefined && !rank.has(w)) rank.set(w, i); });
  const named = list.filter((e) => rank.has(id(e) ?? '')).sort((a, b) => rank.get(id(a) ?? '')! - rank.get(id(b) ?? '')!);
  let next = 0;
  return list.map((e) => (rank.has(id(e) ?? '') ? named[next++]! : e));
}
