/**
 * Decoding of export files: multi-document YAML, a JSON object, or a stream of JSON objects
 * (what `oc get -o json` and `kubectl get -o json` concatenate), then flattening of `List`
 * objects into their items. Pure: text in, objects with their origin out.
 */
import yaml from 'js-yaml';
import { BoundedDecodeError, loadAllYamlBounded, parseJsonBounded } from '../util/bounded-decode.js';
import { errorMessage } from '../util/error-message.js';
import { isObject, type InputProblem, type KubeObject, type Origin } from './types.js';
import { yaml11Schema } from '../util/yaml11.js';

// Scalars resolve as OpenShift's YAML reader resolved them (YAML 1.1: `0400` is octal, `yes` a
// boolean); timestamps stay strings; merge keys (`<<: *anchor`) work (yaml11.ts).
const loadSchema = yaml11Schema;

/** An object found in the input, before any processing. */
export interface FoundObject {
  readonly object: KubeObject;
  readonly origin: Origin;
}

/**
 * A key that one mapping of a document has twice; the later value was kept. `path` locates the
 * mapping's key in the document (`items[1].spec.template.spec.containers[0].resources`).
 */
export interface DuplicateKey {
  readonly document: number;
  readonly path: string;
  readonly line: number;
  readonly column: number;
  /** What the input was written in: OpenShift read both keeping the later value (go-yaml v2, encoding/json). */
  readonly format: 'yaml' | 'json';
}

/** Result of decoding one input: what could be read, what could not, and what reading it changed. */
export interface Decoded {
  readonly objects: FoundObject[];
  readonly problems: InputProblem[];
  readonly duplicateKeys: DuplicateKey[];
}

/** At most this many duplicate keys are located one by one; past it, the input is refused. */
const MaxDuplicateKeys = 200;
/** Put before the n-th duplicate key to locate the next one and find its path; no line breaks, so lines stay where they were. */
const renamedKeyPrefix = (n: number): string => `dcctl-import-duplicate-${n}-`;
const renamedKey = /^dcctl-import-duplicate-(\d+)-/;

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

const isDuplicateKey = (err: unknown): err is yaml.YAMLException =>
  err instanceof yaml.YAMLException && err.reason === 'duplicated mapping key';

/**
 * Loads a YAML stream. A key written twice in one mapping is refused by js-yaml but was read by
 * OpenShift's YAML reader (go-yaml v2 in `oc` and the API), which kept the later value; real
 * templates have such keys (a container's `resources` twice). So the stream is loaded keeping the
 * later value, and each duplicate is located: js-yaml names one at a time, so each one it names is
 * renamed in a copy of the text, and once the copy parses, the renamed keys give their paths.
 */
function loadYamlKeepingLaterDuplicates(text: string, options: yaml.LoadOptions): { docs: unknown[]; duplicateKeys: DuplicateKey[] } {
  try {
    return { docs: loadAllYamlBounded(text, options), duplicateKeys: [] };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  const found: { line: number; column: number; probeColumn: number; inserted: number }[] = [];
  let probe = text;
  let probed: unknown[];
  for (;;) {
    try {
      // Bounded like every load: the walk below would expand an alias bomb.
      probed = loadAllYamlBounded(probe, options);
      break;
    } catch (err) {
      if (!isDuplicateKey(err) || found.length === MaxDuplicateKeys) throw err;
      const mark = err.mark as { position: number; line: number; column: number };
      const at = mark.position + (probe[mark.position] === '"' || probe[mark.position] === "'" ? 1 : 0);
      const prefix = renamedKeyPrefix(found.length);
      // The prefixes put into this line before the key moved it to the right in the copy.
      const shift = found.filter((f) => f.line === mark.line && f.probeColumn < mark.column).reduce((sum, f) => sum + f.inserted, 0);
      found.push({ line: mark.line, column: mark.column - shift, probeColumn: mark.column, inserted: prefix.length });
      probe = `${probe.slice(0, at)}${prefix}${probe.slice(at)}`;
    }
  }
  const paths = new Map<number, { document: number; path: string }>();
  const walk = (v: unknown, document: number, path: string): void => {
    if (Array.isArray(v)) { v.forEach((item, i) => walk(item, document, `${path}[${i}]`)); return; }
    if (v === null || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      const m = renamedKey.exec(k);
      const at = keyPath(path, m ? k.slice(m[0].length) : k);
      if (m) paths.set(Number(m[1]), { document, path: at });
      walk(child, document, at);
    }
  };
  probed.forEach((doc, i) => walk(doc, i + 1, ''));
  const duplicateKeys = found.map((f, n) => ({ ...(paths.get(n) ?? { document: 0, path: '' }), line: f.line + 1, column: f.column + 1, format: 'yaml' as const }));
  return { docs: loadAllYamlBounded(text, { ...options, json: true }), duplicateKeys };
}

/** `List`, `v1 List` and typed lists such as `DeploymentConfigList` are expanded into their items. */
export function isListKind(obj: KubeObject): boolean {
  return typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj['items']);
}

function flattenLists(obj: KubeObject, origin: Origin, out: FoundObject[], problems: InputProblem[]): void {
  if (!isListKind(obj)) {
    out.push({ object: obj, origin });
    return;
  }
  const listKind = obj.kind as string;
  // Items of typed lists returned by the API (`DeploymentConfigList`) may omit apiVersion/kind.
  const itemKind = listKind === 'List' ? undefined : listKind.slice(0, -'List'.length);
  (obj['items'] as unknown[]).forEach((item, i) => {
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
/** The path of `key` inside the mapping at `path`, as the report prints it (`a.b`, `a["x.y"]`). */
function keyPath(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `${path ? `${path}.` : ''}${key}` : `${path}[${JSON.stringify(key)}]`;
}

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

/**
 * The keys written twice in one object of the valid JSON value `text[start, end)` (document
 * `document` of the input). JSON.parse, like Go's encoding/json in OpenShift's API, keeps the later
 * value silently; kube-apiserver's strict field validation (kubectl's default) refuses such a
 * body. Walks the text once; the value has passed the bounded parse, so its nesting is bounded.
 */
function jsonDuplicateKeys(text: string, start: number, end: number, document: number, before: number): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  let lineStarts: number[] | undefined;
  const locate = (index: number): { line: number; column: number } => {
    lineStarts ??= [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= index) lo = mid; else hi = mid - 1;
    }
    return { line: lo + 1, column: index - lineStarts[lo]! + 1 };
  };
  let i = start;
  const skipSpace = () => { while (i < end && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++; };
  const string = (): string => {
    const from = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(from, i)) as string;
  };
  const value = (path: string): void => {
    skipSpace();
    if (text[i] === '{') {
      i++;
      const seen = new Set<string>();
      skipSpace();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        skipSpace();
        const keyAt = i;
        const key = string();
        const at = keyPath(path, key);
        if (seen.has(key)) {
          // As for YAML: past the bound the input is refused, not reported key by key.
          if (before + out.length === MaxDuplicateKeys) throw new SyntaxError(`more than ${MaxDuplicateKeys} keys written twice in one object (the last at ${lineCol(text, keyAt)})`);
          out.push({ document, path: at, ...locate(keyAt), format: 'json' });
        }
        seen.add(key);
        skipSpace();
        i++; // ':'
        value(at);
        skipSpace();
        if (text[i++] === '}') return; // else ','
      }
    }
    if (text[i] === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') { i++; return; }
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`);
        skipSpace();
        if (text[i++] === ']') return; // else ','
      }
    }
    if (text[i] === '"') { string(); return; }
    while (i < end && !',]} \t\n\r'.includes(text[i]!)) i++;
  };
  value('');
  return out;
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
