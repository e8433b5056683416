/**
 * The `openshift.io/encoded-deployment-config` annotation: the DC as it was when its RC was made.
 * Decoding accepts the group form and the legacy group-less `v1` form, as appsserialization does.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, ApiVersion, Kind } from './constants.js';
import type { DeploymentConfig } from './deploymentconfig.js';
import { jsonNestingDepth, MaxNestingDepth } from '../util/json-depth.js';

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

/** Parses the encoded DC; throws DecodeError with OpenShift's message when absent or malformed. */
export function decodeDeploymentConfig(rc: V1ReplicationController): DeploymentConfig {
  const raw = rc.metadata?.annotations?.[Annotations.EncodedConfig];
  const name = `${rc.metadata?.namespace ?? ''}/${rc.metadata?.name ?? ''}`;
  if (!raw) throw new DecodeError(`object ${name} does not have encoded deployment config annotation`);
  if (jsonNestingDepth(raw) > MaxNestingDepth) {
    throw new DecodeError(`couldn't decode deployment config from deployment ${name}: nested deeper than ${MaxNestingDepth} levels`);
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
