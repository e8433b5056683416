/** The `set` verbs' I/O (src/cli/set/ports.ts) against the API server. */
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { Group, Plural, Version } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { makeApiClient } from './client.js';
import { KubeDeploymentConfigClient, patchOptions } from './clients.js';
import { wrapApi } from './errors.js';
import { toPlain } from './plain.js';

export interface SetIo {
  getDc(namespace: string, name: string): Promise<DeploymentConfig>;
  patchDc(namespace: string, name: string, patch: unknown, dryRun: boolean): Promise<DeploymentConfig>;
  sourceKeys(namespace: string, kind: 'secret' | 'configmap', name: string): Promise<string[]>;
}

export function makeSetIo(kc: KubeConfig, fieldManager: string): SetIo {
  const custom = makeApiClient(kc, CustomObjectsApi, { userAgent: 'dcctl' });
  const core = makeApiClient(kc, CoreV1Api, { userAgent: 'dcctl' });
  const dcs = new KubeDeploymentConfigClient(custom, fieldManager);
  return {
    getDc: (namespace, name) => dcs.get(namespace, name),
    async patchDc(namespace, name, patch, dryRun) {
      const out = await wrapApi(custom.patchNamespacedCustomObject(
        { group: Group, version: Version, plural: Plural, namespace, name, body: patch as object, fieldManager, dryRun: dryRun ? 'All' : undefined },
        patchOptions('merge'),
      ));
      return toPlain(out) as DeploymentConfig;
    },
    async sourceKeys(namespace, kind, name) {
      if (kind === 'secret') {
        const s = await wrapApi(core.readNamespacedSecret({ namespace, name }));
        return Object.keys({ ...s.data, ...s.stringData });
      }
      const cm = await wrapApi(core.readNamespacedConfigMap({ namespace, name }));
      return Object.keys(cm.data ?? {});
    },
  };
}
