import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { DcClient } from '../support/dc.js';
import { apis, createNamespace, dcctl, deleteNamespace, kubectl, repoDir, startController, waitFor, type ControllerProcess } from '../support/kube.js';

// `dcctl import` against the real local control plane: every case of the corpus in
// test/fixtures/import is imported, then applied (or dry-run) and read back. Needs `npm run build`.

const fx = (name: string) => path.join(repoDir, 'test/fixtures/import', name);
const { core, custom, apps } = apis();
let ns = '';

const getDc = (name: string) => custom.getNamespacedCustomObject({ group: 'apps.openshift.io', version: 'v1', namespace: ns, plural: 'deploymentconfigs', name }) as Promise<Record<string, any>>;
const exists = (p: Promise<unknown>) => p.then(() => true, () => false);

beforeAll(async () => {
  ns = await createNamespace('import');
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
      stdout: `deploymentconfig.apps.openshift.io/web serverside-applied\nimagestream.image.openshift.io/web serverside-applied\nservice/web serverside-applied\n`,
    });
    const dc = await getDc('web');
    expect(dc.metadata.managedFields.map((f: { manager: string }) => f.manager)).toContain('dcctl-import');
    expect(dc.spec.triggers[1].imageChangeParams.lastTriggeredImage).toBeUndefined();
    expect(dc.metadata.uid).not.toBe('3f1e0c0a-1b2c-4d5e-8f90-0a1b2c3d4e5f');
    const svc = await core.readNamespacedService({ name: 'web', namespace: ns });
    expect(svc.spec?.clusterIP).not.toBe('172.30.12.34');
    // The plane's setup installs the ImageStream CRD, so the stream is applied, never skipped.
    expect(applied.stderr).not.toMatch(/skipped: this cluster does not serve/);
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
      ['bad/unknown-apiversion.yaml', /apiVersion "policy\/v1beta1" \(kind PodSecurityPolicy\) is no longer served/],
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


// Issue 13: manifests OpenShift accepted must apply, unchanged or through `dcctl import`, and
// roll out. One namespace with its own controller; the report lines are checked exactly.
describe('manifests OpenShift accepted (import and admission corpus) on the local control plane', () => {
  let compat = '';
  let controller: ControllerProcess | undefined;
  const rel = (text: string) => text.split(`${repoDir}/`).join('');
  const phase = (rc: { metadata?: { annotations?: Record<string, string> } }) => rc.metadata?.annotations?.['openshift.io/deployment.phase'];
  /** The object of `kind` that `dcctl import -o json` prints for fixture `file`. */
  const printedObject = async (file: string, kind: string): Promise<Record<string, any>> => {
    const printed = await dcctl(['import', '-f', fx(file), '-o', 'json']);
    expect(printed.code).toBe(0);
    return (JSON.parse(printed.stdout) as { items: Record<string, any>[] }).items.find((o) => o.kind === kind)!;
  };
  /** What the server answers to a dry-run apply of `obj` as it is: '' when it takes it. */
  const refusalOf = (obj: unknown): string => {
    try {
      kubectl(['apply', '--dry-run=server', '-n', compat, '-f', '-'], JSON.stringify(obj));
      return '';
    } catch (err) {
      return String((err as { stderr?: unknown }).stderr);
    }
  };

  beforeAll(async () => {
    compat = await createNamespace('import-compat');
    controller = startController(compat);
  });
  afterAll(async () => {
    await controller?.stop();
    if (compat) await deleteNamespace(compat);
  });

  it('an OpenShift 3.11 export: every removed and renamed field is reported, the output passes strict kubectl apply and rolls out', async () => {
    const r = await dcctl(['import', '-f', fx('openshift3-export.yaml')]);
    expect(r.code).toBe(0);
    const src = 'test/fixtures/import/openshift3-export.yaml (document 1';
    const unknown = (f: string) => `    changed: removed unknown field ${f} (not in the apps.openshift.io/v1 DeploymentConfig schema; OpenShift ignored it)`;
    expect(rel(r.stderr).split('\n')).toEqual([
      'import: 4 object(s): 0 imported unchanged, 4 changed, 0 skipped',
      `deploymentconfig.apps.openshift.io/catalog: changed  [${src}, items[0])]`,
      '    changed: apiVersion v1 → apps.openshift.io/v1 (the legacy group-less form cannot be routed to a CRD)',
      '    changed: rewrote spec.triggers[1].imageChangeParams.from ImageStream "catalog" → ImageStreamTag "catalog:latest" (as OpenShift\'s decoder converted the legacy kind)',
      '    changed: removed server-written fields: metadata.creationTimestamp, metadata.generation, status, spec.template.metadata.creationTimestamp',
      unknown('spec.serviceAccountName'),
      unknown('spec.strategy.recreateParams.pre.execNewPod.args'),
      unknown('spec.template.spec.containers[0].capabilities'),
      unknown('spec.template.spec.containers[0].nodeSelector'),
      unknown('spec.template.spec.containers[0].resources.requires'),
      '    differs: ImageChange trigger on ImageStreamTag catalog:latest needs the image trigger controller and the ImageStream CRD (crds/imagestream.yaml); ImageStream catalog is part of this import; the first rollout waits until the trigger is resolved',
      '    differs: the legacy v1 API orphaned ReplicationControllers when the DC was deleted; here deleting the DC deletes them (use --cascade=orphan to keep them)',
      `deploymentconfig.apps.openshift.io/gateway: changed  [${src}, items[1])]`,
      '    changed: apiVersion v1 → apps.openshift.io/v1 (the legacy group-less form cannot be routed to a CRD)',
      '    changed: rewrote spec.strategy.rollingParams.updatePercent -50 → maxUnavailable "50%" (as OpenShift converted the removed field)',
      '    differs: the legacy v1 API kept every old ReplicationController; apps.openshift.io/v1 (and this CRD) keeps 10: set spec.revisionHistoryLimit to keep more',
      '    differs: the legacy v1 API orphaned ReplicationControllers when the DC was deleted; here deleting the DC deletes them (use --cascade=orphan to keep them)',
      `service/catalog: changed  [${src}, items[2])]`,
      '    changed: renamed spec.portalIP → spec.clusterIP (its name since Kubernetes v1)',
      '    changed: removed server-written fields: spec.clusterIP',
      '    changed: removed unknown field spec.deprecatedPublicIPs (not in the v1 Service schema; OpenShift ignored it)',
      `imagestream.image.openshift.io/catalog: changed  [${src}, items[3])]`,
      '    changed: apiVersion v1 → image.openshift.io/v1 (the legacy group-less form cannot be routed to a CRD)',
      '    changed: removed spec.tags[0] (tag "latest" is defined again at spec.tags[2]; OpenShift kept the last one)',
      '    changed: set spec.tags[1].referencePolicy.type "" → Source (OpenShift\'s default for an empty type)',
      '    changed: set spec.tags[2].referencePolicy.type "" → Source (OpenShift\'s default for an empty type)',
      '    differs: ImageStreams are served by the ImageStream CRD (crds/imagestream.yaml) and resolved by the image trigger controller; there is no integrated registry, so tags must point at external images (from.kind DockerImage)',
      'note: `kubectl get dc` shows the trigger types (ConfigChange,ImageChange) in TRIGGERED BY, not oc\'s config,image(name:tag) summary: read spec.triggers for the image triggers',
      '',
    ]);
    // The printed objects are what a user applies: plain kubectl apply, strict field validation.
    kubectl(['apply', '-n', compat, '-f', '-'], r.stdout);
    const dcs = new DcClient(compat);
    const [catalog, gateway] = await Promise.all([dcs.waitForPhase('catalog-1', ['Complete', 'Failed'], 90_000), dcs.waitForPhase('gateway-1', ['Complete', 'Failed'], 90_000)]);
    expect([phase(catalog), phase(gateway)]).toEqual(['Complete', 'Complete']);
    expect(catalog.spec?.template?.spec?.containers[0]?.image).toBe('registry.example.com/shop/catalog:2.1');
    const svc = await core.readNamespacedService({ name: 'catalog', namespace: compat });
    expect(svc.spec?.clusterIP).not.toBe('172.30.44.10');
  }, 150_000);

  it('numbers a 3.7-era Template substitutes as strings (`replicas: "${REPLICAS}"`): the server refuses them as they are, --apply writes the numbers and reports each, and the DC rolls out with 2 replicas', async () => {
    const printed = await printedObject('quoted-numbers.yaml', 'DeploymentConfig');
    expect(printed.spec.replicas).toBe(2);
    expect(refusalOf({ ...printed, spec: { ...printed.spec, replicas: '2' } })).toMatch(/spec\.replicas/);
    const raw = await dcctl(['import', '-f', fx('quoted-numbers.yaml'), '--apply', '-n', compat]);
    expect(raw.code).toBe(0);
    const report = rel(raw.stderr);
    for (const field of ['spec.replicas: "2" → 2', 'spec.strategy.rollingParams.intervalSeconds: "1" → 1', 'spec.template.spec.containers[0].ports[0].containerPort: "8080" → 8080', 'spec.ports[0].port: "8080" → 8080']) {
      expect(report).toContain(`    changed: ${field} (a number written as a string`);
    }
    const rc = await new DcClient(compat).waitForPhase('eventrouter-1', ['Complete', 'Failed'], 90_000);
    expect(phase(rc)).toBe('Complete');
    expect(rc.spec?.replicas).toBe(2);
    // An int-or-string field and a Quantity keep their strings.
    const dc = await new DcClient(compat).get('eventrouter');
    expect([dc.spec?.strategy?.rollingParams?.maxSurge, dc.spec?.template?.spec?.containers[0]?.resources?.limits?.['cpu']]).toEqual(['25%', '1']);
    const svc = await core.readNamespacedService({ name: 'eventrouter', namespace: compat });
    expect([svc.spec?.ports?.[0]?.port, svc.spec?.ports?.[0]?.targetPort]).toEqual([8080, 8080]);
  }, 120_000);

  it('values of a JSON type their field does not take, in this project\'s CRDs and in native kinds typed by the cluster\'s OpenAPI: refused naming each field, nothing applied', async () => {
    const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: matomo-env}\ndata: {MATOMO_PORT: 8080, DEBUG: "true"}\n';
    const r = await dcctl(['import', '-f', fx('bad/wrong-types.yaml'), '-f', '-', '--apply', '-n', compat], { input: configMap });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const errors = rel(r.stderr).split('\n').filter((l) => l.startsWith('error: '));
    expect(errors).toEqual([
      expect.stringContaining('imagestream.image.openshift.io/matomo: metadata.labels["shared"]: true is a boolean where a string goes'),
      expect.stringContaining('imagestream.image.openshift.io/matomo: spec.tags[0].importPolicy.scheduled: 1 is a number where a boolean goes'),
      expect.stringContaining('deploymentconfig.apps.openshift.io/matomo: spec.template.spec.containers[0].env[0].value: 8080 is a number where a string goes'),
      expect.stringContaining('configmap/matomo-env: data["MATOMO_PORT"]: 8080 is a number where a string goes'),
      'error: the input was not imported: nothing was printed or applied',
    ]);
    expect(await exists(custom.getNamespacedCustomObject({ group: 'image.openshift.io', version: 'v1', namespace: compat, plural: 'imagestreams', name: 'matomo' }))).toBe(false);
    // kubectl refuses the stream as it is too, naming the type Go wanted but not the label.
    const stream = (yaml.loadAll(readFileSync(fx('bad/wrong-types.yaml'), 'utf8'))[0] as { items: unknown[] }).items[0];
    expect(refusalOf(stream)).toMatch(/cannot unmarshal bool into .* of type string/);
  }, 60_000);

  it('a DC whose pod template Kubernetes refuses in an RC: the CRD takes it, but --apply refuses it naming the fields, as OpenShift\'s API did, and applies nothing', async () => {
    const dcDoc = (yaml.load(readFileSync(fx('bad/template-refused.yaml'), 'utf8')) as { items: Record<string, any>[] }).items[1];
    expect(refusalOf(dcDoc)).toBe('');
    const r = await dcctl(['import', '-f', fx('bad/template-refused.yaml'), '--apply', '-n', compat]);
    expect(r.code).toBe(1);
    const refusal = rel(r.stderr);
    expect(refusal).toContain('error: DeploymentConfig.apps.openshift.io "wordpress" is invalid: ');
    expect(refusal).toContain('spec.template.spec.containers[0].volumeMounts[0].name: Not found: "wordpress-data"');
    expect(refusal).toContain('spec.template.spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`');
    expect(await exists(core.readNamespacedConfigMap({ name: 'wordpress-settings', namespace: compat }))).toBe(false);
    expect(await exists(new DcClient(compat).get('wordpress'))).toBe(false);
  }, 60_000);

  it('a Template whose ImageStream has a label that is not a string: --apply gives the stream the Template\'s labels instead of its own, as oc process did, and reports it', async () => {
    const r = await dcctl(['import', '-f', fx('labels-not-strings.yaml'), '--apply', '-n', compat]);
    expect(r.code).toBe(0);
    expect(rel(r.stderr)).toContain('    changed: metadata.labels: shared: true is not a string: as oc process did, the Template\'s labels replaced all the object\'s own labels, so it is created without app, shared\n');
    const stream = await custom.getNamespacedCustomObject({ group: 'image.openshift.io', version: 'v1', namespace: compat, plural: 'imagestreams', name: 'api' }) as Record<string, any>;
    expect(stream.metadata.labels).toEqual({ template: 'api-deploy' });
    const dc = await new DcClient(compat).get('api');
    expect(dc.metadata?.labels).toEqual({ app: 'api', template: 'api-deploy' });
  }, 60_000);

  it('an ImageStream named as an image repository (`postgres_exporter`): --apply renames it to a DNS subdomain with its references in the import, reports each, and the DC rolls out with the stream\'s image', async () => {
    const raw = await dcctl(['import', '-f', fx('underscore-stream.yaml'), '--apply', '-n', compat]);
    expect(raw.code).toBe(0);
    const report = rel(raw.stderr);
    expect(report).toContain('    changed: metadata.name: postgres_exporter → postgres-exporter (a custom resource\'s name must be a DNS subdomain');
    expect(report).toContain('    changed: spec.triggers[1].imageChangeParams.from.name: postgres_exporter:v0.4.7 → postgres-exporter:v0.4.7 (the ImageStream postgres_exporter of this import is renamed)');
    expect(report).toContain('    changed: spec.tags[0].from.name: postgres_exporter:v0.4.7 → postgres-exporter:v0.4.7');
    const rc = await new DcClient(compat).waitForPhase('db-exporter-1', ['Complete', 'Failed'], 90_000);
    expect(phase(rc)).toBe('Complete');
    expect(rc.spec?.template?.spec?.containers[0]?.image).toBe('registry.local/postgres_exporter:v0.4.7');
  }, 120_000);

  it('null fields of a real-world template (`rollingParams:`, `args:`, `env:` with nothing after them): --apply reports and removes them, and the DC rolls out', async () => {
    // The processed objects carry nulls, which OpenShift read as absent; import removes them, so
    // the output applies to the ImageStream CRD and to DC CRDs of earlier versions too.
    const raw = await dcctl(['import', '-f', fx('null-fields.yaml'), '--apply', '-n', compat]);
    expect(raw.code).toBe(0);
    expect(rel(raw.stderr)).toContain('    changed: removed spec.strategy.rollingParams: null (OpenShift read a null field as absent)\n');
    expect(rel(raw.stderr)).toContain('    changed: removed spec.template.spec.containers[0].args: null (OpenShift read a null field as absent)\n');
    const rc = await new DcClient(compat).waitForPhase('cache-1', ['Complete', 'Failed'], 90_000);
    expect(phase(rc)).toBe('Complete');
    expect(rc.metadata?.labels?.['tier']).toBe('');
    // A null Quantity in a map is "0" as OpenShift stored it (as "" it was refused: not a Quantity).
    expect(rel(raw.stderr)).toContain('    changed: spec.template.spec.containers[0].resources.limits["cpu"]: null → "0" (a Quantity: OpenShift read a null one as zero and stored "0")\n');
    expect(rc.spec?.template?.spec?.containers[0]?.resources).toEqual({ limits: { cpu: '0', memory: '64Mi' } });
    const dc = await new DcClient(compat).get('cache');
    expect([dc.metadata?.labels?.['tier'], dc.spec?.triggers?.map((t) => t.type)]).toEqual(['', ['ConfigChange']]);
  }, 120_000);

  it('Quantities written as fractional numbers (`cpu: .25`): kubectl apply stores each as its string (the optional policy of Kubernetes 1.36+), --apply writes them as strings too and reports each, and the DC rolls out with the quantities OpenShift would have given', async () => {
    // The processed template as it is. The CRD's schema alone refuses a fractional number at a
    // Quantity; the test plane (1.36) has crds/optional/deploymentconfig-quantities-policy.yaml.
    const raw = await printedObject('fractional-quantities.yaml', 'DeploymentConfig');
    raw.spec.template.spec.containers[0].resources.requests.cpu = 0.25;
    const stored = JSON.parse(kubectl(['apply', '--dry-run=server', '-o', 'json', '-n', compat, '-f', '-'], JSON.stringify(raw))) as Record<string, any>;
    expect(stored.spec.template.spec.containers[0].resources.requests.cpu).toBe('0.25');

    const r = await dcctl(['import', '-f', fx('fractional-quantities.yaml'), '--apply', '-n', compat]);
    expect(r.code).toBe(0);
    expect(rel(r.stderr)).toContain('    changed: spec.template.spec.containers[0].resources.requests["cpu"]: 0.25 → "0.25" (a Quantity: the CRD takes a number only as an integer; OpenShift read 0.25 as the same quantity)\n');
    expect(rel(r.stderr)).toContain('    changed: spec.strategy.resources.limits["cpu"]: 0.1 → "0.1" (a Quantity: the CRD takes a number only as an integer; OpenShift read 0.1 as the same quantity)\n');
    const rc = await new DcClient(compat).waitForPhase('worker-1', ['Complete', 'Failed'], 90_000);
    expect(phase(rc)).toBe('Complete');
    // The RC's template is a native pod template: the server reads each string as OpenShift read the number.
    const pod = rc.spec?.template?.spec;
    expect([pod?.containers[0]?.resources?.limits?.['cpu'], pod?.containers[0]?.resources?.requests?.['cpu'], pod?.initContainers?.[0]?.resources?.limits?.['cpu'], pod?.volumes?.[0]?.emptyDir?.sizeLimit])
      .toEqual(['750m', '250m', '1500m', '1500m']);
  }, 120_000);

  it('an HPA aimed at a DC without an API group, as OpenShift resolved it: kubectl apply is refused, --apply retargets it to apps.openshift.io/v1 and reports it, and the autoscaler scales the DC', async () => {
    const hpa = await printedObject('autoscaled.yaml', 'HorizontalPodAutoscaler');
    delete hpa.spec.scaleTargetRef.apiVersion;
    expect(refusalOf(hpa)).toContain('spec.scaleTargetRef.apiVersion');

    const r = await dcctl(['import', '-f', fx('autoscaled.yaml'), '--apply', '-n', compat]);
    expect(r.code).toBe(0);
    expect(rel(r.stderr)).toContain("    changed: spec.scaleTargetRef.apiVersion (none) → apps.openshift.io/v1 (OpenShift's autoscaler resolved a DeploymentConfig without an API group; Kubernetes needs the group)\n");
    // kube-controller-manager's autoscaler reads the DC through its scale subresource and raises it to minReplicas.
    const dc = await waitFor('the autoscaler scaled the DC to 2', async () => {
      const d = await new DcClient(compat).get('scaled');
      return d.spec?.replicas === 2 ? d : undefined;
    }, { timeoutMs: 60_000 });
    expect(dc.spec?.replicas).toBe(2);
  }, 120_000);

  it('an `oc get dc -o yaml` export (`creationTimestamp: null` in its template) applies with kubectl apply --server-side, as Flux and Argo CD apply it, and rolls out; re-applying it client-side or server-side starts no rollout', async () => {
    const exported = `apiVersion: apps.openshift.io/v1
kind: DeploymentConfig
metadata:
  name: exported
  labels: {app: exported}
spec:
  replicas: 1
  selector: {app: exported, deploymentconfig: exported}
  strategy:
    activeDeadlineSeconds: 21600
    resources: {}
    rollingParams: {intervalSeconds: 1, maxSurge: 25%, maxUnavailable: 25%, timeoutSeconds: 600, updatePeriodSeconds: 1}
    type: Rolling
  template:
    metadata:
      creationTimestamp: null
      labels: {app: exported, deploymentconfig: exported}
    spec:
      containers:
      - image: registry.example.com/exported:1
        imagePullPolicy: IfNotPresent
        name: exported
        resources: {}
      restartPolicy: Always
  test: false
  triggers:
  - type: ConfigChange
status:
  latestVersion: 7
`;
    kubectl(['apply', '--server-side', '-n', compat, '-f', '-'], exported);
    const dcs = new DcClient(compat);
    expect(phase(await dcs.waitForPhase('exported-1', ['Complete', 'Failed'], 90_000))).toBe('Complete');
    // The controller has seen every re-apply (observedGeneration) and rolled out nothing new.
    const settled = async () => waitFor('the DC controller observed the re-apply', async () => {
      const dc = await dcs.get('exported');
      return (dc.status?.observedGeneration ?? 0) >= (dc.metadata?.generation ?? 1) ? dc : undefined;
    }, { timeoutMs: 30_000 });
    kubectl(['apply', '-n', compat, '-f', '-'], exported);
    expect((await settled()).status?.latestVersion).toBe(1);
    kubectl(['apply', '--server-side', '-n', compat, '-f', '-'], exported);
    expect((await settled()).status?.latestVersion).toBe(1);
    expect(await exists(core.readNamespacedReplicationController({ name: 'exported-2', namespace: compat }))).toBe(false);
  }, 120_000);

  it('a manifest with empty fields (`env:`, `volumes:`, `rollingParams:` with nothing after them, as Helm renders them) applies server-side as OpenShift took it and rolls out; emptying `resources` to {} rolls out without the limit; re-applying starts nothing', async () => {
    const manifest = (resources: string) => `apiVersion: apps.openshift.io/v1
kind: DeploymentConfig
metadata:
  name: helmish
spec:
  replicas: 1
  selector:
  strategy:
    type: Rolling
    rollingParams:
    resources:
  template:
    metadata:
      labels: {app: helmish}
      annotations:
    spec:
      containers:
      - name: app
        image: registry.example.com/helmish:1
        imagePullPolicy:
        args:
        env:
        ports:
        volumeMounts:
        resources: ${resources}
      volumes:
      nodeSelector:
`;
    const dcs = new DcClient(compat);
    kubectl(['apply', '--server-side', '--field-manager=helm', '-n', compat, '-f', '-'], manifest('{limits: {cpu: 200m}}'));
    const first = await dcs.waitForPhase('helmish-1', ['Complete', 'Failed'], 90_000);
    expect(phase(first)).toBe('Complete');
    // Each null read as absent: the selector and rollingParams defaulted as OpenShift defaulted them.
    const container = first.spec?.template?.spec?.containers[0];
    expect(first.spec?.selector).toMatchObject({ app: 'helmish' });
    expect([container?.resources?.limits?.['cpu'], container?.imagePullPolicy, container?.env]).toEqual(['200m', 'IfNotPresent', undefined]);
    const decoded = JSON.parse(first.metadata?.annotations?.['openshift.io/encoded-deployment-config'] ?? '{}') as { spec?: { strategy?: { rollingParams?: { timeoutSeconds?: number } } } };
    expect(decoded.spec?.strategy?.rollingParams?.timeoutSeconds).toBe(600);

    // The limit removed: kube-apiserver's apply makes null of the emptied object, which the CRD takes.
    kubectl(['apply', '--server-side', '--field-manager=helm', '-n', compat, '-f', '-'], manifest('{}'));
    const second = await dcs.waitForPhase('helmish-2', ['Complete', 'Failed'], 90_000);
    expect(phase(second)).toBe('Complete');
    expect(second.spec?.template?.spec?.containers[0]?.resources?.limits).toBeUndefined();

    const settled = async () => waitFor('the DC controller observed the re-apply', async () => {
      const dc = await dcs.get('helmish');
      return (dc.status?.observedGeneration ?? 0) >= (dc.metadata?.generation ?? 1) ? dc : undefined;
    }, { timeoutMs: 30_000 });
    kubectl(['apply', '--server-side', '--field-manager=helm', '-n', compat, '-f', '-'], manifest('{}'));
    kubectl(['apply', '-n', compat, '-f', '-'], manifest('{}'));
    expect((await settled()).status?.latestVersion).toBe(2);
    expect(await exists(core.readNamespacedReplicationController({ name: 'helmish-3', namespace: compat }))).toBe(false);
  }, 150_000);

  // Exported from project "shop", imported into a namespace of another name where
  // kube-controller-manager has already published kube-root-ca.crt: applied, the exported one was
  // a conflict with the publisher's fields, and the dry run refused the whole import.
  it('an OpenShift 4 project export into a namespace of another name: what the cluster writes into every project is skipped, the app\'s service account is bound here, and the DC rolls out', async () => {
    const ca = await waitFor('kube-root-ca.crt published', async () => (await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: compat }).catch(() => undefined))?.data?.['ca.crt']);
    const r = await dcctl(['import', '-f', fx('openshift4-project-export.yaml'), '--apply', '-n', compat]);
    expect([r.code, rel(r.stderr)]).toEqual([0, expect.stringContaining("configmap/kube-root-ca.crt: skipped: published in every namespace by kube-controller-manager with the cluster's own CA; the new cluster publishes its own")]);
    for (const line of [
      'rolebinding.rbac.authorization.k8s.io/system:deployers: skipped: made by OpenShift in every project',
      'rolebinding.rbac.authorization.k8s.io/system:image-pullers: skipped: made by OpenShift in every project',
      '    changed: removed subjects[0].namespace "shop" (the exported project; a service account without one is the binding\'s namespace\'s)',
      '    differs: a serving certificate OpenShift\'s service CA operator made for Service shop',
    ]) expect(rel(r.stderr)).toContain(line);
    expect((await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: compat })).data?.['ca.crt']).toBe(ca);
    await expect(exists(core.readNamespacedConfigMap({ name: 'openshift-service-ca.crt', namespace: compat }))).resolves.toBe(false);
    // The binding now grants the service account of this namespace, not one of "shop".
    expect(kubectl(['auth', 'can-i', 'list', 'configmaps', '-n', compat, `--as=system:serviceaccount:${compat}:shop`]).trim()).toBe('yes');
    const rc = await new DcClient(compat).waitForPhase('shop-1', ['Complete', 'Failed'], 90_000);
    expect([phase(rc), rc.spec?.template?.spec?.serviceAccountName]).toEqual(['Complete', 'shop']);
  }, 120_000);

  it('objects with only generateName: --apply creates them and reports the names; -o yaml works with kubectl create', async () => {
    const r = await dcctl(['import', '-f', fx('generate-name.yaml'), '--apply', '-n', compat]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^deploymentconfig\.apps\.openshift\.io\/smoke-[a-z0-9]{5} created$/), expect.stringMatching(/^configmap\/smoke-settings-[a-z0-9]{5} created$/)]);
    const dcName = lines[0]!.split(' ')[0]!.split('/')[1]!;
    expect(rel(r.stderr)).toContain(`deploymentconfig.apps.openshift.io/smoke-<generated>: imported  [test/fixtures/import/generate-name.yaml (document 1)]\n`
      + '    differs: metadata.generateName "smoke-": the server picks the name when the object is created, so each import creates another one; create it with `kubectl create -f` (kubectl apply needs a name) or `dcctl import --apply`, which reports the name\n'
      + `    created: deploymentconfig.apps.openshift.io/${dcName}\n`);
    const rc = await new DcClient(compat).waitForPhase(`${dcName}-1`, ['Complete', 'Failed'], 60_000);
    expect(phase(rc)).toBe('Complete');

    const printed = await dcctl(['import', '-f', fx('generate-name.yaml'), '-o', 'yaml']);
    expect(printed.stdout).toContain('generateName: smoke-');
    expect(kubectl(['create', '-n', compat, '-f', '-'], printed.stdout)).toMatch(/^deploymentconfig\.apps\.openshift\.io\/smoke-[a-z0-9]{5} created\nconfigmap\/smoke-settings-[a-z0-9]{5} created\n$/);
  }, 90_000);

  it('a file whose top level is a sequence imports like a List; the report gives file, document and index', async () => {
    const r = await dcctl(['import', '-f', fx('sequence.yaml'), '--apply', '-n', compat]);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: 'configmap/reports-settings serverside-applied\ndeploymentconfig.apps.openshift.io/reports serverside-applied\n' });
    expect(rel(r.stderr).split('\n').slice(0, 3)).toEqual([
      'import: 2 object(s): 2 imported unchanged, 0 changed, 0 skipped',
      'configmap/reports-settings: imported  [test/fixtures/import/sequence.yaml (document 1, [0])]',
      'deploymentconfig.apps.openshift.io/reports: imported  [test/fixtures/import/sequence.yaml (document 1, [1])]',
    ]);
    expect(phase(await new DcClient(compat).waitForPhase('reports-1', ['Complete', 'Failed'], 60_000))).toBe('Complete');
  }, 90_000);

  it('a key written twice in one mapping (coolstore\'s `resources`): --apply keeps the later value as OpenShift did, reports it on that object only, and the DC rolls out with it', async () => {
    const r = await dcctl(['import', '-f', fx('duplicate-keys.yaml'), '--apply', '-n', compat]);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: 'deploymentconfig.apps.openshift.io/turbine-server serverside-applied\nservice/turbine-server serverside-applied\n' });
    expect(rel(r.stderr).split('\n').filter((l) => l.includes('twice'))).toEqual([
      '    changed: spec.template.spec.containers[0].resources is written twice in one mapping (line 26, column 11): the later value is kept, as OpenShift\'s YAML reader did',
    ]);
    const rc = await new DcClient(compat).waitForPhase('turbine-server-1', ['Complete', 'Failed'], 60_000);
    expect(phase(rc)).toBe('Complete');
    expect((rc as { spec?: { template?: { spec?: { containers?: { resources?: unknown }[] } } } }).spec?.template?.spec?.containers?.[0]?.resources)
      .toEqual({ limits: { cpu: '1', memory: '2Gi' }, requests: { cpu: '100m', memory: '256Mi' } });
  }, 90_000);

  it('a key written twice in a JSON object (`env` twice): import keeps the later value, as kubectl and OpenShift\'s JSON decoder do, and reports it', async () => {
    const viaKubectl = JSON.parse(kubectl(['create', '--dry-run=server', '-n', compat, '-f', fx('duplicate-keys.json'), '-o', 'json'])) as Record<string, any>;
    expect(viaKubectl.spec.template.spec.containers[0].env).toEqual([{ name: 'MODE', value: 'green' }]);
    const r = await dcctl(['import', '-f', fx('duplicate-keys.json'), '--dry-run=server', '-n', compat, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(rel(r.stderr)).toContain('    changed: spec.template.spec.containers[0].env is written twice in one object (line 20, column 13): the later value is kept, as OpenShift\'s JSON decoder did\n');
    const printed = JSON.parse(r.stdout) as Record<string, any>;
    expect(printed.items[0].spec.template.spec.containers[0].env).toEqual([{ name: 'MODE', value: 'green' }]);
  });

  it('workloads of an OpenShift 3.11 export in versions Kubernetes no longer serves (extensions/v1beta1, apps/v1beta1, rbac v1beta1): --apply converts them as their old version meant, reports it, and the Deployment becomes available', async () => {
    const r = await dcctl(['import', '-f', fx('openshift3-workloads.yaml'), '--apply', '-n', compat]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').sort()).toEqual([
      'daemonset.apps/fluentd serverside-applied', 'deployment.apps/carts serverside-applied', 'deployment.apps/catalogue serverside-applied',
      'deployment.apps/orders serverside-applied', 'networkpolicy.networking.k8s.io/allow-same-namespace serverside-applied',
      'rolebinding.rbac.authorization.k8s.io/catalogue-view serverside-applied', 'statefulset.apps/mssql serverside-applied',
    ]);
    expect(rel(r.stderr)).toContain('    changed: spec.progressDeadlineSeconds: 2147483647 (extensions/v1beta1 had no progress deadline; apps/v1\'s is 600 s)');
    const catalogue = await apps.readNamespacedDeployment({ name: 'catalogue', namespace: compat });
    expect(catalogue.spec).toMatchObject({ revisionHistoryLimit: 2147483647, progressDeadlineSeconds: 2147483647, selector: { matchLabels: { name: 'catalogue' } }, strategy: { rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } } });
    expect((await apps.readNamespacedStatefulSet({ name: 'mssql', namespace: compat })).spec?.updateStrategy?.type).toBe('OnDelete');
    expect((await apps.readNamespacedDaemonSet({ name: 'fluentd', namespace: compat })).spec?.updateStrategy?.type).toBe('OnDelete');
    await waitFor('the converted Deployment to be available', async () => {
      const d = await apps.readNamespacedDeployment({ name: 'catalogue', namespace: compat });
      return (d.status?.availableReplicas ?? 0) === 2;
    }, { timeoutMs: 60_000 });
  }, 90_000);

  it('an OpenShift 4.8-era project in versions Kubernetes no longer serves (v1beta1 Ingresses, CronJob and PDBs, autoscaling/v2beta1): --apply converts them as kube-apiserver did; the empty-selector PDB still protects no pod and the autoscaler reads its DC', async () => {
    // As exported, the objects are refused: the versions are gone.
    expect(() => kubectl(['create', '--dry-run=server', '-n', compat, '-f', fx('openshift4-removed-versions.yaml')])).toThrow(/no matches for kind "Ingress" in version "extensions\/v1beta1"/);
    const r = await dcctl(['import', '-f', fx('openshift4-removed-versions.yaml'), '--apply', '-n', compat]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').sort()).toEqual([
      'cronjob.batch/storefront-cleanup serverside-applied', 'deploymentconfig.apps.openshift.io/storefront serverside-applied',
      'deploymentconfig.apps.openshift.io/storefront-worker serverside-applied', 'horizontalpodautoscaler.autoscaling/storefront serverside-applied',
      'horizontalpodautoscaler.autoscaling/storefront-memory serverside-applied', 'ingress.networking.k8s.io/storefront serverside-applied',
      'ingress.networking.k8s.io/storefront-admin serverside-applied', 'poddisruptionbudget.policy/placeholder serverside-applied',
      'poddisruptionbudget.policy/storefront serverside-applied', 'service/storefront serverside-applied',
    ]);
    expect(rel(r.stderr)).toContain("    changed: spec.backend → spec.defaultBackend, serviceName/servicePort → service.name/service.port (networking.k8s.io/v1's shape)\n");
    const stored = (kind: string, name: string) => JSON.parse(kubectl(['get', kind, name, '-n', compat, '-o', 'json'])) as Record<string, any>;
    const ingress = stored('ingress.networking.k8s.io', 'storefront');
    expect(ingress.spec.defaultBackend).toEqual({ service: { name: 'storefront', port: { number: 8080 } } });
    expect(ingress.spec.rules[0].http.paths[0]).toEqual({ path: '/', pathType: 'ImplementationSpecific', backend: { service: { name: 'storefront', port: { name: 'http' } } } });
    expect(stored('cronjob.batch', 'storefront-cleanup').spec).toMatchObject({ schedule: '15 3 * * *', concurrencyPolicy: 'Forbid', successfulJobsHistoryLimit: 3 });

    // policy/v1beta1's `selector: {}` selected no pod; stored as `{}` in policy/v1 it would select
    // every pod and, at maxUnavailable 0, refuse every eviction in the namespace.
    const rc = await new DcClient(compat).waitForPhase('storefront-worker-1', ['Complete', 'Failed'], 90_000);
    expect(phase(rc)).toBe('Complete');
    const pods = await core.listNamespacedPod({ namespace: compat, labelSelector: 'deployment=storefront-worker-1' });
    expect(pods.items).toHaveLength(1);
    const pod = pods.items[0]!.metadata!.name!;
    await core.createNamespacedPodEviction({ name: pod, namespace: compat, body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod, namespace: compat } } });
    await waitFor('the evicted pod to go', async () => !(await exists(core.readNamespacedPod({ name: pod, namespace: compat }))), { timeoutMs: 30_000 });

    // The v2beta1 autoscaler, converted and retargeted to the DC's group, reads the DC's scale.
    await waitFor('the converted autoscaler to read its DC\'s scale', () => {
      const conditions = (stored('horizontalpodautoscaler.autoscaling', 'storefront').status?.conditions ?? []) as { type: string; status: string; reason: string }[];
      return conditions.some((c) => c.type === 'AbleToScale' && c.status === 'True' && c.reason === 'SucceededGetScale');
    }, { timeoutMs: 60_000 });
    expect(stored('horizontalpodautoscaler.autoscaling', 'storefront').spec.metrics[0]).toEqual({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 75 } } });
  }, 120_000);

  it('plain scalars are read as kubectl reads them (YAML 1.1): `defaultMode: 0400` is 256, not 400, and the import\'s output reads back the same', async () => {
    const viaKubectl = JSON.parse(kubectl(['create', '--dry-run=server', '-n', compat, '-f', fx('yaml11-scalars.yaml'), '-o', 'json'])) as Record<string, any>;
    const imported = await printedObject('yaml11-scalars.yaml', 'DeploymentConfig');
    expect(viaKubectl.spec.template.spec.volumes).toEqual([
      { name: 'credentials', secret: { secretName: 'credentials', defaultMode: 256 } },
      { name: 'scripts', configMap: { name: 'scripts', items: [{ key: 'run.sh', path: 'run.sh', mode: 493 }] } },
    ]);
    expect(imported.spec.template.spec.volumes).toEqual(viaKubectl.spec.template.spec.volumes);
    expect(imported.spec.paused).toBe(false);
    // The YAML output, applied with kubectl, stores the same spec.
    const printed = await dcctl(['import', '-f', fx('yaml11-scalars.yaml')]);
    expect(printed.code).toBe(0);
    const applied = JSON.parse(kubectl(['create', '--dry-run=server', '-n', compat, '-f', '-', '-o', 'json'], printed.stdout)) as Record<string, any>;
    expect(applied.spec).toEqual(viaKubectl.spec);
    expect(applied.spec.template.spec.containers[0].env).toEqual([{ name: 'DEBUG', value: 'no' }]);
  });

  it('null values in maps (Helm\'s `tier: {{ .Values.tier }}` unset), applied server-side: the RC and its pods get "" for a string and "0" for a Quantity, as on OpenShift', async () => {
    const manifest = [
      'apiVersion: apps.openshift.io/v1', 'kind: DeploymentConfig', 'metadata:', '  name: helm-nulls', 'spec:', '  replicas: 1',
      '  selector:', '    app: helm-nulls', '    tier:', '  template:', '    metadata:', '      labels:', '        app: helm-nulls', '        tier:',
      '      annotations:', '        commit:', '    spec:', '      containers:', '      - name: c', '        image: busybox',
      '        resources:', '          requests:', '            cpu:', '',
    ].join('\n');
    kubectl(['apply', '--server-side', '--field-manager=helm', '-n', compat, '-f', '-'], manifest);
    const rc = await new DcClient(compat).waitForPhase('helm-nulls-1', ['Complete', 'Failed'], 90_000);
    expect(phase(rc)).toBe('Complete');
    expect(rc.spec?.selector).toEqual({ app: 'helm-nulls', tier: '', deployment: 'helm-nulls-1', deploymentconfig: 'helm-nulls' });
    expect(rc.spec?.template?.metadata?.labels).toMatchObject({ app: 'helm-nulls', tier: '' });
    expect(rc.spec?.template?.metadata?.annotations).toMatchObject({ commit: '' });
    // A null Quantity in a map (`cpu:` unset) is the zero Quantity, as a Deployment stores it.
    expect(rc.spec?.template?.spec?.containers[0]?.resources).toEqual({ requests: { cpu: '0' } });
    const pods = await core.listNamespacedPod({ namespace: compat, labelSelector: 'deployment=helm-nulls-1' });
    expect(pods.items.map((p) => p.metadata?.labels?.['tier'])).toEqual(['']);
    // Re-applying the same manifest starts no rollout: "" and the stored null are the same template.
    kubectl(['apply', '--server-side', '--field-manager=helm', '-n', compat, '-f', '-'], manifest);
    await new Promise((r) => setTimeout(r, 3000));
    expect(await exists(core.readNamespacedReplicationController({ name: 'helm-nulls-2', namespace: compat }))).toBe(false);
  }, 120_000);

  it('DCs the CRD used to refuse apply unchanged with kubectl apply and roll out; a Manual trigger never fires', async () => {
    const valid = (f: string) => path.join(repoDir, 'test/fixtures/valid-dcs', f);
    const long = 'inventory-reconciliation-service-for-warehouse-management-eu-01';
    for (const f of ['env-duplicate-names.yaml', 'pod-lists-duplicates.yaml', 'rolling-leftover-recreate-hook.yaml', 'name-63-characters.yaml', 'trigger-type-manual.yaml', 'empty-defaulted-values.yaml']) {
      kubectl(['apply', '-n', compat, '-f', valid(f)]);
    }
    const dcs = new DcClient(compat);
    const rcs = await Promise.all(['eap-app-1', 'legacy-portal-1', 'orders-1', `${long}-1`, 'empty-defaults-1'].map((n) => dcs.waitForPhase(n, ['Complete', 'Failed'], 90_000)));
    expect(rcs.map(phase)).toEqual(['Complete', 'Complete', 'Complete', 'Complete', 'Complete']);
    // The empty values reach the RC, whose pod template Kubernetes defaults as OpenShift's API did,
    // and the DC with an empty strategy type rolled out.
    const emptyPod = rcs[4]!.spec?.template?.spec;
    expect([emptyPod?.restartPolicy, emptyPod?.containers[0]?.imagePullPolicy, emptyPod?.containers[0]?.ports?.[0]?.protocol]).toEqual(['Always', 'IfNotPresent', 'TCP']);
    expect(rcs[4]!.metadata?.annotations?.['openshift.io/deployment.phase']).toBe('Complete');
    // The duplicates reach the RC as written; the last JAVA_OPTS is what the container sees.
    expect(rcs[0]!.spec?.template?.spec?.containers[0]?.env?.map((e) => `${e.name}=${e.value}`)).toEqual(['JAVA_OPTS=-Xms256m', 'JGROUPS_PING_PROTOCOL=dns.DNS_PING', 'JAVA_OPTS=-Xms512m -Xmx1024m']);
    // The 65-character RC name is carried by a shortened, per-version label value.
    const deploymentLabel = rcs[3]!.spec?.selector?.['deployment'] ?? '';
    expect([deploymentLabel.length, deploymentLabel.startsWith(long.slice(0, 54))]).toEqual([63, true]);

    // Version 10 and beyond, where OpenShift stops for names of 61 characters: bump the config
    // until the RC name is 66 characters long.
    for (let v = 2; v <= 10; v++) {
      dcs.setImage(`registry.example.com/inventory/reconcile:2.${v}`, long);
      await dcs.waitForPhase(`${long}-${v}`, ['Complete', 'Failed'], 60_000);
    }
    const rc10 = await dcs.waitForPhase(`${long}-10`, ['Complete', 'Failed'], 60_000);
    expect(phase(rc10)).toBe('Complete');
    expect(rc10.spec?.selector?.['deployment']).not.toBe(deploymentLabel);

    expect((await dcs.get('trigger-type-manual')).status?.latestVersion ?? 0).toBe(0);
  }, 400_000);
});
