/**
 * ImageStream clients that act as the deployer service account `serviceAccount` of a namespace
 * (impersonation), one per namespace: what pod-less rollouts (design.md §6.8) use for tagImages
 * hooks. A hook's `to.namespace` comes from the DC, which anyone who may edit DCs writes; with the
 * controller's own cluster-wide rights, a DC in A could have overwritten any image stream tag in
 * any namespace B (and so rolled its image out there). As the deployer pod does in the pod mode,
 * the write now has exactly the rights of A's deployer service account.
 */
import type { ImageStreamClient } from '../image/ports.js';

export interface DeployerImageStreamOptions {
  /** Instruments each client (metrics). */
  readonly wrap?: (c: ImageStreamClient) => ImageStreamClient;
  /** Runs before each request (the deployer access provisioner: the account must exist and be bound). */
  readonly before?: (namespace: string) => Promise<unknown>;
}

/**
 * `clientAs(user)`: an ImageStreamClient that impersonates `user` (the small JSON client's or
 * client-node's, src/kube/rest-imagestreams.ts, src/kube/imagestreams.ts).
 */
export function deployerImageStreamClients(
  clientAs: (user: string) => ImageStreamClient, serviceAccount: string, opts: DeployerImageStreamOptions = {},
): (namespace: string) => ImageStreamClient {
  const wrap = opts.wrap ?? ((c: ImageStreamClient) => c);
  const before = opts.before ?? (async () => undefined);
  const clients = new Map<string, ImageStreamClient>();
  return (namespace) => {
    let client = clients.get(namespace);
    if (!client) {
      const inner = wrap(clientAs(`system:serviceaccount:${namespace}:${serviceAccount}`));
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
