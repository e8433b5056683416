/**
 * The one RC builder of the unit tests: the RC the DC controller makes (the real
 * `makeDeployment`) for a DC at a version, then moved to the state a test needs, as the deployer
 * and the API server would have left it.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, CancelledTrue } from '../../src/apis/constants.js';
import type { DeploymentConfig } from '../../src/apis/deploymentconfig.js';
import type { ImageStream, TagReference } from '../../src/apis/imagestream.js';
import { applyDefaults } from '../../src/apps/defaults.js';
import { makeDeployment } from '../../src/deploymentconfig/make-deployment.js';

export interface RcOptions {
  /** Phase annotation; default Complete. */
  phase?: string;
  /** spec.replicas; default 0. */
  replicas?: number;
  /** status.replicas (default: replicas), availableReplicas and readyReplicas (default: the one before). */
  statusReplicas?: number;
  available?: number;
  ready?: number;
  cancelled?: boolean;
  /** Status-reason annotation; default: the cause makeDeployment records. */
  reason?: string;
  /** creationTimestamp, as the API server sets it. */
  created?: Date | string;
  /** Stored-object identity. */
  uid?: string;
  resourceVersion?: string;
  /** Apply the DC defaults before encoding (the controller always does); default true. */
  defaulted?: boolean;
  /** Last changes, after everything above. */
  mutate?: (rc: V1ReplicationController) => void;
}

/** The RC for `dc` at `version` as makeDeployment makes it, moved to the state `o` describes. */
export function rcFor(dc: DeploymentConfig, version: number, o: RcOptions = {}): V1ReplicationController {
  const at = o.defaulted === false ? structuredClone(dc) : applyDefaults(dc);
  at.status = { ...(at.status ?? {}), latestVersion: version, details: at.status?.details ?? { message: 'config change', causes: [{ type: 'ConfigChange' }] } };
  const rc = makeDeployment(at);
  const meta = rc.metadata!;
  meta.annotations![Annotations.Phase] = o.phase ?? 'Complete';
  if (o.cancelled) meta.annotations![Annotations.Cancelled] = CancelledTrue;
  if (o.reason !== undefined) meta.annotations![Annotations.StatusReason] = o.reason;
  if (o.created !== undefined) meta.creationTimestamp = (typeof o.created === 'string' ? o.created : o.created.toISOString()) as unknown as Date;
  if (o.uid !== undefined) meta.uid = o.uid;
  if (o.resourceVersion !== undefined) meta.resourceVersion = o.resourceVersion;
  rc.spec!.replicas = o.replicas ?? 0;
  rc.status = {
    replicas: o.statusReplicas ?? o.replicas ?? 0,
    availableReplicas: o.available ?? o.statusReplicas ?? o.replicas ?? 0,
    readyReplicas: o.ready ?? o.available ?? o.statusReplicas ?? o.replicas ?? 0,
  };
  o.mutate?.(rc);
  return rc;
}

/** An ImageStream `<namespace>/<name>` with the given spec tags (no status). */
export function stream(name: string, tags: TagReference[], namespace = 'ns'): ImageStream {
  return { apiVersion: 'image.openshift.io/v1', kind: 'ImageStream', metadata: { name, namespace, generation: 1 }, spec: { tags } };
}

/** A spec tag pointing at a pull spec. */
export const dockerTag = (name: string, image: string, extra: Partial<TagReference> = {}): TagReference =>
  ({ name, from: { kind: 'DockerImage', name: image }, ...extra });
