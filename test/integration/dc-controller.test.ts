/**
 * The DeploymentConfig controller and the deployer controller against the real local control
 * plane: the RC contract, config-change rollouts, cancellation of in-flight rollouts, scaling,
 * revision history, cascading deletion and re-adoption of orphaned RCs.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { apis, createNamespace, deleteNamespace, kubectl, startController, waitFor, type ControllerProcess } from '../support/kube.js';

const { core, custom } = apis();
const group = 'apps.openshift.io';
const version = 'v1';
const plural = 'deploymentconfigs';
let ns: string;
let controller: ControllerProcess;

beforeAll(async () => {
  ns = await createNamespace('dcctl');
  controller = startController(ns);
});
afterAll(async () => {
  await controller?.stop();
  await deleteNamespace(ns);
});

function dcManifest(name: string, opts: { replicas?: number; image?: string; history?: number; preHookSleep?: number } = {}) {
  const strategy: Record<string, unknown> = { type: 'Rolling' };
  if (opts.preHookSleep) {
    strategy.rollingParams = { pre: { failurePolicy: 'Abort', execNewPod: { containerName: 'app', command: ['/bin/sh', '-c', `sleep ${opts.preHookSleep}`] } } };
  }
  return {
    apiVersion: `${group}/${version}`,
    kind: 'DeploymentConfig',
    metadata: { name, labels: { team: 'blue' } },
    spec: {
      replicas: opts.replicas ?? 2,
      ...(opts.history !== undefined ? { revisionHistoryLimit: opts.history } : {}),
      selector: { app: name },
      strategy,
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: opts.image ?? 'registry.local/app:1' }] } },
    },
  };
}

const getDc = (name: string) => custom.getNamespacedCustomObject({ group, version, namespace: ns, plural, name });
const createDc = (body: object) => custom.createNamespacedCustomObject({ group, version, namespace: ns, plural, body });
const patchDc = async (name: string, patch: object) => {
  kubectl(['-n', ns, 'patch', 'dc', name, '--type', 'merge', '-p', JSON.stringify(patch)]);
};
const rc = (name: string) => core.readNamespacedReplicationController({ name, namespace: ns });
const rcsOf = async (dc: string): Promise<V1ReplicationController[]> =>
  (await core.listNamespacedReplicationController({ namespace: ns, labelSelector: `openshift.io/deployment-config.name=${dc}` })).items;
const phase = (r: V1ReplicationController) => r.metadata?.annotations?.['openshift.io/deployment.phase'];
const waitPhase = (name: string, want: string, timeoutMs = 60_000) =>
  waitFor(`${name} phase ${want}`, async () => {
    const r = await rc(name);
    return phase(r) === want ? r : undefined;
  }, { timeoutMs });

describe('DeploymentConfig controller', () => {
  it('creates <dc>-1 with OpenShift\'s exact labels, annotations, selector and owner reference', async () => {
    const created = await createDc(dcManifest('web', { replicas: 2 }));
    const first = await waitPhase('web-1', 'Complete');
    const a = first.metadata?.annotations ?? {};
    expect(a['openshift.io/deployment-config.name']).toBe('web');
    expect(a['openshift.io/deployment-config.latest-version']).toBe('1');
    expect(a['openshift.io/deployment.status-reason']).toBe('config change');
    expect(a['openshift.io/deployer-pod.name']).toBe('web-1-deploy');
    expect(a['openshift.io/deployment.replicas']).toBe('2');
    expect(a['kubectl.kubernetes.io/desired-replicas']).toBeUndefined();
    expect(a['openshift.io/deployer-pod.created-at']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC$/);
    const encoded = JSON.parse(a['openshift.io/encoded-deployment-config']!);
    expect(encoded).toMatchObject({ apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', metadata: { name: 'web', uid: created.metadata.uid } });
    expect(first.metadata?.labels).toEqual({ team: 'blue', 'openshift.io/deployment-config.name': 'web' });
    expect(first.spec?.selector).toEqual({ app: 'web', deploymentconfig: 'web', deployment: 'web-1' });
    expect(first.spec?.template?.metadata?.labels).toEqual({ app: 'web', deploymentconfig: 'web', deployment: 'web-1' });
    expect(first.spec?.template?.metadata?.annotations).toEqual({
      'openshift.io/deployment.name': 'web-1',
      'openshift.io/deployment-config.name': 'web',
      'openshift.io/deployment-config.latest-version': '1',
    });
    expect(first.metadata?.ownerReferences).toEqual([{
      apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: 'web', uid: created.metadata.uid, controller: true, blockOwnerDeletion: true,
    }]);
    await waitFor('web-1 has 2 available replicas', async () => (await rc('web-1')).status?.availableReplicas === 2);
    const dc = await waitFor('dc status settles', async () => {
      const d = await getDc('web');
      return d.status?.availableReplicas === 2 && d.status?.observedGeneration === d.metadata.generation ? d : undefined;
    });
    expect(dc.status).toMatchObject({ latestVersion: 1, replicas: 2, updatedReplicas: 2, readyReplicas: 2, unavailableReplicas: 0, selector: 'app=web,deploymentconfig=web' });
    const conditions = Object.fromEntries((dc.status.conditions as { type: string }[]).map((c) => [c.type, c]));
    expect(conditions.Available).toMatchObject({ status: 'True', message: 'Deployment config has minimum availability.' });
    expect(conditions.Progressing).toMatchObject({ status: 'True', reason: 'NewReplicationControllerAvailable', message: 'replication controller "web-1" successfully rolled out' });
    const events = (await core.listNamespacedEvent({ namespace: ns, fieldSelector: 'involvedObject.name=web' })).items;
    expect(events.map((e) => `${e.reason}: ${e.message}`)).toContain('DeploymentCreated: Created new replication controller "web-1" for version 1');
  });

  it('scales the active RC when the DC is scaled, and reverts direct RC scaling', async () => {
    kubectl(['-n', ns, 'scale', 'dc/web', '--replicas=4']);
    await waitFor('web-1 scaled to 4', async () => (await rc('web-1')).spec?.replicas === 4);
    kubectl(['-n', ns, 'scale', 'rc/web-1', '--replicas=1']);
    await waitFor('direct RC scaling reverted', async () => (await rc('web-1')).spec?.replicas === 4);
    const scale = JSON.parse(kubectl(['-n', ns, 'get', '--raw', `/apis/${group}/${version}/namespaces/${ns}/${plural}/web/scale`]));
    expect(scale.spec.replicas).toBe(4);
    expect(scale.status.selector).toBe('app=web,deploymentconfig=web');
  });

  it('cancels an in-flight rollout when the template changes again, then rolls out the newest version', async () => {
    await createDc(dcManifest('slow', { replicas: 1 }));
    await waitPhase('slow-1', 'Complete');
    // Version 2 has a pre hook that sleeps, so it is still running when version 3 is requested.
    const withHook = dcManifest('slow', { replicas: 1, image: 'registry.local/app:2', preHookSleep: 30 });
    await patchDc('slow', { spec: { strategy: withHook.spec.strategy, template: withHook.spec.template } });
    await waitFor('slow-2 running', async () => ['Pending', 'Running'].includes(phase(await rc('slow-2')) ?? ''));
    await patchDc('slow', { spec: { strategy: { type: 'Rolling', rollingParams: null }, template: { spec: { containers: [{ name: 'app', image: 'registry.local/app:3' }] } } } });
    const cancelled = await waitPhase('slow-2', 'Failed');
    expect(cancelled.metadata?.annotations?.['openshift.io/deployment.cancelled']).toBe('true');
    expect(cancelled.metadata?.annotations?.['openshift.io/deployment.status-reason']).toBe('newer deployment was found running');
    await waitPhase('slow-3', 'Complete');
    const events = (await core.listNamespacedEvent({ namespace: ns, fieldSelector: 'involvedObject.name=slow' })).items.map((e) => `${e.reason}: ${e.message}`);
    expect(events).toContain('DeploymentCancelled: Cancelled deployment "slow-2" superceded by version 3');
    expect(events).toContain('DeploymentAwaitingCancellation: Deployment of version 3 awaiting cancellation of older running deployments');
    await waitFor('only slow-3 has replicas', async () => {
      const all = await rcsOf('slow');
      return all.every((r) => (r.metadata?.name === 'slow-3' ? r.spec?.replicas === 1 : r.spec?.replicas === 0));
    });
    const dc = await getDc('slow');
    expect(dc.status.latestVersion).toBe(3);
  });

  it('honours revisionHistoryLimit', async () => {
    await createDc(dcManifest('hist', { replicas: 1, history: 1 }));
    await waitPhase('hist-1', 'Complete');
    for (const v of [2, 3, 4]) {
      await patchDc('hist', { spec: { template: { spec: { containers: [{ name: 'app', image: `registry.local/app:${v}` }] } } } });
      await waitPhase(`hist-${v}`, 'Complete');
    }
    // Active hist-4 plus at most one older RC remain.
    const names = await waitFor('history pruned to 1', async () => {
      const n = (await rcsOf('hist')).map((r) => r.metadata?.name).sort();
      return n.length === 2 ? n : undefined;
    });
    expect(names).toEqual(['hist-3', 'hist-4']);
  });

  it('re-adopts orphaned RCs and restores latestVersion when a DC is re-created, and cascades on delete', async () => {
    await createDc(dcManifest('adopt', { replicas: 1 }));
    await waitPhase('adopt-1', 'Complete');
    await patchDc('adopt', { spec: { template: { spec: { containers: [{ name: 'app', image: 'registry.local/app:2' }] } } } });
    await waitPhase('adopt-2', 'Complete');
    await custom.deleteNamespacedCustomObject({ group, version, namespace: ns, plural, name: 'adopt', propagationPolicy: 'Orphan' });
    await waitFor('RCs orphaned', async () => (await rcsOf('adopt')).every((r) => (r.metadata?.ownerReferences ?? []).length === 0));
    // The orphan finalizer removes the owner references before the DC itself is gone.
    await waitFor('DC deleted', async () => getDc('adopt').then(() => false, () => true));
    const again = await createDc(dcManifest('adopt', { replicas: 1, image: 'registry.local/app:2' }));
    const dc = await waitFor('latestVersion restored to 2', async () => {
      const d = await getDc('adopt');
      return d.status?.latestVersion === 2 ? d : undefined;
    });
    expect(dc.status.latestVersion).toBe(2);
    const owned = await waitFor('RCs re-adopted', async () => {
      const all = await rcsOf('adopt');
      return all.length === 2 && all.every((r) => r.metadata?.ownerReferences?.[0]?.uid === again.metadata.uid) ? all : undefined;
    });
    expect(owned.map((r) => r.metadata?.ownerReferences?.[0]?.controller)).toEqual([true, true]);
    // No new rollout: the template equals the one adopt-2 was made from.
    expect((await rcsOf('adopt')).map((r) => r.metadata?.name).sort()).toEqual(['adopt-1', 'adopt-2']);

    await custom.deleteNamespacedCustomObject({ group, version, namespace: ns, plural, name: 'adopt' });
    await waitFor('RCs and pods garbage-collected', async () => {
      const rcs = await rcsOf('adopt');
      const pods = (await core.listNamespacedPod({ namespace: ns, labelSelector: 'deploymentconfig=adopt' })).items;
      return rcs.length === 0 && pods.length === 0;
    }, { timeoutMs: 90_000 });
  });

  it('rejects an invalid DC at admission with a message naming the field', async () => {
    const bad = dcManifest('bad');
    (bad.spec.strategy as Record<string, unknown>).rollingParams = { maxSurge: 0, maxUnavailable: '0%' };
    let message = '';
    try {
      await createDc(bad);
    } catch (err) {
      message = String((err as { body?: unknown }).body ?? err);
    }
    expect(message).toContain('spec.strategy.rollingParams');
    expect(message).toMatch(/maxUnavailable|maxSurge/);
  });
});
