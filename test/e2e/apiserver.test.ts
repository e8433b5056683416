/**
 * API mode end to end (docs/apiserver.md): `DCCTL_API=aggregated npm start` switches the running
 * plane to the aggregated API server (hack/aggregated.sh, which migrates with `dcctl
 * migrate-storage`) and runs the controllers against the storage group; every request below is
 * what `oc`/`kubectl` send: same method, path, content type and body (read from openshift/oc:
 * `oc set env|image|triggers`, `oc rollout pause|resume|latest|undo`, `oc rollback`, `oc logs
 * dc/x`). At the end npm start is stopped: it moves the plane back to CRD mode, and every DC, its
 * RCs and its history survive both moves. One plane, one front, one controller for the file.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../src/apis/constants.js';
import type { DeploymentConfig } from '../../src/apis/deploymentconfig.js';
import { aggregated, npmStartAggregated, raw, type NpmStart, type RawResponse } from '../support/aggregated.js';
import { dcManifest, rcNameOf, shHook } from '../support/dc.js';
import { apis, createNamespace, deleteNamespace, kubectl, repoDir, startController, waitFor, type ControllerProcess } from '../support/kube.js';

const G = '/apis/apps.openshift.io/v1';
let ns = '';
let termNs = '';
let controller: ControllerProcess | undefined;
let npmStart: NpmStart | undefined;
const runDir = () => process.env.LOCAL_CLUSTER_DIR!;
const apiServiceAvailable = (): boolean =>
  kubectl(['get', 'apiservice', 'v1.apps.openshift.io', '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].status}']) === 'True';
const frontPid = (): number => Number(readFileSync(path.join(runDir(), 'dcctl-apiserver.pid'), 'utf8').trim());
const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };
/** kubectl's exit code, stdout and stderr (for what users see when something fails). */
const kubectlResult = (args: string[]) => {
  const r = spawnSync('kubectl', args, { encoding: 'utf8', env: process.env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
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
    // The documented switch for the local plane: `DCCTL_API=aggregated npm start` (no
    // kubeconfig: it takes the running local plane), which runs the controllers in the foreground.
    npmStart = npmStartAggregated();
    await waitFor('npm start: API mode up and the controllers started', () => {
      if (npmStart!.child.exitCode !== null) throw new Error(`npm start exited ${npmStart!.child.exitCode}:\n${npmStart!.output().slice(-4000)}`);
      return npmStart!.output().includes('Caches synced');
    }, { timeoutMs: 240_000 });
  }, 300_000);

  afterAll(async () => {
    await npmStart?.stop();
    await controller?.stop();
    try {
      aggregated('down'); // a no-op when npm start already switched back
    } finally {
      await deleteNamespace(ns);
      if (termNs) {
        kubectlResult(['patch', 'deploymentconfigs.apps.dcctl.io', 'held', '-n', termNs, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
        kubectlResult(['patch', 'deploymentconfigs.apps.openshift.io', 'held', '-n', termNs, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
      }
    }
  }, 300_000);

  it('`DCCTL_API=aggregated npm start` registers the API server: the APIService is Available, the public CRD is gone, the storage CRD serves', () => {
    expect(apiServiceAvailable()).toBe(true);
    expect(kubectl(['get', 'apiservice', 'v1.apps.openshift.io', '-o', 'jsonpath={.spec.service.name}/{.spec.service.namespace}'])).toBe('dcctl-apiserver/deploymentconfig-controller');
    expect(execFileSync('bash', [path.join(repoDir, 'hack/aggregated.sh'), 'status'], { encoding: 'utf8', env: process.env })).toMatch(/^dcctl-apiserver running \(pid \d+, port \d+\)\nAPIService v1.apps.openshift.io Available$/m);
    expect(kubectlResult(['get', 'crd', 'deploymentconfigs.apps.openshift.io']).code).not.toBe(0);
    expect(kubectl(['get', 'crd', 'deploymentconfigs.apps.dcctl.io', '-o', 'jsonpath={.spec.group}'])).toBe('apps.dcctl.io');
    // The controllers npm start runs use the storage group.
    expect(npmStart!.output()).toContain('"dcGroup":"apps.dcctl.io"');
  });

  it('migrate-storage --to aggregated keeps the DC, its status and its RCs, re-owned to the new uid', async () => {
    const dc = await getDc('legacy');
    expect(dc.apiVersion).toBe('apps.openshift.io/v1');
    expect(dc.status?.latestVersion).toBe(2);
    // The copy starts again at generation 1; with the source's observedGeneration (2) the schema
    // refused every status write of the controller from then on.
    expect([dc.metadata.generation, dc.status?.observedGeneration]).toEqual([1, 1]);
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

  // The bodies oc 4.x sends (`oc ... -v=8`, openshift/oc at 6b8e30c built locally), in order, on a DC
  // with two containers. `--overwrite` switching a volume's source lists only the new source in
  // $retainKeys and sends the old one as null, which apimachinery accepts (a 422 here before).
  it('`oc set volumes --add|--overwrite|--remove`, `oc set probe|resources|serviceaccount` (oc\'s strategic merge patches) change the template and the new RC\'s pods get it', async () => {
    const m = dcManifest({ name: 'vols', replicas: 1 });
    m.spec.template!.spec!.containers = [
      { name: 'web', image: 'registry.local/web:1', volumeMounts: [{ name: 'old', mountPath: '/old' }] },
      { name: 'side', image: 'registry.local/side:1' },
    ];
    m.spec.template!.spec!.volumes = [{ name: 'old', emptyDir: {} }];
    kubectl(['apply', '-n', ns, '-f', '-'], JSON.stringify(m));
    const ocSet = async (body: string) => {
      const res = await raw('PATCH', `${dcPath('vols')}?fieldManager=kubectl-set`, { contentType: smp, body });
      expect([res.status, res.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
      return res.json<DeploymentConfig>();
    };
    await ocSet('{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"side"}],"$setElementOrder/volumes":[{"name":"old"},{"name":"data"}],"containers":[{"$setElementOrder/volumeMounts":[{"mountPath":"/old"},{"mountPath":"/data"}],"name":"web","volumeMounts":[{"mountPath":"/data","name":"data"}]}],"volumes":[{"emptyDir":{},"name":"data"}]}}}}');
    await ocSet('{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"side"}],"$setElementOrder/volumes":[{"name":"data"},{"name":"old"}],"containers":[{"$setElementOrder/volumeMounts":[{"mountPath":"/data"},{"mountPath":"/old"}],"name":"web"},{"name":"side","volumeMounts":[{"mountPath":"/old","name":"old"}]}],"volumes":[{"$retainKeys":["configMap","name"],"configMap":{"defaultMode":420,"name":"cfg"},"emptyDir":null,"name":"old"}]}}}}');
    await ocSet('{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"side"}],"$setElementOrder/volumes":[{"name":"old"}],"containers":[{"$setElementOrder/volumeMounts":[{"mountPath":"/old"}],"name":"web","volumeMounts":[{"$patch":"delete","mountPath":"/data"}]}],"volumes":[{"$patch":"delete","name":"data"}]}}}}');
    await ocSet('{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"side"}],"containers":[{"name":"web","readinessProbe":{"periodSeconds":7,"tcpSocket":{"port":8080}}},{"name":"side","readinessProbe":{"periodSeconds":7,"tcpSocket":{"port":8080}}}]}}}}');
    await ocSet('{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"side"}],"containers":[{"name":"side","resources":{"limits":{"memory":"128Mi"}}}]}}}}');
    const dc = await ocSet('{"spec":{"template":{"spec":{"serviceAccountName":"default"}}}}');
    const spec = dc.spec.template!.spec!;
    expect(spec.volumes).toEqual([{ name: 'old', configMap: { name: 'cfg', defaultMode: 420 } }]);
    expect(spec.containers.map((c) => [c.name, c.volumeMounts, c.readinessProbe?.tcpSocket, c.resources])).toEqual([
      ['web', [{ name: 'old', mountPath: '/old' }], { port: 8080 }, undefined],
      ['side', [{ name: 'old', mountPath: '/old' }], { port: 8080 }, { limits: { memory: '128Mi' } }],
    ]);
    expect(spec.serviceAccountName).toBe('default');
    const latest = await waitFor('vols rolled out at its latest version', async () => {
      const d = await getDc('vols');
      const v = d.status?.latestVersion ?? 0;
      const rc = (await rcs('vols')).find((r) => r.metadata?.name === rcNameOf('vols', v));
      return d.metadata.generation === d.status?.observedGeneration && rc?.metadata?.annotations?.[Annotations.Phase] === 'Complete' ? rc : undefined;
    }, { timeoutMs: 90_000 });
    const podSpec = latest.spec!.template!.spec!;
    expect(podSpec.volumes?.map((v) => [v.name, v.configMap?.name])).toEqual([['old', 'cfg']]);
    expect(podSpec.containers.map((c) => c.readinessProbe?.periodSeconds)).toEqual([7, 7]);
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
      body: { kind: 'DeploymentConfigRollback', apiVersion: 'apps.openshift.io/v1', name: 'web', updatedAnnotations: null, spec: { from: { name: 'web-7' }, revision: 7, includeTemplate: true, includeTriggers: false, includeReplicationMeta: false, includeStrategy: false } },
    });
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toBe('The DeploymentConfigRollback "web" is invalid: name: Invalid value: "web": version 7 is already the latest');
  });

  it.each([['"x"', 'x', 'string'], ['1.5', 1.5, 'number 1.5'], ['"1/../other"', '1/../other', 'string']])('a rollback revision of %s is refused as OpenShift\'s decoder refuses it (400), naming no other RC', async (_what, revision, got) => {
    const res = await raw('POST', dcPath('web', 'rollback'), {
      body: { kind: 'DeploymentConfigRollback', apiVersion: 'apps.openshift.io/v1', name: 'web', spec: { revision, includeTemplate: true } },
    });
    expect(res.status).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(`json: cannot unmarshal ${got} into Go struct field DeploymentConfigRollbackSpec.spec.revision of type int64`);
  });

  // The front serves every user from one Node.js process (384Mi in the install manifest): a body
  // that made it allocate or work without bound took the API down for all. Each goes through
  // kube-apiserver's aggregator as any client's would, by a user allowed to patch the DC.
  it('hostile bodies (a 442-byte YAML alias bomb, a JSON patch copy bomb, 10001 operations, 100000 levels of nesting) are refused with 4xx; the front keeps serving, the DC is unchanged', async () => {
    const before = await getDc();
    const pid = frontPid();
    let bomb = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 9; i++) bomb += `a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
    bomb += 'apiVersion: apps.openshift.io/v1\nkind: DeploymentConfig\nmetadata: {name: web}\nspec: {template: {metadata: {annotations: {x: *a8}}}}\n';
    const cases: { what: string; contentType: string; body: string; status: number; message: RegExp }[] = [
      { what: 'YAML alias bomb', contentType: 'application/apply-patch+yaml', body: bomb, status: 400, message: /could not be decoded: with its aliases expanded it is larger than 16777216 bytes/ },
      { what: 'copy bomb', contentType: 'application/json-patch+json', body: JSON.stringify(Array.from({ length: 30 }, (_, i) => ({ op: 'copy', from: '/spec/template', path: `/spec/template/metadata/labels/c${i}` }))), status: 422, message: /copy operations add more than 3145728 bytes/ },
      { what: '10001 operations', contentType: 'application/json-patch+json', body: JSON.stringify(Array.from({ length: 10001 }, () => ({ op: 'test', path: '/kind', value: 'DeploymentConfig' }))), status: 413, message: /^Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001$/ },
      { what: 'deep nesting', contentType: smp, body: `{"spec":{"template":${'{"a":'.repeat(100000)}1${'}'.repeat(100000)}}}`, status: 400, message: /could not be decoded: nested deeper than 100 levels/ },
    ];
    for (const c of cases) {
      const res = await raw('PATCH', `${dcPath()}?fieldManager=e2e`, { contentType: c.contentType, body: c.body });
      expect([c.what, res.status, res.json<{ message: string }>().message]).toEqual([c.what, c.status, expect.stringMatching(c.message)]);
    }
    expect(alive(pid)).toBe(true);
    expect(frontPid()).toBe(pid);
    const after = await getDc();
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  // kube-apiserver reads a YAML body as YAML 1.1 (sigs.k8s.io/yaml): a leading zero is octal.
  it('a YAML apply body is read as kube-apiserver reads YAML: `defaultMode: 0400` is 256, `paused: no` false, a timestamp a string', async () => {
    const body = [
      'apiVersion: apps.openshift.io/v1', 'kind: DeploymentConfig', 'metadata: {name: yaml-modes}',
      'spec:', '  replicas: 1', '  paused: no', '  selector: {app: yaml-modes}', '  template:',
      '    metadata: {labels: {app: yaml-modes}, annotations: {built: 2024-01-01T00:00:00Z}}',
      '    spec:', '      containers: [{name: app, image: registry.local/web:1}]',
      '      volumes: [{name: s, secret: {secretName: s, defaultMode: 0400}}]', '',
    ].join('\n');
    const res = await raw('PATCH', `${dcPath('yaml-modes')}?fieldManager=e2e&dryRun=All`, { contentType: 'application/apply-patch+yaml', body });
    expect(res.status).toBe(201);
    const dc = res.json<DeploymentConfig>();
    expect(dc.spec.template?.spec?.volumes).toEqual([{ name: 's', secret: { secretName: 's', defaultMode: 256 } }]);
    expect(dc.spec.paused).toBe(false);
    expect(dc.spec.template?.metadata?.annotations).toEqual({ built: '2024-01-01T00:00:00Z' });
  });

  // kube-apiserver (so openshift-apiserver) keeps the later value of a key written twice and
  // warns under the default field validation (Warn), refuses under Strict and says nothing under
  // Ignore; the storage's own warnings (an unknown field) reach the client. Texts measured on a
  // 1.36 plane against the DC CRD and a native Deployment.
  it('field validation as OpenShift\'s API answers it: a key written twice or an unknown field is kept out with a Warning (Warn, the default), refused naming the key (Strict), passed silently (Ignore)', async () => {
    const warnings = (res: RawResponse) => [res.headers['warning'] ?? []].flat();
    const json = (name: string) => `{"apiVersion":"apps.openshift.io/v1","kind":"DeploymentConfig","metadata":{"name":"${name}"},"spec":{"replicas":1,"replicas":2,"selector":{"app":"${name}"},"template":{"metadata":{"labels":{"app":"${name}"}},"spec":{"containers":[{"name":"c","image":"registry.local/web:1"}]}}}}`;
    const create = (body: string, query: string, contentType = 'application/json') => raw('POST', `${G}/namespaces/${ns}/deploymentconfigs?dryRun=All${query}`, { contentType, body });

    let res = await create(json('dup-json'), '');
    expect([res.status, res.json<DeploymentConfig>().spec.replicas, warnings(res)]).toEqual([201, 2, ['299 - "duplicate field \\"spec.replicas\\""']]);
    res = await create(json('dup-json'), '&fieldValidation=Strict');
    expect([res.status, res.json<{ message: string }>().message]).toEqual([400, 'DeploymentConfig in version "v1" cannot be handled as a DeploymentConfig: strict decoding error: duplicate field "spec.replicas"']);
    res = await create(json('dup-json'), '&fieldValidation=Ignore');
    expect([res.status, res.json<DeploymentConfig>().spec.replicas, warnings(res)]).toEqual([201, 2, []]);

    const yamlBody = (name: string) => ['apiVersion: apps.openshift.io/v1', 'kind: DeploymentConfig', `metadata: {name: ${name}}`, 'spec:', '  replicas: 1', '  replicas: 3',
      `  selector: {app: ${name}}`, `  template: {metadata: {labels: {app: ${name}}}, spec: {containers: [{name: c, image: registry.local/web:1}]}}`, ''].join('\n');
    res = await create(yamlBody('dup-yaml'), '', 'application/yaml');
    expect([res.status, res.json<DeploymentConfig>().spec.replicas, warnings(res)]).toEqual([201, 3, ['299 - "line 6: key \\"replicas\\" already set in map"']]);
    res = await create(yamlBody('dup-yaml'), '&fieldValidation=Strict', 'application/yaml');
    expect([res.status, res.json<{ message: string }>().message]).toEqual([400, 'DeploymentConfig in version "v1" cannot be handled as a DeploymentConfig: strict decoding error: yaml: unmarshal errors:\n  line 6: key "replicas" already set in map']);
    const apply = (query: string) => raw('PATCH', `${dcPath('dup-apply')}?fieldManager=e2e&dryRun=All${query}`, { contentType: 'application/apply-patch+yaml', body: yamlBody('dup-apply') });
    res = await apply('');
    expect([res.status, res.json<DeploymentConfig>().spec.replicas, warnings(res)]).toEqual([201, 3, ['299 - "line 6: key \\"replicas\\" already set in map"']]);
    res = await apply('&fieldValidation=Strict');
    expect([res.status, res.json<{ message: string }>().message]).toEqual([400, 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 6: key "replicas" already set in map']);

    // An unknown field is the storage's to judge; its warning and its refusal reach the client.
    const before = await getDc();
    const merge = (query: string) => raw('PATCH', `${dcPath()}?dryRun=All${query}`, { contentType: 'application/merge-patch+json', body: '{"spec":{"replicaz":3}}' });
    res = await merge('');
    expect([res.status, warnings(res)]).toEqual([200, ['299 - "unknown field \\"spec.replicaz\\""']]);
    res = await merge('&fieldValidation=Strict');
    expect([res.status, res.json<{ message: string }>().message]).toEqual([422, expect.stringContaining('strict decoding error: unknown field "spec.replicaz"')]);
    // A key written twice in a merge patch: the same warning, and Invalid on `patch` under Strict.
    const dupMerge = (query: string) => raw('PATCH', `${dcPath()}?dryRun=All${query}`, { contentType: 'application/merge-patch+json', body: '{"spec":{"replicas":3,"replicas":4}}' });
    res = await dupMerge('');
    expect([res.status, res.json<DeploymentConfig>().spec.replicas, warnings(res)]).toEqual([200, 4, ['299 - "duplicate field \\"spec.replicas\\""']]);
    res = await dupMerge('&fieldValidation=Strict');
    expect([res.status, res.json<{ message: string }>().message]).toEqual([422, expect.stringContaining('strict decoding error: duplicate field "spec.replicas"')]);
    // A server-side apply (kubectl's default: Strict) of a real export's unknown container field
    // (`volumes` a level too deep): refused as in CRD mode, naming the public group, not the storage's.
    const deep = ['apiVersion: apps.openshift.io/v1', 'kind: DeploymentConfig', 'metadata: {name: deep}', 'spec:', '  selector: {app: deep}',
      '  template: {metadata: {labels: {app: deep}}, spec: {containers: [{name: c, image: registry.local/web:1, volumes: [{name: v}]}]}}', ''].join('\n');
    res = await raw('PATCH', `${dcPath('deep')}?fieldManager=kubectl&fieldValidation=Strict&dryRun=All`, { contentType: 'application/apply-patch+yaml', body: deep });
    const refusal = res.json<{ message: string }>().message;
    expect([res.status >= 400, refusal]).toEqual([true, expect.stringContaining('/deep; apps.openshift.io/v1, Kind=DeploymentConfig): .spec.template.spec.containers[name="c"].volumes: field not declared in schema')]);
    expect(refusal).not.toContain('dcctl.io');
    expect((await getDc()).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  // OpenShift's API validated a DC's template as an RC's (ValidatePodTemplateSpecForRC); the CRD
  // cannot, so such a DC was stored and every rollout failed creating its RC. Real exports held a
  // volumeMount of no volume and an envFrom naming nothing.
  it('a pod template Kubernetes refuses in an RC is refused on create, update, patch and server-side apply, naming the field as OpenShift\'s API did; nothing is stored', async () => {
    const broken = (name: string) => {
      const m = dcManifest({ name, replicas: 1 });
      const container = m.spec.template?.spec?.containers[0];
      if (container) container.volumeMounts = [{ name: 'data', mountPath: '/data' }];
      return m;
    };
    const message = (res: RawResponse) => res.json<{ message: string }>().message;
    let res = await raw('POST', `${G}/namespaces/${ns}/deploymentconfigs`, { contentType: 'application/json', body: JSON.stringify(broken('tpl-bad')) });
    expect([res.status, message(res)]).toEqual([422, 'DeploymentConfig.apps.openshift.io "tpl-bad" is invalid: spec.template.spec.containers[0].volumeMounts[0].name: Not found: "data"']);
    expect((await raw('GET', dcPath('tpl-bad'))).status).toBe(404);
    // kubectl apply --server-side goes the same way.
    expect(() => kubectl(['apply', '--server-side', '-n', ns, '-f', '-'], JSON.stringify(broken('tpl-ssa')))).toThrow(/volumeMounts\[0\]\.name: Not found: "data"/);
    expect((await raw('GET', dcPath('tpl-ssa'))).status).toBe(404);

    // A valid DC, then writes that break its template: refused; one that leaves it alone is not judged.
    kubectl(['create', '-n', ns, '-f', '-'], JSON.stringify(dcManifest({ name: 'tpl-ok', replicas: 1 })));
    const before = await getDc('tpl-ok');
    res = await raw('PATCH', dcPath('tpl-ok'), { contentType: 'application/merge-patch+json', body: JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'web', image: 'registry.local/web:1', envFrom: [{ prefix: 'X_' }] }] } } } }) });
    expect([res.status, message(res)]).toEqual([422, expect.stringContaining('DeploymentConfig.apps.openshift.io "tpl-ok" is invalid: spec.template.spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`')]);
    // An update from a fresh read (the controller writes the status meanwhile: a stale one is a
    // 409 first, as in kube-apiserver, where the precondition is checked before validation).
    let current = before;
    for (let attempt = 0; attempt < 5; attempt++) {
      current = await getDc('tpl-ok');
      res = await raw('PUT', dcPath('tpl-ok'), { contentType: 'application/json', body: JSON.stringify({ ...current, spec: { ...current.spec, template: broken('tpl-ok').spec.template } }) });
      if (res.status !== 409) break;
    }
    expect([res.status, message(res)]).toEqual([422, expect.stringContaining('spec.template.spec.containers[0].volumeMounts[0].name: Not found: "data"')]);
    expect((await getDc('tpl-ok')).spec.template).toEqual(before.spec.template);
    res = await raw('PATCH', dcPath('tpl-ok'), { contentType: 'application/merge-patch+json', body: '{"metadata":{"labels":{"tier":"web"}}}' });
    expect(res.status).toBe(200);
    // What the storage refuses comes first, as kube-apiserver decodes before it validates: under
    // Strict an unknown field is the answer (400), not the template; the probe's own warnings
    // (an unknown field, PodSecurity's) are never relayed.
    const strict = broken('tpl-strict');
    const container = strict.spec.template?.spec?.containers[0] as unknown as Record<string, unknown>;
    container['envFrom'] = [{ name: 'x' }];
    res = await raw('POST', `${G}/namespaces/${ns}/deploymentconfigs?fieldValidation=Strict`, { contentType: 'application/json', body: JSON.stringify(strict) });
    expect([res.status, message(res)]).toEqual([400, expect.stringContaining('strict decoding error: unknown field "spec.template.spec.containers[0].envFrom[0].name"')]);
    res = await raw('POST', `${G}/namespaces/${ns}/deploymentconfigs`, { contentType: 'application/json', body: JSON.stringify(strict) });
    expect([res.status, [res.headers['warning'] ?? []].flat()]).toEqual([422, ['299 - "unknown field \\"spec.template.spec.containers[0].envFrom[0].name\\""']]);
    // The tests below count the DCs of the namespace.
    expect((await raw('DELETE', dcPath('tpl-ok'))).status).toBe(200);
    await waitFor('tpl-ok to be gone', async () => (await raw('GET', dcPath('tpl-ok'))).status === 404);
  });

  // `oc logs dc/x [--version=N] [-f] [--tail] [--timestamps] [--limit-bytes] [--since] [-p]`: oc GETs
  // the DC, then `deploymentConfigs/<name>/log` with the DeploymentLogOptions as query
  // parameters (oc pkg/cli/logs deployLogOptions, originpolymorphichelpers/deploymentconfigs
  // logs.go), through client-go's rest client (Accept "application/json, */*").
  const ocLogs = (name: string, query = '', onData?: (text: string) => void) =>
    raw('GET', `${G}/namespaces/${ns}/deploymentConfigs/${name}/log${query ? `?${query}` : ''}`, { accept: 'application/json, */*', ...(onData ? { onData } : {}) });
  const logsDc = () => {
    const m = dcManifest({ name: 'logs', replicas: 1 });
    m.spec.strategy = { type: 'Recreate', recreateParams: { timeoutSeconds: 60, pre: shHook('echo pre-hook line 1; echo pre-hook line 2; exit 3', 'Abort') } };
    return m;
  };
  let failedLog = '';

  it('`oc logs dc/x` streams the deployer log of a failed rollout; --tail, --timestamps, --limit-bytes and --since apply to it', async () => {
    kubectl(['apply', '-n', ns, '-f', '-'], JSON.stringify(logsDc()));
    const { core } = apis();
    await waitFor('logs-1 Failed', async () => (await core.readNamespacedReplicationController({ namespace: ns, name: 'logs-1' }).catch(() => undefined))?.metadata?.annotations?.[Annotations.Phase] === 'Failed', { timeoutMs: 90_000 });
    const direct = await raw('GET', `/api/v1/namespaces/${ns}/pods/logs-1-deploy/log`, { accept: '*/*' });
    expect(direct.status).toBe(200);
    const res = await ocLogs('logs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.text).toBe(direct.text);
    expect(res.text).toContain('--> pre: Running hook pod ...');
    expect(res.text).toContain('pre-hook line 1\npre-hook line 2\n');
    failedLog = res.text;
    const lines = failedLog.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(3);

    expect((await ocLogs('logs', 'tailLines=2')).text).toBe(`${lines.slice(-2).join('\n')}\n`);
    const stamped = (await ocLogs('logs', 'timestamps=true')).text;
    const stampedLines = stamped.split('\n').filter((l) => l !== '');
    for (const l of stampedLines) expect(l).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z /);
    expect(stampedLines.map((l) => l.slice(l.indexOf(' ') + 1))).toEqual(lines);
    expect((await ocLogs('logs', 'limitBytes=25')).text).toBe(failedLog.slice(0, 25));
    // --since: the deployer has exited; once its last line is over 2 s old, 1 s of log is empty.
    const last = Date.parse(stampedLines.at(-1)!.slice(0, stampedLines.at(-1)!.indexOf(' ')));
    await waitFor('the last line to be 2 s old', () => Date.now() - last > 2000);
    expect((await ocLogs('logs', 'sinceSeconds=1')).text).toBe('');
    expect((await ocLogs('logs', 'sinceSeconds=3600')).text).toBe(failedLog);
  });

  it('`oc logs -f dc/x` right after `oc rollout latest` waits for the deployer and follows it to the end; --version and -p read the older rollout', async () => {
    let res = await raw('PATCH', dcPath('logs'), { contentType: 'application/merge-patch+json', body: { spec: { strategy: { recreateParams: { pre: shHook('echo follow-start; sleep 3; echo follow-end', 'Abort') } } } } });
    expect(res.status).toBe(200);
    res = await raw('POST', dcPath('logs', 'instantiate'), { body: { kind: 'DeploymentRequest', apiVersion: 'apps.openshift.io/v1', name: 'logs', latest: true, force: true } });
    expect(res.status).toBe(201);
    expect(res.json<DeploymentConfig>().status?.latestVersion).toBe(2);
    let startBeforeEnd: boolean | undefined;
    const followed = await ocLogs('logs', 'follow=true', (text) => {
      if (startBeforeEnd === undefined && text.includes('follow-start')) startBeforeEnd = !text.includes('follow-end');
    });
    expect(followed.status).toBe(200);
    // Streamed: the hook's first line reached us before its last one was written.
    expect(startBeforeEnd).toBe(true);
    expect(followed.text).toContain('follow-start\nfollow-end\n');
    expect(followed.text).toContain('--> pre: Success');
    await complete(2, 'logs');

    const v1 = await ocLogs('logs', 'version=1');
    expect({ status: v1.status, text: v1.text }).toEqual({ status: 200, text: failedLog });
    expect((await ocLogs('logs', 'previous=true')).text).toBe(failedLog);
    // OpenShift's validation and range check, word for word.
    res = await ocLogs('logs', 'version=1&previous=true');
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toBe('DeploymentLogOptions.apps.openshift.io "" is invalid: previous: Invalid value: true: cannot use previous when a version is specified');
    res = await ocLogs('logs', 'version=0');
    expect(res.json<{ message: string }>().message).toBe('DeploymentLogOptions.apps.openshift.io "" is invalid: version: Invalid value: 0: deployment version must be greater than 0');
    res = await ocLogs('logs', 'version=3');
    expect({ status: res.status, message: res.json<{ message: string }>().message }).toEqual({ status: 400, message: 'invalid version for deploymentConfig "logs": 3' });

    // A complete rollout shows an application pod's log, read through pods/log (here a kwok pod:
    // the plane's kubelet endpoint answers that it has none, and the front passes that on).
    res = await ocLogs('logs');
    const { core } = apis();
    const appPods = (await core.listNamespacedPod({ namespace: ns, labelSelector: 'deployment=logs-2' })).items.map((p) => p.metadata!.name!);
    expect(appPods.length).toBe(1);
    const direct = await raw('GET', `/api/v1/namespaces/${ns}/pods/${appPods[0]}/log`, { accept: '*/*' });
    expect({ status: res.status, message: res.json<{ message: string }>().message }).toEqual({ status: direct.status, message: direct.json<{ message: string }>().message });
    expect(res.json<{ message: string }>().message).toContain(appPods[0]);
  });

  it('`oc logs dc/x` on a DC never deployed is a BadRequest; with nowait a rollout not started yet answers empty at once', async () => {
    kubectl(['apply', '-n', ns, '-f', '-'], JSON.stringify({ ...dcManifest({ name: 'idle', replicas: 1 }), spec: { ...dcManifest({ name: 'idle' }).spec, triggers: [] } }));
    let res = await ocLogs('idle');
    expect(res.status).toBe(400);
    expect(res.json<{ message: string }>().message).toBe('no deployment exists for deploymentConfig "idle"');
    // A deployer pod no node can take (its strategy requests 100 CPUs) keeps rollout 1 Pending.
    const stuck = dcManifest({ name: 'stuck', replicas: 1 });
    stuck.spec.strategy = { type: 'Recreate', resources: { requests: { cpu: '100' } } };
    kubectl(['apply', '-n', ns, '-f', '-'], JSON.stringify(stuck));
    const { core } = apis();
    await waitFor('stuck-1 Pending', async () => (await core.readNamespacedReplicationController({ namespace: ns, name: 'stuck-1' }).catch(() => undefined))?.metadata?.annotations?.[Annotations.Phase] === 'Pending', { timeoutMs: 60_000 });
    res = await ocLogs('stuck', 'nowait=true');
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: '' });
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

  it('`kubectl apply --server-side` defaults the DC as a create does; the defaults have no owner, so applying one of them later does not conflict', async () => {
    const bare = (name: string) => {
      const m = dcManifest({ name, replicas: 1, strategy: { type: 'Rolling' } });
      delete (m.spec as { triggers?: unknown }).triggers;
      return m;
    };
    kubectl(['apply', '--server-side', '-n', ns, '-f', '-'], JSON.stringify(bare('ssa-def')));
    kubectl(['create', '-n', ns, '-f', '-'], JSON.stringify(bare('created-def')));
    const applied = await getDc('ssa-def');
    const created = await getDc('created-def');
    expect(applied.spec.strategy).toEqual(created.spec.strategy);
    expect(applied.spec.strategy).toEqual({
      type: 'Rolling', activeDeadlineSeconds: 21600,
      rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 600, maxUnavailable: '25%', maxSurge: '25%' },
    });
    expect(applied.spec.triggers).toEqual(created.spec.triggers);
    expect(applied.spec.triggers).toEqual([{ type: 'ConfigChange' }]);
    const managers = applied.metadata.managedFields ?? [];
    expect(managers.map((m) => m.manager)).not.toContain('dcctl-apiserver-defaults');
    const kubectlFields = JSON.stringify(managers.find((m) => m.manager === 'kubectl' && m.operation === 'Apply')?.fieldsV1 ?? {});
    expect(kubectlFields).toContain('"f:strategy"');
    expect(kubectlFields).not.toContain('f:rollingParams');
    expect(kubectlFields).not.toContain('f:triggers');
    // Another manager applies a default's field with another value: no conflict, nothing forced.
    kubectl(['apply', '--server-side', '--field-manager=tuner', '-n', ns, '-f', '-'], JSON.stringify({
      apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', metadata: { name: 'ssa-def' }, spec: { strategy: { rollingParams: { intervalSeconds: 5 } } },
    }));
    expect((await getDc('ssa-def')).spec.strategy?.rollingParams).toEqual({ intervalSeconds: 5, updatePeriodSeconds: 1, timeoutSeconds: 600, maxUnavailable: '25%', maxSurge: '25%' });
    // A dry run answers defaulted too, and stores nothing.
    const dry = kubectl(['apply', '--server-side', '--dry-run=server', '-n', ns, '-o', 'json', '-f', '-'], JSON.stringify(bare('dry-def')));
    expect((JSON.parse(dry) as DeploymentConfig).spec.strategy?.activeDeadlineSeconds).toBe(21600);
    expect((await raw('GET', dcPath('dry-def'))).status).toBe(404);
  });

  it('Quantities sent as fractional numbers (`cpu: 0.5`), which OpenShift\'s API took: a create, `oc set resources` (strategic merge patch) and `kubectl apply --server-side` are accepted, the DC stores each as its string, and the RCs\' pods get OpenShift\'s quantities', async () => {
    const manifest = dcManifest({ name: 'frac', replicas: 1 });
    containerOf(manifest).resources = { limits: { cpu: 0.5 as unknown as string } };
    let res = await raw('POST', `${G}/namespaces/${ns}/deploymentconfigs`, { body: manifest });
    expect(res.status).toBe(201);
    expect(containerOf(res.json<DeploymentConfig>()).resources).toEqual({ limits: { cpu: '0.5' } });
    expect((await complete(1, 'frac')).spec!.template!.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '500m' } });

    res = await raw('PATCH', dcPath('frac'), {
      contentType: smp,
      body: { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'web' }], containers: [{ name: 'web', resources: { requests: { cpu: 0.25 } } }] } } } },
    });
    expect(res.status).toBe(200);
    expect(containerOf(res.json<DeploymentConfig>()).resources).toEqual({ limits: { cpu: '0.5' }, requests: { cpu: '0.25' } });
    expect((await complete(2, 'frac')).spec!.template!.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '500m' }, requests: { cpu: '250m' } });

    containerOf(manifest).resources = { limits: { cpu: 0.75 as unknown as string } };
    // kubectl sends the number as it read it from YAML or JSON; the create made limits.cpu another manager's.
    kubectl(['apply', '--server-side', '--force-conflicts', '-n', ns, '-f', '-'], JSON.stringify(manifest));
    expect(containerOf(await getDc('frac')).resources).toEqual({ limits: { cpu: '0.75' }, requests: { cpu: '0.25' } });
    expect((await complete(3, 'frac')).spec!.template!.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '750m' }, requests: { cpu: '250m' } });
  });

  it('null fields in a server-side apply (`env:` with nothing after it; `resources` emptied to {}), which OpenShift\'s API read as absent, a null annotation value, which it read as "", and a null Quantity in a map, which it read as "0": accepted, answered so, and rolled out', async () => {
    const manifest = (resources: object) => {
      const m = dcManifest({ name: 'nulls', replicas: 1 }) as unknown as { spec: Record<string, any> };
      m.spec.selector = null;
      m.spec.strategy = { type: 'Rolling', rollingParams: null };
      m.spec.template.spec.volumes = null;
      // A null map value (Helm's `commit: {{ .Values.commit }}` unset) OpenShift read as "".
      m.spec.template.metadata.annotations = { commit: null };
      Object.assign(m.spec.template.spec.containers[0], { env: null, args: null, resources });
      return JSON.stringify(m);
    };
    // A null Quantity in a map OpenShift read as the zero Quantity, "0".
    kubectl(['apply', '--server-side', '-n', ns, '-f', '-'], manifest({ limits: { cpu: '100m' }, requests: { cpu: null } }));
    const dc = await getDc('nulls');
    expect(JSON.stringify(dc.spec)).not.toContain(':null');
    expect([dc.spec.selector, dc.spec.strategy?.rollingParams?.timeoutSeconds]).toEqual([{ app: 'nulls' }, 600]);
    expect(dc.spec.template?.metadata?.annotations).toEqual({ commit: '' });
    const first = await complete(1, 'nulls');
    expect(first.spec!.template!.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '100m' }, requests: { cpu: '0' } });
    expect(first.spec!.template!.metadata!.annotations).toMatchObject({ commit: '' });
    // The storage's apply makes null of the emptied object; the front answers without it.
    const answered = JSON.parse(kubectl(['apply', '--server-side', '-n', ns, '-o', 'json', '-f', '-'], manifest({}))) as DeploymentConfig;
    expect(JSON.stringify(answered.spec)).not.toContain(':null');
    expect(containerOf(answered).resources).toBeUndefined();
    expect((await complete(2, 'nulls')).spec!.template!.spec!.containers[0]!.resources).toEqual({});
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

  it('RBAC: `get` on deploymentconfigs/log alone grants the rollout log (no pods/log), as on OpenShift; `view` grants `oc logs dc/x`', async () => {
    // kube-apiserver authorizes the path's spelling (`deploymentConfigs`, as oc sends it) before
    // proxying; the front authorizes the canonical one. A role names both, as the overlay's do.
    kubectl(['apply', '-n', ns, '-f', '-'], JSON.stringify({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'dc-log-reader' },
      rules: [{ apiGroups: ['apps.openshift.io'], resources: ['deploymentconfigs', 'deploymentconfigs/log', 'deploymentConfigs/log'], verbs: ['get'] }],
    }));
    kubectl(['create', 'rolebinding', 'dc-log-reader', '-n', ns, '--role=dc-log-reader', '--user=log-reader']);
    kubectl(['create', 'rolebinding', 'viewer', '-n', ns, '--clusterrole=view', '--user=viewer']);
    await waitFor('log-reader may get', async () => (await raw('GET', dcPath('logs'), { as: 'log-reader' })).status === 200, { timeoutMs: 20_000 });
    expect((await raw('GET', `/api/v1/namespaces/${ns}/pods/logs-1-deploy/log`, { as: 'log-reader', accept: '*/*' })).status).toBe(403);
    const res = await raw('GET', `${G}/namespaces/${ns}/deploymentConfigs/logs/log?version=1`, { as: 'log-reader', accept: 'application/json, */*' });
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: failedLog });
    const viewer = await waitFor('viewer may read the log', async () => {
      const r = await raw('GET', `${G}/namespaces/${ns}/deploymentConfigs/logs/log?version=1`, { as: 'viewer', accept: 'application/json, */*' });
      return r.status === 200 ? r : undefined;
    }, { timeoutMs: 20_000 });
    expect(viewer.text).toBe(failedLog);
  });

  it('audit: the storage write the front makes names the requesting user (impersonated, with the proxied group); the front is only the impersonator', async () => {
    kubectl(['create', 'rolebinding', 'alice-edit', '-n', ns, '--clusterrole=edit', '--user=alice']);
    await waitFor('alice may patch', async () => (await raw('PATCH', dcPath(), { as: 'alice', contentType: smp, body: { metadata: { labels: { 'audited-by': 'alice' } } } })).status === 200, { timeoutMs: 20_000 });
    type AuditEvent = { verb: string; user: { username: string }; impersonatedUser?: { username: string; groups?: string[] }; objectRef?: { apiGroup?: string; namespace?: string; name?: string }; responseStatus?: { code?: number } };
    const events = (): AuditEvent[] => readFileSync(path.join(runDir(), 'audit-dc.log'), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as AuditEvent)
      .filter((e) => e.objectRef?.namespace === ns && e.objectRef?.name === 'web' && e.impersonatedUser?.username === 'alice');
    const storageWrite = await waitFor('the storage write in the audit log', () => events().find((e) => e.objectRef?.apiGroup === 'apps.dcctl.io' && e.verb === 'update' && e.responseStatus?.code === 200));
    expect(storageWrite.impersonatedUser?.groups).toEqual(expect.arrayContaining(['system:dcctl:apiserver-proxied']));
    expect(storageWrite.user.username).not.toBe('alice');
    // ...and the public request it served is alice's too.
    expect(events().some((e) => e.objectRef?.apiGroup === 'apps.openshift.io' && e.verb === 'patch')).toBe(true);
    expect((await getDc()).metadata.labels?.['audited-by']).toBe('alice');
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

  it('while the API server is down the controllers keep rolling out what is stored; `kubectl get dc` says the group is unavailable', async () => {
    const pid = frontPid();
    process.kill(pid, 'SIGTERM');
    await waitFor('the API server to stop', () => !alive(pid));
    const failed = await waitFor('kubectl get dc to fail', () => {
      const r = kubectlResult(['get', 'dc', 'web', '-n', ns]);
      return r.code !== 0 ? r : undefined;
    }, { timeoutMs: 30_000 });
    expect(failed.stderr).toContain('Error from server (ServiceUnavailable): the server is currently unable to handle the request (get deploymentconfigs.apps.openshift.io web)');
    // What is stored changes (a GitOps tool writing the storage, or a trigger): rollout 8 runs.
    kubectl(['patch', 'deploymentconfigs.apps.dcctl.io', 'web', '-n', ns, '--type=merge', '-p', JSON.stringify({ spec: { template: { metadata: { annotations: { while: 'front-down' } } } } })]);
    await complete(8);
    expect(JSON.parse(kubectl(['get', 'deploymentconfigs.apps.dcctl.io', 'web', '-n', ns, '-o', 'json'])).status.latestVersion).toBe(8);
    // kubectl get all lists the rest without DCs: silently once kube-apiserver's aggregated
    // discovery has dropped the stale group, with the ServiceUnavailable error (exit 1) before.
    const all = kubectlResult(['get', 'all', '-n', ns]);
    expect(all.stdout).toContain('replicationcontroller/web-8');
    expect(all.stdout).not.toContain('deploymentconfig.apps.openshift.io/');
    if (all.code !== 0) expect(all.stderr).toContain('the server is currently unable to handle the request');
    await waitFor('the APIService to report the front unavailable', () => !apiServiceAvailable(), { timeoutMs: 60_000 });
    // The group's own discovery document (what clients without aggregated discovery read) is 503.
    expect((await raw('GET', G)).status).toBe(503);
    // Back up: the same DC, with the rollout made meanwhile.
    aggregated('up');
    expect(apiServiceAvailable()).toBe(true);
    expect((await getDc()).status?.latestVersion).toBe(8);
    expect(kubectl(['get', 'dc', 'web', '-n', ns, '--no-headers'])).toMatch(/^web\s+8\s/);
  });

  it('stopping `npm start` moves the plane back to CRD mode: every DC comes back with its RCs and history (one in a terminating namespace is skipped, not fatal); the CRD-mode controller rolls on', async () => {
    // A DC held in a namespace being deleted (a finalizer keeps it there).
    termNs = await createNamespace('apisrv-term');
    const held = dcManifest({ name: 'held', replicas: 1 });
    held.metadata.finalizers = ['dcctl.test/hold'];
    // Through the front directly (kubectl's discovery may still lack the group just after the restart above).
    expect((await raw('POST', `${G}/namespaces/${termNs}/deploymentconfigs`, { body: held })).status).toBe(201);
    kubectl(['delete', 'namespace', termNs, '--wait=false']);
    await waitFor('the namespace to be terminating', () => kubectl(['get', 'namespace', termNs, '-o', 'jsonpath={.status.phase}']) === 'Terminating');

    const names = ['legacy', 'web', 'vols', 'frac', 'nulls', 'logs', 'idle', 'stuck', 'ssa-def', 'created-def'];
    const before = new Map<string, { dc: DeploymentConfig; rcs: string[]; phases: Array<string | undefined> }>();
    for (const name of names) {
      const list = await rcs(name);
      before.set(name, { dc: await getDc(name), rcs: list.map((r) => r.metadata!.name!), phases: list.map((r) => r.metadata?.annotations?.[Annotations.Phase]) });
    }
    const frontWas = frontPid();
    await npmStart!.stop(); // npm itself dies of the signal; the script's cleanup is what counts
    expect(npmStart!.output()).toContain('[aggregated] CRD mode');
    expect(npmStart!.output()).toContain(`skipping ${termNs}/held: namespace "${termNs}" is being deleted`);
    expect(npmStart!.output()).toMatch(/migrated to crd: 10 DC\(s\) copied .* 1 skipped/);
    expect(alive(frontWas)).toBe(false);
    expect(existsSync(path.join(runDir(), 'dcctl-apiserver.pid'))).toBe(false);
    expect(kubectl(['get', 'apiservice', 'v1.apps.openshift.io', '-o', 'jsonpath={.spec.service.name}'])).toBe('');

    for (const name of names) {
      const was = before.get(name)!;
      const back = JSON.parse(kubectl(['get', 'deploymentconfigs.apps.openshift.io', name, '-n', ns, '-o', 'json'])) as DeploymentConfig;
      expect({ name, latestVersion: back.status?.latestVersion, template: back.spec.template, strategy: back.spec.strategy, triggers: back.spec.triggers })
        .toEqual({ name, latestVersion: was.dc.status?.latestVersion, template: was.dc.spec.template, strategy: was.dc.spec.strategy, triggers: was.dc.spec.triggers });
      const observed = (was.dc.status?.observedGeneration ?? 0) >= (was.dc.metadata.generation ?? 0);
      expect({ name, observedGeneration: back.status?.observedGeneration }).toEqual({ name, observedGeneration: observed ? back.metadata.generation : (back.metadata.generation ?? 1) - 1 });
      const list = await rcs(name);
      expect({ name, rcs: list.map((r) => r.metadata?.name), phases: list.map((r) => r.metadata?.annotations?.[Annotations.Phase]) }).toEqual({ name, rcs: was.rcs, phases: was.phases });
      for (const rc of list) expect(rc.metadata?.ownerReferences).toEqual([expect.objectContaining({ apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name, uid: back.metadata.uid, controller: true })]);
    }
    // The CRD-mode controller rolls on from the history (rollout 9 of web).
    controller = startController(ns);
    kubectl(['patch', 'dc', 'web', '-n', ns, '--type=merge', '-p', JSON.stringify({ spec: { template: { metadata: { annotations: { back: 'crd' } } } } })]);
    await complete(9);
    expect((await rcs('web')).length).toBe(9);
  });
});
