/**
 * Server-side apply of arbitrary objects for `dcctl import --apply`, through client-node's
 * KubernetesObjectApi, which resolves kinds to resources with discovery (cached per apiVersion).
 */
import { ApiException, KubernetesObjectApi, PatchStrategy, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import type { ObjectApplier, ResourceInfo } from '../import/apply.js';
import type { KubeObject } from '../import/types.js';
import { wrapApi } from './errors.js';
import { toPlain } from './plain.js';

/** The field manager import applies with (shows up in managedFields). */
export const ImportFieldManager = 'dcctl-import';

/** Exposes the protected discovery lookup of KubernetesObjectApi. */
class DiscoveringObjectApi extends KubernetesObjectApi {
  lookup(apiVersion: string, kind: string) {
    return this.resource(apiVersion, kind);
  }
}

/** An ObjectApplier for the cluster of `kc`. Apply never forces: conflicts are reported. */
export function makeObjectApplier(kc: KubeConfig, opts: { fieldManager?: string } = {}): ObjectApplier {
  const api = kc.makeApiClient(DiscoveringObjectApi);
  const fieldManager = opts.fieldManager ?? ImportFieldManager;
  return {
    async resource(apiVersion: string, kind: string): Promise<ResourceInfo | undefined> {
      try {
        const r = await api.lookup(apiVersion, kind);
        return r ? { namespaced: r.namespaced } : undefined;
      } catch (err) {
        // A group/version the server does not know answers 404 to discovery.
        if (err instanceof ApiException && err.code === 404) return undefined;
        throw err;
      }
    },
    async apply(obj: KubeObject, dryRun: boolean): Promise<KubeObject> {
      const res = await wrapApi(api.patch(obj as KubernetesObject, undefined, dryRun ? 'All' : undefined, fieldManager, false, PatchStrategy.ServerSideApply));
      return toPlain(res) as unknown as KubeObject;
    },
    async create(obj: KubeObject, dryRun: boolean): Promise<KubeObject> {
      const res = await wrapApi(api.create(obj as KubernetesObject, undefined, dryRun ? 'All' : undefined, fieldManager));
      return toPlain(res) as unknown as KubeObject;
    },
  };
}
