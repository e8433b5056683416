/**
 * ImageStreams (crds/imagestream.yaml) through CustomObjectsApi, with the contract of
 * clients.ts: ApiError on failure, plain JSON results, fieldManager on writes. For `dcctl tag`,
 * and for the controller and the deployer when their kubeconfig needs client-node; otherwise
 * they use src/kube/rest-imagestreams.ts.
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

/** `clientAs` of deployerImageStreamClients (src/kube/deployer-imagestreams.ts) on the cluster of `kc`. */
export function impersonatingImageStreamClients(kc: KubeConfig, fieldManager: string | undefined): (user: string) => ImageStreamClient {
  return (impersonateUser) => {
    const user = kc.getCurrentUser();
    const as = new KubeConfig();
    as.loadFromOptions({
      clusters: kc.clusters,
      contexts: kc.contexts,
      currentContext: kc.currentContext,
      users: kc.users.map((u) => (u.name === user?.name ? { ...u, impersonateUser } : u)),
    });
    return new KubeImageStreamClient(as.makeApiClient(CustomObjectsApi), fieldManager);
  };
}
