/** Parsing of flag values that yargs leaves as strings. */
import type { V1Toleration } from '@kubernetes/client-node';
import { CliError } from './errors.js';

/**
 * A kubectl-style duration (`30s`, `5m`, `1h30m`, `500ms`) or a bare number of seconds, in
 * milliseconds. `0` disables the timeout.
 */
export function parseDuration(value: string | number, flag = '--timeout'): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new CliError(`invalid argument "${value}" for "${flag}" flag`);
    return value * 1000;
  }
  const s = value.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * (unitMs[m[2] as string] ?? 0);
    consumed = re.lastIndex;
  }
  if (s === '' || consumed !== s.length) throw new CliError(`invalid argument "${value}" for "${flag}" flag: time: invalid duration "${value}"`);
  return total;
}

/**
 * `--dry-run[=none|client|server]`. A bare `--dry-run` means client, as in kubectl's deprecated
 * boolean form; server is treated as client because no server-side instantiate exists.
 */
export function parseDryRun(value: string | boolean | undefined): boolean {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  switch (value) {
    case '': case 'true': case 'client': case 'server': return true;
    case 'none': case 'false': return false;
    default: throw new CliError(`Invalid dry-run value (${value}). Must be "none", "server", or "client".`);
  }
}

/** A non-negative integer flag such as `--to-revision`. */
export function parseRevision(value: number | undefined, flag: string): number {
  if (value === undefined) return 0;
  if (!Number.isInteger(value) || value < 0) throw new CliError(`${flag} must be a non-negative integer, got ${value}`);
  return value;
}

/** `--deployer-command`: a JSON array, or words separated by whitespace. */
export function parseCommand(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const s = value.trim();
  if (s.startsWith('[')) {
    const parsed: unknown = JSON.parse(s);
    if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'string')) throw new CliError('--deployer-command must be a JSON array of strings');
    return parsed as string[];
  }
  return s.split(/\s+/);
}

/** `key=value` list flags (`--deployer-env`, `--deployer-node-selector`) as a map. */
export function parseKeyValues(values: readonly string[] | undefined, flag: string): Record<string, string> | undefined {
  if (!values || values.length === 0) return undefined;
  const map: Record<string, string> = {};
  for (const item of values) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new CliError(`invalid argument "${item}" for "${flag}" flag: want key=value`);
    map[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return map;
}

const Effects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/**
 * `--deployer-toleration key[=value][:effect]` (kubectl's taint syntax): with a value
 * the toleration matches it (`Equal`), without one any value (`Exists`); no effect matches all.
 */
export function parseTolerations(values: readonly string[] | undefined): V1Toleration[] | undefined {
  if (!values || values.length === 0) return undefined;
  return values.map((item) => {
    const colon = item.lastIndexOf(':');
    const effect = colon >= 0 ? item.slice(colon + 1) : undefined;
    const keyValue = colon >= 0 ? item.slice(0, colon) : item;
    if (effect !== undefined && !(Effects as readonly string[]).includes(effect)) {
      throw new CliError(`invalid argument "${item}" for "--deployer-toleration" flag: effect must be one of ${Effects.join(', ')}`);
    }
    const eq = keyValue.indexOf('=');
    const key = eq >= 0 ? keyValue.slice(0, eq) : keyValue;
    if (key === '') throw new CliError(`invalid argument "${item}" for "--deployer-toleration" flag: want key[=value][:effect]`);
    const toleration: V1Toleration = eq >= 0 ? { key, operator: 'Equal', value: keyValue.slice(eq + 1) } : { key, operator: 'Exists' };
    if (effect !== undefined) toleration.effect = effect;
    return toleration;
  });
}
