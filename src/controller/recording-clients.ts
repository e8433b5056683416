/**
 * Clients that tell a MutationCache about every object they wrote, so the listers the syncs read
 * from show our own writes at once (see mutation-cache.ts).
 */
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import type { MutationCache } from './mutation-cache.js';
import type { DeploymentConfigClient, PodClient, ReplicationControllerClient } from './ports.js';

/** Records a written object in `cache` and hands it back. */
const recorder = <T extends object>(cache: MutationCache<T>) => (written: T, created = false): T => {
  cache.mutated(written, created);
  return written;
};

/** `client` whose create, update and patch responses are recorded in `cache`. */
export function recordingRcClient(client: ReplicationControllerClient, cache: MutationCache<V1ReplicationController>): ReplicationControllerClient {
  const record = recorder(cache);
  return {
    get: (namespace, name) => client.get(namespace, name),
    list: (namespace, labelSelector) => client.list(namespace, labelSelector),
    create: async (namespace, rc) => record(await client.create(namespace, rc), true),
    update: async (rc) => record(await client.update(rc)),
    patch: async (namespace, name, patch, type) => record(await client.patch(namespace, name, patch, type)),
    delete: (namespace, name, propagationPolicy) => client.delete(namespace, name, propagationPolicy),
    getScale: (namespace, name) => client.getScale(namespace, name),
    updateScale: (namespace, name, scale) => client.updateScale(namespace, name, scale),
  };
}

/** `client` whose update, updateStatus and patch responses are recorded in `cache`. */
export function recordingDcClient(client: DeploymentConfigClient, cache: MutationCache<DeploymentConfig>): DeploymentConfigClient {
  const record = recorder(cache);
  return {
    get: (namespace, name) => client.get(namespace, name),
    updateStatus: async (dc) => record(await client.updateStatus(dc)),
    update: async (dc) => record(await client.update(dc)),
    patch: async (namespace, name, patch, type) => record(await client.patch(namespace, name, patch, type)),
  };
}

/** `client` whose create and patch responses are recorded in `cache`. */
export function recordingPodClient(client: PodClient, cache: MutationCache<V1Pod>): PodClient {
  const record = recorder(cache);
  return {
    get: (namespace, name) => client.get(namespace, name),
    list: (namespace, labelSelector) => client.list(namespace, labelSelector),
    create: async (namespace, pod) => record(await client.create(namespace, pod), true),
    patch: async (namespace, name, patch, type) => record(await client.patch(namespace, name, patch, type)),
    delete: (namespace, name, gracePeriodSeconds) => client.delete(namespace, name, gracePeriodSeconds),
  };
}
