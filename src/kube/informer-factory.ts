/**
 * Informers from one description of what to cache (client-go's SharedInformerFactory, small):
 * the resource (group, version, plural), the namespace (or all) and the label selector. The
 * watch path and the list call are both derived from that description here, so they cannot
 * select different objects, and the namespaced-or-cluster choice is made once.
 *
 * Controllers ask the factory for the informers they need; `start()` starts exactly those, so a
 * disabled controller costs no cache.
 */
import type { CoreV1Api, CustomObjectsApi, KubernetesObject, V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { Group, Plural } from '../apis/constants.js';
import { ImageGroup } from '../apis/imagestream.js';
import type { ResourceDescription } from '../apis/resources.js';
import { toPublicApiVersion } from '../apis/storage.js';
import type { InformerSource } from '../controller/ports.js';
import { stripManagedFieldsAndSpecNulls, slimPod, stripManagedFields } from './cache-transforms.js';
import { createInformer, type Informer, type ListResult, type WatchLike } from './informer.js';

export interface InformerFactoryOptions {
  /** Scope of every informer; undefined means all namespaces. */
  readonly namespace?: string;
  /** Period of the synthetic update for every cached object; 0 disables. */
  readonly resyncMs: number;
  readonly log: Logger;
  /** Opens the watches (the small JSON client, or client-node's Watch); also the seam for unit tests. */
  readonly watch: WatchLike;
  /**
   * Lists what an informer watches: `resource` (its selectors) at `path`, its collection path in
   * the factory's namespace. On the small JSON client by path (src/kube/rest-clients.ts), on
   * client-node through its typed calls (listFor).
   */
  readonly list: InformerList;
  /**
   * Group that stores DeploymentConfigs (API mode: apps.dcctl.io, docs/apiserver.md). The DC
   * informer lists and watches that group and caches the objects as apps.openshift.io/v1.
   */
  readonly dcGroup?: string;
}

export type InformerList = (resource: ResourceDescription, namespace: string | undefined, path: string) => Promise<ListResult<KubernetesObject>>;

/** The list calls listFor needs (the typed clients of src/kube/clients.ts). */
export interface ListClients {
  readonly core: Pick<CoreV1Api,
    'listNamespacedReplicationController' | 'listReplicationControllerForAllNamespaces' | 'listNamespacedPod' | 'listPodForAllNamespaces'
    | 'listNamespacedServiceAccount' | 'listServiceAccountForAllNamespaces'>;
  readonly customObjects: Pick<CustomObjectsApi, 'listNamespacedCustomObject' | 'listClusterCustomObject'>;
}

/** The collection path a watch of `resource` in `namespace` (undefined: all) opens. */
export function collectionPath(resource: ResourceDescription, namespace: string | undefined): string {
  const prefix = resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
  return namespace ? `${prefix}/namespaces/${namespace}/${resource.plural}` : `${prefix}/${resource.plural}`;
}

/**
 * The list call matching `collectionPath(resource, namespace)` with the same selectors. Groups
 * other than core (built-in ones such as rbac.authorization.k8s.io too) are listed by path
 * through the custom-objects client.
 */
export function listFor<T>(clients: ListClients, resource: ResourceDescription, namespace: string | undefined): () => Promise<ListResult<T>> {
  const { labelSelector, fieldSelector } = resource;
  const { group, version, plural } = resource;
  if (group !== '') {
    return async () => (await (namespace
      ? clients.customObjects.listNamespacedCustomObject({ group, version, plural, namespace, labelSelector, fieldSelector })
      : clients.customObjects.listClusterCustomObject({ group, version, plural, labelSelector, fieldSelector }))) as ListResult<T>;
  }
  switch (plural) {
    case 'replicationcontrollers':
      return async () => (await (namespace
        ? clients.core.listNamespacedReplicationController({ namespace, labelSelector, fieldSelector })
        : clients.core.listReplicationControllerForAllNamespaces({ labelSelector, fieldSelector }))) as unknown as ListResult<T>;
    case 'pods':
      return async () => (await (namespace
        ? clients.core.listNamespacedPod({ namespace, labelSelector, fieldSelector })
        : clients.core.listPodForAllNamespaces({ labelSelector, fieldSelector }))) as unknown as ListResult<T>;
    case 'serviceaccounts':
      return async () => (await (namespace
        ? clients.core.listNamespacedServiceAccount({ namespace, labelSelector, fieldSelector })
        : clients.core.listServiceAccountForAllNamespaces({ labelSelector, fieldSelector }))) as unknown as ListResult<T>;
    default:
      throw new Error(`no list call for core resource "${plural}"`);
  }
}

/**
 * What the cache of `resource` keeps (cache-transforms.ts, docs/design.md §1.1): pods are slimmed
 * to what the deployer controller reads, DCs and ImageStreams lose the null fields of their spec
 * too; every other object loses only its managedFields.
 * `publicFromGroup`: DCs stored in that group are cached as apps.openshift.io/v1.
 */
export function cacheTransformFor(resource: ResourceDescription, publicFromGroup?: string): (obj: KubernetesObject) => KubernetesObject {
  if (resource.group === '' && resource.plural === 'pods') return (obj) => slimPod(obj as V1Pod);
  if (publicFromGroup !== undefined) return (obj) => toPublicApiVersion(stripManagedFieldsAndSpecNulls(obj), publicFromGroup);
  if ((resource.plural === Plural && resource.group === Group) || resource.group === ImageGroup) return stripManagedFieldsAndSpecNulls;
  return stripManagedFields;
}

/** Creates each described informer once and starts and stops the ones that were asked for. */
export class InformerFactory implements InformerSource {
  private readonly informers = new Map<string, Informer<KubernetesObject>>();

  constructor(private readonly opts: InformerFactoryOptions) {}

  /**
   * The informer for `resource` (the same one for the same description). `indexers` can only be
   * given by the first request: the composition asks for an indexed informer before the
   * controllers that share it.
   */
  informerFor<T>(requested: ResourceDescription, opts: { indexers?: Record<string, (obj: T) => string[]> } = {}): Informer<T & KubernetesObject> {
    const dcGroup = this.opts.dcGroup;
    const storedElsewhere = dcGroup !== undefined && dcGroup !== Group && requested.group === Group && requested.plural === Plural;
    const resource = storedElsewhere ? { ...requested, group: dcGroup } : requested;
    const path = collectionPath(resource, this.opts.namespace);
    const key = `${path}?${resource.labelSelector ?? ''}&${resource.fieldSelector ?? ''}`;
    let informer = this.informers.get(key);
    if (informer && opts.indexers) throw new Error(`informer for ${key} already exists: indexers must come with the first request`);
    if (!informer) {
      const { list, namespace } = this.opts;
      informer = createInformer<KubernetesObject>({
        path,
        labelSelector: resource.labelSelector,
        fieldSelector: resource.fieldSelector,
        list: () => list(resource, namespace, path),
        resyncMs: this.opts.resyncMs,
        transform: cacheTransformFor(resource, storedElsewhere ? dcGroup : undefined),
        indexers: opts.indexers as Record<string, (obj: KubernetesObject) => string[]> | undefined,
        log: this.opts.log.child({ informer: resource.plural }),
        watch: this.opts.watch,
      });
      this.informers.set(key, informer);
    }
    return informer as Informer<T & KubernetesObject>;
  }

  /** Starts every informer asked for so far; resolves once all have listed. */
  async start(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.start()));
  }

  stop(): void {
    for (const i of this.informers.values()) i.stop();
  }
}
