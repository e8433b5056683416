/**
 * Removal of fields the target schema does not know. OpenShift's decoder dropped unknown fields
 * silently (`execNewPod.args`, a container-level `capabilities`, typos such as
 * `resources.requires`); kubectl's default strict field validation refuses the whole file
 * instead. Import removes them and reports every one, so nothing is lost without a word.
 *
 * Schemas are skeletons (`SchemaNode`): which properties an object has, what its list items
 * and map values are. The CRDs of this project come bundled (crd-schemas.generated.ts); other
 * kinds come from a SchemaSource, normally the cluster's OpenAPI v3 document (src/kube/openapi.ts).
 */
import { crdSchemas } from './crd-schemas.generated.js';
import { ImportInputError, isObject, type ImportEntry, type InputProblem } from './types.js';

/**
 * `p`: known properties (an object with `p` and no `a` accepts no other field); `i`: list items;
 * `a`: values of a map; `x`: anything is accepted below (preserve-unknown-fields). A scalar is 1
 * (an integer), 2 (a number), 3 (a boolean) or 0 (anything else: strings, int-or-string).
 */
export type SchemaNode = Scalar | {
  readonly p?: Readonly<Record<string, SchemaNode>>;
  readonly i?: SchemaNode;
  readonly a?: SchemaNode;
  readonly x?: 1;
};

/** The scalar codes of a skeleton. */
export type Scalar = 0 | 1 | 2 | 3;
export const isScalar = (n: SchemaNode): n is Scalar => typeof n === 'number';

/** Where schemas of kinds other than this project's CRDs come from. */
export interface SchemaSource {
  /** The skeleton of `apiVersion`/`kind`; undefined when the source does not know the kind. */
  schemaFor(apiVersion: string, kind: string): Promise<SchemaNode | undefined>;
}

/** Why a source could not answer (no cluster, no OpenAPI): the report says it once per kind. */
export class SchemaUnavailableError extends Error {
  override readonly name = 'SchemaUnavailableError';
}

/**
 * What `schema` (an object's skeleton) says of its key `key`: a declared field, a map entry (the
 * object has no declared field of that name but takes any key), or undefined: unknown.
 */
export function schemaOfKey(schema: Exclude<SchemaNode, Scalar>, key: string): { node: SchemaNode; entry: boolean } | undefined {
  const field = schema.p?.[key];
  if (field !== undefined) return { node: field, entry: false };
  return schema.a !== undefined ? { node: schema.a, entry: true } : undefined;
}

/** The scalar code of an OpenAPI `type` (the skeletons' leaves). */
export const scalarOf = (type: string | undefined): Scalar => (type === 'integer' ? 1 : type === 'number' ? 2 : type === 'boolean' ? 3 : 0);

/**
 * The path of key `k` below `path`: a map entry of an object without declared fields is named as
 * such (`labels["app"]`), anything else as a field (`spec.replicas`).
 */
const keyPath = (path: string, k: string, schema: Exclude<SchemaNode, Scalar>, entry: boolean): string =>
  (entry && !schema.p ? `${path}[${JSON.stringify(k)}]` : path ? `${path}.${k}` : k);

/** Removes from `value` every field `schema` does not declare; returns the removed paths. */
export function pruneUnknownFields(value: unknown, schema: SchemaNode, path = ''): string[] {
  if (isScalar(schema) || schema.x) return [];
  const removed: string[] = [];
  if (Array.isArray(value)) {
    if (schema.i !== undefined) value.forEach((v, i) => removed.push(...pruneUnknownFields(v, schema.i as SchemaNode, `${path}[${i}]`)));
    return removed;
  }
  // A skeleton that declares neither fields nor map values says nothing of the keys below it.
  if (!isObject(value) || (!schema.p && schema.a === undefined)) return removed;
  for (const [k, v] of Object.entries(value)) {
    const known = schemaOfKey(schema, k);
    const p = keyPath(path, k, schema, known?.entry ?? false);
    if (known === undefined) {
      delete value[k];
      removed.push(p);
      continue;
    }
    removed.push(...pruneUnknownFields(v, known.node, p));
  }
  return removed;
}

/** One quoted number read as the number its field takes. */
export interface QuotedNumber { readonly path: string; readonly from: string; readonly to: number }

const quotedInteger = /^-?(0|[1-9][0-9]*)$/;
const quotedNumber = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/**
 * Makes a string that spells a number (`"3"`) that number where `schema` takes an integer (or any
 * number). OpenShift up to 3.7 decoded JSON with a reader that took such a string for the number,
 * which is what a Template's `replicas: "${REPLICAS}"` produces; 3.8 and later, and Kubernetes,
 * refuse it. Any other string is left for the server to refuse, naming the field.
 */
export function numbersFromQuotedNumbers(value: unknown, schema: SchemaNode, path = ''): QuotedNumber[] {
  if (!isScalar(schema) && schema.x) return [];
  const out: QuotedNumber[] = [];
  // Reads `container[key]` against `node`: a quoted number is replaced in place, the rest walked.
  const visit = (container: Record<string | number, unknown>, key: string | number, node: SchemaNode, p: string) => {
    const v = container[key];
    const to = typeof v === 'string' ? quotedAs(v, node) : undefined;
    if (to === undefined) {
      out.push(...numbersFromQuotedNumbers(v, node, p));
      return;
    }
    container[key] = to;
    out.push({ path: p, from: v as string, to });
  };
  if (isScalar(schema)) return out;
  if (Array.isArray(value)) {
    const items = value as unknown as Record<number, unknown>;
    if (schema.i !== undefined) value.forEach((_, i) => visit(items, i, schema.i as SchemaNode, `${path}[${i}]`));
    return out;
  }
  if (!isObject(value)) return out;
  for (const k of Object.keys(value)) {
    const known = schemaOfKey(schema, k);
    if (known === undefined) continue;
    visit(value, k, known.node, keyPath(path, k, schema, known.entry));
  }
  return out;
}

function quotedAs(s: string, node: SchemaNode): number | undefined {
  if (node === 1 && quotedInteger.test(s)) return Number(s);
  if (node === 2 && quotedNumber.test(s)) return Number(s);
  return undefined;
}

const scalarNames: Record<number, string> = { 1: 'an integer', 2: 'a number', 3: 'a boolean' };

/**
 * Every string left where `schema` takes an integer, a number or a boolean (after
 * numbersFromQuotedNumbers read the quoted numbers): OpenShift refused these too, and the CRD
 * path answers a server-side apply of one with a 500 that names no field clearly.
 */
export function quotedScalarProblems(value: unknown, schema: SchemaNode, path = ''): string[] {
  if (isScalar(schema)) {
    if (schema === 0 || typeof value !== 'string') return [];
    const hint = schema === 3 ? ': write it without quotes; in a Template, ${{NAME}} substitutes a boolean' : '';
    return [`${path}: ${JSON.stringify(value)} is a string where ${scalarNames[schema]} goes (OpenShift refused it too)${hint}`];
  }
  if (schema.x) return [];
  if (Array.isArray(value)) return schema.i === undefined ? [] : value.flatMap((v, i) => quotedScalarProblems(v, schema.i as SchemaNode, `${path}[${i}]`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const known = schemaOfKey(schema, k);
    return known === undefined ? [] : quotedScalarProblems(v, known.node, keyPath(path, k, schema, known.entry));
  });
}

/** The bundled skeleton of one of this project's CRDs. */
export const bundledSchema = (apiVersion: string, kind: string): SchemaNode | undefined => crdSchemas[`${apiVersion} ${kind}`];

/**
 * Prunes every imported entry against its schema (bundled for this project's CRDs, else from
 * `source`) and reads its quoted numbers, recording one `changed:` line per removed field or
 * number. Returns the general notes: kinds whose schema could not be read, so their unknown
 * fields were left for the server to judge. Throws ImportInputError, with every problem, when
 * strings sit where a boolean or a number goes (quotedScalarProblems).
 */
export async function pruneEntries(entries: readonly ImportEntry[], source: SchemaSource | undefined): Promise<string[]> {
  const notes: string[] = [];
  const schemas = new Map<string, Promise<SchemaNode | undefined>>();
  const unavailable = new Map<string, string>();
  const problems: InputProblem[] = [];
  for (const entry of entries) {
    if (entry.outcome === 'skipped' || !entry.object) continue;
    const key = `${entry.apiVersion} ${entry.kind}`;
    let schema: SchemaNode | undefined = bundledSchema(entry.apiVersion, entry.kind);
    if (schema === undefined && source) {
      if (!schemas.has(key)) schemas.set(key, source.schemaFor(entry.apiVersion, entry.kind));
      try {
        schema = await schemas.get(key);
      } catch (err) {
        if (!(err instanceof SchemaUnavailableError)) throw err;
        unavailable.set(key, err.message);
        continue;
      }
    }
    if (schema === undefined) {
      if (!source) unavailable.set(key, 'no cluster to read its schema from');
      continue;
    }
    const removed = pruneUnknownFields(entry.object, schema);
    for (const p of removed) entry.changes.push(`removed unknown field ${p} (not in the ${entry.apiVersion} ${entry.kind} schema; OpenShift ignored it)`);
    for (const q of numbersFromQuotedNumbers(entry.object, schema)) {
      entry.changes.push(`${q.path}: ${JSON.stringify(q.from)} → ${q.to} (a number written as a string, as a Template's "\${NAME}" writes one: `
        + 'OpenShift up to 3.7 read it as the number; later versions and Kubernetes refuse it. In a Template, ${{NAME}} substitutes a number)');
    }
    for (const p of quotedScalarProblems(entry.object, schema)) problems.push({ origin: entry.origin, message: `${entry.ref}: ${p}` });
    if (entry.changes.length > 0) entry.outcome = 'changed';
  }
  if (problems.length > 0) throw new ImportInputError(problems);
  for (const [key, why] of unavailable) notes.push(`${key}: unknown fields were not removed (${why}); kubectl's strict validation will name any`);
  return notes;
}
