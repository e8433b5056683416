/**
 * ImageStreams (crds/imagestream.yaml) through CustomObjectsApi, with the contract of
 * clients.ts: ApiError on failure, plain JSON results, fieldManager on writes.
 */
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { ImageGroup, ImageStreamPlural, ImageVersion, type ImageStream } from '../apis/imagestream.js';
import type { ImageStreamClient } from '../image/ports.js';
import { wrapApi } from './errors.js';
import { toPlain } from './plain.js';

const coords = { group: ImageGroup, version: ImageVersion, plural: ImageStreamPlural } as const;

async function plain(p: Promise<unknown>): Promise<ImageStream> {
  return toPlain(await wrapApi(p)) as ImageStream;
}

function nameOf(stream: ImageStream): { name: string; namespace: string } {
  const { name, namespace } = stream.metadata;
  if (!name || !namespace) throw new TypeError('object must have metadata.name and metadata.namespace');
  return { name, namespace };
}

/** The API-server ImageStreamClient. */
export class KubeImageStreamClient implements ImageStreamClient {
  constructor(
    private readonly api: CustomObjectsApi,
    private readonly fieldManager?: string,
  ) {}

  get(namespace: string, name: string): Promise<ImageStream> {
    return plain(this.api.getNamespacedCustomObject({ ...coords, namespace, name }));
  }

  create(namespace: string, stream: ImageStream): Promise<ImageStream> {
    return plain(this.api.createNamespacedCustomObject({ ...coords, namespace, body: stream, fieldManager: this.fieldManager }));
  }

  update(stream: ImageStream): Promise<ImageStream> {
    const { name, namespace } = nameOf(stream);
    return plain(this.api.replaceNamespacedCustomObject({ ...coords, namespace, name, body: stream, fieldManager: this.fieldManager }));
  }

  updateStatus(stream: ImageStream): Promise<ImageStream> {
    const { name, namespace } = nameOf(stream);
    return plain(this.api.replaceNamespacedCustomObjectStatus({ ...coords, namespace, name, body: stream, fieldManager: this.fieldManager }));
  }
}

/**
 * ImageStream clients that act as the deployer service account `serviceAccount` of a namespace
 * (impersonation), one per namespace: what pod-less rollouts (design.md §6.8) use for tagImages
 * hooks. A hook's `to.namespace` comes from the DC, which anyone who may edit DCs writes; with the
 * controller's own cluster-wide rights, a DC in A could have overwritten any image stream tag in
 * any namespace B (and so rolled its image out there). As the deployer pod does in the pod mode,
 * the write now has exactly the rights of A's deployer service account. `wrap` instruments each
 * client (metrics).
 */
export function deployerImageStreamClients(
  kc: KubeConfig, serviceAccount: string, fieldManager: string | undefined,
  opts: {
    wrap?: (c: ImageStreamClient) => ImageStreamClient;
    /** Runs before each request (the deployer access provisioner: the account must exist and be bound). */
    before?: (namespace: string) => Promise<unknown>;
  } = {},
): (namespace: string) => ImageStreamClient {
  const wrap = opts.wrap ?? ((c: ImageStreamClient) => c);
  const before = opts.before ?? (async () => undefined);
  const clients = new Map<string, ImageStreamClient>();
  return (namespace) => {
    let client = clients.get(namespace);
    if (!client) {
      const user = kc.getCurrentUser();
      const as = new KubeConfig();
      as.loadFromOptions({
        clusters: kc.clusters,
        contexts: kc.contexts,
        currentContext: kc.currentContext,
        users: kc.users.map((u) => (u.name === user?.name ? { ...u, impersonateUser: `system:serviceaccount:${namespace}:${serviceAccount}` } : u)),
      });
      const inner = wrap(new KubeImageStreamClient(as.makeApiClient(CustomObjectsApi), fieldManager));
      client = {
        get: async (ns, name) => { await before(namespace); return inner.get(ns, name); },
        create: async (ns, stream) => { await before(namespace); return inner.create(ns, stream); },
        update: async (stream) => { await before(namespace); return inner.update(stream); },
        updateStatus: async (stream) => { await before(namespace); return inner.updateStatus(stream); },
      };
      clients.set(namespace, client);
    }
    return client;
  };
}
