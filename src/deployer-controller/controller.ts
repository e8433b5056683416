/**
 * Wiring of the deployer controller (semantics §4.1): RC adds and updates enqueue RCs that carry
 * the `openshift.io/deployment-config.name` annotation; pod updates and deletes enqueue the RC
 * named by the pod's `openshift.io/deployment.name` annotation (deployer, hook and application
 * pods all carry it). Pod adds are not handled.
 */
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../apis/constants.js';
import type { Lister } from '../controller/ports.js';
import type { WorkQueue } from '../controller/workqueue.js';
import type { EventSource } from '../deploymentconfig/controller.js';
import { objectKey } from '../util/keys.js';

export const isDeploymentRc = (rc: V1ReplicationController): boolean =>
  Boolean(rc.metadata?.annotations?.[Annotations.DeploymentConfig]);

/** Key of the RC a pod belongs to, when that RC is cached; undefined otherwise. */
export function rcKeyForPod(pod: V1Pod, rcLister: Lister<V1ReplicationController>): string | undefined {
  const rcName = pod.metadata?.annotations?.[Annotations.Deployment];
  const namespace = pod.metadata?.namespace;
  if (!rcName || !namespace) return undefined;
  return rcLister.get(namespace, rcName) ? objectKey(namespace, rcName) : undefined;
}

export function wireDeployerController(opts: {
  rcs: EventSource<V1ReplicationController>;
  pods: EventSource<V1Pod>;
  rcLister: Lister<V1ReplicationController>;
  queue: WorkQueue;
}): void {
  const { rcs, pods, rcLister, queue } = opts;
  const enqueueRc = (rc: V1ReplicationController) => {
    if (isDeploymentRc(rc) && rc.metadata?.namespace && rc.metadata.name) queue.add(objectKey(rc.metadata.namespace, rc.metadata.name));
  };
  rcs.on('add', enqueueRc);
  rcs.on('update', (_old, rc) => enqueueRc(rc));
  const enqueueForPod = (pod: V1Pod) => {
    const key = rcKeyForPod(pod, rcLister);
    if (key) queue.add(key);
  };
  pods.on('update', (old, pod) => {
    if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
    enqueueForPod(pod);
  });
  pods.on('delete', enqueueForPod);
}
