/**
 * Indexes of the RC cache for the DC controller: a sync claims only the RCs labelled for its DC
 * and the RCs its DC controls (§4.3), so it need not scan every RC of the namespace (with 1000
 * DCs in one namespace, 3000 RCs on every sync).
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Labels } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import type { MutationCache } from '../controller/mutation-cache.js';

/** Index functions, for the RC informer's `indexers`. */
export const rcIndexers = {
  /** `namespace/<dc>` of the `openshift.io/deployment-config.name` label. */
  dcLabel: (rc: V1ReplicationController): string[] => {
    const dc = rc.metadata?.labels?.[Labels.DeploymentConfig];
    return dc ? [`${rc.metadata?.namespace ?? ''}/${dc}`] : [];
  },
  /** UID of the controlling owner. */
  controllerUid: (rc: V1ReplicationController): string[] =>
    (rc.metadata?.ownerReferences ?? []).filter((r) => r.controller === true).map((r) => r.uid),
};

/** Whether a claim of `dc` can concern `rc`: labelled for it, or controlled by it. */
export function claimCandidate(dc: DeploymentConfig, rc: V1ReplicationController): boolean {
  const namespace = dc.metadata.namespace ?? '';
  if (rc.metadata?.namespace !== namespace) return false;
  return rcIndexers.dcLabel(rc).includes(`${namespace}/${dc.metadata.name ?? ''}`)
    || rcIndexers.controllerUid(rc).includes(dc.metadata.uid ?? '');
}

/** The `rcsForDc` of the DC sync over an indexed informer and our mutation cache. */
export function indexedRcsForDc(
  informer: { byIndex(index: string, value: string): V1ReplicationController[] },
  cache: MutationCache<V1ReplicationController>,
): (dc: DeploymentConfig) => V1ReplicationController[] {
  return (dc) => {
    const namespace = dc.metadata.namespace ?? '';
    const labelled = informer.byIndex('dcLabel', `${namespace}/${dc.metadata.name ?? ''}`);
    const controlled = informer.byIndex('controllerUid', dc.metadata.uid ?? '').filter((rc) => rc.metadata?.namespace === namespace);
    const union = [...new Set([...labelled, ...controlled])];
    // Our newer writes swapped in; RCs we just created (not yet watched) included.
    return cache.overlay(union, (rc) => claimCandidate(dc, rc));
  };
}
