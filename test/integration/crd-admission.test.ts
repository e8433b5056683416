import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { ApiException, ApiextensionsV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../../src/apis/deploymentconfig.js';
import { apis, createNamespace, deleteNamespace, kubectl, repoDir, waitFor } from '../support/kube.js';

// Proves crds/deploymentconfig.yaml and crds/deploymentconfig-policy.yaml (the CRD's rules that
// read the whole spec, as a ValidatingAdmissionPolicy) on a real kube-apiserver: every malformed DC
// of test/fixtures/invalid-dcs is rejected with 422 at the field its header names, every DC of
// test/fixtures/valid-dcs is accepted, and the scale and status subresources behave.

const group = 'apps.openshift.io';
const version = 'v1';
const plural = 'deploymentconfigs';
const crdName = 'deploymentconfigs.apps.openshift.io';

interface Fixture { file: string; field?: string; message?: string; body: DeploymentConfig }
function loadFixtures(dir: string): Fixture[] {
  const full = path.join(repoDir, 'test/fixtures', dir);
  return readdirSync(full).filter((f) => f.endsWith('.yaml')).sort().map((file) => {
    const text = readFileSync(path.join(full, file), 'utf8');
    const header = (key: string) => new RegExp(`^# ${key}: (.*)$`, 'm').exec(text)?.[1]?.trim();
    return { file, field: header('expect-field'), message: header('expect-message'), body: yaml.load(text) as DeploymentConfig };
  });
}
const invalid = loadFixtures('invalid-dcs');
const policyFile = path.join(repoDir, 'crds/deploymentconfig-policy.yaml');
const policyName = 'deploymentconfigs.apps.openshift.io';
/** The messages of the policy's validations: a policy denial carries no field cause, only its message. */
const policyMessages = (yaml.loadAll(readFileSync(policyFile, 'utf8')) as { kind?: string; spec?: { validations?: { message: string }[] } }[])
  .find((d) => d?.kind === 'ValidatingAdmissionPolicy')?.spec?.validations?.map((v) => v.message) ?? [];
const valid = loadFixtures('valid-dcs');

interface StatusCause { field?: string; message?: string; reason?: string }
interface Status { code?: number; message?: string; details?: { causes?: StatusCause[] } }
/** Resolves to the apiserver's Status of a failed request (throws if the request succeeded). */
async function rejection(request: Promise<unknown>): Promise<Status> {
  try {
    await request;
  } catch (err) {
    if (!(err instanceof ApiException)) throw err;
    const body: unknown = typeof err.body === 'string' ? JSON.parse(err.body) : err.body;
    return { ...(body as Status), code: err.code };
  }
  throw new Error('request was accepted');
}

const { custom, kc } = apis();
let namespace = '';

async function ensureCrd(): Promise<void> {
  const ext = kc.makeApiClient(ApiextensionsV1Api);
  const established = async () => {
    const crd = await ext.readCustomResourceDefinition({ name: crdName }).catch(() => undefined);
    return crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
  };
  if (!(await established())) kubectl(['apply', '--server-side', '--force-conflicts', '-f', path.join(repoDir, 'crds/deploymentconfig.yaml'), '-f', policyFile]);
  await waitFor('the DeploymentConfig CRD to be established', established, { timeoutMs: 60_000 });
  // Established precedes the discovery/OpenAPI refresh by a moment: wait until creates are served.
  await waitFor('deploymentconfigs to be served', async () => custom.listNamespacedCustomObject({ group, version, namespace: 'default', plural }).then(() => true));
}

const create = (body: DeploymentConfig) => custom.createNamespacedCustomObject({ group, version, namespace, plural, body }) as Promise<DeploymentConfig>;
const get = (name: string) => custom.getNamespacedCustomObject({ group, version, namespace, plural, name }) as Promise<DeploymentConfig>;

beforeAll(async () => {
  await ensureCrd();
  namespace = await createNamespace('crd-admission');
}, 120_000);
afterAll(async () => {
  if (namespace) await deleteNamespace(namespace);
});

describe('DeploymentConfig CRD admission', () => {
  it('has at least 50 invalid cases, each naming the field it expects', () => {
    expect(invalid.length).toBeGreaterThanOrEqual(50);
    for (const f of invalid) expect([f.file, typeof f.field, typeof f.message]).toEqual([f.file, 'string', 'string']);
  });

  it('reports Established and NamesAccepted', async () => {
    const crd = await kc.makeApiClient(ApiextensionsV1Api).readCustomResourceDefinition({ name: crdName });
    const conditions = Object.fromEntries((crd.status?.conditions ?? []).map((c) => [c.type, c.status]));
    expect(conditions).toMatchObject({ Established: 'True', NamesAccepted: 'True' });
  });

  describe.each(invalid.map((f) => [f.file, f] as const))('rejects %s', (_file, fixture) => {
    it(`with 422 at ${fixture.field}`, async () => {
      const status = await rejection(create(fixture.body));
      expect(status.code).toBe(422);
      const fields = (status.details?.causes ?? []).map((c) => c.field);
      if (status.message?.includes(': ValidatingAdmissionPolicy ')) {
        // A spec rule of the admission policy: kube-apiserver reports a policy denial with the
        // policy's message alone (no field cause), which starts with the field.
        expect(status.message).toContain(`ValidatingAdmissionPolicy '${policyName}' with binding '${policyName}' denied request: ${fixture.field}: `);
        expect(policyMessages.some((m) => m.startsWith(`${fixture.field}: `) && m.includes(fixture.message!))).toBe(true);
      } else {
        // The field is named both as a cause (machine readable) and in the message users see.
        expect({ fields, message: status.message }).toEqual({
          fields: expect.arrayContaining([fixture.field]),
          message: expect.stringContaining(`${fixture.field}: `),
        });
      }
      expect(status.message).toContain(fixture.message);
    });
  });

  describe.each(valid.map((f) => [f.file, f] as const))('accepts %s', (_file, fixture) => {
    it('creates it', async () => {
      const created = await create(fixture.body);
      expect(created.metadata.name).toBe(fixture.body.metadata.name);
      // The status subresource drops any status sent with the create (as OpenShift resets it).
      expect(created.status).toBeUndefined();
    });
  });

  it('applies the unconditional OpenShift defaults and keeps an explicit empty trigger list', async () => {
    const minimal = await get('minimal');
    expect(minimal.spec.triggers).toEqual([{ type: 'ConfigChange' }]);
    expect(minimal.spec.revisionHistoryLimit).toBe(10);
    expect(minimal.spec.strategy).toEqual({ type: 'Rolling', activeDeadlineSeconds: 21600 });
    const manual = await get('test-mode');
    expect(manual.spec.triggers).toEqual([]);
    expect(manual.spec.revisionHistoryLimit).toBe(0);
    const pct = await get('rolling-percentages');
    expect(pct.spec.strategy?.rollingParams).toMatchObject({ intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 60, maxSurge: 0, maxUnavailable: '100%' });
    expect(pct.spec.triggers?.[0]?.imageChangeParams?.from.kind).toBe('ImageStreamTag');
    const exported = await get('frontend');
    // Kept as the export has it, and as OpenShift shows a template's zero time (it is nullable, so a
    // server-side apply takes it too); it means nothing to the controllers.
    expect(exported.spec.template?.metadata?.creationTimestamp).toBeNull();
    expect(exported.spec.template?.spec?.containers[0]?.ports?.[0]).toEqual({ containerPort: 8080, protocol: 'TCP' });
  });

  it('serves the scale subresource on spec.replicas / status.replicas / status.selector', async () => {
    const name = 'minimal';
    await custom.replaceNamespacedCustomObjectScale({
      group, version, namespace, plural, name,
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace }, spec: { replicas: 4 } },
    });
    expect((await get(name)).spec.replicas).toBe(4);
    kubectl(['scale', '-n', namespace, 'dc/minimal', '--replicas=2']);
    expect((await get(name)).spec.replicas).toBe(2);

    const dc = await get(name);
    await custom.replaceNamespacedCustomObjectStatus({
      group, version, namespace, plural, name,
      body: { ...dc, status: { replicas: 2, selector: 'app=minimal,deploymentconfig=minimal' } },
    });
    const scale = await custom.getNamespacedCustomObjectScale({ group, version, namespace, plural, name }) as { spec: { replicas: number }; status: { replicas: number; selector: string } };
    expect(scale.spec.replicas).toBe(2);
    expect(scale.status).toEqual({ replicas: 2, selector: 'app=minimal,deploymentconfig=minimal' });
  });

  it('prints the oc-like columns', () => {
    const out = kubectl(['get', 'dc', '-n', namespace, 'test-mode']);
    expect(out.split('\n')[0]?.split(/\s{2,}/)).toEqual(['NAME', 'REVISION', 'DESIRED', 'CURRENT', 'TRIGGERED BY', 'AGE']);
    const all = kubectl(['get', 'all', '-n', namespace, '-o', 'name']);
    expect(all).toContain('deploymentconfig.apps.openshift.io/test-mode');
  });

  describe('status subresource', () => {
    const name = 'custom-strategy';
    const putStatus = async (status: DeploymentConfig['status'], spec?: Partial<DeploymentConfig['spec']>) => {
      const dc = await get(name);
      return custom.replaceNamespacedCustomObjectStatus({ group, version, namespace, plural, name, body: { ...dc, spec: { ...dc.spec, ...spec }, status } }) as Promise<DeploymentConfig>;
    };

    it('stores status and ignores spec changes sent to /status', async () => {
      const before = await get(name);
      const after = await putStatus({ latestVersion: 1, observedGeneration: 1 }, { replicas: 9 });
      expect(after.status).toMatchObject({ latestVersion: 1, observedGeneration: 1 });
      expect(after.spec.replicas).toBe(before.spec.replicas);
      expect(after.metadata.generation).toBe(before.metadata.generation);
    });

    it('ignores status sent to the main resource', async () => {
      const dc = await get(name);
      const after = await custom.patchNamespacedCustomObject(
        { group, version, namespace, plural, name, body: { status: { latestVersion: 7 } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ) as DeploymentConfig;
      expect(after.status?.latestVersion).toBe(dc.status?.latestVersion);
    });

    it('rejects decrementing or skipping latestVersion and decrementing observedGeneration', async () => {
      await putStatus({ latestVersion: 2, observedGeneration: 3 });
      const down = await rejection(putStatus({ latestVersion: 1, observedGeneration: 3 }));
      expect([down.code, down.message]).toEqual([422, expect.stringMatching(/status\.latestVersion: .*latestVersion cannot be decremented/)]);
      const skip = await rejection(putStatus({ latestVersion: 4, observedGeneration: 3 }));
      expect([skip.code, skip.message]).toEqual([422, expect.stringContaining('latestVersion can only be incremented by 1')]);
      const gen = await rejection(putStatus({ latestVersion: 2, observedGeneration: 2 }));
      expect([gen.code, gen.message]).toEqual([422, expect.stringMatching(/status\.observedGeneration: .*observedGeneration cannot be decremented/)]);
      const negative = await rejection(putStatus({ latestVersion: 2, observedGeneration: 3, replicas: -1 }));
      expect([negative.code, negative.message]).toEqual([422, expect.stringContaining('status.replicas')]);
    });
  });

  it('crds/ applies as a folder of manifests and as a kustomization', () => {
    const crds = path.join(repoDir, 'crds');
    const applied = (args: string[]) => kubectl(['apply', '--server-side', '--force-conflicts', '--dry-run=server', ...args]).trim().split('\n').sort();
    const expected = [
      'customresourcedefinition.apiextensions.k8s.io/deploymentconfigs.apps.openshift.io serverside-applied (server dry run)',
      'customresourcedefinition.apiextensions.k8s.io/imagestreams.image.openshift.io serverside-applied (server dry run)',
      `validatingadmissionpolicy.admissionregistration.k8s.io/${policyName} serverside-applied (server dry run)`,
      `validatingadmissionpolicybinding.admissionregistration.k8s.io/${policyName} serverside-applied (server dry run)`,
    ];
    expect(applied(['-f', crds])).toEqual(expected);
    expect(applied(['-k', crds])).toEqual(expected);
    const installed = kubectl(['kustomize', path.join(repoDir, 'deploy')]);
    expect(installed).toContain('name: deploymentconfigs.apps.openshift.io');
    expect(installed).toContain('kind: ValidatingAdmissionPolicyBinding');
  });

  it('applies OpenShift\'s ImageStream defaults and accepts an empty referencePolicy type', async () => {
    const body = {
      apiVersion: 'image.openshift.io/v1', kind: 'ImageStream', metadata: { name: 'defaults' },
      spec: { tags: [{ name: 'old', from: { kind: 'DockerImage', name: 'registry.example.com/a:1' }, referencePolicy: { type: '' } }, { name: 'new', from: { kind: 'DockerImage', name: 'registry.example.com/a:2' } }] },
    };
    const is = await custom.createNamespacedCustomObject({ group: 'image.openshift.io', version: 'v1', namespace, plural: 'imagestreams', body }) as { spec: Record<string, any> };
    expect(is.spec.lookupPolicy).toEqual({ local: false });
    expect(is.spec.tags.map((t: Record<string, unknown>) => [t['referencePolicy'], t['importPolicy']])).toEqual([
      [{ type: '' }, { importMode: 'Legacy' }],
      [{ type: 'Source' }, { importMode: 'Legacy' }],
    ]);
  });

  it('validates updates too (a valid DC cannot be edited into an invalid one)', async () => {
    const status = await rejection(custom.patchNamespacedCustomObject(
      { group, version, namespace, plural, name: 'recreate-hooks', body: { spec: { strategy: { recreateParams: { mid: { execNewPod: { command: ['/bin/true'], containerName: 'db' } } } } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    ));
    expect(status.code).toBe(422);
    expect(status.message).toMatch(/spec\.strategy\.recreateParams\.mid: .*only one of 'execNewPod' or 'tagImages' may be specified/);
    // A spec rule of the admission policy applies to updates as well.
    const mismatch = await rejection(custom.patchNamespacedCustomObject(
      { group, version, namespace, plural, name: 'minimal', body: { spec: { selector: { app: 'not-the-template-label' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    ));
    expect([mismatch.code, mismatch.message]).toEqual([422, expect.stringContaining('spec.template.metadata.labels: Invalid value: `selector` does not match template `labels`')]);
  });

  it('leaves /status writes to the CRD: the policy matches creates and updates of the main resource only', () => {
    const policy = yaml.loadAll(readFileSync(policyFile, 'utf8')).find((d) => (d as { kind?: string })?.kind === 'ValidatingAdmissionPolicy') as {
      spec: { matchConstraints: { resourceRules: { apiGroups: string[]; resources: string[]; operations: string[] }[] } };
    };
    expect(policy.spec.matchConstraints.resourceRules).toEqual([
      expect.objectContaining({ apiGroups: [group], resources: [plural], operations: ['CREATE', 'UPDATE'] }),
    ]);
  });
});
