/**
 * Deterministic child names, as library-go `pkg/build/naming/namer.go` computes them, so pod names
 * match OpenShift's for the same RC.
 */
const MaxNameLength = 253;

/** 32-bit FNV-1a of the UTF-8 bytes, 8 lowercase hex digits. */
export function fnv1a32Hex(input: string): string {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(input, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** `GetName(base, suffix, 253)`: `<base>-<suffix>`, shortened with a hash when too long. */
export function getName(base: string, suffix: string, max = MaxNameLength): string {
  const name = `${base}-${suffix}`;
  if (name.length <= max) return name;
  const baseLength = max - 10 - suffix.length;
  if (baseLength <= 0) {
    const prefix = base.slice(0, Math.min(base.length, max - 9));
    return `${prefix}-${fnv1a32Hex(name)}`.slice(0, max);
  }
  return `${base.slice(0, baseLength)}-${fnv1a32Hex(base)}-${suffix}`;
}

/** `GetPodName(base, suffix)`: pod names share the 253-character limit. */
export const getPodName = (base: string, suffix: string): string => getName(base, suffix, MaxNameLength);

/** `<dc>-<version>`: RC names are never shortened. */
export const rcNameFor = (dcName: string, version: number): string => `${dcName}-${version}`;

/** `<rc>-deploy`. */
export const deployerPodNameFor = (rcName: string): string => getPodName(rcName, 'deploy');
