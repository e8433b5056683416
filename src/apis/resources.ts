/**
 * The collections dcctl's controllers cache, each described once (resource and selector); the
 * informer factory in src/kube/ derives both the list call and the watch path from these.
 */
import { Group, Labels, Plural, Version } from './constants.js';
import { ImageGroup, ImageStreamPlural, ImageVersion } from './imagestream.js';

/** What one informer caches. */
export interface ResourceDescription {
  /** API group; `''` is the core group (`/api/v1`). */
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  /** Only objects matching this label selector (e.g. `app` or `a=b,c`). */
  readonly labelSelector?: string;
  /** Only objects matching this field selector (e.g. `metadata.name=deployer`). */
  readonly fieldSelector?: string;
}

export const DeploymentConfigs: ResourceDescription = { group: Group, version: Version, plural: Plural };
export const ReplicationControllers: ResourceDescription = { group: '', version: 'v1', plural: 'replicationcontrollers' };
/**
 * Only deployer and hook pods (they carry this label): the deployer controller never needs
 * application pods, and caching every pod of a cluster costs memory for nothing.
 */
export const DeployerPods: ResourceDescription = { group: '', version: 'v1', plural: 'pods', labelSelector: Labels.DeployerPodFor };
export const ImageStreams: ResourceDescription = { group: ImageGroup, version: ImageVersion, plural: ImageStreamPlural };
/**
 * What deployer pods run as, one object of each per namespace (src/kube/deployer-access.ts):
 * only the objects of that name, so the caches hold one service account and one role binding
 * per namespace, never every namespace's.
 */
export const deployerServiceAccounts = (name: string): ResourceDescription =>
  ({ group: '', version: 'v1', plural: 'serviceaccounts', fieldSelector: `metadata.name=${name}` });
export const deployerRoleBindings = (name: string): ResourceDescription =>
  ({ group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings', fieldSelector: `metadata.name=${name}` });
