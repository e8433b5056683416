/**
 * The DC version an RC stands for, read so that nobody but the RC's creator can change it.
 *
 * The `openshift.io/deployment-config.latest-version` annotation is mutable: anyone who may patch
 * RCs in the namespace (including every deployer and hook pod, through the `deployer` service
 * account) can rewrite it. The RC's name is immutable and the controller always creates it as
 * `<dc>-<version>` (§3.5). So the version is the number in the name; the annotation is only
 * believed when it agrees. An RC whose annotation disagrees with its name (or whose name carries
 * no version at all while the annotation claims one) is reported, never acted on: before this
 * rule, `latest-version=2147483647` on `<dc>-1` made the DC controller step `status.latestVersion`
 * up once per sync, forever (docs/design.md §10.3).
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Labels } from '../apis/constants.js';

export interface RcVersion {
  /** The version to act on: from the name when it has one, −1 otherwise. */
  version: number;
  /** Set when the annotation cannot be believed: says which RC and why (for a condition/event). */
  problem?: string;
}

/**
 * The highest version a DC can reach here. OpenShift counts in int64; no DC rolls out two
 * billion times, but an orphan RC named `<dc>-9007199254740991` (it needs only the right to
 * create RCs) would otherwise be adopted as the newest version, and the version after it is no
 * longer a safe integer: the DC would wedge for good. Beyond this bound a name carries no version.
 */
export const MaxVersion = 2 ** 31 - 1;

/** Go's strconv.ParseInt(…, 10, 64) limited to 0..MaxVersion; undefined when it fails. */
function parseVersion(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^[+-]?[0-9]+$/.test(raw)) return undefined;
  const n = Number.parseInt(raw, 10);
  return Number.isSafeInteger(n) && n >= 0 && n <= MaxVersion ? n : undefined;
}

/**
 * A value someone else wrote, quoted for a message in bounded space: at most `max` characters
 * of it, then its length. Quoting doubles some characters, and a condition message is copied
 * into the DC's status and from there into the next RC's encoded config.
 */
export function quoteUntrusted(raw: string, max = 64): string {
  return raw.length <= max ? JSON.stringify(raw) : `${JSON.stringify(raw.slice(0, max))}… (${raw.length} characters)`;
}

/** The version in `<dc>-<N>` (dc from the RC's label, else its annotation); undefined if none. */
function versionInName(rc: V1ReplicationController): number | undefined {
  const name = rc.metadata?.name ?? '';
  const dc = rc.metadata?.labels?.[Labels.DeploymentConfig] ?? rc.metadata?.annotations?.[Annotations.DeploymentConfig];
  if (!dc || !name.startsWith(`${dc}-`)) return undefined;
  const suffix = name.slice(dc.length + 1);
  return /^[0-9]+$/.test(suffix) ? parseVersion(suffix) : undefined;
}

/** See the module comment. Pure. */
export function rcVersion(rc: V1ReplicationController): RcVersion {
  const raw = rc.metadata?.annotations?.[Annotations.LatestVersion];
  const annotated = parseVersion(raw);
  const named = versionInName(rc);
  const name = rc.metadata?.name ?? '';
  if (named === undefined) {
    // Not a name the controller makes (an adopted orphan): nothing to check a claim against.
    if (raw === undefined) return { version: -1 };
    return {
      version: -1,
      problem: `replication controller "${name}" is not named <deployment config>-<version>, so its annotation ${Annotations.LatestVersion}=${quoteUntrusted(raw)} cannot be trusted; it is ignored`,
    };
  }
  if (annotated === named) return { version: named };
  return {
    version: named,
    problem: `replication controller "${name}" has annotation ${Annotations.LatestVersion}=${raw === undefined ? '(missing)' : quoteUntrusted(raw)}, which disagrees with the version in its name; version ${named} is used`,
  };
}
