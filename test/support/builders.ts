/**
 * The builders of the unit tests: `dcFor`, the one DeploymentConfig shape each folder's fixtures
 * fill with their defaults; `rcFor`, the one RC builder: the RC the DC controller makes (the real
 * `makeDeployment`) for a DC at a version, then moved to the state a test needs, as the deployer
 * and the API server would have left it.
 */
import type { V1Container, V1PodTemplateSpec, V1ReplicationController, V1Volume } from '@kubernetes/client-node';
import { Annotations, ApiVersion, CancelledTrue, Kind } from '../../src/apis/constants.js';
import type { DeploymentConfig, DeploymentConfigSpec } from '../../src/apis/deploymentconfig.js';
import type { ImageStream, TagReference } from '../../src/apis/imagestream.js';
import { applyDefaults } from '../../src/apps/defaults.js';
import { makeDeployment } from '../../src/deploymentconfig/make-deployment.js';

export interface DcShape {
  name: string;
  namespace: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  labels?: Record<string, string>;
  /** spec.selector, and the template's labels unless `template` is given; default `app=<name>`. */
  selector?: Record<string, string>;
  /** The pod template's containers and volumes, or the whole `template`. */
  containers?: V1Container[];
  volumes?: V1Volume[];
  template?: V1PodTemplateSpec;
  /** The other spec fields (replicas, strategy, triggers, paused, test, ...). */
  spec?: Omit<Partial<DeploymentConfigSpec>, 'selector' | 'template'>;
  status?: DeploymentConfig['status'];
}

/** A DeploymentConfig as a user writes it (plus the metadata and status a test needs). */
export function dcFor(o: DcShape): DeploymentConfig {
  const selector = o.selector ?? { app: o.name };
  const metadata: DeploymentConfig['metadata'] = { name: o.name, namespace: o.namespace };
  if (o.uid !== undefined) metadata.uid = o.uid;
  if (o.resourceVersion !== undefined) metadata.resourceVersion = o.resourceVersion;
  if (o.generation !== undefined) metadata.generation = o.generation;
  if (o.labels !== undefined) metadata.labels = o.labels;
  const template = o.template ?? { metadata: { labels: selector }, spec: { containers: o.containers ?? [], ...(o.volumes ? { volumes: o.volumes } : {}) } };
  return {
    apiVersion: ApiVersion, kind: Kind, metadata,
    spec: { ...o.spec, selector, template },
    ...(o.status ? { status: o.status } : {}),
  };
}

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
