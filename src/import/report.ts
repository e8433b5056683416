/**
 * Rendering of the per-object import report (stderr) and of the imported objects (stdout, YAML
 * documents or a JSON `List`).
 */
import yaml from 'js-yaml';
import type { ApplyOutcome } from './apply.js';
import { formatOrigin, type ImportEntry, type ImportResult, type KubeObject } from './types.js';
import { yaml11Schema } from '../util/yaml11.js';

/** Human-readable report of what import did with every object. */
export function formatReport(result: ImportResult, applied?: readonly ApplyOutcome[]): string {
  const lines: string[] = [];
  const count = (o: string) => result.entries.filter((e) => e.outcome === o).length;
  lines.push(`import: ${result.entries.length} object(s): ${count('imported')} imported unchanged, ${count('changed')} changed, ${count('skipped')} skipped`);
  for (const t of result.templateMessages) {
    lines.push(`template ${t.template} says:`, ...t.message.trimEnd().split('\n').map((l) => `    ${l}`));
  }
  const byEntry = new Map(applied?.map((a) => [a.entry, a]));
  for (const e of result.entries) {
    lines.push(...entryLines(e, byEntry.get(e)));
  }
  for (const n of result.notes) lines.push(`note: ${n}`);
  return `${lines.join('\n')}\n`;
}

function entryLines(e: ImportEntry, a: ApplyOutcome | undefined): string[] {
  const head = e.outcome === 'skipped' ? `${e.ref}: skipped: ${e.reason ?? ''}` : `${e.ref}: ${e.outcome}`;
  const lines = [`${head}  [${formatOrigin(e.origin)}]`];
  for (const c of e.changes) lines.push(`    changed: ${c}`);
  for (const n of e.notes) lines.push(`    differs: ${n}`);
  if (e.hint) lines.push(`    hint: ${e.hint}`);
  if (a?.created !== undefined) lines.push(`    created: ${e.ref.slice(0, e.ref.lastIndexOf('/') + 1)}${a.created}`);
  if (a?.result === 'failed') lines.push(`    error: ${a.message ?? ''}`);
  return lines;
}

/** The imported (not skipped) objects. */
export function importedObjects(result: ImportResult): KubeObject[] {
  return result.entries.flatMap((e) => (e.outcome !== 'skipped' && e.object ? [e.object] : []));
}

/** YAML documents separated by `---`, or one JSON `List` (kubectl's form for several objects). */
export function formatObjects(objects: readonly KubeObject[], format: 'yaml' | 'json'): string {
  if (format === 'json') return `${JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: {}, items: objects }, null, 4)}\n`;
  // Written for readers of YAML 1.1 (kubectl, oc): a string they would read as a number is quoted.
  return objects.map((o) => yaml.dump(o, { noRefs: true, lineWidth: -1, schema: yaml11Schema })).join('---\n');
}
