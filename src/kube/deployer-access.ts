/**
 * What deployer and hook pods run as in an application namespace: the `deployer` service
 * account and the `system:deployers` RoleBinding to the `system:deployer` ClusterRole (names as on
 * OpenShift, which provisions them in every namespace).
 *
 * Checked with live GETs before EVERY deployer pod creation (two reads per rollout), never
 * remembered: a namespace deleted and re-created, or a RoleBinding someone deleted, used to stay
 * broken until a controller restart (issue 14 item 2). With `manage` the controller re-creates
 * what is missing (it needs get/create on serviceaccounts and rolebindings and `bind` on that one
 * ClusterRole); without it, a DeployerAccessMissingError names what is missing.
 */
import { CoreV1Api, RbacAuthorizationV1Api, type KubeConfig, type V1RoleBinding } from '@kubernetes/client-node';
import { DeployerAccessMissingError, isAlreadyExists, isNotFound } from '../controller/errors.js';
import { makeApiClient } from './client.js';
import { wrapApi } from './errors.js';

export const DeployerClusterRole = 'system:deployer';
export const DeployerRoleBinding = 'system:deployers';

const managedBy = { 'app.kubernetes.io/managed-by': 'deploymentconfig-controller' };

export class DeployerAccessProvisioner {
  private readonly core: CoreV1Api;
  private readonly rbac: RbacAuthorizationV1Api;

  constructor(kc: KubeConfig, private readonly serviceAccount: string, private readonly manage: boolean, userAgent?: string) {
    this.core = makeApiClient(kc, CoreV1Api, { userAgent });
    this.rbac = makeApiClient(kc, RbacAuthorizationV1Api, { userAgent });
  }

  /** Makes sure both exist; returns what it created (for an event), throws when it may not. */
  async ensure(namespace: string): Promise<string[]> {
    const missing: string[] = [];
    const sa = `service account "${this.serviceAccount}"`;
    const rb = `role binding "${DeployerRoleBinding}"`;
    if (!(await this.exists(() => this.core.readNamespacedServiceAccount({ name: this.serviceAccount, namespace })))) missing.push(sa);
    const binding = await this.read(() => this.rbac.readNamespacedRoleBinding({ name: DeployerRoleBinding, namespace }));
    if (!binding) missing.push(rb);
    else if (!this.grants(binding, namespace)) {
      // Someone else's edit: not ours to overwrite, so say exactly what is wrong.
      throw new DeployerAccessMissingError(`role binding "${DeployerRoleBinding}" in namespace "${namespace}" does not bind ClusterRole `
        + `"${DeployerClusterRole}" to service account "${this.serviceAccount}": deployer pods would be refused; fix or delete it`);
    }
    if (missing.length === 0) return [];
    if (!this.manage) {
      throw new DeployerAccessMissingError(`${missing.join(' and ')} missing in namespace "${namespace}" and --manage-deployer-access=false: `
        + `create them (docs/operations.md, "Deployer access") for deployer pods to run`);
    }
    const ignoreExists = (err: unknown) => { if (!isAlreadyExists(err)) throw err; };
    if (missing.includes(sa)) {
      await wrapApi(this.core.createNamespacedServiceAccount({
        namespace, body: { metadata: { name: this.serviceAccount, labels: managedBy } },
      })).catch(ignoreExists);
    }
    if (missing.includes(rb)) {
      await wrapApi(this.rbac.createNamespacedRoleBinding({
        namespace,
        body: {
          metadata: { name: DeployerRoleBinding, labels: managedBy },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: DeployerClusterRole },
          subjects: [{ kind: 'ServiceAccount', name: this.serviceAccount, namespace }],
        },
      })).catch(ignoreExists);
    }
    return missing;
  }

  private grants(binding: V1RoleBinding, namespace: string): boolean {
    return binding.roleRef.kind === 'ClusterRole' && binding.roleRef.name === DeployerClusterRole
      && (binding.subjects ?? []).some((s) => s.kind === 'ServiceAccount' && s.name === this.serviceAccount && (s.namespace ?? namespace) === namespace);
  }

  private async read<T>(get: () => Promise<T>): Promise<T | undefined> {
    try {
      return await wrapApi(get());
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async exists(get: () => Promise<unknown>): Promise<boolean> {
    return (await this.read(get)) !== undefined;
  }
}
