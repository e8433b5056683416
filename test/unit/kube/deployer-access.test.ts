/**
 * The deployer access check reads caches of the deployer service accounts and role bindings
 * (issue 16: two live GETs per deployer pod before), with the safety of issue 14 item 2: what is
 * missing is re-created, a role binding someone else edited is reported, never trusted.
 */
import { describe, expect, it } from '@jest/globals';
import type { V1RoleBinding, V1ServiceAccount } from '@kubernetes/client-node';
import { ApiError, DeployerAccessMissingError } from '../../../src/controller/errors.js';
import type { SharedInformer } from '../../../src/controller/ports.js';
import { DeployerAccessProvisioner, type DeployerAccessWriters } from '../../../src/kube/deployer-access.js';
import { FakeClock } from '../../support/clock.js';

type Obj = { metadata?: { namespace?: string; name?: string; resourceVersion?: string } };

/** A cache the test fills and empties as a watch would, with the informer's handlers. */
class MapInformer<T extends Obj> implements SharedInformer<T> {
  readonly items = new Map<string, T>();
  private readonly handlers = { add: [] as Array<(o: T) => void>, update: [] as Array<(a: T, b: T) => void>, delete: [] as Array<(o: T) => void> };
  on(event: 'add' | 'delete', handler: (obj: T) => void): void;
  on(event: 'update', handler: (oldObj: T, newObj: T) => void): void;
  on(event: 'add' | 'update' | 'delete', handler: ((obj: T) => void) | ((a: T, b: T) => void)): void {
    if (event === 'update') this.handlers.update.push(handler as (a: T, b: T) => void);
    else this.handlers[event].push(handler as (o: T) => void);
  }
  get(namespace: string, name: string): T | undefined {
    return this.items.get(`${namespace}/${name}`);
  }
  list(namespace?: string): T[] {
    return [...this.items.values()].filter((o) => namespace === undefined || o.metadata?.namespace === namespace);
  }
  put(obj: T): void {
    const key = `${obj.metadata?.namespace}/${obj.metadata?.name}`;
    const old = this.items.get(key);
    this.items.set(key, obj);
    if (old) for (const h of this.handlers.update) h(old, obj);
    else for (const h of this.handlers.add) h(obj);
  }
  remove(namespace: string, name: string): void {
    const old = this.items.get(`${namespace}/${name}`);
    this.items.delete(`${namespace}/${name}`);
    if (old) for (const h of this.handlers.delete) h(old);
  }
}

const sa = (namespace: string, rv = '5'): V1ServiceAccount => ({ metadata: { namespace, name: 'deployer', resourceVersion: rv } });
const rb = (namespace: string, role = 'system:deployer', rv = '6'): V1RoleBinding => ({
  metadata: { namespace, name: 'system:deployers', resourceVersion: rv },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  subjects: [{ kind: 'ServiceAccount', name: 'deployer', namespace }],
});

function setup(manage = true) {
  const serviceAccounts = new MapInformer<V1ServiceAccount>();
  const roleBindings = new MapInformer<V1RoleBinding>();
  const created: string[] = [];
  let rv = 100;
  const existing = new Set<string>();
  /** Creates as the API server would: 409 AlreadyExists for a second create of one object. */
  const create = async <T extends Obj>(kind: string, namespace: string, body: T): Promise<T> => {
    await new Promise((r) => setImmediate(r));
    const key = `${kind} ${namespace}/${body.metadata?.name}`;
    if (existing.has(key)) throw new ApiError(`${kind} "${body.metadata?.name}" already exists`, 409, 'AlreadyExists');
    existing.add(key);
    created.push(key);
    return { ...body, metadata: { ...body.metadata, namespace, resourceVersion: String(rv++) } };
  };
  const writers: DeployerAccessWriters = {
    createServiceAccount: (namespace, body) => create('sa', namespace, body),
    createRoleBinding: (namespace, body) => create('rb', namespace, body),
  };
  const clock = new FakeClock();
  const access = new DeployerAccessProvisioner(writers, { serviceAccounts, roleBindings }, clock, 'deployer', manage);
  return { access, serviceAccounts, roleBindings, created, existing, clock };
}

describe('DeployerAccessProvisioner', () => {
  it('finds both in its caches: nothing to create, no request', async () => {
    const { access, serviceAccounts, roleBindings, created } = setup();
    serviceAccounts.put(sa('app'));
    roleBindings.put(rb('app'));
    expect(await access.ensure('app')).toEqual([]);
    expect(created).toEqual([]);
  });

  it('creates what the caches lack, once for rollouts that start together, and not again before the caches catch up', async () => {
    const { access, created } = setup();
    const results = await Promise.all([access.ensure('app'), access.ensure('app'), access.ensure('app')]);
    expect(results).toEqual([['service account "deployer"', 'role binding "system:deployers"'], [], []]);
    expect(created).toEqual(['sa app/deployer', 'rb app/system:deployers']);
    // The watch has not delivered them yet: still no second create (it would answer 409).
    expect(await access.ensure('app')).toEqual([]);
    expect(created).toHaveLength(2);
  });

  it('re-creates a role binding deleted later (the cache follows the deletion)', async () => {
    const { access, serviceAccounts, roleBindings, created, existing } = setup();
    serviceAccounts.put(sa('app'));
    roleBindings.put(rb('app'));
    expect(await access.ensure('app')).toEqual([]);
    roleBindings.remove('app', 'system:deployers');
    existing.delete('rb app/system:deployers');
    expect(await access.ensure('app')).toEqual(['role binding "system:deployers"']);
    expect(created).toEqual(['rb app/system:deployers']);
  });

  it('re-creates a role binding deleted right after it created it, once its cache had shown it', async () => {
    const { access, serviceAccounts, roleBindings, created, existing } = setup();
    serviceAccounts.put(sa('app'));
    expect(await access.ensure('app')).toEqual(['role binding "system:deployers"']);
    // The watch delivers it, then someone deletes it (seconds later, well within any cache TTL).
    roleBindings.put(rb('app', 'system:deployer', '101'));
    roleBindings.remove('app', 'system:deployers');
    existing.delete('rb app/system:deployers');
    expect(await access.ensure('app')).toEqual(['role binding "system:deployers"']);
    expect(created).toEqual(['rb app/system:deployers', 'rb app/system:deployers']);
  });

  it('believes its own creates for 10 s of elapsed time, even when the wall clock steps back', async () => {
    // Both were created and deleted again before the watch showed them. A wall clock stepped back
    // one hour must not keep them "created" for an hour: deployer pods would be refused meanwhile.
    const { access, serviceAccounts, created, existing, clock } = setup();
    serviceAccounts.put(sa('app'));
    expect(await access.ensure('app')).toEqual(['role binding "system:deployers"']);
    existing.delete('rb app/system:deployers');
    clock.stepWallClock(-3600_000);
    clock.advance(10_001);
    expect(await access.ensure('app')).toEqual(['role binding "system:deployers"']);
    expect(created).toEqual(['rb app/system:deployers', 'rb app/system:deployers']);
  });

  it('never trusts a role binding of that name that grants something else: it says so and creates nothing', async () => {
    const { access, serviceAccounts, roleBindings, created } = setup();
    serviceAccounts.put(sa('app'));
    roleBindings.put(rb('app', 'cluster-admin'));
    await expect(access.ensure('app')).rejects.toThrow(new DeployerAccessMissingError(
      'role binding "system:deployers" in namespace "app" does not bind ClusterRole "system:deployer" to service account "deployer": '
      + 'deployer pods would be refused; fix or delete it'));
    expect(created).toEqual([]);
  });

  it('with --manage-deployer-access=false names what is missing and creates nothing', async () => {
    const { access, roleBindings, created } = setup(false);
    roleBindings.put(rb('app'));
    await expect(access.ensure('app')).rejects.toThrow(new DeployerAccessMissingError(
      'service account "deployer" missing in namespace "app" and --manage-deployer-access=false: '
      + 'create them (docs/operations.md, "Deployer access") for deployer pods to run'));
    expect(created).toEqual([]);
  });

  it('an object created by someone else since the cache looked is taken as there (AlreadyExists)', async () => {
    const { access, serviceAccounts, roleBindings, existing, created } = setup();
    roleBindings.put(rb('app'));
    existing.add('sa app/deployer');
    expect(await access.ensure('app')).toEqual(['service account "deployer"']);
    expect(created).toEqual([]);
    serviceAccounts.put(sa('app'));
    expect(await access.ensure('app')).toEqual([]);
  });
});
