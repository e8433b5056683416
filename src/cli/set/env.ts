/**
 * `set env` pure parts, with `oc set env`'s rules: arguments are resources first, then
 * `KEY=VALUE` / `KEY-`; `-e -` reads `KEY=VALUE` lines from stdin; values replace existing
 * variables in place, new ones are appended, removals drop them.
 */
import type { V1Container, V1EnvVar, V1EnvVarSource } from '@kubernetes/client-node';
import { CliError } from '../errors.js';

const envArgument = /^(.+)=(.*)$/s;
/** The API server's rule for env var names (validation.IsEnvVarName). */
const envVarName = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** Splits `dc/web A=1 B-` into resources and env arguments; env arguments must come last. */
export function splitEnvironmentFromResources(args: readonly string[]): { resources: string[]; envArgs: string[] } {
  const resources: string[] = [];
  const envArgs: string[] = [];
  for (const arg of args) {
    const isEnv = envArgument.test(arg) || arg.endsWith('-');
    if (isEnv) envArgs.push(arg);
    else if (envArgs.length === 0) resources.push(arg);
    else throw new CliError(`all resources must be specified before environment changes: ${args.join(' ')}`);
  }
  return { resources, envArgs };
}

export interface ParsedEnv { readonly env: V1EnvVar[]; readonly remove: string[] }

/** Parses `KEY=VALUE`, `KEY-` and `-` (read `stdin`: KEY=VALUE lines, `#` comments). */
export function parseEnv(specs: readonly string[], stdin?: string): ParsedEnv {
  const env: V1EnvVar[] = [];
  const remove: string[] = [];
  const set = new Set<string>();
  for (const spec of specs) {
    if (spec === '-') {
      if (stdin === undefined) throw new CliError("when '-' is used, STDIN must be open");
      for (const raw of stdin.split('\n')) {
        const line = raw.includes('#') ? raw.slice(0, raw.indexOf('#')) : raw;
        const eq = line.indexOf('=');
        if (eq >= 0) env.push({ name: line.slice(0, eq), value: line.slice(eq + 1) });
      }
    } else if (spec.includes('=')) {
      const eq = spec.indexOf('=');
      const name = spec.slice(0, eq);
      if (!envVarName.test(name)) {
        throw new CliError(`environment variable ${spec} is invalid, a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`);
      }
      set.add(name);
      env.push({ name, value: spec.slice(eq + 1) });
    } else if (spec.endsWith('-')) {
      remove.push(spec.slice(0, -1));
    } else {
      throw new CliError(`environment variables must be of the form key=value, but is "${spec}"`);
    }
  }
  if (remove.some((r) => set.has(r))) throw new CliError('can not both modify and remove the same environment variable in the same command');
  return { env, remove };
}

/** oc's updateEnv: replace in place, drop removed, append new (first occurrence wins). */
export function updateEnv(existing: readonly V1EnvVar[], env: readonly V1EnvVar[], remove: readonly string[]): V1EnvVar[] {
  const out: V1EnvVar[] = [];
  const covered = new Set(remove);
  for (const e of existing) {
    if (covered.has(e.name)) continue;
    const newer = env.find((n) => n.name === e.name);
    if (newer) {
      covered.add(e.name);
      out.push(newer);
      continue;
    }
    out.push(e);
  }
  for (const e of env) {
    if (covered.has(e.name)) continue;
    covered.add(e.name);
    out.push(e);
  }
  return out;
}

/** `--containers` with `*` wildcards (oc's selectString: `*` matches any run of characters). */
export function selectsContainer(name: string, spec: string): boolean {
  if (spec === '*') return true;
  if (!spec.includes('*')) return name === spec;
  const pattern = spec.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${pattern}$`, 's').test(name);
}

/** `--overwrite=false`: refuse a change to a variable that already has another value. */
export function checkNoOverwrites(existing: readonly V1EnvVar[], env: readonly V1EnvVar[]): void {
  for (const e of env) {
    const current = existing.find((x) => x.name === e.name);
    if (current && current.value !== e.value) {
      throw new CliError(`'${current.name}' already has a value (${current.value ?? ''}), and --overwrite is false`);
    }
  }
}

/** A Secret or ConfigMap key as an env var name (oc's keyToEnvName). */
export const keyToEnvName = (key: string): string => key.replace(/[^a-zA-Z0-9_]/g, '_').toUpperCase();

/** `--from=secret/x|configmap/x`: one env var per key (sorted), referencing the key. */
export function envFromSource(kind: 'secret' | 'configmap', name: string, keys: readonly string[], prefix = ''): V1EnvVar[] {
  return [...keys].sort().map((key) => ({
    name: `${prefix}${keyToEnvName(key)}`,
    valueFrom: kind === 'secret' ? { secretKeyRef: { name, key } } : { configMapKeyRef: { name, key } },
  }));
}

/** Parses `--from`: `secret/NAME`, `configmap/NAME` or `cm/NAME`. */
export function parseFrom(from: string): { kind: 'secret' | 'configmap'; name: string } {
  const [type, name, extra] = from.split('/');
  const kind = type?.toLowerCase();
  if (!name || extra !== undefined) throw new CliError(`--from must be secret/NAME or configmap/NAME, got "${from}"`);
  if (kind === 'secret' || kind === 'secrets') return { kind: 'secret', name };
  if (kind === 'configmap' || kind === 'configmaps' || kind === 'cm') return { kind: 'configmap', name };
  throw new CliError(`unsupported resource specified in --from: ${type} (use secret/NAME or configmap/NAME)`);
}

/** oc's GetEnvVarRefString for `--list`. */
export function envVarRefString(from: V1EnvVarSource): string {
  if (from.configMapKeyRef) return `configmap ${from.configMapKeyRef.name}, key ${from.configMapKeyRef.key}`;
  if (from.secretKeyRef) return `secret ${from.secretKeyRef.name}, key ${from.secretKeyRef.key}`;
  if (from.fieldRef) return `field path ${from.fieldRef.fieldPath}`;
  if (from.resourceFieldRef) return `resource field ${from.resourceFieldRef.containerName ? `${from.resourceFieldRef.containerName}/` : ''}${from.resourceFieldRef.resource}`;
  return 'invalid valueFrom';
}

/** `--list` output for one container, as `oc set env --list` prints it. */
export function listContainerEnv(objectName: string, container: V1Container): string {
  const lines = [`# ${objectName}, container ${container.name}`];
  for (const e of container.env ?? []) {
    lines.push(e.valueFrom ? `# ${e.name} from ${envVarRefString(e.valueFrom)}` : `${e.name}=${e.value ?? ''}`);
  }
  return `${lines.join('\n')}\n`;
}
