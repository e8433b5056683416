import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { apis, createNamespace, dcctl, deleteNamespace, repoDir } from '../support/kube.js';

// `dcctl import` against the real local control plane: every case of the corpus in
// test/fixtures/import is imported, then applied (or dry-run) and read back. Needs `npm run build`.

const fx = (name: string) => path.join(repoDir, 'test/fixtures/import', name);
const { core, custom } = apis();
let ns = '';

const getDc = (name: string) => custom.getNamespacedCustomObject({ group: 'apps.openshift.io', version: 'v1', namespace: ns, plural: 'deploymentconfigs', name }) as Promise<Record<string, any>>;
const exists = (p: Promise<unknown>) => p.then(() => true, () => false);
let imageStreamsServed = false;

beforeAll(async () => {
  ns = await createNamespace('import');
  // The ImageStream CRD belongs to the image trigger work; assert ImageStream applies only where it is installed.
  imageStreamsServed = await exists(custom.listNamespacedCustomObject({ group: 'image.openshift.io', version: 'v1', namespace: ns, plural: 'imagestreams' }));
});
afterAll(async () => { if (ns) await deleteNamespace(ns); });

describe('dcctl import on the local control plane', () => {
  it('imports an oc export List: the output applies as new objects, Routes and owned objects are skipped', async () => {
    const printed = await dcctl(['import', '-f', fx('oc-get-all-list.yaml')]);
    expect(printed.code).toBe(0);
    const docs = yaml.loadAll(printed.stdout) as Record<string, any>[];
    expect(docs.map((d) => `${d.apiVersion} ${d.kind}`)).toEqual(['apps.openshift.io/v1 DeploymentConfig', 'image.openshift.io/v1 ImageStream', 'v1 Service']);
    expect(printed.stdout).not.toMatch(/uid:|resourceVersion|managedFields|lastTriggeredImage|status:|172\.30\./);
    expect(printed.stderr).toMatch(/route.route.openshift.io\/web: skipped: .*\n {4}hint: expose the Service with an Ingress/);

    // The printed output is what a user would `kubectl apply`; --apply sends the same objects.
    const applied = await dcctl(['import', '-f', fx('oc-get-all-list.yaml'), '--apply', '-n', ns]);
    expect({ code: applied.code, stdout: applied.stdout }).toEqual({
      code: 0,
      stdout: `deploymentconfig.apps.openshift.io/web serverside-applied\n${imageStreamsServed ? 'imagestream.image.openshift.io/web serverside-applied\n' : ''}service/web serverside-applied\n`,
    });
    const dc = await getDc('web');
    expect(dc.metadata.managedFields.map((f: { manager: string }) => f.manager)).toContain('dcctl-import');
    expect(dc.spec.triggers[1].imageChangeParams.lastTriggeredImage).toBeUndefined();
    expect(dc.metadata.uid).not.toBe('3f1e0c0a-1b2c-4d5e-8f90-0a1b2c3d4e5f');
    const svc = await core.readNamespacedService({ name: 'web', namespace: ns });
    expect(svc.spec?.clusterIP).not.toBe('172.30.12.34');
    if (!imageStreamsServed) expect(applied.stderr).toMatch(/imagestream.image.openshift.io\/web: skipped: this cluster does not serve/);
    expect(await exists(core.readNamespacedReplicationController({ name: 'web-4', namespace: ns }))).toBe(false);
  });

  it('processes a Template from stdin with --param and --param-file and applies it', async () => {
    const r = await dcctl(['import', '-f', '-', '--param-file', fx('params.env'), '--param', 'NAME=shop', '--apply', '-n', ns], { input: readFileSync(fx('template.yaml'), 'utf8') });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Created shop with 3 replicas/);
    const dc = await getDc('shop');
    expect(dc.spec.replicas).toBe(3);
    expect(dc.metadata.labels).toEqual({ app: 'shop', template: 'shop-shop' });
    expect(dc.spec.template.spec.containers[0].env[0].value).toBe('https://shop.apps.example.org/');
    const secret = await core.readNamespacedSecret({ name: 'shop-db', namespace: ns });
    expect(Buffer.from(secret.data?.['password'] ?? '', 'base64').toString()).toMatch(/^[a-zA-Z0-9]{12}$/);
  });

  it('applies multi-document YAML and concatenated JSON, with ${{}} values of a legacy JSON Template', async () => {
    for (const f of ['multi-doc.yaml', 'export.json', 'legacy-template.json']) {
      const r = await dcctl(['import', '-f', fx(f), '--apply', '-n', ns]);
      expect({ f, code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ f, code: 0, stderr: '' });
    }
    expect((await core.readNamespacedConfigMap({ name: 'settings', namespace: ns })).data).toEqual({ LOG_LEVEL: 'debug' });
    expect((await getDc('worker')).spec.strategy.type).toBe('Custom');
    expect((await getDc('api')).status?.latestVersion ?? 0).toBe(0);
    const list = await custom.listNamespacedCustomObject({ group: 'apps.openshift.io', version: 'v1', namespace: ns, plural: 'deploymentconfigs' }) as { items: Record<string, any>[] };
    const cron = list.items.find((d) => String(d.metadata.name).startsWith('cron-'));
    expect(cron?.spec.paused).toBe(true);
    expect(cron?.spec.template.spec.containers[0].resources.limits).toEqual({ cpu: '200m', memory: '128Mi' });
  });

  it('--dry-run=server validates on the server and persists nothing', async () => {
    const r = await dcctl(['import', '-f', fx('template.yaml'), '--param', 'APP_DOMAIN=x.example', '--param', 'NAME=dry', '--dry-run=server', '-n', ns]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('deploymentconfig.apps.openshift.io/dry serverside-applied (server dry run)');
    expect(await exists(getDc('dry'))).toBe(false);
    expect(await exists(core.readNamespacedSecret({ name: 'dry-db', namespace: ns }))).toBe(false);
  });

  it('a server rejection applies nothing of the file and names the object and field', async () => {
    const r = await dcctl(['import', '-f', fx('bad/server-rejects.yaml'), '--apply', '-n', ns]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/deploymentconfig.apps.openshift.io\/negative: changed.*\n(.*\n)*? {4}error: Error from server \(Invalid\): DeploymentConfig.apps.openshift.io "negative" is invalid: .*spec.replicas/);
    expect(r.stderr).toMatch(/nothing was applied/);
    expect(await exists(core.readNamespacedConfigMap({ name: 'must-not-exist', namespace: ns }))).toBe(false);
  });

  it('bad input fails before contacting the cluster', async () => {
    for (const [f, msg] of [
      ['bad/unparseable.yaml', /cannot parse YAML at line 11/],
      ['bad/unknown-apiversion.yaml', /apiVersion "extensions\/v1beta1" \(kind Deployment\) is no longer served/],
      ['bad/missing-required.yaml', /parameter APP_DOMAIN is required and must be specified/],
    ] as const) {
      const r = await dcctl(['import', '-f', fx(f), '--apply', '-n', ns]);
      expect({ f, code: r.code, stdout: r.stdout }).toEqual({ f, code: 1, stdout: '' });
      expect(r.stderr).toMatch(msg);
    }
    expect(await exists(core.readNamespacedConfigMap({ name: 'fine', namespace: ns }))).toBe(false);
    const unknown = await dcctl(['import', '-f', fx('template.yaml'), '--param', 'APP_DOMAIN=x', '--param', 'TYPO=1']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown parameter name "TYPO"/);
  });
});
