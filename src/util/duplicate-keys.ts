/**
 * Keys written twice in one YAML mapping or JSON object. OpenShift's readers (go-yaml v2,
 * encoding/json) kept the later value; kube-apiserver keeps it too and warns, or refuses the body
 * under strict field validation. js-yaml refuses such a mapping and JSON.parse keeps the later value
 * silently, so both `dcctl import` and API mode's front locate them here. Pure.
 */
import yaml from 'js-yaml';
import { loadAllYamlBounded } from './bounded-decode.js';

/**
 * A key that one mapping of a document has twice; the later value was kept. `path` locates the
 * mapping's key in the document (`items[1].spec.template.spec.containers[0].resources`).
 */
export interface DuplicateKey {
  readonly document: number;
  readonly path: string;
  /** The key as written. */
  readonly key: string;
  /** JSON only: the path as kube-apiserver's strict decoder names it (`metadata.labels.a/b`, every key after a dot). */
  readonly fieldPath?: string;
  readonly line: number;
  readonly column: number;
  /** What the input was written in: OpenShift read both keeping the later value (go-yaml v2, encoding/json). */
  readonly format: 'yaml' | 'json';
}

/** At most this many duplicate keys are located by default (each one costs a parse of a YAML text); past it, the input is refused. */
export const MaxDuplicateKeys = 200;
/** Put before the n-th duplicate key to locate the next one and find its path; no line breaks, so lines stay where they were. */
const renamedKeyPrefix = (n: number): string => `dcctl-duplicate-${n}-`;
const renamedKey = /^dcctl-duplicate-(\d+)-/;

export const isDuplicateKey = (err: unknown): err is yaml.YAMLException =>
  err instanceof yaml.YAMLException && err.reason === 'duplicated mapping key';

/**
 * Loads a YAML stream. A key written twice in one mapping is refused by js-yaml but was read by
 * OpenShift's YAML reader (go-yaml v2 in `oc` and the API), which kept the later value; real
 * templates have such keys (a container's `resources` twice). So the stream is loaded keeping the
 * later value, and each duplicate is located: js-yaml names one at a time, so each one it names is
 * renamed in a copy of the text, and once the copy parses, the renamed keys give their paths.
 */
export function loadYamlKeepingLaterDuplicates(text: string, options: yaml.LoadOptions, maxDuplicates = MaxDuplicateKeys): { docs: unknown[]; duplicateKeys: DuplicateKey[] } {
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
      if (!isDuplicateKey(err) || found.length === maxDuplicates) throw err;
      const mark = err.mark as { position: number; line: number; column: number };
      const at = mark.position + (probe[mark.position] === '"' || probe[mark.position] === "'" ? 1 : 0);
      const prefix = renamedKeyPrefix(found.length);
      // The prefixes put into this line before the key moved it to the right in the copy.
      const shift = found.filter((f) => f.line === mark.line && f.probeColumn < mark.column).reduce((sum, f) => sum + f.inserted, 0);
      found.push({ line: mark.line, column: mark.column - shift, probeColumn: mark.column, inserted: prefix.length });
      probe = `${probe.slice(0, at)}${prefix}${probe.slice(at)}`;
    }
  }
  const paths = new Map<number, { document: number; path: string; key: string }>();
  const walk = (v: unknown, document: number, path: string): void => {
    if (Array.isArray(v)) { v.forEach((item, i) => walk(item, document, `${path}[${i}]`)); return; }
    if (v === null || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      const m = renamedKey.exec(k);
      const key = m ? k.slice(m[0].length) : k;
      const at = keyPath(path, key);
      if (m) paths.set(Number(m[1]), { document, path: at, key });
      walk(child, document, at);
    }
  };
  probed.forEach((doc, i) => walk(doc, i + 1, ''));
  const duplicateKeys = found.map((f, n) => ({ ...(paths.get(n) ?? { document: 0, path: '', key: '' }), line: f.line + 1, column: f.column + 1, format: 'yaml' as const }));
  return { docs: loadAllYamlBounded(text, { ...options, json: true }), duplicateKeys };
}

/** The path of `key` inside the mapping at `path`, as the report prints it (`a.b`, `a["x.y"]`). */
export function keyPath(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `${path ? `${path}.` : ''}${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * The keys written twice in one object of the valid JSON value `text[start, end)` (document
 * `document` of the input). JSON.parse, like Go's encoding/json in OpenShift's API, keeps the later
 * value silently; kube-apiserver's strict field validation (kubectl's default) refuses such a
 * body. Walks the text once; the value has passed the bounded parse, so its nesting is bounded.
 */
export function jsonDuplicateKeys(text: string, start: number, end: number, document: number, before = 0, maxDuplicates = MaxDuplicateKeys): DuplicateKey[] {
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
  // `fieldPath` spells the path as kube-apiserver's strict decoder does: every key after a dot.
  const value = (path: string, fieldPath: string): void => {
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
          if (before + out.length === maxDuplicates) throw new SyntaxError(`more than ${maxDuplicates} keys written twice in one object (the last at ${lineCol(text, keyAt)})`);
          out.push({ document, path: at, fieldPath: fieldPath ? `${fieldPath}.${key}` : key, key, ...locate(keyAt), format: 'json' });
        }
        seen.add(key);
        skipSpace();
        i++; // ':'
        value(at, fieldPath ? `${fieldPath}.${key}` : key);
        skipSpace();
        if (text[i++] === '}') return; // else ','
      }
    }
    if (text[i] === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') { i++; return; }
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`, `${fieldPath}[${n}]`);
        skipSpace();
        if (text[i++] === ']') return; // else ','
      }
    }
    if (text[i] === '"') { string(); return; }
    while (i < end && !',]} \t\n\r'.includes(text[i]!)) i++;
  };
  value('', '');
  return out;
}

function lineCol(text: string, index: number): string {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return `line ${line}, column ${index - before.lastIndexOf('\n')}`;
}
