/**
 * API mode end to end (docs/apiserver.md): the plane is switched to the aggregated API server
 * (hack/aggregated.sh, which migrates with `dcctl migrate-storage`), the controllers run against
 * the storage group, and every request below is what `oc`/`kubectl` send: same method, path,
 * content type and body (read from openshift/oc: `oc set env|image|triggers`, `oc rollout
 * pause|resume|latest|undo`, `oc rollback`, `oc logs dc/x`). At the end the plane goes back to
 * CRD mode with the same command, and the DC, its RCs and its history survive both moves.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../src/apis/constants.js';
import type { DeploymentConfig } from '../../src/apis/deploymentconfig.js';
import { aggregated, raw } from '../support/aggregated.js';
import { dcManifest, rcNameOf } from '../support/dc.js';
import { apis, createNamespace, deleteNamespace, kubectl, startController, waitFor, type ControllerProcess } from '../support/kube.js';

const G = '/apis/apps.openshift.io/v1';
let ns = '';
let controller: ControllerProcess | undefined;
const dcPath = (name = 'web', sub = '') => `${G}/namespaces/${ns}/deploymentconfigs/${name}${sub ? `/${sub}` : ''}`;
const smp = 'application/strategic-merge-patch+json';

async function getDc(name = 'web'): Promise<DeploymentConfig> {
  const res = await raw('GET', dcPath(name));
  expect(res.status).toBe(200);
  return res.json<DeploymentConfig>();
}

async function rcs(name = 'web'): Promise<V1ReplicationController[]> {
  const { core } = apis();
  const list = await core.listNamespacedReplicationController({ namespace: ns, labelSelector: `openshift.io/deployment-config.name=${name}` });
  return list.items.sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '', undefined, { numeric: true }));
}

async function complete(version: number, name = 'web'): Promise<V1ReplicationController> {
  const { core } = apis();
  return waitFor(`${name}-${version} Complete`, async () => {
    const rc = await core.readNamespacedReplicationController({ namespace: ns, name: rcNameOf(name, version) }).catch(() => undefined);
    return rc?.metadata?.annotations?.[Annotations.Phase] === 'Complete' ? rc : undefined;
  }, { timeoutMs: 90_000 });
}

const containerOf = (dc: DeploymentConfig) => dc.spec.template!.spec!.containers[0]!;

describe('apps.openshift.io/v1 through the aggregated API server', () => {
  let legacyUid = '';
  beforeAll(async () => {
    // A DC with history made in CRD mode, then the switch (hack/aggregated.sh runs
    // `dcctl migrate-storage --to aggregated`).
    ns = await createNamespace('apisrv');
    const crdController = startController(ns);
    try {
      kubectl(['apply', '-n', ns, '-f', '-'], JSON.stringify(dcManifest({ name: 'legacy', replicas: 1 })));
      await complete(1, 'legacy');
      kubectl(['patch', 'dc', 'legacy', '-n', ns, '--type=merge', '-p', JSON.stringify({ spec: { template: { metadata: { annotations: { v: '2' } } } } })]);
      await complete(2, 'legacy');
      legacyUid = JSON.parse(kubectl(['get', 'dc', 'legacy', '-n', ns, '-o', 'json'])).metadata.uid;
    } finally {
      await crdController.stop();
    }
    aggregated('up');
    controller = startController(ns, ['--dc-group=apps.dcctl.io']);
  }, 300_000);

  afterAll(async () => {
    await controller?.stop();
    try {
      aggregated('down'); // a no-op when the last test already switched back
    } finally {
      await deleteNamespace(ns);
    }
  }, 300_000);

  it('migrate-storage --to aggregated keeps the DC, its status and its RCs, re-owned to the new uid', async () => {
    const dc = await getDc('legacy');
    expect(dc.apiVersion).toBe('apps.openshift.io/v1');
    expect(dc.status?.latestVersion).toBe(2);
    expect(dc.metadata.uid).not.toBe(legacyUid);
    const list = await rcs('legacy');
    expect(list.map((r) => r.metadata?.name)).toEqual(['legacy-1', 'legacy-2']);
    for (const rc of list) expect(rc.metadata?.ownerReferences).toEqual([expect.objectContaining({ apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: 'legacy', uid: dc.metadata.uid, controller: true })]);
    // Nothing is rolled out again by the move (same template as legacy-2).
    await new Promise((r) => setTimeout(r, 3000));
    expect((await getDc('legacy')).status?.latestVersion).toBe(2);
    expect((await rcs('legacy')).length).toBe(2);
  });

  it('discovery is OpenShift\'s: short name dc, category all, the five subresources, the verbs', async () => {
    const res = await raw('GET', G);
    expect(res.status).toBe(200);
    const list = res.json<{ resources: Array<{ name: string; shortNames?: string[]; categories?: string[]; verbs: string[]; kind: string }> }>();
    const byName = Object.fromEntries(list.resources.map((r) => [r.name, r]));
    expect(byName['deploymentconfigs']).toMatchObject({ kind: 'DeploymentConfig', shortNames: ['dc'], categories: ['all'] });
    expect(byName['deploymentconfigs']!.verbs.sort()).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(byName['deploymentconfigs/instantiate']).toMatchObject({ kind: 'DeploymentRequest', verbs: ['create'] });
    expect(byName['deploymentconfigs/rollback']).toMatchObject({ kind: 'DeploymentConfigRollback', verbs: ['create'] });
    expect(byName['deploymentconfigs/log']).toMatchObject({ kind: 'DeploymentLog', verbs: ['get'] });
    expect(Object.keys(byName)).toEqual(expect.arrayContaining(['deploymentconfigs/status', 'deploymentconfigs/scale']));
    expect(kubectl(['api-resources', '--api-group=apps.openshift.io', '--no-headers'])).toMatch(/^deploymentconfigs\s+dc\s+apps\.openshift\.io\/v1\s+true\s+DeploymentConfig/m);
  });

  it('kubectl apply (client-side) creates a DC that the controllers roll out from the storage; kubectl get prints OpenShift\'s columns', async () => {
    const manifest = dcManifest({ replicas: 1, env: [{ name: 'A', value: '1' }] });
    kubectl(['apply', '-n', ns, '-f', '-'], JSON.stringify(manifest));
    await complete(1);
    const out = kubectl(['get', 'dc', '-n', ns]);
    expect(out.split('\n')[0]).toMatch(/^NAME\s+REVISION\s+DESIRED\s+CURRENT\s+TRIGGERED BY$/);
    expect(out).toMatch(/^web\s+1\s+1\s+1\s+config$/m);
    // The object lives in the storage group with the same uid as the public one.
    const stored = JSON.parse(kubectl(['get', 'deploymentconfigs.apps.dcctl.io', 'web', '-n', ns, '-o', 'json'])) as DeploymentConfig;
    expect(stored.metadata.uid).toBe((await getDc()).metadata.uid);
    // RCs are owned as on OpenShift (apps.openshift.io/v1) by that uid.
    expect((await rcs())[0]!.metadata!.ownerReferences![0]).toMatchObject({ apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', uid: stored.metadata.uid, controller: true });
  });

  it('`oc set env` (strategic merge patch with $setElementOrder) adds and removes variables by name and rolls out', async () => {
    let res = await raw('PATCH', dcPath(), {
      contentType: smp,
      body: { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'web' }], containers: [{ '$setElementOrder/env': [{ name: 'A' }, { name: 'B' }], env: [{ name: 'B', value: '2' }], name: 'web' }] } } } },
    });
    expect(res.status).toBe(200);
    expect(containerOf(res.json<DeploymentConfig>()).env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
    await complete(2);
    res = await raw('PATCH', dcPath(), {
      contentType: smp,
      body: { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'web' }], containers: [{ '$setElementOrder/env': [{ name: 'B' }], env: [{ $patch: 'delete', name: 'A' }], name: 'web' }] } } } },
    });
    expect(res.status).toBe(200);
    expect(containerOf(res.json<DeploymentConfig>()).env).toEqual([{ name: 'B', value: '2' }]);
    await complete(3);
  });

  it('`oc set image` changes the container\'s image and keeps its ports; `kubectl patch` (strategic by default) merges env by name', async () => {
    const res = await raw('PATCH', dcPath(), { contentType: smp, body: { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'web' }], containers: [{ image: 'registry.local/web:2', name: 'web' }] } } } } });
    expect(res.status).toBe(200);
    const c = containerOf(res.json<DeploymentConfig>());
    expect(c.image).toBe('registry.local/web:2');
    expect(c.ports).toEqual([{ containerPort: 8080, protocol: 'TCP' }]);
    await complete(4);
    kubectl(['patch', 'dc', 'web', '-n', ns, '-p', JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'C', value: '3' }] }] } } } })]);
    expect(containerOf(await getDc()).env).toEqual([{ name: 'B', value: '2' }, { name: 'C', value: '3' }]);
    await complete(5);
  });

  it('`oc set triggers --remove-all` and `--from-config` replace the trigger list', async () => {
    let res = await raw('PATCH', dcPath(), { contentType: smp, body: { spec: { triggers: [] } } });
    expect(res.status).toBe(200);
    expect(res.json<DeploymentConfig>().spec.triggers).toEqual([]);
    res = await raw('PATCH', dcPath(), { contentType: smp, body: { spec: { triggers: [{ type: 'ConfigChange' }] } } });
    expect(res.json<DeploymentConfig>().spec.triggers).toEqual([{ type: 'ConfigChange' }]);
  });

  it('`oc rollout pause` refuses instantiate; `oc rollout resume` and `oc rollout latest` (instantiate) answer with the new version', async () => {
    let res = await raw('PATCH', dcPath(), { contentType: smp, body: { spec: { paused: true } } });
    expect(res.json<DeploymentConfig>().spec.paused).toBe(true);
    const request = { kind: 'DeploymentRequest', apiVersion: 'apps.openshift.io/v1', name: 'web', latest: true, force: true };
    res = await raw('POST', dcPath('web', 'instantiate'), { body: request });
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toContain('is paused');
    res = await raw('PATCH', dcPath(), { contentType: smp, body: { spec: { paused: null } } });
    expect(res.json<DeploymentConfig>().spec.paused).toBeUndefined();
    res = await raw('POST', dcPath('web', 'instantiate'), { body: request });
    expect(res.status).toBe(201);
    const dc = res.json<DeploymentConfig>();
    expect(dc.status?.latestVersion).toBe(6);
    expect(dc.status?.details?.causes).toEqual([{ type: 'Manual' }]);
    const rc = await complete(6);
    expect(rc.metadata?.annotations?.[Annotations.StatusReason]).toBe('manual change');
  });

  it('`oc rollout undo` (rollback subresource, then update) rolls back to the previous template', async () => {
    const before = await getDc();
    expect(containerOf(before).env).toEqual([{ name: 'B', value: '2' }, { name: 'C', value: '3' }]);
    const res = await raw('POST', dcPath('web', 'rollback'), {
      body: { kind: 'DeploymentConfigRollback', apiVersion: 'apps.openshift.io/v1', name: 'web', updatedAnnotations: null, spec: { from: {}, revision: 3, includeTriggers: false, includeTemplate: true, includeReplicationMeta: false, includeStrategy: false } },
    });
    expect(res.status).toBe(201);
    const rolled = res.json<DeploymentConfig>();
    expect(rolled.status?.latestVersion).toBe(7);
    expect(containerOf(rolled).env).toEqual([{ name: 'B', value: '2' }]);
    expect(containerOf(rolled).image).toBe('registry.local/web:1');
    // Not stored by the rollback itself.
    expect(containerOf(await getDc()).image).toBe('registry.local/web:2');
    const put = await raw('PUT', dcPath(), { body: rolled });
    expect(put.status).toBe(200);
    await complete(7);
    const rcList = await rcs();
    expect(rcList.map((r) => r.metadata?.name)).toContain('web-7');
    expect(containerOf(await getDc()).image).toBe('registry.local/web:1');
    expect((await getDc()).status?.latestVersion).toBe(7);
  });

  it('`oc rollback` refuses the latest version as OpenShift does (Invalid on name)', async () => {
    const res = await raw('POST', dcPath('web', 'rollback'), {
      body: { kind: 'DeploymentConfigRollback', apiVersion: 'apps.openshift.io/v1', name: 'web', spec: { from: {}, revision: 7, includeTemplate: true, includeTriggers: true, includeReplicationMeta: true, includeStrategy: true } },
    });
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toBe('The DeploymentConfigRollback "web" is invalid: name: Invalid value: "web": version 7 is already the latest');
  });

  it('`oc logs dc/web` reads through deploymentConfigs/<name>/log; a DC never deployed is a BadRequest', async () => {
    kubectl(['apply', '-n', ns, '-f', '-'], JSON.stringify({ ...dcManifest({ name: 'idle', replicas: 1 }), spec: { ...dcManifest({ name: 'idle' }).spec, triggers: [] } }));
    let res = await raw('GET', `${G}/namespaces/${ns}/deploymentConfigs/idle/log`, { accept: '*/*' });
    expect(res.status).toBe(400);
    expect(res.json<{ message: string }>().message).toBe('no deployment exists for deploymentConfig "idle"');
    res = await raw('GET', `${G}/namespaces/${ns}/deploymentConfigs/web/log?version=99`, { accept: '*/*' });
    expect(res.status).toBe(400);
    // The log itself comes from the pods/log API of the pod the subresource chose: the deployer
    // pod of a failed/running rollout, an application pod of a complete one.
    res = await raw('GET', `${G}/namespaces/${ns}/deploymentConfigs/web/log?version=7`, { accept: '*/*' });
    const { core } = apis();
    const direct = await raw('GET', `/api/v1/namespaces/${ns}/pods/${(await core.listNamespacedPod({ namespace: ns, labelSelector: 'deploymentconfig=web' })).items[0]?.metadata?.name ?? 'none'}/log`, { accept: '*/*' });
    expect(res.status).toBe(direct.status);
  });

  it('`kubectl apply --server-side` and `kubectl get -w` work through the front', async () => {
    const manifest = dcManifest({ name: 'ssa', replicas: 1 });
    kubectl(['apply', '--server-side', '-n', ns, '-f', '-'], JSON.stringify(manifest));
    await complete(1, 'ssa');
    const watcher = spawn('kubectl', ['get', 'dc', 'ssa', '-n', ns, '-w', '--output-watch-events'], { env: process.env });
    let out = '';
    watcher.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    try {
      await waitFor('watch header', () => out.includes('REVISION'), { timeoutMs: 20_000 });
      manifest.spec.replicas = 2;
      kubectl(['apply', '--server-side', '-n', ns, '-f', '-'], JSON.stringify(manifest));
      await waitFor('a MODIFIED event with DESIRED 2', () => /MODIFIED\s+ssa\s+\d+\s+2\s/.test(out), { timeoutMs: 30_000 });
    } finally {
      watcher.kill();
    }
    const managers = (await getDc('ssa')).metadata.managedFields?.map((m) => [m.manager, m.operation, m.apiVersion]);
    expect(managers).toContainEqual(['kubectl', 'Apply', 'apps.openshift.io/v1']);
  });

  it('`kubectl explain dc.spec` reads the OpenAPI the front publishes', () => {
    const out = kubectl(['explain', 'dc.spec']);
    expect(out).toContain('KIND:       DeploymentConfig');
    expect(out).toMatch(/template\s+<PodTemplateSpec>/);
    expect(kubectl(['explain', 'dc.spec.template.spec.containers.env'])).toContain('Name of the environment variable');
  });

  it('RBAC: a user who may only get DCs reads them but is refused instantiate, rollback and patches (403, no data)', async () => {
    kubectl(['create', 'role', 'dc-getter', '-n', ns, '--verb=get', '--resource=deploymentconfigs.apps.openshift.io']);
    kubectl(['create', 'rolebinding', 'dc-getter', '-n', ns, '--role=dc-getter', '--user=reader']);
    await waitFor('reader may get', async () => (await raw('GET', dcPath(), { as: 'reader' })).status === 200, { timeoutMs: 20_000 });
    const refused = [
      await raw('POST', dcPath('web', 'instantiate'), { as: 'reader', body: { kind: 'DeploymentRequest', apiVersion: 'apps.openshift.io/v1', name: 'web', latest: true, force: true } }),
      await raw('POST', dcPath('web', 'rollback'), { as: 'reader', body: { kind: 'DeploymentConfigRollback', apiVersion: 'apps.openshift.io/v1', name: 'web', spec: { revision: 1, includeTemplate: true } } }),
      await raw('PATCH', dcPath(), { as: 'reader', contentType: smp, body: { spec: { paused: true } } }),
      await raw('PATCH', dcPath(), { as: 'reader', contentType: 'application/merge-patch+json', body: { spec: { paused: true } } }),
      await raw('GET', dcPath('web', 'log'), { as: 'reader', accept: '*/*' }),
      await raw('GET', `${G}/namespaces/${ns}/deploymentconfigs`, { as: 'reader' }),
    ];
    for (const r of refused) {
      expect(r.status).toBe(403);
      expect(r.json<{ kind: string; reason: string }>()).toMatchObject({ kind: 'Status', reason: 'Forbidden' });
      expect(r.text).not.toContain('registry.local');
    }
    expect(refused[0]!.json<{ message: string }>().message).toContain('cannot create resource "deploymentconfigs/instantiate"');
    expect((await getDc()).spec.paused).toBeUndefined();
  });

  it('an ImageChange trigger into another namespace, written through the front, is checked for the user (issue 14 item 3)', async () => {
    // deploy/base/image-policy.yaml (applied by the global setup) also matches the storage group,
    // which the front writes impersonating the user: the authorizer is asked about "writer".
    kubectl(['create', 'role', 'dc-writer', '-n', ns, '--verb=create,get', '--resource=deploymentconfigs.apps.openshift.io']);
    kubectl(['create', 'rolebinding', 'dc-writer', '-n', ns, '--role=dc-writer', '--user=writer']);
    const dc = dcManifest({ name: 'thief', replicas: 1 });
    dc.spec.triggers = [{ type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['web'], from: { kind: 'ImageStreamTag', name: 'app:prod', namespace: 'kube-system' } } }];
    const refused = await waitFor('writer may create DCs', async () => {
      const r = await raw('POST', `${G}/namespaces/${ns}/deploymentconfigs`, { as: 'writer', body: dc });
      return r.status === 403 && r.text.includes('ValidatingAdmissionPolicy') ? r : undefined;
    }, { timeoutMs: 20_000 });
    expect(refused.json<{ message: string }>().message).toContain('user "writer" may not take images from another namespace without get on imagestreams/layers '
      + 'of that image stream there: spec.triggers[0].imageChangeParams.from refers to imagestream "app" in namespace "kube-system"');
    expect((await raw('GET', dcPath('thief'))).status).toBe(404);
  });

  it('requests that do not come through the aggregator are 401, never data', async () => {
    const port = readFileSync(path.join(process.env.LOCAL_CLUSTER_DIR!, 'dcctl-apiserver.port'), 'utf8').trim();
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      import('node:https').then(({ request }) => {
        const req = request({ hostname: '127.0.0.1', port, path: dcPath(), rejectUnauthorized: false, headers: { 'x-remote-user': 'system:admin', 'x-remote-group': 'system:masters' } }, (r) => {
          let body = '';
          r.on('data', (c: Buffer) => { body += c.toString(); });
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      }, reject);
    });
    expect(res.status).toBe(401);
    expect(res.body).not.toContain('registry.local');
  });

  it('deleting a DC through the front garbage-collects its RCs (the collector resolves the owner through the front)', async () => {
    expect((await rcs('ssa')).length).toBeGreaterThan(0);
    kubectl(['delete', 'dc', 'ssa', '-n', ns, '--wait=true']);
    await waitFor('RCs of ssa collected', async () => (await rcs('ssa')).length === 0, { timeoutMs: 60_000 });
    // ...while web's are all still there.
    expect((await rcs('web')).length).toBe(7);
  });

  it('migrate-storage --to crd brings every DC back with its RCs and history; the CRD-mode controller rolls on', async () => {
    await controller?.stop();
    controller = undefined;
    const before = await getDc();
    aggregated('down');
    const back = JSON.parse(kubectl(['get', 'deploymentconfigs.apps.openshift.io', 'web', '-n', ns, '-o', 'json'])) as DeploymentConfig;
    expect(back.status?.latestVersion).toBe(before.status?.latestVersion);
    expect(back.spec.template).toEqual(before.spec.template);
    expect(() => kubectl(['get', 'apiservice', 'v1.apps.openshift.io', '-o', 'jsonpath={.spec.service.name}'])).not.toThrow();
    expect(kubectl(['get', 'apiservice', 'v1.apps.openshift.io', '-o', 'jsonpath={.spec.service.name}'])).toBe('');
    for (const rc of await rcs('web')) expect(rc.metadata?.ownerReferences?.[0]?.uid).toBe(back.metadata.uid);
    expect((await rcs('legacy')).map((r) => r.metadata?.name)).toEqual(['legacy-1', 'legacy-2']);
    controller = startController(ns);
    kubectl(['patch', 'dc', 'web', '-n', ns, '--type=merge', '-p', JSON.stringify({ spec: { template: { metadata: { annotations: { back: 'crd' } } } } })]);
    await complete(8);
    expect((await rcs('web')).length).toBe(8);
  });
});
