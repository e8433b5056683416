/**
 * Decoding JSON and YAML that someone else wrote, within bounds. Node.js serves every request of
 * a process from one thread and one heap, so two kinds of small input take the whole process
 * down: nesting deep enough that the recursive walks after parsing overflow the stack, and YAML
 * aliases that js-yaml keeps as shared references but that every later walk (JSON.stringify, a
 * deep copy) expands: 442 bytes of nine nested anchors become 387 million strings. kube-apiserver
 * refuses both (Go's decoder stops at 10000 levels; sigs.k8s.io/yaml at excessive aliasing).
 * js-yaml's parser stops at 100 levels of its own, but aliases nest without limit: each anchor
 * that holds the previous one adds a level.
 * Pure.
 */
import yaml from 'js-yaml';
import { jsonNestingDepth, MaxNestingDepth } from './json-depth.js';

/** A document beyond the bounds: the caller answers it as malformed input. */
export class BoundedDecodeError extends Error {
  override readonly name = 'BoundedDecodeError';
}

const tooDeep = (): BoundedDecodeError => new BoundedDecodeError(`nested deeper than ${MaxNestingDepth} levels`);
const tooLarge = (limit: number): BoundedDecodeError => new BoundedDecodeError(`with its aliases expanded it is larger than ${limit} bytes`);

/** JSON.parse, refusing a text nested deeper than MaxNestingDepth before it is parsed. */
export function parseJsonBounded(text: string): unknown {
  if (jsonNestingDepth(text) > MaxNestingDepth) throw tooDeep();
  return JSON.parse(text);
}

/**
 * The most bytes a YAML text may take as JSON with its aliases expanded: four times its length
 * (a text without aliases stays under that: its JSON form is at most about twice as long), and
 * never less than 16 MiB, so that anchors in a hand-written file are never what stops it.
 */
export function expansionLimit(text: string): number {
  return Math.max(16 << 20, 4 * text.length);
}

/** yaml.load of one document, then its nesting and its expanded size checked. */
export function loadYamlBounded(text: string, options?: yaml.LoadOptions): unknown {
  const value = yaml.load(text, options);
  checkLoaded(value, expansionLimit(text));
  return value;
}

/** yaml.loadAll, the documents together checked as loadYamlBounded checks one. */
export function loadAllYamlBounded(text: string, options?: yaml.LoadOptions): unknown[] {
  const docs = yaml.loadAll(text, undefined, options);
  checkLoaded(docs, expansionLimit(text));
  return docs;
}

/**
 * Walks the loaded graph once per distinct object (a shared one is what an alias loaded), summing
 * the JSON size it has when expanded and its nesting, and stops at the first bound it passes.
 */
function checkLoaded(value: unknown, maxExpandedBytes: number): void {
  // One level more: loadAll's documents come as a list.
  const maxDepth = MaxNestingDepth + 1;
  const known = new Map<object, { bytes: number; height: number }>();
  const measure = (v: unknown, depth: number): { bytes: number; height: number } => {
    if (v === null || typeof v !== 'object') {
      return { bytes: typeof v === 'string' ? v.length + 2 : String(v).length, height: 0 };
    }
    const seen = known.get(v);
    if (seen) {
      if (depth + seen.height > maxDepth) throw tooDeep();
      return seen;
    }
    if (depth + 1 > maxDepth) throw tooDeep();
    let bytes = 2;
    let height = 0;
    const entries: [string | undefined, unknown][] = Array.isArray(v) ? v.map((e) => [undefined, e]) : Object.entries(v);
    for (const [key, child] of entries) {
      const m = measure(child, depth + 1);
      bytes += m.bytes + 1 + (key === undefined ? 0 : key.length + 3);
      height = Math.max(height, m.height + 1);
      if (bytes > maxExpandedBytes) throw tooLarge(maxExpandedBytes);
    }
    const result = { bytes, height };
    known.set(v, result);
    return result;
  };
  // Every container checks its running size, and a scalar is part of the text, which the limit
  // covers four times over: the walk alone enforces both bounds.
  measure(value, 0);
}
