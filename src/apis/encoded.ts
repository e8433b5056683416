/**
 * The `openshift.io/encoded-deployment-config` annotation: the DC as it was when its RC was made.
 * Decoding accepts the group form and the legacy group-less `v1` form, as appsserialization does.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, ApiVersion, Kind } from './constants.js';
import type { DeploymentConfig } from './deploymentconfig.js';

/** Thrown when the annotation is missing or is not a DeploymentConfig. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

/** Client-side `kubectl apply` keeps a full copy of the applied object here. */
const LastAppliedConfiguration = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * Serialises a DC for the RC annotation. `managedFields` and the DC's
 * `kubectl.kubernetes.io/last-applied-configuration` annotation are dropped: both only grow the
 * RC towards the 256 KiB annotation limit (the latter doubles the DC: client-side `kubectl apply`
 * of a DC above ~128 KB made every RC creation fail) and nothing reads them back. Everything
 * else, the template in particular, is kept exactly as stored so template comparison stays stable.
 */
export function encodeDeploymentConfig(dc: DeploymentConfig): string {
  const { managedFields: _dropped, ...metadata } = dc.metadata;
  if (metadata.annotations?.[LastAppliedConfiguration] !== undefined) {
    const { [LastAppliedConfiguration]: _applied, ...annotations } = metadata.annotations;
    metadata.annotations = annotations;
  }
  return JSON.stringify({ ...dc, apiVersion: ApiVersion, kind: Kind, metadata });
}

/**
 * How deep an encoded config may nest. A DC nests about 15 levels; the annotation is rewritable by
 * anyone who may patch RCs, and the recursive walks over a decoded config (canonical JSON, deep
 * copies) overflow the stack at a few thousand levels, an error that is no DecodeError and so
 * stalled the DC without a condition. Go's decoder stops at 10000.
 */
const MaxEncodedDepth = 100;

/** The deepest nesting of objects and arrays in a JSON text, without recursion. */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return max;
}

/** Parses the encoded DC; throws DecodeError with OpenShift's message when absent or malformed. */
export function decodeDeploymentConfig(rc: V1ReplicationController): DeploymentConfig {
  const raw = rc.metadata?.annotations?.[Annotations.EncodedConfig];
  const name = `${rc.metadata?.namespace ?? ''}/${rc.metadata?.name ?? ''}`;
  if (!raw) throw new DecodeError(`object ${name} does not have encoded deployment config annotation`);
  if (jsonDepth(raw) > MaxEncodedDepth) {
    throw new DecodeError(`couldn't decode deployment config from deployment ${name}: nested deeper than ${MaxEncodedDepth} levels`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new DecodeError(`couldn't decode deployment config from deployment ${name}: ${(err as Error).message}`);
  }
  const obj = parsed as Partial<DeploymentConfig> | null;
  const okVersion = obj?.apiVersion === ApiVersion || obj?.apiVersion === 'v1';
  if (!obj || typeof obj !== 'object' || obj.kind !== Kind || !okVersion || typeof obj.metadata !== 'object' || obj.metadata === null) {
    throw new DecodeError(`couldn't decode deployment config from deployment ${name}: not a ${ApiVersion} ${Kind}`);
  }
  return { ...obj, spec: obj.spec ?? {} } as DeploymentConfig;
}
