/**
 * What deployer and hook pods run as in an application namespace: the `deployer` service
 * account and the `system:deployers` RoleBinding to the `system:deployer` ClusterRole (names as on
 * OpenShift, which provisions them in every namespace).
 *
 * Checked before EVERY deployer pod creation, never remembered past the caches: a namespace
 * deleted and re-created, or a RoleBinding someone deleted, used to stay broken until a controller
 * restart (issue 14 item 2). The check reads two informer caches, one service account and one
 * role binding of those names per namespace (a field selector on the name), where it used to make
 * two live GETs per rollout: the caches follow deletions and edits as they happen, and a role
 * binding found there is still checked for what it grants, so one edited by someone else is
 * reported, never trusted. With `manage` the controller re-creates what is missing (it needs
 * create on serviceaccounts and rolebindings and `bind` on that one ClusterRole); without it, a
 * DeployerAccessMissingError names what is missing. What it created is believed until its cache
 * has shown it once (at most 10 s), so a deletion right after is not hidden, and one namespace is
 * provisioned by one call at a time, so rollouts starting together in a new namespace create each
 * object once (no 409s).
 */
import type { V1RoleBinding, V1ServiceAccount } from '@kubernetes/client-node';
import { DeployerAccessMissingError, isAlreadyExists } from '../controller/errors.js';
import { DefaultMutationTtlMs } from '../controller/mutation-cache.js';
import type { Clock, SharedInformer } from '../controller/ports.js';
import type { RestClient } from './rest.js';
import { corePath, groupPath } from './rest-paths.js';

export const DeployerClusterRole = 'system:deployer';
export const DeployerRoleBinding = 'system:deployers';

const managedBy = { 'app.kubernetes.io/managed-by': 'deploymentconfig-controller' };

/** The caches the check reads: the deployer service accounts and role bindings of every namespace watched. */
export interface DeployerAccessCaches {
  readonly serviceAccounts: SharedInformer<V1ServiceAccount>;
  readonly roleBindings: SharedInformer<V1RoleBinding>;
}

type Named = { metadata?: { namespace?: string; name?: string } };
const keyOf = (obj: Named): string => `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

/**
 * A cache plus the objects this process created that the cache has not shown yet. Unlike a
 * mutation cache, an entry goes as soon as the informer reports the object (added or updated),
 * not at the next read: the informer is then the authority, and a deletion right after is seen.
 */
class WithOwnCreates<T extends Named> {
  private readonly created = new Map<string, { obj: T; at: number }>();

  constructor(private readonly informer: SharedInformer<T>, private readonly clock: Clock) {
    const seen = (obj: T): void => { this.created.delete(keyOf(obj)); };
    informer.on('add', seen);
    informer.on('update', (_old, obj) => seen(obj));
  }

  get(namespace: string, name: string): T | undefined {
    const cached = this.informer.get(namespace, name);
    if (cached) return cached;
    const key = `${namespace}/${name}`;
    const own = this.created.get(key);
    if (!own) return undefined;
    // A create whose watch event never came does not count for ever.
    if (this.clock.monotonicMs() - own.at > DefaultMutationTtlMs) {
      this.created.delete(key);
      return undefined;
    }
    return own.obj;
  }

  remember(obj: T): void {
    // Its watch event may have come before our create's answer: then the cache knows it already.
    if (this.informer.get(obj.metadata?.namespace ?? '', obj.metadata?.name ?? '')) return;
    const now = this.clock.monotonicMs();
    // A namespace deleted before its objects' watch events came is never read again.
    for (const [key, own] of this.created) if (now - own.at > DefaultMutationTtlMs) this.created.delete(key);
    this.created.set(keyOf(obj), { obj, at: now });
  }
}

/** The two creates; each resolves with the created object (ApiError on failure). */
export interface DeployerAccessWriters {
  createServiceAccount(namespace: string, body: V1ServiceAccount): Promise<V1ServiceAccount>;
  createRoleBinding(namespace: string, body: V1RoleBinding): Promise<V1RoleBinding>;
}

/** The writers on the small JSON client. */
export function restDeployerAccessWriters(rest: RestClient): DeployerAccessWriters {
  return {
    createServiceAccount: (namespace, body) => rest.request<V1ServiceAccount>('POST', corePath(namespace, 'serviceaccounts'), { body }),
    createRoleBinding: (namespace, body) =>
      rest.request<V1RoleBinding>('POST', groupPath('rbac.authorization.k8s.io', 'v1', namespace, 'rolebindings'), { body }),
  };
}

export class DeployerAccessProvisioner {
  private readonly serviceAccounts: WithOwnCreates<V1ServiceAccount>;
  private readonly roleBindings: WithOwnCreates<V1RoleBinding>;
  /** Provisioning in flight, per namespace: later callers wait for it, then check again. */
  private readonly inflight = new Map<string, Promise<string[]>>();

  constructor(
    private readonly writers: DeployerAccessWriters,
    caches: DeployerAccessCaches,
    clock: Clock,
    private readonly serviceAccount: string,
    private readonly manage: boolean,
  ) {
    this.serviceAccounts = new WithOwnCreates(caches.serviceAccounts, clock);
    this.roleBindings = new WithOwnCreates(caches.roleBindings, clock);
  }

  /** Makes sure both exist; returns what it created (for an event), throws when it may not. */
  async ensure(namespace: string): Promise<string[]> {
    for (;;) {
      const running = this.inflight.get(namespace);
      if (!running) break;
      // Someone else is creating them: what they created is in the mutation caches afterwards.
      await running.catch(() => undefined);
    }
    const missing = this.missing(namespace);
    if (missing.length === 0) return [];
    if (!this.manage) {
      throw new DeployerAccessMissingError(`${missing.join(' and ')} missing in namespace "${namespace}" and --manage-deployer-access=false: `
        + `create them (docs/operations.md, "Deployer access") for deployer pods to run`);
    }
    const provisioning = this.create(namespace, missing);
    this.inflight.set(namespace, provisioning);
    try {
      return await provisioning;
    } finally {
      this.inflight.delete(namespace);
    }
  }

  /** What the caches lack; throws for a role binding of that name that grants something else. */
  private missing(namespace: string): string[] {
    const missing: string[] = [];
    if (!this.serviceAccounts.get(namespace, this.serviceAccount)) missing.push(this.saText());
    const binding = this.roleBindings.get(namespace, DeployerRoleBinding);
    if (!binding) missing.push(this.rbText());
    else if (!this.grants(binding, namespace)) {
      // Someone else's edit: not ours to overwrite, so say exactly what is wrong.
      throw new DeployerAccessMissingError(`role binding "${DeployerRoleBinding}" in namespace "${namespace}" does not bind ClusterRole `
        + `"${DeployerClusterRole}" to service account "${this.serviceAccount}": deployer pods would be refused; fix or delete it`);
    }
    return missing;
  }

  private async create(namespace: string, missing: string[]): Promise<string[]> {
    // Already there (created by someone else since our cache looked): the cache will show it.
    const ignoreExists = (err: unknown) => { if (!isAlreadyExists(err)) throw err; };
    if (missing.includes(this.saText())) {
      const sa = await this.writers.createServiceAccount(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: this.serviceAccount, labels: managedBy } })
        .catch(ignoreExists);
      if (sa) this.serviceAccounts.remember(sa);
    }
    if (missing.includes(this.rbText())) {
      const rb = await this.writers.createRoleBinding(namespace, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: DeployerRoleBinding, labels: managedBy },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: DeployerClusterRole },
        subjects: [{ kind: 'ServiceAccount', name: this.serviceAccount, namespace }],
      }).catch(ignoreExists);
      if (rb) this.roleBindings.remember(rb);
    }
    return missing;
  }

  private saText(): string {
    return `service account "${this.serviceAccount}"`;
  }

  private rbText(): string {
    return `role binding "${DeployerRoleBinding}"`;
  }

  private grants(binding: V1RoleBinding, namespace: string): boolean {
    return binding.roleRef?.kind === 'ClusterRole' && binding.roleRef.name === DeployerClusterRole
      && (binding.subjects ?? []).some((s) => s.kind === 'ServiceAccount' && s.name === this.serviceAccount && (s.namespace ?? namespace) === namespace);
  }
}
