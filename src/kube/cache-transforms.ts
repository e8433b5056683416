/**
 * What the informer caches keep of each object (client-go's `SetTransform`), docs/design.md §1.1.
 * Every cached object costs memory for as long as it exists, and the controllers read only part
 * of it; these pure functions drop the rest at the informer's ingestion point.
 *
 * The rule that makes stripping safe: nothing writes a stripped field back. A full-object PUT
 * built from a cached object would erase on the server whatever the cache dropped, so a field is
 * stripped here only when every write of that resource is a patch, a delete, or a PUT that the
 * API server treats as "keep what is stored" for that field:
 * - managedFields: a PUT without them keeps the stored ones (kube-apiserver's field manager
 *   decodes the live object's managedFields when the update carries none), and no controller
 *   reads them. Stripped from every cache.
 * - Pods (the deployer controller's cache of deployer and hook pods): written only by create,
 *   delete and patches, never PUT; the controllers read the metadata, the phase, the message,
 *   the start time and the containers' states. Everything else, the whole spec in particular,
 *   is dropped (test/integration/cache-transforms.test.ts proves a patch from a slimmed pod keeps
 *   the stored spec).
 * - DeploymentConfigs and ReplicationControllers keep everything else: the controllers PUT RCs
 *   (scaling, cancellation) and DCs (image triggers) from their cached copies, and read the
 *   template, the encoded config (docs/design.md §1.1 says why it stays) and the status. The spec
 *   of a DC or an ImageStream loses its null fields, which OpenShift's decoder read as absent
 *   (src/apis/nulls.ts): a PUT of the cached copy drops them from the stored object too, as
 *   OpenShift stored none.
 */
import type { KubernetesObject, V1ContainerStatus, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { specWithoutNulls } from '../apis/nulls.js';

/** managedFields (server-side apply bookkeeping, often larger than the rest of the metadata). */
export function stripManagedFields<T extends KubernetesObject>(obj: T): T {
  if (obj.metadata?.managedFields !== undefined) delete obj.metadata.managedFields;
  return obj;
}

/**
 * A DeploymentConfig or an ImageStream as the controllers read it: no managedFields, and no null
 * field in its spec, which OpenShift's decoder read as absent (src/apis/nulls.ts).
 */
export function stripManagedFieldsAndSpecNulls<T extends KubernetesObject & { spec?: unknown }>(obj: T): T {
  return specWithoutNulls(stripManagedFields(obj));
}

/** The container status fields a hook or deployer pod's outcome is read from. */
function slimContainerStatus(status: V1ContainerStatus): V1ContainerStatus {
  const out: V1ContainerStatus = { name: status.name } as V1ContainerStatus;
  if (status.state !== undefined) out.state = status.state;
  if (status.restartCount !== undefined) out.restartCount = status.restartCount;
  if (status.ready !== undefined) out.ready = status.ready;
  return out;
}

/**
 * A deployer or hook pod as the deployer controller reads it: the metadata (labels, annotations,
 * owner references, timestamps, resourceVersion) without managedFields, and the status's phase,
 * reason, message, start time and container states (the rollout phase, a hook's outcome, the
 * deployer's start and completion times). The spec and the rest of the status are dropped.
 */
export function slimPod(pod: V1Pod): V1Pod {
  const out: V1Pod = {};
  if (pod.apiVersion !== undefined) out.apiVersion = pod.apiVersion;
  if (pod.kind !== undefined) out.kind = pod.kind;
  if (pod.metadata !== undefined) out.metadata = stripManagedFields({ metadata: pod.metadata }).metadata;
  const status = pod.status;
  if (status !== undefined) {
    const slim: V1PodStatus = {};
    if (status.phase !== undefined) slim.phase = status.phase;
    if (status.reason !== undefined) slim.reason = status.reason;
    if (status.message !== undefined) slim.message = status.message;
    if (status.startTime !== undefined) slim.startTime = status.startTime;
    if (status.containerStatuses !== undefined) slim.containerStatuses = status.containerStatuses.map(slimContainerStatus);
    out.status = slim;
  }
  return out;
}
