/**
 * The kube/ adapter layer against the real local control plane: informer list/watch/resync,
 * typed clients (plain-JSON contract, patch content types, error conversion), the event
 * recorder's aggregation, and Lease leader election hand-over.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { CoordinationV1Api, CoreV1Api, Watch, type CoreV1Event, type V1ConfigMap, type V1ReplicationController, type V1Scale } from '@kubernetes/client-node';
import { pino } from 'pino';
import { isConflict, isNotFound } from '../../src/controller/errors.js';
import { loadKubeConfig } from '../../src/kube/client.js';
import { makeClients, type KubeDeploymentConfigClient } from '../../src/kube/clients.js';
import { KubeEventRecorder } from '../../src/kube/events.js';
import { createInformer, type Informer } from '../../src/kube/informer.js';
import { clientNodeControllerKube } from '../../src/kube/controller-client-node.js';
import { LeaderElector, restLeaseApi } from '../../src/kube/leader-election.js';
import { loadRestConfig, RestClient } from '../../src/kube/rest.js';
import { useNamespace, waitFor } from '../support/kube.js';

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const kc = loadKubeConfig();
const core = kc.makeApiClient(CoreV1Api);
const space = useNamespace('kube-adapters', kc);

describe('informer on ConfigMaps', () => {
  let inf: Informer<V1ConfigMap> | undefined;
  afterAll(() => inf?.stop());

  it('lists, watches add/update/delete, resyncs, and holds plain JSON', async () => {
    await core.createNamespacedConfigMap({ namespace: space.name, body: { metadata: { name: 'pre', labels: { app: 'x' } }, data: { a: '1' } } });
    await core.createNamespacedConfigMap({ namespace: space.name, body: { metadata: { name: 'other' } } });
    const events: string[] = [];
    inf = createInformer<V1ConfigMap>({
      watch: new Watch(kc),
      path: `/api/v1/namespaces/${space.name}/configmaps`,
      labelSelector: 'app=x',
      list: () => core.listNamespacedConfigMap({ namespace: space.name, labelSelector: 'app=x' }),
      resyncMs: 1500,
      watchTimeoutSeconds: 30,
      log,
    });
    let deleted: V1ConfigMap | undefined;
    inf.on('add', (o) => events.push(`add ${o.metadata?.name}`));
    inf.on('update', (a, b) => events.push(a === b ? `resync ${b.metadata?.name}` : `update ${b.metadata?.name}`));
    inf.on('delete', (o) => { events.push(`delete ${o.metadata?.name}`); deleted = o; });

    expect(inf.hasSynced()).toBe(false);
    await inf.start();
    expect(inf.hasSynced()).toBe(true);
    expect(events).toEqual(['add pre']);
    // Listed through the typed API, yet the cache holds strings like a watch would.
    expect(typeof inf.get(space.name, 'pre')?.metadata?.creationTimestamp).toBe('string');

    await core.createNamespacedConfigMap({ namespace: space.name, body: { metadata: { name: 'live', labels: { app: 'x' } }, data: { v: '1' } } });
    await waitFor('add live', () => events.includes('add live'), { timeoutMs: 10_000 });
    await core.replaceNamespacedConfigMap({ namespace: space.name, name: 'live', body: { metadata: { name: 'live', labels: { app: 'x' } }, data: { v: '2' } } });
    await waitFor('update live', () => inf?.get(space.name, 'live')?.data?.['v'] === '2' && events.includes('update live'), { timeoutMs: 10_000 });
    await core.deleteNamespacedConfigMap({ namespace: space.name, name: 'live' });
    await waitFor('delete live', () => events.includes('delete live'), { timeoutMs: 10_000 });
    expect(deleted?.data).toEqual({ v: '2' });
    expect(inf.get(space.name, 'live')).toBeUndefined();
    expect(inf.list(space.name).map((o) => o.metadata?.name)).toEqual(['pre']);
    expect(events).not.toContain('add other');

    await waitFor('a resync', () => events.includes('resync pre'), { timeoutMs: 10_000 });
  });
});

describe('typed clients', () => {
  const rc = (name: string): V1ReplicationController => ({
    metadata: { name, annotations: { a: '1' } },
    spec: {
      replicas: 1,
      selector: { app: name },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    },
  });

  it('return plain JSON, send the right patch content types, and convert errors', async () => {
    const clients = makeClients(kc, { fieldManager: 'dcctl-test', userAgent: 'dcctl-test/0' });
    const rcs = clients.replicationControllers;
    const created = await rcs.create(space.name, rc('web-1'));
    expect(typeof created.metadata?.creationTimestamp).toBe('string');
    expect(created.metadata?.managedFields?.[0]?.manager).toBe('dcctl-test');

    const merged = await rcs.patch(space.name, 'web-1', { metadata: { annotations: { b: '2' } } }, 'merge');
    expect(merged.metadata?.annotations).toEqual({ a: '1', b: '2' });
    const strategic = await rcs.patch(space.name, 'web-1', { metadata: { annotations: { c: '3' } } }, 'strategic');
    expect(strategic.metadata?.annotations).toMatchObject({ a: '1', c: '3' });
    const json = await rcs.patch(space.name, 'web-1', [{ op: 'replace', path: '/metadata/annotations/a', value: 'x' }], 'json');
    expect(json.metadata?.annotations?.['a']).toBe('x');

    expect((await rcs.getScale(space.name, 'web-1')).spec?.replicas).toBe(1);
    // The RC manager writes the RC's status meanwhile, so a scale read can be stale: retry a
    // conflict, as any read-modify-write client must.
    const scaleTo = async (replicas: number): Promise<V1Scale> => {
      for (let attempt = 1; ; attempt++) {
        const scale = await rcs.getScale(space.name, 'web-1');
        try {
          return await rcs.updateScale(space.name, 'web-1', { ...scale, spec: { replicas } });
        } catch (err) {
          if (!isConflict(err) || attempt >= 5) throw err;
        }
      }
    };
    const scaled = await scaleTo(2);
    expect(scaled.spec?.replicas).toBe(2);
    expect((await rcs.get(space.name, 'web-1')).spec?.replicas).toBe(2);

    const stale = { ...created, spec: { ...created.spec, replicas: 5 } };
    expect(isConflict(await rcs.update(stale).catch((e: unknown) => e))).toBe(true);
    expect(isNotFound(await rcs.get(space.name, 'missing').catch((e: unknown) => e))).toBe(true);
    expect((await rcs.list(space.name)).map((r) => r.metadata?.name)).toEqual(['web-1']);
    await rcs.delete(space.name, 'web-1', 'Background');
    // Background deletion may keep the object briefly (finalizers), so poll.
    await waitFor('rc deleted', async () => isNotFound(await rcs.get(space.name, 'web-1').catch((e: unknown) => e)), { timeoutMs: 10_000 });
  });
});

describe('DeploymentConfig client', () => {
  it('uses merge/JSON patches, PUT /status with optimistic concurrency, and merge-patches status', async () => {
    const clients = makeClients(kc, { fieldManager: 'dcctl-test' });
    const dcs = clients.deploymentConfigs as KubeDeploymentConfigClient;
    await clients.customObjects.createNamespacedCustomObject({
      group: 'apps.openshift.io', version: 'v1', plural: 'deploymentconfigs', namespace: space.name,
      body: {
        apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', metadata: { name: 'web' },
        spec: { replicas: 1, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
      },
    });
    const dc = await dcs.get(space.name, 'web');
    expect(typeof dc.metadata.creationTimestamp).toBe('string');
    const merged = await dcs.patch(space.name, 'web', { spec: { paused: true } }, 'merge');
    expect(merged.spec.paused).toBe(true);
    const json = await dcs.patch(space.name, 'web', [{ op: 'replace', path: '/spec/replicas', value: 3 }], 'json');
    expect(json.spec.replicas).toBe(3);

    const withStatus = await dcs.updateStatus({ ...json, status: { ...json.status, latestVersion: 1, observedGeneration: json.metadata.generation } });
    expect(withStatus.status?.latestVersion).toBe(1);
    expect(isConflict(await dcs.updateStatus({ ...json, status: { ...json.status, latestVersion: 1 } }).catch((e: unknown) => e))).toBe(true);
    const patched = await dcs.patchStatus(space.name, 'web', { status: { readyReplicas: 0, replicas: 0 } }, 'merge');
    expect(patched.status?.latestVersion).toBe(1);
    // The status subresource ignores spec changes.
    const ignored = await dcs.updateStatus({ ...patched, spec: { ...patched.spec, replicas: 7 } });
    expect(ignored.spec.replicas).toBe(3);
    expect(isNotFound(await dcs.get(space.name, 'nope').catch((e: unknown) => e))).toBe(true);
  });
});

describe('event recorder', () => {
  it('creates an event and aggregates a repeat into count 2', async () => {
    const clients = makeClients(kc);
    const recorder = new KubeEventRecorder({ client: clients.events, component: 'dcctl-test', log });
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', name: 'pre', namespace: space.name };
    recorder.event(obj, 'Warning', 'TestReason', 'something happened');
    recorder.event(obj, 'Warning', 'TestReason', 'something happened');
    await recorder.flush();
    const events: CoreV1Event[] = await clients.events.list(space.name, 'reason=TestReason');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ count: 2, type: 'Warning', source: { component: 'dcctl-test' }, involvedObject: { kind: 'ConfigMap', name: 'pre' } });
    expect(typeof events[0]?.lastTimestamp).toBe('string');
  });
});

describe('leader election', () => {
  it('elects one of two candidates and hands over within seconds of release', async () => {
    // a talks through the controller's JSON client, b through client-node: each reads and
    // renews what the other wrote.
    const restConfig = loadRestConfig();
    if (!restConfig) throw new Error('the test kubeconfig should suit the JSON client');
    const timing = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 1_000 };
    const a = new LeaderElector(restLeaseApi(new RestClient(restConfig, 'dcctl-test')), { namespace: space.name, name: 'dc-controller', identity: 'replica-a', log, ...timing });
    const b = new LeaderElector(clientNodeControllerKube(kc, { fieldManager: 'dcctl-test' }).leases, { namespace: space.name, name: 'dc-controller', identity: 'replica-b', log, ...timing });
    const noop = { onStartedLeading: () => undefined, onStoppedLeading: () => undefined };
    const leases = kc.makeApiClient(CoordinationV1Api);
    try {
      const aDone = a.run(noop);
      await waitFor('a leads', () => a.isLeader(), { timeoutMs: 15_000 });
      const acquired = await leases.readNamespacedLease({ name: 'dc-controller', namespace: space.name });
      void b.run(noop);
      await new Promise((r) => setTimeout(r, 3000));
      expect(b.isLeader()).toBe(false);
      // a renewed meanwhile (its optimistic PUTs, MicroTimes with 6 digits, were accepted).
      const renewed = await leases.readNamespacedLease({ name: 'dc-controller', namespace: space.name });
      expect(renewed.spec?.holderIdentity).toBe('replica-a');
      expect(new Date(renewed.spec!.renewTime!).getTime()).toBeGreaterThan(new Date(acquired.spec!.renewTime!).getTime());

      const released = Date.now();
      await a.release();
      await aDone;
      await waitFor('b leads', () => b.isLeader(), { timeoutMs: 5_000 });
      expect(Date.now() - released).toBeLessThan(5_000);
      const lease = await leases.readNamespacedLease({ name: 'dc-controller', namespace: space.name });
      expect(lease.spec?.holderIdentity).toBe('replica-b');
      expect(lease.spec?.leaseTransitions).toBe(1);
    } finally {
      await a.release();
      await b.release();
    }
  });
});
