/**
 * The admission webhook of deploy/overlays/webhook on the real plane: the controller serves it
 * (`--webhook-bind-address`), kube-apiserver calls it with the shipped ValidatingWebhookConfiguration
 * (its rules, matchConditions and failurePolicy; only the client config points at the local
 * process, and a namespace selector keeps it to this test's namespace), and a DC whose pod
 * template a ReplicationController cannot have is refused when it is written, naming the field, as
 * OpenShift's API refused it. Nothing is stored then; a DC stored before the webhook keeps taking
 * changes that leave its template; with no webhook answering, DCs are admitted as before.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { raw } from '../support/aggregated.js';
import { localServingCert } from '../support/certs.js';
import { dcctl, freePort, kubectl, repoDir, startController, useNamespace, waitFor, type ControllerProcess } from '../support/kube.js';

const configName = `template.deploymentconfigs.dcctl.io-e2e-${process.pid}`;

const dcYaml = (name: string, container: Record<string, unknown>) => yaml.dump({
  apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig',
  metadata: { name },
  spec: {
    replicas: 1, selector: { app: name },
    template: { metadata: { labels: { app: name } }, spec: { containers: [container] } },
  },
});

const valid = { name: 'web', image: 'registry.example/web:1' };
const badName = { name: 'Web_1', image: 'registry.example/web:1' };

function kubectlResult(args: string[], input?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync('kubectl', args, { input, encoding: 'utf8', env: process.env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function getHealthz(port: number, ca: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ hostname: '127.0.0.1', port, path: '/healthz', ca }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.on('error', () => resolve(0));
    req.end();
  });
}

describe('DeploymentConfig admission webhook (deploy/overlays/webhook) on the real plane', () => {
  const ns = useNamespace('webhook');
  let dir = '';
  let port = 0;
  let controller: ControllerProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'webhook-e2e-'));
    localServingCert(dir, { ca: 'ca', leaf: 'tls' });
    const ca = readFileSync(path.join(dir, 'ca.crt'));

    // Stored before any webhook judged it: OpenShift would never have taken it.
    kubectl(['-n', ns.name, 'apply', '-f', '-'], dcYaml('legacy', badName));

    port = await freePort();
    controller = startController(ns.name, ['--webhook-bind-address', `127.0.0.1:${port}`, '--webhook-cert-dir', dir, '--enable-deployer-controller=false']);
    await waitFor('the webhook to serve /healthz', async () => (await getHealthz(port, ca)) === 200, { timeoutMs: 30_000 });

    const shipped = (yaml.loadAll(readFileSync(path.join(repoDir, 'deploy/overlays/webhook/webhook.yaml'), 'utf8')) as any[]) // eslint-disable-line @typescript-eslint/no-explicit-any
      .find((d) => d?.kind === 'ValidatingWebhookConfiguration');
    shipped.metadata.name = configName;
    for (const hook of shipped.webhooks) {
      hook.clientConfig = { url: `https://127.0.0.1:${port}/validate-deploymentconfigs`, caBundle: ca.toString('base64') };
      hook.namespaceSelector = { matchLabels: { 'kubernetes.io/metadata.name': ns.name } };
    }
    kubectl(['apply', '-f', '-'], yaml.dump(shipped));
    // kube-apiserver takes a new webhook configuration from its informer: wait until it calls it.
    await waitFor('kube-apiserver to call the webhook',
      () => kubectlResult(['-n', ns.name, 'create', '--dry-run=server', '-f', '-'], dcYaml('probe', badName)).code !== 0, { timeoutMs: 30_000 });
  });

  afterAll(async () => {
    spawnSync('kubectl', ['delete', 'validatingwebhookconfiguration', configName, '--ignore-not-found'], { env: process.env });
    await controller?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a DC whose container name no RC may have, naming the field as OpenShift did, and stores nothing', async () => {
    const r = kubectlResult(['-n', ns.name, 'apply', '-f', '-'], dcYaml('web', badName));
    expect(r.code).not.toBe(0);
    // What `oc apply` printed for the same file on OpenShift.
    expect(r.stderr).toContain('The DeploymentConfig "web" is invalid: spec.template.spec.containers[0].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of');
    expect(kubectlResult(['-n', ns.name, 'get', 'dc', 'web']).stderr).toContain('NotFound');

    // What any client gets: kube-apiserver's 422 with the webhook's causes.
    const res = await raw('POST', `/apis/apps.openshift.io/v1/namespaces/${ns.name}/deploymentconfigs`, { body: yaml.load(dcYaml('web', badName)) });
    expect(res.status).toBe(422);
    const status = res.json();
    expect(status.reason).toBe('Invalid');
    expect(status.message).toMatch(/^admission webhook "template\.deploymentconfigs\.dcctl\.io" denied the request: DeploymentConfig\.apps\.openshift\.io "web" is invalid: spec\.template\.spec\.containers\[0\]\.name: Invalid value: "Web_1"/);
    expect(status.details.causes).toEqual([expect.objectContaining({ field: 'spec.template.spec.containers[0].name', reason: 'FieldValueInvalid' })]);
  });

  it('admits a valid DC, then refuses an update that mounts a volume the template lacks, leaving the stored DC as it was', async () => {
    kubectl(['-n', ns.name, 'apply', '-f', '-'], dcYaml('web', valid));
    const before = JSON.parse(kubectl(['-n', ns.name, 'get', 'dc', 'web', '-o', 'json']));
    const patch = { spec: { template: { spec: { containers: [{ ...valid, volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } } } };
    const r = kubectlResult(['-n', ns.name, 'patch', 'dc', 'web', '--type=merge', '-p', JSON.stringify(patch)]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.template.spec.containers[0].volumeMounts[0].name: Not found: "data"');
    const after = JSON.parse(kubectl(['-n', ns.name, 'get', 'dc', 'web', '-o', 'json']));
    expect(after.metadata.generation).toBe(before.metadata.generation);
    expect(after.spec.template).toEqual(before.spec.template);
  });

  it('lets a DC stored before the webhook take changes that keep its template, and judges the next template change', () => {
    expect(kubectlResult(['-n', ns.name, 'annotate', 'dc', 'legacy', 'team=payments']).code).toBe(0);
    expect(kubectlResult(['-n', ns.name, 'patch', 'dc', 'legacy', '--type=merge', '-p', '{"spec":{"replicas":2}}']).code).toBe(0);
    const stillBad = kubectlResult(['-n', ns.name, 'patch', 'dc', 'legacy', '--type=json', '-p',
      JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'registry.example/web:2' }])]);
    expect(stillBad.code).not.toBe(0);
    expect(stillBad.stderr).toContain('spec.template.spec.containers[0].name: Invalid value: "Web_1"');
    const fixed = kubectlResult(['-n', ns.name, 'patch', 'dc', 'legacy', '--type=json', '-p',
      JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/name', value: 'web' }])]);
    expect(fixed.code).toBe(0);
  });

  it('admits every DC of test/fixtures/valid-dcs, each a DC OpenShift accepted (its template included)', () => {
    const dir = path.join(repoDir, 'test/fixtures/valid-dcs');
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
    expect(files.length).toBeGreaterThan(10);
    const refused = files
      .map((f) => ({ f, r: kubectlResult(['-n', ns.name, 'create', '--dry-run=server', '-f', path.join(dir, f)]) }))
      .filter(({ r }) => r.code !== 0)
      .map(({ f, r }) => `${f}: ${r.stderr.trim()}`);
    expect(refused).toEqual([]);
  });

  it('admits every DC that `dcctl import` makes of the export fixtures (test/fixtures/import)', async () => {
    const dir = path.join(repoDir, 'test/fixtures/import');
    const dcs: Array<{ file: string; dc: any }> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const file of readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f)).sort()) {
      const r = await dcctl(['import', '-f', path.join(dir, file), '-o', 'json']);
      if (r.code !== 0) continue; // Templates that need --param values, refused on purpose.
      const out = JSON.parse(r.stdout);
      for (const item of out.items ?? [out]) if (item.kind === 'DeploymentConfig') dcs.push({ file, dc: item });
    }
    expect(dcs.length).toBeGreaterThanOrEqual(20);
    const refused: string[] = [];
    for (const [i, { file, dc }] of dcs.entries()) {
      // Its own name: the namespace holds this suite's other DCs.
      delete dc.metadata.namespace;
      delete dc.metadata.generateName;
      dc.metadata.name = `imported-${i}`;
      const r = kubectlResult(['-n', ns.name, 'create', '--dry-run=server', '-f', '-'], JSON.stringify(dc));
      if (r.code !== 0) refused.push(`${file} (${dc.metadata.name}): ${r.stderr.trim()}`);
    }
    expect(refused).toEqual([]);
  });

  it('admits a DC it cannot judge with a warning kubectl prints (an admission policy forbids the probe RC)', async () => {
    const policy = `webhook-e2e-no-rcs-${process.pid}`;
    kubectl(['apply', '-f', '-'], [
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: policy },
        spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['replicationcontrollers'] }] },
          validations: [{ expression: 'false', message: 'no ReplicationControllers here', reason: 'Forbidden' }] } },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: policy },
        spec: { policyName: policy, validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns.name } } } } },
    ].map((d) => yaml.dump(d)).join('---\n'));
    try {
      const rc = 'apiVersion: v1\nkind: ReplicationController\nmetadata: {name: probe}\nspec: {replicas: 0, selector: {a: b}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: x}]}}}\n';
      await waitFor('the policy to be in force', () => kubectlResult(['-n', ns.name, 'create', '--dry-run=server', '-f', '-'], rc).code !== 0, { timeoutMs: 30_000 });
      // kube-apiserver validates the probe RC before any admission policy runs, so a template it
      // refuses is still refused here; a valid one meets the policy and cannot be judged.
      expect(kubectlResult(['-n', ns.name, 'apply', '-f', '-'], dcYaml('still-judged', badName)).stderr)
        .toContain('The DeploymentConfig "still-judged" is invalid: spec.template.spec.containers[0].name');
      const r = kubectlResult(['-n', ns.name, 'apply', '-f', '-'], dcYaml('unchecked', valid));
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('Warning: the pod template of DeploymentConfig "unchecked" was not checked as a ReplicationController\'s: ');
      expect(r.stderr).toContain('no ReplicationControllers here');
    } finally {
      spawnSync('kubectl', ['delete', 'validatingadmissionpolicybinding,validatingadmissionpolicy', policy, '--ignore-not-found'], { env: process.env });
    }
  });

  it('admits DCs as before while no controller answers (failurePolicy Ignore)', async () => {
    await controller?.stop();
    controller = undefined;
    const r = kubectlResult(['-n', ns.name, 'apply', '-f', '-'], dcYaml('unjudged', badName));
    expect(r.code).toBe(0);
    expect(kubectl(['-n', ns.name, 'get', 'dc', 'unjudged', '-o', 'jsonpath={.spec.template.spec.containers[0].name}'])).toBe('Web_1');
  });
});
