/**
 * Provisions, on demand, what deployer and hook pods run as in an application namespace: the
 * `deployer` service account and the `system:deployers` RoleBinding to the `system:deployer`
 * ClusterRole (names as on OpenShift, which provisions them in every namespace). The controller
 * needs `create` on serviceaccounts and rolebindings and `bind` on that one ClusterRole only.
 */
import { CoreV1Api, RbacAuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { isAlreadyExists } from '../controller/errors.js';
import { makeApiClient } from './client.js';
import { wrapApi } from './errors.js';

export const DeployerClusterRole = 'system:deployer';
export const DeployerRoleBinding = 'system:deployers';

export class DeployerAccessProvisioner {
  private readonly core: CoreV1Api;
  private readonly rbac: RbacAuthorizationV1Api;
  /** Namespaces already provisioned by this process; a failed attempt is retried next time. */
  private readonly done = new Set<string>();
  /**
   * Provisioning under way per namespace: the first rollouts of many DCs in one namespace (one
   * per worker) share it instead of racing to create the same objects (409 AlreadyExists).
   */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(kc: KubeConfig, private readonly serviceAccount: string, userAgent?: string) {
    this.core = makeApiClient(kc, CoreV1Api, { userAgent });
    this.rbac = makeApiClient(kc, RbacAuthorizationV1Api, { userAgent });
  }

  async ensure(namespace: string): Promise<void> {
    if (this.done.has(namespace)) return;
    let running = this.inFlight.get(namespace);
    if (!running) {
      running = this.provision(namespace).finally(() => this.inFlight.delete(namespace));
      this.inFlight.set(namespace, running);
    }
    await running;
  }

  private async provision(namespace: string): Promise<void> {
    const ignoreExists = (err: unknown) => { if (!isAlreadyExists(err)) throw err; };
    await wrapApi(this.core.createNamespacedServiceAccount({
      namespace,
      body: { metadata: { name: this.serviceAccount, labels: { 'app.kubernetes.io/managed-by': 'deploymentconfig-controller' } } },
    })).catch(ignoreExists);
    await wrapApi(this.rbac.createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name: DeployerRoleBinding, labels: { 'app.kubernetes.io/managed-by': 'deploymentconfig-controller' } },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: DeployerClusterRole },
        subjects: [{ kind: 'ServiceAccount', name: this.serviceAccount, namespace }],
      },
    })).catch(ignoreExists);
    this.done.add(namespace);
  }
}
