/**
 * API-server implementations of the ports in controller/ports.ts.
 *
 * Contract for every method here:
 * - Errors are converted with `toApiError`, so callers use `isNotFound`/`isConflict`/… .
 * - Every returned object is in PLAIN JSON form (`toPlain`): timestamps are RFC 3339 strings,
 *   never `Date`, exactly like objects delivered by watches, and no key holds `undefined`.
 * - Patches always carry an explicit Content-Type (client-node would otherwise send every patch
 *   as `application/json-patch+json`); custom resources accept only merge and JSON patches.
 * - Writes send `fieldManager` when one is configured.
 */
import {
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type CoreV1Event,
  type KubeConfig,
  type V1Pod,
  type V1ReplicationController,
  type V1Scale,
} from '@kubernetes/client-node';
import { Group, Plural, Version } from '../apis/constants.js';
import { specWithoutNulls } from '../apis/nulls.js';
import { toPublicApiVersion, toStorageApiVersion } from '../apis/storage.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import type {
  DeploymentConfigClient,
  EventClient,
  PatchType,
  PodClient,
  PropagationPolicy,
  ReplicationControllerClient,
} from '../controller/ports.js';
import { makeApiClient } from './client.js';
import { wrapApi } from './errors.js';
import { toPlain } from './plain.js';

/** Options shared by all clients made by `makeClients`. */
export interface ClientOptions {
  /** Sent as `fieldManager` on create/update/patch (shows up in managedFields). */
  readonly fieldManager?: string;
  /** Sent as the User-Agent header. */
  readonly userAgent?: string;
  /** Group that stores DeploymentConfigs (docs/apiserver.md). @default apps.openshift.io */
  readonly dcGroup?: string;
}

/** The full set of port implementations. */
export interface Clients {
  readonly deploymentConfigs: DeploymentConfigClient;
  readonly replicationControllers: ReplicationControllerClient;
  readonly pods: PodClient;
  readonly events: EventClient;
  /** The underlying typed APIs, for callers (informer list functions) that need more. */
  readonly core: CoreV1Api;
  readonly customObjects: CustomObjectsApi;
}

const contentTypes: Record<PatchType, string> = {
  merge: PatchStrategy.MergePatch,
  strategic: PatchStrategy.StrategicMergePatch,
  json: PatchStrategy.JsonPatch,
};

/** Header option that makes a patch call send the right Content-Type. */
export function patchOptions(type: PatchType): ReturnType<typeof setHeaderOptions> {
  return setHeaderOptions('Content-Type', contentTypes[type]);
}

/** `p`'s answer in plain JSON form, its failure as an ApiError. */
export async function plain<T>(p: Promise<T>): Promise<T> {
  return toPlain(await wrapApi(p));
}

function requireName(obj: { metadata?: { name?: string; namespace?: string } }): { name: string; namespace: string } {
  const name = obj.metadata?.name;
  const namespace = obj.metadata?.namespace;
  if (!name || !namespace) throw new TypeError('object must have metadata.name and metadata.namespace');
  return { name, namespace };
}

/**
 * DeploymentConfigs through CustomObjectsApi (status via the /status subresource), in the group
 * that stores them. Objects go out and come back as `apps.openshift.io/v1` whatever that group.
 */
export class KubeDeploymentConfigClient implements DeploymentConfigClient {
  private readonly coords: { group: string; version: string; plural: string };

  constructor(
    private readonly api: CustomObjectsApi,
    private readonly fieldManager?: string,
    private readonly group: string = Group,
  ) {
    this.coords = { group, version: Version, plural: Plural };
  }

  private async read(p: Promise<unknown>): Promise<DeploymentConfig> {
    // As OpenShift's API answered: no null field in the spec (src/apis/nulls.ts).
    return specWithoutNulls(toPublicApiVersion(await plain(p as Promise<DeploymentConfig>), this.group));
  }

  private body(dc: DeploymentConfig): DeploymentConfig {
    return toStorageApiVersion(dc, this.group);
  }

  get(namespace: string, name: string): Promise<DeploymentConfig> {
    return this.read(this.api.getNamespacedCustomObject({ ...this.coords, namespace, name }));
  }

  updateStatus(dc: DeploymentConfig): Promise<DeploymentConfig> {
    const { name, namespace } = requireName(dc);
    return this.read(
      this.api.replaceNamespacedCustomObjectStatus({ ...this.coords, namespace, name, body: this.body(dc), fieldManager: this.fieldManager }),
    );
  }

  update(dc: DeploymentConfig): Promise<DeploymentConfig> {
    const { name, namespace } = requireName(dc);
    return this.read(
      this.api.replaceNamespacedCustomObject({ ...this.coords, namespace, name, body: this.body(dc), fieldManager: this.fieldManager }),
    );
  }

  patch(namespace: string, name: string, patch: unknown, type: 'merge' | 'json'): Promise<DeploymentConfig> {
    return this.read(
      this.api.patchNamespacedCustomObject(
        { ...this.coords, namespace, name, body: patch as object, fieldManager: this.fieldManager },
        patchOptions(type),
      ),
    );
  }

  /** Patches the /status subresource (merge or JSON patch). */
  patchStatus(namespace: string, name: string, patch: unknown, type: 'merge' | 'json'): Promise<DeploymentConfig> {
    return this.read(
      this.api.patchNamespacedCustomObjectStatus(
        { ...this.coords, namespace, name, body: patch as object, fieldManager: this.fieldManager },
        patchOptions(type),
      ),
    );
  }
}

/** ReplicationControllers through CoreV1Api, including the scale subresource. */
export class KubeReplicationControllerClient implements ReplicationControllerClient {
  constructor(
    private readonly api: CoreV1Api,
    private readonly fieldManager?: string,
  ) {}

  get(namespace: string, name: string): Promise<V1ReplicationController> {
    return plain(this.api.readNamespacedReplicationController({ namespace, name }));
  }

  async list(namespace: string, labelSelector?: string): Promise<V1ReplicationController[]> {
    const list = await wrapApi(this.api.listNamespacedReplicationController({ namespace, labelSelector }));
    return list.items.map((rc) => toPlain(rc));
  }

  create(namespace: string, rc: V1ReplicationController): Promise<V1ReplicationController> {
    return plain(this.api.createNamespacedReplicationController({ namespace, body: rc, fieldManager: this.fieldManager }));
  }

  update(rc: V1ReplicationController): Promise<V1ReplicationController> {
    const { name, namespace } = requireName(rc);
    return plain(this.api.replaceNamespacedReplicationController({ namespace, name, body: rc, fieldManager: this.fieldManager }));
  }

  patch(namespace: string, name: string, patch: unknown, type: PatchType): Promise<V1ReplicationController> {
    return plain(
      this.api.patchNamespacedReplicationController(
        { namespace, name, body: patch, fieldManager: this.fieldManager },
        patchOptions(type),
      ),
    );
  }

  async delete(namespace: string, name: string, propagationPolicy?: PropagationPolicy): Promise<void> {
    await wrapApi(this.api.deleteNamespacedReplicationController({ namespace, name, propagationPolicy }));
  }

  getScale(namespace: string, name: string): Promise<V1Scale> {
    return plain(this.api.readNamespacedReplicationControllerScale({ namespace, name }));
  }

  updateScale(namespace: string, name: string, scale: V1Scale): Promise<V1Scale> {
    return plain(
      this.api.replaceNamespacedReplicationControllerScale({ namespace, name, body: scale, fieldManager: this.fieldManager }),
    );
  }
}

/** Pods through CoreV1Api. */
export class KubePodClient implements PodClient {
  constructor(
    private readonly api: CoreV1Api,
    private readonly fieldManager?: string,
  ) {}

  get(namespace: string, name: string): Promise<V1Pod> {
    return plain(this.api.readNamespacedPod({ namespace, name }));
  }

  async list(namespace: string, labelSelector?: string): Promise<V1Pod[]> {
    const list = await wrapApi(this.api.listNamespacedPod({ namespace, labelSelector }));
    return list.items.map((p) => toPlain(p));
  }

  create(namespace: string, pod: V1Pod): Promise<V1Pod> {
    return plain(this.api.createNamespacedPod({ namespace, body: pod, fieldManager: this.fieldManager }));
  }

  patch(namespace: string, name: string, patch: unknown, type: PatchType): Promise<V1Pod> {
    return plain(
      this.api.patchNamespacedPod({ namespace, name, body: patch, fieldManager: this.fieldManager }, patchOptions(type)),
    );
  }

  async delete(namespace: string, name: string, gracePeriodSeconds?: number): Promise<void> {
    await wrapApi(this.api.deleteNamespacedPod({ namespace, name, gracePeriodSeconds }));
  }
}

/** core/v1 Events through CoreV1Api. */
export class KubeEventClient implements EventClient {
  constructor(
    private readonly api: CoreV1Api,
    private readonly fieldManager?: string,
  ) {}

  async create(namespace: string, event: CoreV1Event): Promise<void> {
    await wrapApi(this.api.createNamespacedEvent({ namespace, body: event, fieldManager: this.fieldManager }));
  }

  async list(namespace: string, fieldSelector?: string): Promise<CoreV1Event[]> {
    const list = await wrapApi(this.api.listNamespacedEvent({ namespace, fieldSelector }));
    return list.items.map((e) => toPlain(e));
  }

  async patch(namespace: string, name: string, patch: unknown): Promise<void> {
    await wrapApi(
      this.api.patchNamespacedEvent({ namespace, name, body: patch, fieldManager: this.fieldManager }, patchOptions('merge')),
    );
  }
}

/** Builds every port implementation against the cluster of `kc`. */
export function makeClients(kc: KubeConfig, opts: ClientOptions = {}): Clients {
  const core = makeApiClient(kc, CoreV1Api, { userAgent: opts.userAgent });
  const customObjects = makeApiClient(kc, CustomObjectsApi, { userAgent: opts.userAgent });
  return {
    deploymentConfigs: new KubeDeploymentConfigClient(customObjects, opts.fieldManager, opts.dcGroup ?? Group),
    replicationControllers: new KubeReplicationControllerClient(core, opts.fieldManager),
    pods: new KubePodClient(core, opts.fieldManager),
    events: new KubeEventClient(core, opts.fieldManager),
    core,
    customObjects,
  };
}
