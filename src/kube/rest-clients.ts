/**
 * The controller's API ports (src/controller/ports.ts) and its informers' list and watch calls on
 * the small JSON client of src/kube/rest.ts, used whenever the kubeconfig allows (loadRestConfig;
 * exec and auth-provider plugins, proxies and merged kubeconfigs stay on client-node,
 * src/kube/clients.ts).
 *
 * Why not client-node for the controller's busy path: every request through its generated API
 * serializes the body and deserializes the answer against its type model (Date objects that
 * toPlain turns back into strings), runs node-fetch, and builds a fresh https.Agent in
 * KubeConfig.applySecurityAuthentication; its Watch splits the stream with readline behind a
 * PassThrough. In a CPU profile of the controller at 100 pod-less rollouts that machinery was
 * about a fifth of the controller's CPU, for requests that are plain JSON in and out
 * (docs/benchmarks.md, "Findings and fixes").
 *
 * Same contract as src/kube/clients.ts: ApiError (code, reason) on failure, plain JSON objects
 * (the API server's own, so timestamps are strings), patches with their own Content-Type,
 * `fieldManager` on every write, DCs read and written in their storage group and returned as
 * apps.openshift.io/v1.
 */
import type { CoreV1Event, KubernetesObject, V1Pod, V1ReplicationController, V1Scale } from '@kubernetes/client-node';
import { Group, Plural, Version } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { specWithoutNulls } from '../apis/nulls.js';
import { toPublicApiVersion, toStorageApiVersion } from '../apis/storage.js';
import type {
  DeploymentConfigClient, EventClient, PatchType, PodClient, PropagationPolicy, ReplicationControllerClient,
} from '../controller/ports.js';
import { PatchContentTypes } from '../util/patch-content-types.js';
import type { ListResult } from './informer.js';
import type { RestClient } from './rest.js';
import { corePath, groupPath, named } from './rest-paths.js';

/** The ports the controller writes through, and its informers' list call. */
export interface RestControllerClients {
  readonly deploymentConfigs: DeploymentConfigClient;
  readonly replicationControllers: ReplicationControllerClient;
  readonly pods: PodClient;
  readonly events: EventClient;
  /** Lists a collection path (as the informers watch it) with their label and field selectors. */
  readonly list: (path: string, labelSelector?: string, fieldSelector?: string) => Promise<ListResult<KubernetesObject>>;
}

export interface RestControllerClientOptions {
  /** Sent as `fieldManager` on create, update and patch. */
  readonly fieldManager?: string;
  /** Group that stores DeploymentConfigs (docs/apiserver.md). @default apps.openshift.io */
  readonly dcGroup?: string;
}

export function restControllerClients(rest: RestClient, opts: RestControllerClientOptions = {}): RestControllerClients {
  const fieldManager = opts.fieldManager;
  const write = { fieldManager };
  const request = <T>(method: string, path: string, body?: unknown, contentType?: string, query?: Record<string, string | number | undefined>): Promise<T> =>
    rest.request<T>(method, path, { query: { ...write, ...query }, body, contentType });
  const patch = <T>(path: string, body: unknown, type: PatchType): Promise<T> => request<T>('PATCH', path, body, PatchContentTypes[type]);
  const get = <T>(path: string, query?: Record<string, string | undefined>): Promise<T> => rest.request<T>('GET', path, { query });
  const items = async <T>(path: string, query: Record<string, string | undefined>): Promise<T[]> =>
    (await get<{ items?: T[] }>(path, query)).items ?? [];

  const group = opts.dcGroup ?? Group;
  const dcPath = (namespace: string, name: string, sub?: string): string => groupPath(group, Version, namespace, Plural, name, sub);
  // As OpenShift's API answered: no null field in the spec (src/apis/nulls.ts).
  const publicDc = async (p: Promise<DeploymentConfig>): Promise<DeploymentConfig> => specWithoutNulls(toPublicApiVersion(await p, group));

  const deploymentConfigs: DeploymentConfigClient = {
    get: (namespace, name) => publicDc(get(dcPath(namespace, name))),
    updateStatus: (dc) => {
      const { name, namespace } = named(dc);
      return publicDc(request('PUT', dcPath(namespace, name, 'status'), toStorageApiVersion(dc, group)));
    },
    update: (dc) => {
      const { name, namespace } = named(dc);
      return publicDc(request('PUT', dcPath(namespace, name), toStorageApiVersion(dc, group)));
    },
    patch: (namespace, name, body, type) => publicDc(patch(dcPath(namespace, name), body, type)),
  };

  const rcPath = (namespace: string, name?: string, sub?: string): string => corePath(namespace, 'replicationcontrollers', name, sub);
  const replicationControllers: ReplicationControllerClient = {
    get: (namespace, name) => get(rcPath(namespace, name)),
    list: (namespace, labelSelector) => items<V1ReplicationController>(rcPath(namespace), { labelSelector }),
    create: (namespace, rc) => request('POST', rcPath(namespace), rc),
    update: (rc) => {
      const { name, namespace } = named(rc);
      return request('PUT', rcPath(namespace, name), rc);
    },
    patch: (namespace, name, body, type) => patch(rcPath(namespace, name), body, type),
    delete: async (namespace, name, propagationPolicy?: PropagationPolicy) => {
      await rest.request('DELETE', rcPath(namespace, name), { query: { propagationPolicy } });
    },
    getScale: (namespace, name) => get<V1Scale>(rcPath(namespace, name, 'scale')),
    updateScale: (namespace, name, scale) => request<V1Scale>('PUT', rcPath(namespace, name, 'scale'), scale),
  };

  const podPath = (namespace: string, name?: string): string => corePath(namespace, 'pods', name);
  const pods: PodClient = {
    get: (namespace, name) => get<V1Pod>(podPath(namespace, name)),
    list: (namespace, labelSelector) => items<V1Pod>(podPath(namespace), { labelSelector }),
    create: (namespace, pod) => request<V1Pod>('POST', podPath(namespace), pod),
    patch: (namespace, name, body, type) => patch<V1Pod>(podPath(namespace, name), body, type),
    delete: async (namespace, name, gracePeriodSeconds) => {
      await rest.request('DELETE', podPath(namespace, name), { query: { gracePeriodSeconds } });
    },
  };

  const eventPath = (namespace: string, name?: string): string => corePath(namespace, 'events', name);
  const events: EventClient = {
    create: async (namespace, event) => {
      await request('POST', eventPath(namespace), event);
    },
    list: (namespace, fieldSelector) => items<CoreV1Event>(eventPath(namespace), { fieldSelector }),
    patch: async (namespace, name, body) => {
      await patch(eventPath(namespace, name), body, 'merge');
    },
  };

  return {
    deploymentConfigs,
    replicationControllers,
    pods,
    events,
    list: (path, labelSelector, fieldSelector) => get<ListResult<KubernetesObject>>(path, { labelSelector, fieldSelector }),
  };
}
