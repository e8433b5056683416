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

/** Kubernetes' limit on label values (a DNS-1123 label's length). */
export const LabelValueMaxLength = 63;

/**
 * The value of the labels that carry an RC name (`deployment`, `openshift.io/deployer-pod-for.name`).
 * OpenShift writes the name as it is, so a DC whose `<name>-<version>` outgrows 63 characters
 * stops rolling out (a 61-character name at version 10). A name that fits is kept byte for byte;
 * a longer one becomes its first 54 characters, `-` and the FNV-1a hash of the whole name (63
 * characters, distinct per version). The DC name itself is limited to 63 by the CRD.
 */
export function rcLabelValue(rcName: string): string {
  if (rcName.length <= LabelValueMaxLength) return rcName;
  const prefix = rcName.slice(0, LabelValueMaxLength - 9).replace(/[-_.]+$/, '');
  return `${prefix}-${fnv1a32Hex(rcName)}`;
}
