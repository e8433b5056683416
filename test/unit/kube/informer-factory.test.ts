import { describe, expect, it } from '@jest/globals';
import type { KubernetesObject } from '@kubernetes/client-node';
import { pino } from 'pino';
import { DeployerPods, deployerRoleBindings, deployerServiceAccounts, DeploymentConfigs, ImageStreams, ReplicationControllers } from '../../../src/apis/resources.js';
import { collectionPath, InformerFactory, listFor, type ListClients } from '../../../src/kube/informer-factory.js';
import type { WatchLike } from '../../../src/kube/informer.js';

/** Records every list call: which method, with which arguments. */
function recordingClients(): { clients: ListClients; calls: Array<[string, unknown]> } {
  const calls: Array<[string, unknown]> = [];
  const record = (method: string) => async (args: unknown) => {
    calls.push([method, args]);
    return { items: [], metadata: { resourceVersion: '1' } };
  };
  const clients = {
    core: {
      listNamespacedReplicationController: record('listNamespacedReplicationController'),
      listReplicationControllerForAllNamespaces: record('listReplicationControllerForAllNamespaces'),
      listNamespacedPod: record('listNamespacedPod'),
      listPodForAllNamespaces: record('listPodForAllNamespaces'),
      listNamespacedServiceAccount: record('listNamespacedServiceAccount'),
      listServiceAccountForAllNamespaces: record('listServiceAccountForAllNamespaces'),
    },
    customObjects: {
      listNamespacedCustomObject: record('listNamespacedCustomObject'),
      listClusterCustomObject: record('listClusterCustomObject'),
    },
  } as unknown as ListClients;
  return { clients, calls };
}

describe('collectionPath', () => {
  it.each([
    [DeploymentConfigs, 'ns', '/apis/apps.openshift.io/v1/namespaces/ns/deploymentconfigs'],
    [DeploymentConfigs, undefined, '/apis/apps.openshift.io/v1/deploymentconfigs'],
    [ReplicationControllers, 'ns', '/api/v1/namespaces/ns/replicationcontrollers'],
    [DeployerPods, undefined, '/api/v1/pods'],
    [ImageStreams, 'ns', '/apis/image.openshift.io/v1/namespaces/ns/imagestreams'],
  ])('%j in %p → %s', (resource, namespace, path) => {
    expect(collectionPath(resource, namespace)).toBe(path);
  });
});

describe('listFor', () => {
  it.each([
    [DeploymentConfigs, 'ns', 'listNamespacedCustomObject', { group: 'apps.openshift.io', version: 'v1', plural: 'deploymentconfigs', namespace: 'ns', labelSelector: undefined }],
    [ImageStreams, undefined, 'listClusterCustomObject', { group: 'image.openshift.io', version: 'v1', plural: 'imagestreams', labelSelector: undefined }],
    [ReplicationControllers, 'ns', 'listNamespacedReplicationController', { namespace: 'ns', labelSelector: undefined }],
    [ReplicationControllers, undefined, 'listReplicationControllerForAllNamespaces', { labelSelector: undefined }],
    [DeployerPods, 'ns', 'listNamespacedPod', { namespace: 'ns', labelSelector: 'openshift.io/deployer-pod-for.name' }],
    [DeployerPods, undefined, 'listPodForAllNamespaces', { labelSelector: 'openshift.io/deployer-pod-for.name' }],
    [deployerServiceAccounts('deployer'), undefined, 'listServiceAccountForAllNamespaces', { fieldSelector: 'metadata.name=deployer' }],
    [deployerServiceAccounts('deployer'), 'ns', 'listNamespacedServiceAccount', { namespace: 'ns', fieldSelector: 'metadata.name=deployer' }],
    [deployerRoleBindings('system:deployers'), undefined, 'listClusterCustomObject',
      { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings', fieldSelector: 'metadata.name=system:deployers' }],
  ])('%j in %p lists with %s and the same selector as the watch', async (resource, namespace, method, args) => {
    const { clients, calls } = recordingClients();
    await listFor(clients, resource, namespace)();
    expect(calls).toEqual([[method, args]]);
  });

  it('refuses a core resource it has no list call for', () => {
    expect(() => listFor(recordingClients().clients, { group: '', version: 'v1', plural: 'secrets' }, 'ns')).toThrow('secrets');
  });
});

describe('InformerFactory', () => {
  it('shares one informer per description and starts only the ones asked for, watching with their selector', async () => {
    const watches: Array<{ path: string; query: Record<string, unknown> }> = [];
    const watch: WatchLike = {
      async watch(path, query) {
        watches.push({ path, query });
        return new AbortController();
      },
    };
    const { clients, calls } = recordingClients();
    const factory = new InformerFactory({ namespace: 'ns', resyncMs: 0, log: pino({ level: 'silent' }), watch, list: (r, ns) => listFor<KubernetesObject>(clients, r, ns)() });
    const pods = factory.informerFor(DeployerPods);
    expect(factory.informerFor(DeployerPods)).toBe(pods);
    await factory.start();
    factory.stop();
    expect(calls.map(([method]) => method)).toEqual(['listNamespacedPod']);
    expect(watches[0]?.path).toBe('/api/v1/namespaces/ns/pods');
    expect(watches[0]?.query['labelSelector']).toBe('openshift.io/deployer-pod-for.name');
  });

  it('watches with the field selector of the description, one informer per selector', async () => {
    const watches: Array<{ path: string; query: Record<string, unknown> }> = [];
    const watch: WatchLike = {
      async watch(path, query) {
        watches.push({ path, query });
        return new AbortController();
      },
    };
    const factory = new InformerFactory({ resyncMs: 0, log: pino({ level: 'silent' }), watch, list: (r, ns) => listFor<KubernetesObject>(recordingClients().clients, r, ns)() });
    expect(factory.informerFor(deployerServiceAccounts('a'))).not.toBe(factory.informerFor(deployerServiceAccounts('b')));
    factory.informerFor(deployerRoleBindings('system:deployers'));
    await factory.start();
    factory.stop();
    expect(watches.map((w) => [w.path, w.query['fieldSelector']])).toEqual([
      ['/api/v1/serviceaccounts', 'metadata.name=a'],
      ['/api/v1/serviceaccounts', 'metadata.name=b'],
      ['/apis/rbac.authorization.k8s.io/v1/rolebindings', 'metadata.name=system:deployers'],
    ]);
  });
});
