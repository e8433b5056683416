/**
 * The YAML schema for what users write (`dcctl import`'s input, YAML bodies sent to API mode's
 * front): plain scalars resolve as OpenShift's, kubectl's and kube-apiserver's YAML reader
 * (go-yaml v2, YAML 1.1, through sigs.k8s.io/yaml) resolved them, not as YAML 1.2, which js-yaml
 * follows. What differs in real manifests:
 *
 * - an integer with a leading zero is octal: `defaultMode: 0400` is 256 (r--------), where YAML
 *   1.2 reads 400 (0620, rw--w----) and `0644` becomes 644, past the 0777 a mode may be;
 * - underscores in a number are dropped (`1_000` is 1000);
 * - `yes`, `no`, `on`, `off`, `y`, `n` (and their capitalised forms) are booleans (`paused: yes`).
 *
 * Timestamps and binary stay strings, as Kubernetes' decoder keeps them; merge keys (`<<: *a`) work.
 */
import yaml from 'js-yaml';

const types = (yaml as unknown as { types: Record<'null' | 'float' | 'merge', yaml.Type> }).types;

const yaml11True = ['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'true', 'True', 'TRUE'];
const yaml11False = ['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF', 'false', 'False', 'FALSE'];

const bool = new yaml.Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && (yaml11True.includes(data) || yaml11False.includes(data)),
  construct: (data: string) => yaml11True.includes(data),
  predicate: (value: unknown) => typeof value === 'boolean',
  represent: { lowercase: (value: unknown) => (value ? 'true' : 'false') },
  defaultStyle: 'lowercase',
});

/** go-yaml v2: underscores removed, then Go's strconv.ParseInt with base 0 (0x, 0o, 0b, leading 0 octal). */
export function parseYaml11Int(text: string): number | undefined {
  const m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(text.replace(/_/g, ''));
  if (!m) return undefined;
  const digits = m[2]!;
  const prefix = digits.slice(0, 2).toLowerCase();
  const value = prefix === '0x' ? parseInt(digits.slice(2), 16)
    : prefix === '0o' ? parseInt(digits.slice(2), 8)
      : prefix === '0b' ? parseInt(digits.slice(2), 2)
        : digits.length > 1 && digits.startsWith('0') ? parseInt(digits.slice(1), 8)
          : parseInt(digits, 10);
  return m[1] === '-' ? -value : value;
}

const int = new yaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && parseYaml11Int(data) !== undefined,
  construct: (data: string) => parseYaml11Int(data),
  predicate: (value: unknown) => typeof value === 'number' && Number.isInteger(value),
  represent: { decimal: (value: unknown) => String(value) },
  defaultStyle: 'decimal',
});

export const yaml11Schema = yaml.FAILSAFE_SCHEMA.extend({ implicit: [types.null, bool, int, types.float, types.merge] });
