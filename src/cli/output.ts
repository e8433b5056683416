/**
 * Output plumbing: the streams commands write to and the `-o json|yaml` printers. YAML is
 * emitted by a tiny serializer for JSON-shaped data (strings that could be misread are written
 * as JSON strings, which YAML accepts), so the CLI needs no YAML dependency.
 */
import { isObject } from '../util/is-object.js';
import type { OutputFormat } from './options.js';

/** Where a command writes; tests pass string collectors. */
export interface OutputStreams {
  readonly out: { write(chunk: string): unknown };
  readonly err: { write(chunk: string): unknown };
}

/** Prints `value` as JSON (4-space indent, like kubectl) or YAML, with a trailing newline. */
export function formatData(value: unknown, format: OutputFormat): string {
  return format === 'json' ? `${JSON.stringify(value, null, 4)}\n` : toYaml(value);
}

const plainString = /^[A-Za-z0-9_./][A-Za-z0-9_./ =@()+:,-]*$/;
const ambiguous = /^(true|false|yes|no|on|off|null|~|y|n|[-+]?(\d[\d_]*(\.\d*)?([eE][-+]?\d+)?|\.inf|\.nan|0x[0-9a-fA-F]+|0o[0-7]+))$/i;

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    if (value === '' || !plainString.test(value) || ambiguous.test(value) || value.endsWith(' ') || value.endsWith(':')
      || value.includes(': ') || value.includes(' #')) return JSON.stringify(value);
    return value;
  }
  return String(value);
}


/** Serialises JSON-shaped data as block YAML. `undefined` members are omitted as in JSON. */
export function toYaml(value: unknown): string {
  const lines: string[] = [];
  const emit = (v: unknown, indent: string): void => {
    if (Array.isArray(v)) {
      for (const item of v) {
        if ((isObject(item) && Object.keys(item).length > 0) || (Array.isArray(item) && item.length > 0)) {
          const sub: string[] = [];
          const save = lines.length;
          emit(item, `${indent}  `);
          sub.push(...lines.splice(save));
          const first = sub[0] ?? '';
          lines.push(`${indent}- ${first.slice(indent.length + 2)}`, ...sub.slice(1));
        } else {
          lines.push(`${indent}- ${inline(item)}`);
        }
      }
      return;
    }
    if (isObject(v)) {
      for (const [key, child] of Object.entries(v)) {
        if (child === undefined) continue;
        const k = scalar(key);
        if ((isObject(child) && Object.keys(child).length > 0) || (Array.isArray(child) && child.length > 0)) {
          lines.push(`${indent}${k}:`);
          emit(child, isObject(child) ? `${indent}  ` : indent);
        } else {
          lines.push(`${indent}${k}: ${inline(child)}`);
        }
      }
      return;
    }
    lines.push(`${indent}${inline(v)}`);
  };
  emit(value, '');
  return `${lines.join('\n')}\n`;
}

function inline(v: unknown): string {
  if (Array.isArray(v)) return '[]';
  if (isObject(v)) return '{}';
  return scalar(v);
}
