/**
 * The deployer process's ports (src/deployer/ports.ts) on the small REST client of
 * src/kube/rest.ts: what `dcctl deploy` uses whenever its kubeconfig allows (the file comment of
 * rest.ts says why not client-node). Same contract as src/kube/clients.ts: ApiError on failure,
 * plain JSON objects, patches with their own Content-Type.
 */
import type { CoreV1Event, V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import type { EventClient, PatchType, PodClient } from '../controller/ports.js';
import type { DeployerDeps, DeployerRcClient, PodLogs } from '../deployer/ports.js';
import { systemDeployerClock } from '../deployer/ports.js';
import type { ImageStreamClient } from '../image/ports.js';
import { KubeDeployerWatchers, type DeployerLists, type ListAnswer } from './deployer-io.js';
import { PatchContentTypes } from '../util/patch-content-types.js';
import { watchRcWarnings } from './rc-warnings.js';
import type { RestClient } from './rest.js';
import { restImageStreamClient } from './rest-imagestreams.js';
import { corePath as core } from './rest-paths.js';

/** Everything `dcctl deploy` needs, on one RestClient. */
export interface RestDeployerPorts {
  readonly rcs: DeployerRcClient;
  readonly pods: PodClient;
  readonly events: EventClient;
  readonly lists: DeployerLists;
  readonly logs: PodLogs;
  readonly imageStreams: ImageStreamClient;
}

export function restDeployerPorts(rest: RestClient): RestDeployerPorts {
  const list = <T>(path: string, selector: Record<string, string | undefined>): Promise<ListAnswer<T>> =>
    rest.request<ListAnswer<T>>('GET', path, { query: selector });
  const patch = <T>(path: string, body: unknown, type: PatchType): Promise<T> =>
    rest.request<T>('PATCH', path, { body, contentType: PatchContentTypes[type] });

  return {
    rcs: {
      get: (namespace, name) => rest.request<V1ReplicationController>('GET', core(namespace, 'replicationcontrollers', name)),
      patch: (namespace, name, body, type) => patch<V1ReplicationController>(core(namespace, 'replicationcontrollers', name), body, type),
    },
    pods: {
      get: (namespace, name) => rest.request<V1Pod>('GET', core(namespace, 'pods', name)),
      list: async (namespace, labelSelector) => (await list<V1Pod>(core(namespace, 'pods'), { labelSelector })).items,
      create: (namespace, pod) => rest.request<V1Pod>('POST', core(namespace, 'pods'), { body: pod }),
      patch: (namespace, name, body, type) => patch<V1Pod>(core(namespace, 'pods', name), body, type),
      delete: async (namespace, name, gracePeriodSeconds) => {
        await rest.request('DELETE', core(namespace, 'pods', name), { query: { gracePeriodSeconds } });
      },
    },
    events: {
      create: async (namespace, event) => {
        await rest.request('POST', core(namespace, 'events'), { body: event });
      },
      list: async (namespace, fieldSelector) => (await list<CoreV1Event>(core(namespace, 'events'), { fieldSelector })).items,
      patch: async (namespace, name, body) => {
        await patch(core(namespace, 'events', name), body, 'merge');
      },
    },
    lists: {
      replicationControllers: (namespace, selector) => list<V1ReplicationController>(core(namespace, 'replicationcontrollers'), selector),
      pods: (namespace, selector) => list<V1Pod>(core(namespace, 'pods'), selector),
    },
    logs: {
      follow: (namespace, pod, container, out) => rest.stream(core(namespace, 'pods', pod, 'log'), { container, follow: true }, out),
    },
    imageStreams: restImageStreamClient(rest),
  };
}

/** DeployerDeps on a RestClient: the ports, one shared list+watch per waited-on object, the system clock. */
export function restDeployerDeps(rest: RestClient): DeployerDeps {
  const ports = restDeployerPorts(rest);
  const watchers = new KubeDeployerWatchers(ports.lists, rest, { streamingLists: true });
  return {
    rcs: ports.rcs,
    pods: ports.pods,
    events: ports.events,
    rcWatcher: watchers,
    podWatcher: watchers,
    logs: ports.logs,
    clock: systemDeployerClock,
    imageStreams: ports.imageStreams,
    watchRcWarnings: (namespace, resourceVersion) => watchRcWarnings(rest, namespace, resourceVersion),
    close: () => watchers.close(),
  };
}
