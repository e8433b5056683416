/** Parsing of flag values that yargs leaves as strings. */
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
