/**
 * Proves the local control plane is real: the RC manager, scheduler, kwok nodes, the garbage
 * collector, the namespace controller, CRD serving and the deployer-pod exclusion all work.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { V1Pod } from '@kubernetes/client-node';
import { apis, createNamespace, deleteNamespace, waitFor } from '../support/kube.js';

const { core, custom, kc } = apis();
let ns: string;

beforeAll(async () => { ns = await createNamespace('plane'); });
afterAll(async () => { await deleteNamespace(ns); });

const podsOf = async (selector: string): Promise<V1Pod[]> =>
  (await core.listNamespacedPod({ namespace: ns, labelSelector: selector })).items;

describe('local control plane', () => {
  it('runs a ReplicationController with 3 Ready pods spread over the kwok nodes, and GC removes them', async () => {
    await core.createNamespacedReplicationController({
      namespace: ns,
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 3,
          selector: { app: 'web' },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              containers: [{ name: 'web', image: 'registry.local/web:1' }],
              topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }],
            },
          },
        },
      },
    });
    const pods = await waitFor('3 ready pods', async () => {
      const items = await podsOf('app=web');
      const ready = items.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      return ready.length === 3 ? ready : undefined;
    });
    const nodes = new Set(pods.map((p) => p.spec?.nodeName));
    expect(nodes.size).toBe(3);
    for (const node of nodes) expect(node).toMatch(/^kwok-node-\d$/);
    const rc = await waitFor('rc availableReplicas 3', async () => {
      const r = await core.readNamespacedReplicationController({ name: 'web', namespace: ns });
      return r.status?.availableReplicas === 3 ? r : undefined;
    });
    expect(rc.status?.readyReplicas).toBe(3);

    await core.deleteNamespacedReplicationController({ name: 'web', namespace: ns, propagationPolicy: 'Background' });
    await waitFor('pods garbage-collected', async () => (await podsOf('app=web')).length === 0);
  });

  it('leaves a pod labelled as a deployer pod Pending until something reports its status', async () => {
    await core.createNamespacedPod({
      namespace: ns,
      body: {
        // The annotation keeps the process kubelet (which runs deployer pods) out of this test.
        metadata: { name: 'x-1-deploy', labels: { 'openshift.io/deployer-pod-for.name': 'x-1' }, annotations: { 'process-kubelet.dcctl.io/ignore': 'true' } },
        spec: { containers: [{ name: 'deployment', image: 'none' }], restartPolicy: 'Never', nodeSelector: { 'kubernetes.io/hostname': 'kwok-node-0' } },
      },
    });
    await core.createNamespacedPod({
      namespace: ns,
      body: { metadata: { name: 'plain' }, spec: { containers: [{ name: 'c', image: 'none' }] } },
    });
    await waitFor('plain pod Running', async () => (await core.readNamespacedPod({ name: 'plain', namespace: ns })).status?.phase === 'Running');
    const scheduled = await waitFor('deployer pod scheduled', async () => {
      const p = await core.readNamespacedPod({ name: 'x-1-deploy', namespace: ns });
      return p.spec?.nodeName ? p : undefined;
    });
    expect(scheduled.spec?.nodeName).toBe('kwok-node-0');
    // kwok must not touch it: seconds later it is still Pending and not Ready.
    await new Promise((r) => setTimeout(r, 3000));
    const after = await core.readNamespacedPod({ name: 'x-1-deploy', namespace: ns });
    expect(after.status?.phase).toBe('Pending');
    expect(after.status?.conditions?.find((c) => c.type === 'Ready')?.status).not.toBe('True');
    // Something else (here the test, in e2e the process kubelet) reports its status.
    const { PatchStrategy, setHeaderOptions } = await import('@kubernetes/client-node');
    await core.patchNamespacedPodStatus({ name: 'x-1-deploy', namespace: ns, body: { status: { phase: 'Running' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    expect((await core.readNamespacedPod({ name: 'x-1-deploy', namespace: ns })).status?.phase).toBe('Running');
  });

  it('serves a CustomResourceDefinition once applied', async () => {
    const { ApiextensionsV1Api } = await import('@kubernetes/client-node');
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    const group = `t${ns.replace(/[^a-z0-9]/g, '')}.example.com`;
    await ext.createCustomResourceDefinition({
      body: {
        metadata: { name: `widgets.${group}` },
        spec: {
          group, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
        },
      },
    });
    try {
      const created = await waitFor('widget created', async () => custom.createNamespacedCustomObject({
        group, version: 'v1', namespace: ns, plural: 'widgets', body: { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3 } },
      }));
      expect(created.spec.size).toBe(3);
    } finally {
      await ext.deleteCustomResourceDefinition({ name: `widgets.${group}` });
    }
  });

  it('completes the deletion of a namespace', async () => {
    const other = await createNamespace('gone');
    await core.createNamespacedConfigMap({ namespace: other, body: { metadata: { name: 'c' }, data: { a: 'b' } } });
    await core.deleteNamespace({ name: other });
    await waitFor('namespace deleted', async () => {
      try {
        await core.readNamespace({ name: other });
        return false;
      } catch {
        return true;
      }
    }, { timeoutMs: 90_000 });
  });
});
