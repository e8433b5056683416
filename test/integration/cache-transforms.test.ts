/**
 * The informer caches drop fields (src/kube/cache-transforms.ts, docs/design.md §1.1); this proves,
 * on the real local control plane, that what the controllers write from those slimmed cached
 * objects does not erase the dropped fields on the server: an RC PUT from the cache (how the DC
 * controller scales and cancels) keeps the stored managedFields, and the owner-reference patch
 * of a slimmed deployer pod (the deployer controller) keeps the stored spec.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CoreV1Api, Watch, type KubernetesObject, type V1Pod, type V1ReplicationController } from '@kubernetes/client-node';
import { pino } from 'pino';
import { Labels } from '../../src/apis/constants.js';
import { DeployerPods, ReplicationControllers } from '../../src/apis/resources.js';
import { loadKubeConfig } from '../../src/kube/client.js';
import { makeClients } from '../../src/kube/clients.js';
import { InformerFactory, listFor } from '../../src/kube/informer-factory.js';
import { createNamespace, deleteNamespace, waitFor } from '../support/kube.js';

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const kc = loadKubeConfig();
const core = kc.makeApiClient(CoreV1Api);
let ns = '';
let factory: InformerFactory | undefined;

beforeAll(async () => {
  ns = await createNamespace('cache-transforms', kc);
});
afterAll(async () => {
  factory?.stop();
  await deleteNamespace(ns, kc);
});

describe('slimmed informer caches', () => {
  it('writes from cached objects keep the fields the caches dropped', async () => {
    const clients = makeClients(kc, { fieldManager: 'dcctl-test' });
    factory = new InformerFactory({ namespace: ns, resyncMs: 0, log, watch: new Watch(kc), list: (r, namespace) => listFor<KubernetesObject>(clients, r, namespace)() });
    const rcs = factory.informerFor<V1ReplicationController>(ReplicationControllers);
    const pods = factory.informerFor<V1Pod>(DeployerPods);
    await factory.start();

    const rc = await core.createNamespacedReplicationController({
      namespace: ns,
      fieldManager: 'creator',
      body: {
        metadata: { name: 'web-1', annotations: { 'openshift.io/deployment.phase': 'Complete' } },
        spec: { replicas: 0, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
      },
    });
    // A deployer-labelled pod no node can take: it stays Pending and nothing runs it.
    await core.createNamespacedPod({
      namespace: ns,
      body: {
        metadata: { name: 'web-1-deploy', labels: { [Labels.DeployerPodFor]: 'web-1' }, annotations: { 'openshift.io/deployment.name': 'web-1' } },
        spec: { nodeSelector: { 'dcctl.io/test': 'nowhere' }, containers: [{ name: 'deployment', image: 'dcctl:local', env: [{ name: 'A', value: '1' }] }] },
      },
    });
    await waitFor('both cached', () => rcs.get(ns, 'web-1') !== undefined && pods.get(ns, 'web-1-deploy') !== undefined, { timeoutMs: 10_000 });

    // kube-controller-manager writes the RC's status too: wait until it has observed the RC and
    // the cache holds the stored version, so the PUT below does not meet a 409.
    let stored = await core.readNamespacedReplicationController({ namespace: ns, name: 'web-1' });
    await waitFor('the cache up to date', async () => {
      stored = await core.readNamespacedReplicationController({ namespace: ns, name: 'web-1' });
      return (stored.status?.observedGeneration ?? 0) >= (stored.metadata?.generation ?? 1)
        && rcs.get(ns, 'web-1')?.metadata?.resourceVersion === stored.metadata?.resourceVersion;
    }, { timeoutMs: 10_000 });
    const cachedRc = rcs.get(ns, 'web-1')!;
    expect(cachedRc.metadata?.managedFields).toBeUndefined();
    expect(stored.metadata?.managedFields?.map((f) => f.manager)).toContain('creator');
    const cachedPod = pods.get(ns, 'web-1-deploy')!;
    expect(cachedPod.spec).toBeUndefined();
    expect(cachedPod.metadata?.managedFields).toBeUndefined();
    expect(cachedPod.metadata?.labels).toEqual({ [Labels.DeployerPodFor]: 'web-1' });

    // The DC controller scales an RC with a PUT of its cached copy (src/deploymentconfig/reconcile.ts).
    const next = structuredClone(cachedRc);
    next.spec = { ...next.spec!, replicas: 2 };
    await clients.replicationControllers.update(next);
    const storedRc = await core.readNamespacedReplicationController({ namespace: ns, name: 'web-1' });
    expect(storedRc.spec?.replicas).toBe(2);
    expect(storedRc.metadata?.annotations).toEqual({ 'openshift.io/deployment.phase': 'Complete' });
    expect(storedRc.metadata?.managedFields?.map((f) => f.manager)).toEqual(expect.arrayContaining(['creator', 'dcctl-test']));

    // The deployer controller gives a deployer pod an owner reference with a patch (src/deployer-controller/sync.ts).
    await clients.pods.patch(ns, 'web-1-deploy', {
      metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'web-1', uid: rc.metadata?.uid ?? '' }] },
    }, 'strategic');
    const storedPod = await core.readNamespacedPod({ namespace: ns, name: 'web-1-deploy' });
    expect(storedPod.metadata?.ownerReferences?.map((r) => r.name)).toEqual(['web-1']);
    expect(storedPod.spec?.nodeSelector).toEqual({ 'dcctl.io/test': 'nowhere' });
    expect(storedPod.spec?.containers.map((c) => [c.name, c.image, c.env])).toEqual([['deployment', 'dcctl:local', [{ name: 'A', value: '1' }]]]);
    await waitFor('the patched pod cached', () => (pods.get(ns, 'web-1-deploy')?.metadata?.ownerReferences?.length ?? 0) === 1, { timeoutMs: 10_000 });
    expect(pods.get(ns, 'web-1-deploy')?.spec).toBeUndefined();
  });
});
