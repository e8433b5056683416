/**
 * Wiring of the DeploymentConfig controller (semantics §3.1): DC events enqueue the DC; RC update
 * and delete events enqueue the DC named by the RC's `openshift.io/deployment-config.name`
 * annotation, if that DC is in the cache. RC adds are not handled, as in OpenShift: the DC's own
 * update after it bumps latestVersion drives the creation path.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import type { Lister } from '../controller/ports.js';
import type { WorkQueue } from '../controller/workqueue.js';
import { objectKey } from '../util/keys.js';

/** The subset of an informer the wiring needs. */
export interface EventSource<T> {
  on(event: 'add' | 'delete', handler: (obj: T) => void): void;
  on(event: 'update', handler: (oldObj: T, newObj: T) => void): void;
}

/** Key of the DC an RC belongs to, when that DC is cached; undefined otherwise. */
export function dcKeyForRc(rc: V1ReplicationController, dcLister: Lister<DeploymentConfig>): string | undefined {
  const dcName = rc.metadata?.annotations?.[Annotations.DeploymentConfig];
  const namespace = rc.metadata?.namespace;
  if (!dcName || !namespace) return undefined;
  return dcLister.get(namespace, dcName) ? objectKey(namespace, dcName) : undefined;
}

export function wireDeploymentConfigController(opts: {
  dcs: EventSource<DeploymentConfig>;
  rcs: EventSource<V1ReplicationController>;
  dcLister: Lister<DeploymentConfig>;
  queue: WorkQueue;
}): void {
  const { dcs, rcs, dcLister, queue } = opts;
  const enqueueDc = (dc: DeploymentConfig) => {
    if (dc.metadata?.namespace && dc.metadata.name) queue.add(objectKey(dc.metadata.namespace, dc.metadata.name));
  };
  // DC updates are not filtered by resourceVersion: the periodic resync must reconcile every DC.
  dcs.on('add', enqueueDc);
  dcs.on('update', (_old, dc) => enqueueDc(dc));
  dcs.on('delete', enqueueDc);
  const enqueueOwner = (rc: V1ReplicationController) => {
    const key = dcKeyForRc(rc, dcLister);
    if (key) queue.add(key);
  };
  rcs.on('update', (old, rc) => {
    if (old.metadata?.resourceVersion === rc.metadata?.resourceVersion) return;
    enqueueOwner(rc);
  });
  rcs.on('delete', enqueueOwner);
}
