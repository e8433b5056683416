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
 * `a`: values of a map; `x`: any field is accepted below (preserve-unknown-fields), though the
 * properties in `p` keep their types. A scalar is 1 (an integer), 2 (a number), 3 (a boolean),
 * 4 (a string), 5 (a string of base64: a Secret's data) or 0 (anything else: int-or-string,
 * Quantities, untyped).
 */
export type SchemaNode = Scalar | {
  readonly p?: Readonly<Record<string, SchemaNode>>;
  readonly i?: SchemaNode;
  readonly a?: SchemaNode;
  readonly x?: 1;
};

/** The scalar codes of a skeleton. */
export type Scalar = 0 | 1 | 2 | 3 | 4 | 5;
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

/**
 * The scalar code of an OpenAPI `type` and `format` (the skeletons' leaves). An int-or-string
 * or a Quantity has no `type` in OpenAPI v3 (one of two), so only a plain string is 4.
 */
export const scalarOf = (type: string | undefined, format?: string): Scalar =>
  (type === 'integer' ? 1 : type === 'number' ? 2 : type === 'boolean' ? 3 : type === 'string' && format === 'byte' ? 5
    : type === 'string' && format !== 'int-or-string' ? 4 : 0);

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

const scalarNames: Record<number, string> = { 1: 'an integer', 2: 'a number', 3: 'a boolean', 4: 'a string', 5: 'a base64 string' };

/** What Go's base64.StdEncoding decodes ([]byte in JSON), which skips line breaks. */
const isBase64 = (s: string): boolean => { const t = s.replace(/[\r\n]/g, ''); return t.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(t); };

/** What a JSON value is, as the problems of scalarTypeProblems name it. */
const kindOfValue = (v: unknown): string =>
  (typeof v === 'string' ? 'a string' : typeof v === 'boolean' ? 'a boolean' : typeof v === 'number' ? 'a number' : Array.isArray(v) ? 'a list' : 'a map');

/** How to write `value` where `schema` (a scalar code) goes, when there is an obvious way. */
function scalarHint(value: unknown, schema: Scalar): string {
  if (schema === 3 && typeof value === 'string') return ': write it without quotes; in a Template, ${{NAME}} substitutes a boolean';
  if (schema === 4 && (typeof value === 'number' || typeof value === 'boolean')) return `: quote it ("${String(value)}"); in a Template, write "\${NAME}" for a string`;
  return '';
}

/**
 * Every value of a JSON type the field does not take, after numbersFromQuotedNumbers read the
 * quoted numbers: a string where a boolean goes (`test: 'true'`) or where a number goes but it
 * spells none, a number or boolean where a string goes (`value: 8080`, a label `shared: true`),
 * a number where a boolean goes (`${{X}}` given 1), a list or map where a scalar goes and the
 * reverse. OpenShift refused all of them: Go's decoder, and before 3.8 the one that read quoted
 * numbers, took no other JSON type into a string or a boolean. A server-side apply answers one
 * with a 500 ("failed to create typed patch object") that names no field clearly, so import says
 * it first. Nulls are not judged here (stripNulls), nor anything below an open (`x`) subtree's
 * unknown fields.
 */
export function scalarTypeProblems(value: unknown, schema: SchemaNode, path = '', redact = false, cause?: (value: unknown) => string | undefined): string[] {
  if (value === null || value === undefined) return [];
  if (isScalar(schema)) {
    if (schema === 0) return [];
    const fits = schema === 4 || schema === 5 ? typeof value === 'string' : schema === 3 ? typeof value === 'boolean' : typeof value === 'number';
    if (fits && schema === 5 && !isBase64(value as string)) {
      // The value is not printed: it is a secret written in clear text.
      return [`${path} is not base64 (OpenShift refused it too): base64-encode it, or move it to stringData`];
    }
    if (fits) return [];
    const what = typeof value === 'object' || redact ? ` is ${kindOfValue(value)}` : `: ${JSON.stringify(value)} is ${kindOfValue(value)}`;
    // Where the value came from, when the caller knows, says more than a hint about its spelling.
    const why = cause?.(value);
    return [`${path}${what} where ${scalarNames[schema]} goes (OpenShift refused it too)${why ? `; ${why}` : redact ? '' : scalarHint(value, schema)}`];
  }
  if (Array.isArray(value)) {
    if (schema.i === undefined) return schema.x || (!schema.p && schema.a === undefined) ? [] : [`${path} is a list where a map goes (OpenShift refused it too)`];
    return value.flatMap((v, i) => scalarTypeProblems(v, schema.i as SchemaNode, `${path}[${i}]`, redact, cause));
  }
  if (!isObject(value)) {
    if (schema.x || (schema.i === undefined && !schema.p && schema.a === undefined)) return [];
    return [`${path}${redact ? '' : `: ${JSON.stringify(value)}`} is ${kindOfValue(value)} where ${schema.i !== undefined ? 'a list' : 'a map'} goes (OpenShift refused it too)`];
  }
  if (schema.i !== undefined && !schema.p && schema.a === undefined) return [`${path} is a map where a list goes (OpenShift refused it too)`];
  return Object.entries(value).flatMap(([k, v]) => {
    const known = schemaOfKey(schema, k);
    return known === undefined ? [] : scalarTypeProblems(v, known.node, keyPath(path, k, schema, known.entry), redact, cause);
  });
}

/** Names the `${{NAME}}` whose value, not being JSON, stayed the string a field refuses. */
function notJsonCause(entry: ImportEntry): ((value: unknown) => string | undefined) | undefined {
  const made = entry.notJsonValues;
  if (!made) return undefined;
  return (value) => {
    const names = typeof value === 'string' ? made.get(value) : undefined;
    if (!names?.length) return undefined;
    return `it is the value of ${names.map((n) => `\${{${n}}}`).join(' and ')}, which is not JSON, so it stayed a string, as oc process keeps it: give ${names.join(' and ')} a JSON value`;
  };
}

/** The bundled skeleton of one of this project's CRDs. */
export const bundledSchema = (apiVersion: string, kind: string): SchemaNode | undefined => crdSchemas[`${apiVersion} ${kind}`];

/**
 * Prunes every imported entry against its schema (bundled for this project's CRDs, else from
 * `source`) and reads its quoted numbers, recording one `changed:` line per removed field or
 * number. Returns the general notes: kinds whose schema could not be read, so their unknown
 * fields were left for the server to judge. Throws ImportInputError, with every problem, when
 * a value is of a JSON type its field does not take (scalarTypeProblems).
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
    // A Secret's values are not printed: they may be credentials written in clear text.
    for (const p of scalarTypeProblems(entry.object, schema, '', entry.kind === 'Secret', notJsonCause(entry))) problems.push({ origin: entry.origin, message: `${entry.ref}: ${p}` });
    if (entry.changes.length > 0) entry.outcome = 'changed';
  }
  if (problems.length > 0) throw new ImportInputError(problems);
  for (const [key, why] of unavailable) notes.push(`${key}: unknown fields were not removed (${why}); kubectl's strict validation will name any`);
  return notes;
}
