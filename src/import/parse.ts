/**
 * Decoding of export files: multi-document YAML, a JSON object, or a stream of JSON objects
 * (what `oc get -o json` and `kubectl get -o json` concatenate), then flattening of `List`
 * objects into their items. Pure: text in, objects with their origin out.
 */
import yaml from 'js-yaml';
import { BoundedDecodeError, parseJsonBounded } from '../util/bounded-decode.js';
import { errorMessage } from '../util/error-message.js';
import { isObject, type InputProblem, type KubeObject, type Origin } from './types.js';
import { yaml11Schema } from '../util/yaml11.js';
import { jsonDuplicateKeys, loadYamlKeepingLaterDuplicates, type DuplicateKey } from '../util/duplicate-keys.js';

export type { DuplicateKey } from '../util/duplicate-keys.js';

// Scalars resolve as OpenShift's YAML reader resolved them (YAML 1.1: `0400` is octal, `yes` a
// boolean); timestamps stay strings; merge keys (`<<: *anchor`) work (yaml11.ts).
const loadSchema = yaml11Schema;

/** An object found in the input, before any processing. */
export interface FoundObject {
  readonly object: KubeObject;
  readonly origin: Origin;
}

/** Result of decoding one input: what could be read, what could not, and what reading it changed. */
export interface Decoded {
  readonly objects: FoundObject[];
  readonly problems: InputProblem[];
  readonly duplicateKeys: DuplicateKey[];
}

/**
 * Decodes `text` (named `source` in messages). A syntax error makes the whole input unusable (one
 * problem, no objects), because later documents of a YAML stream cannot be trusted after it.
 */
export function decodeDocuments(text: string, source: string): Decoded {
  let docs: unknown[];
  let duplicateKeys: DuplicateKey[] = [];
  try {
    if (looksLikeJson(text)) {
      ({ docs, duplicateKeys } = parseJsonStream(text));
    } else {
      ({ docs, duplicateKeys } = loadYamlKeepingLaterDuplicates(text, { filename: source, schema: loadSchema }));
    }
  } catch (err) {
    return { objects: [], problems: [{ origin: { source }, message: syntaxMessage(err) }], duplicateKeys: [] };
  }
  const objects: FoundObject[] = [];
  const problems: InputProblem[] = [];
  docs.forEach((doc, i) => {
    const origin: Origin = { source, document: i + 1, path: '' };
    // Empty documents (`---` at the end, comments only) are what editors leave behind.
    if (doc === null || doc === undefined) return;
    // A top-level sequence of objects (hand-written, or `kubectl get -o json | jq .items`) is
    // read like the items of a List; each keeps its index in the report.
    if (Array.isArray(doc)) {
      doc.forEach((item, j) => {
        const itemOrigin: Origin = { ...origin, path: `[${j}]` };
        if (item === null || item === undefined) return;
        if (!isObject(item)) { problems.push({ origin: itemOrigin, message: `expected an object with apiVersion and kind, got ${Array.isArray(item) ? 'a list' : typeof item}` }); return; }
        flattenLists(item, itemOrigin, objects, problems);
      });
      return;
    }
    if (!isObject(doc)) {
      problems.push({ origin, message: `expected an object with apiVersion and kind, got ${typeof doc}` });
      return;
    }
    flattenLists(doc, origin, objects, problems);
  });
  return { objects, problems, duplicateKeys };
}

/**
 * `List`, `v1 List` and typed lists such as `DeploymentConfigList` are expanded into their items;
 * `items` null or absent is an empty list, as Go decodes it.
 */
export function isListKind(obj: KubeObject): boolean {
  return typeof obj.kind === 'string' && obj.kind.endsWith('List') && (obj['items'] === undefined || obj['items'] === null || Array.isArray(obj['items']));
}

/**
 * Lists flattened into their items, recursively, as kubectl's resource builder does (a List inside
 * a List, or one a Template makes); other objects as they are.
 */
export function flattenLists(obj: KubeObject, origin: Origin, out: FoundObject[], problems: InputProblem[]): void {
  if (typeof obj.kind === 'string' && obj.kind.endsWith('List') && !isListKind(obj)) {
    problems.push({ origin, message: `${obj.kind}: items must be a list` });
    return;
  }
  if (!isListKind(obj)) {
    out.push({ object: obj, origin });
    return;
  }
  const listKind = obj.kind as string;
  // Items of typed lists returned by the API (`DeploymentConfigList`) may omit apiVersion/kind.
  const itemKind = listKind === 'List' ? undefined : listKind.slice(0, -'List'.length);
  ((obj['items'] ?? []) as unknown[]).forEach((item, i) => {
    const itemOrigin: Origin = { ...origin, path: `${origin.path ? `${origin.path}.` : ''}items[${i}]` };
    if (!isObject(item)) {
      problems.push({ origin: itemOrigin, message: 'list item is not an object' });
      return;
    }
    const filled: KubeObject = { ...item };
    if (filled.kind === undefined && itemKind) filled.kind = itemKind;
    if (filled.apiVersion === undefined && itemKind && typeof obj.apiVersion === 'string') filled.apiVersion = obj.apiVersion;
    flattenLists(filled, itemOrigin, out, problems);
  });
}

function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

/** Parses one JSON value or several concatenated top-level JSON objects. */
function parseJsonStream(text: string): { docs: unknown[]; duplicateKeys: DuplicateKey[] } {
  const values: unknown[] = [];
  const duplicateKeys: DuplicateKey[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) {
        values.push(parseJsonValue(text.slice(start, i + 1), text, start));
        duplicateKeys.push(...jsonDuplicateKeys(text, start, i + 1, values.length, duplicateKeys.length));
      }
      if (depth < 0) throw new SyntaxError(`unexpected "${c}" at ${lineCol(text, i)}`);
    } else if (depth === 0 && !/\s/.test(c ?? '')) {
      throw new SyntaxError(`unexpected "${c}" outside a JSON object at ${lineCol(text, i)}`);
    }
  }
  if (depth !== 0 || inString) throw new SyntaxError('unexpected end of JSON input (unbalanced braces or an open string)');
  return { docs: values, duplicateKeys };
}

function parseJsonValue(slice: string, whole: string, offset: number): unknown {
  try {
    return parseJsonBounded(slice);
  } catch (err) {
    if (err instanceof BoundedDecodeError) throw new BoundedDecodeError(`the object starting at ${lineCol(whole, offset)} is ${err.message}`);
    const pos = /position (\d+)/.exec((err as Error).message);
    // Newer V8 messages carry no position; the object's start still locates the problem.
    const where = pos ? ` at ${lineCol(whole, offset + Number(pos[1]))}` : ` in the object starting at ${lineCol(whole, offset)}`;
    throw new SyntaxError(`invalid JSON${where}: ${(err as Error).message}`);
  }
}

function lineCol(text: string, index: number): string {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return `line ${line}, column ${index - before.lastIndexOf('\n')}`;
}

function syntaxMessage(err: unknown): string {
  if (err instanceof yaml.YAMLException) {
    const mark = err.mark as { line: number; column: number } | undefined;
    const where = mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : '';
    return `cannot parse YAML${where}: ${err.reason}`;
  }
  if (err instanceof SyntaxError) return `cannot parse JSON: ${err.message}`;
  if (err instanceof BoundedDecodeError) return `input refused: ${err.message}`;
  return `cannot parse input: ${errorMessage(err)}`;
}
