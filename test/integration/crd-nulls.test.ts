import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { ApiException, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../../src/apis/deploymentconfig.js';
import { apis, createNamespace, deleteNamespace, kubectl, repoDir, waitFor } from '../support/kube.js';

// OpenShift's typed API read a null field as an absent one. A server-side apply (kubectl
// --server-side, Flux, Argo CD's ServerSideApply, Helm 4) sends `env:` with no value as null and
// turns an object emptied to `{}` into null; the CRD refused both until its optional fields were
// nullable. For every field of every valid fixture this applies the DC once with that field null
// and once without it, and expects the same answer; so for a field with a default, which the apply
// prunes and defaults (`replicas` among them: 0, as OpenShift read it). Required fields are not
// nullable (docs/crd.md): a null there is refused with a message that names the field.

const group = 'apps.openshift.io';
const version = 'v1';
const plural = 'deploymentconfigs';
const crdFile = path.join(repoDir, 'crds/deploymentconfig.yaml');
const policyFile = path.join(repoDir, 'crds/deploymentconfig-policy.yaml');

interface Schema { properties?: Record<string, Schema>; items?: Schema; nullable?: boolean; default?: unknown }
const crd = yaml.loadAll(readFileSync(crdFile, 'utf8')).find((d) => (d as { kind?: string })?.kind === 'CustomResourceDefinition') as {
  spec: { versions: { schema: { openAPIV3Schema: Schema } }[] };
};
const specSchema = crd.spec.versions[0]!.schema.openAPIV3Schema.properties!.spec!;

const fixturesDir = path.join(repoDir, 'test/fixtures/valid-dcs');
const fixtures = readdirSync(fixturesDir).filter((f) => f.endsWith('.yaml')).sort()
  .map((file) => ({ file, body: yaml.load(readFileSync(path.join(fixturesDir, file), 'utf8')) as DeploymentConfig }));

type Path = (string | number)[];
/** The paths of the fields of `value` the schema declares (list items walked, map values not). */
function fieldPaths(value: unknown, schema: Schema | undefined, at: Path = []): { path: Path; schema: Schema }[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => fieldPaths(item, schema.items, [...at, i]));
  if (!schema.properties) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const field = schema.properties![k];
    return field ? [{ path: [...at, k], schema: field }, ...fieldPaths(v, field, [...at, k])] : [];
  });
}
function edited(dc: DeploymentConfig, at: Path, edit: 'null' | 'absent'): DeploymentConfig {
  const out = structuredClone(dc) as unknown as { spec: Record<string | number, unknown> };
  let parent = out.spec as Record<string | number, unknown>;
  for (const step of at.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = at[at.length - 1]!;
  if (edit === 'null') parent[last] = null;
  else delete parent[last];
  return out as unknown as DeploymentConfig;
}
const dotted = (at: Path) => `spec${at.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('')}`;

const { custom } = apis();
let namespace = '';

/** The answer to a dry-run server-side apply: 'accepted', or the refusal's message. */
async function applyAnswer(dc: DeploymentConfig): Promise<string> {
  const name = dc.metadata.name!;
  try {
    await custom.patchNamespacedCustomObject(
      { group, version, namespace, plural, name, body: { ...dc, metadata: { ...dc.metadata, namespace } }, fieldManager: 'nulls-test', dryRun: 'All', force: true },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    );
    return 'accepted';
  } catch (err) {
    if (!(err instanceof ApiException)) throw err;
    const body = (typeof err.body === 'string' ? JSON.parse(err.body) : err.body) as { message?: string };
    return `${err.code}: ${body.message ?? ''}`;
  }
}

beforeAll(async () => {
  kubectl(['apply', '--server-side', '--force-conflicts', '-f', crdFile, '-f', policyFile, '-f', path.join(repoDir, 'crds/imagestream.yaml')]);
  namespace = await createNamespace('crd-nulls');
  await waitFor('deploymentconfigs to be served', async () => custom.listNamespacedCustomObject({ group, version, namespace, plural }).then(() => true));
}, 120_000);
afterAll(async () => {
  if (namespace) await deleteNamespace(namespace);
});

describe('a null field in a server-side apply', () => {
  describe.each(fixtures.map((f) => [f.file, f.body] as const))('of %s', (_file, dc) => {
    it('is answered as the absent field is, unless the field is required (refused at the field)', async () => {
      const fields = fieldPaths(dc.spec, specSchema);
      expect(fields.length).toBeGreaterThan(0);
      const mismatches: string[] = [];
      for (const { path: at, schema } of fields) {
        const asNull = await applyAnswer(edited(dc, at, 'null'));
        if (schema.nullable || schema.default !== undefined) {
          const asAbsent = await applyAnswer(edited(dc, at, 'absent'));
          if (asNull !== asAbsent) mismatches.push(`${dotted(at)}: null -> ${asNull}; absent -> ${asAbsent}`);
        } else if (!asNull.startsWith('422: ') || !asNull.includes(`${dotted(at)}: Invalid value: "null"`)) {
          mismatches.push(`${dotted(at)} (required): null -> ${asNull}`);
        }
      }
      expect(mismatches).toEqual([]);
    }, 180_000);
  });
});

describe('a server-side apply that empties an object to {}', () => {
  it('is accepted, and the object reads as absent in the stored DC', async () => {
    const applied = (resources: object, securityContext: object) => ({
      apiVersion: `${group}/${version}`, kind: 'DeploymentConfig', metadata: { name: 'emptied', namespace },
      spec: {
        replicas: 1, selector: { app: 'emptied' }, strategy: { type: 'Rolling', resources },
        template: { metadata: { labels: { app: 'emptied' } }, spec: { securityContext, containers: [{ name: 'c', image: 'busybox', resources }] } },
      },
    });
    const apply = (body: object) => custom.patchNamespacedCustomObject(
      { group, version, namespace, plural, name: 'emptied', body, fieldManager: 'gitops' },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    ) as Promise<DeploymentConfig>;
    await apply(applied({ limits: { cpu: '100m' } }, { runAsNonRoot: true }));
    // kube-apiserver's apply makes null of each emptied object (kubernetes/kubernetes#135841).
    const emptied = await apply(applied({}, {}));
    expect(emptied.spec.strategy?.resources ?? null).toBeNull();
    expect(emptied.spec.template?.spec?.containers[0]?.resources ?? null).toBeNull();
    expect(emptied.spec.template?.spec?.securityContext ?? null).toBeNull();
  });
});

describe('a null value in a map of strings (`labels: {tier: }`, Helm\'s `key: {{ .Values.x }}` unset)', () => {
  const body = (name: string) => ({
    apiVersion: `${group}/${version}`, kind: 'DeploymentConfig', metadata: { name, namespace },
    spec: {
      replicas: 1, selector: { app: name, tier: null },
      strategy: { type: 'Rolling', labels: { owner: null } },
      template: {
        metadata: { labels: { app: name, tier: '' }, annotations: { note: null } },
        spec: { nodeSelector: { disk: null }, containers: [{ name: 'c', image: 'busybox' }] },
      },
    },
  });
  // This plane (1.36) has the optional policy (crds/optional/), which stores the null as "", as
  // OpenShift stored it; without the policy the null is stored and every reader makes it "" (API
  // mode's storage CRD, which no policy matches, proves that path: test/e2e/apiserver.test.ts).
  it('is accepted by a server-side apply and a create, as OpenShift read it ("", which the selector rule reads it as too)', async () => {
    const applied = await custom.patchNamespacedCustomObject(
      { group, version, namespace, plural, name: 'null-values', body: body('null-values'), fieldManager: 'helm' },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    ) as DeploymentConfig;
    expect(applied.spec.template?.metadata?.annotations).toEqual({ note: '' });
    const created = await custom.createNamespacedCustomObject({ group, version, namespace, plural, body: body('null-values-created') }) as DeploymentConfig;
    // Not pruned: pruned, the pods would lack a label and the selector a key OpenShift gave them.
    expect(created.spec.selector).toEqual({ app: 'null-values-created', tier: '' });
    expect(created.spec.template?.spec?.nodeSelector).toEqual({ disk: '' });
  });
  it('still refuses a selector that the template\'s labels do not match, naming the field', async () => {
    const mismatched = body('null-mismatch');
    mismatched.spec.template.metadata.labels.tier = 'web';
    expect(await applyAnswer(mismatched as unknown as DeploymentConfig)).toMatch(/^422: .*spec.template.metadata.labels: Invalid value: .*`selector` does not match template `labels`/);
  });
});

describe('a null value in a map of Quantities (`limits: {cpu: }`, Helm\'s `cpu: {{ .Values.cpu }}` unset)', () => {
  // OpenShift's decoder read it as the zero Quantity and stored "0", and a native Deployment does
  // the same; the CRD pruned the key on a create (the container lost its limit) and refused a
  // server-side apply ("must be of type integer,string").
  const body = (name: string) => ({
    apiVersion: `${group}/${version}`, kind: 'DeploymentConfig', metadata: { name, namespace },
    spec: {
      replicas: 1, selector: { app: name },
      strategy: { type: 'Recreate', resources: { requests: { memory: null } } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          overhead: { cpu: null },
          initContainers: [{ name: 'i', image: 'busybox', resources: { limits: { cpu: null } } }],
          containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: null, memory: '64Mi' }, requests: { cpu: null } } }],
          volumes: [{ name: 'v', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: null } } } } } }],
        },
      },
    },
  });
  const quantities = (dc: DeploymentConfig) => {
    const t = dc.spec.template!.spec!;
    return [dc.spec.strategy?.resources, t.overhead, t.initContainers?.[0]?.resources, t.containers[0]?.resources, t.volumes?.[0]?.ephemeral?.volumeClaimTemplate?.spec?.resources];
  };
  const asOpenShiftStored = [{ requests: { memory: '0' } }, { cpu: '0' }, { limits: { cpu: '0' } }, { limits: { cpu: '0', memory: '64Mi' }, requests: { cpu: '0' } }, { requests: { storage: '0' } }];
  // This plane (1.36) has the optional policy, which stores "0"; without it the null is stored and
  // every reader makes it "0" (src/apis/nulls.ts; API mode's front writes "0": test/e2e/apiserver.test.ts).
  it('is accepted by a server-side apply and a create, and stored as "0", as OpenShift stored it', async () => {
    const applied = await custom.patchNamespacedCustomObject(
      { group, version, namespace, plural, name: 'null-quantities', body: body('null-quantities'), fieldManager: 'helm' },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    ) as DeploymentConfig;
    expect(quantities(applied)).toEqual(asOpenShiftStored);
    const created = await custom.createNamespacedCustomObject({ group, version, namespace, plural, body: body('null-quantities-created') }) as DeploymentConfig;
    expect(quantities(created)).toEqual(asOpenShiftStored);
  });
  it('still refuses a value that is not a Quantity, naming the field', async () => {
    const bad = body('null-quantity-bad');
    (bad.spec.template.spec.containers[0]!.resources.limits as Record<string, unknown>)['memory'] = 'lots';
    expect(await applyAnswer(bad as unknown as DeploymentConfig)).toMatch(/^422: .*spec.template.spec.containers\[0\].resources.limits.memory/);
  });
});

describe('`replicas:` with no value (Helm\'s `replicas: {{ .Values.replicas }}` unset), applied server-side', () => {
  it('is stored as 0, as OpenShift read it, and the scale subresource and a later scale work', async () => {
    const body = {
      apiVersion: `${group}/${version}`, kind: 'DeploymentConfig', metadata: { name: 'helm-replicas', namespace },
      spec: { replicas: null, selector: { app: 'h' }, template: { metadata: { labels: { app: 'h' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    };
    const stored = await custom.patchNamespacedCustomObject(
      { group, version, namespace, plural, name: 'helm-replicas', body, fieldManager: 'helm' },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    ) as DeploymentConfig;
    expect(stored.spec.replicas).toBe(0);
    const scale = JSON.parse(kubectl(['get', '--raw', `/apis/${group}/${version}/namespaces/${namespace}/${plural}/helm-replicas/scale`])) as { spec: { replicas?: number } };
    expect(scale.spec.replicas ?? 0).toBe(0);
    kubectl(['-n', namespace, 'scale', `${plural}.${group}/helm-replicas`, '--replicas=2']);
    const scaled = await custom.getNamespacedCustomObject({ group, version, namespace, plural, name: 'helm-replicas' }) as DeploymentConfig;
    expect(scaled.spec.replicas).toBe(2);
  });
});

describe('an ImageStream with null fields, applied server-side', () => {
  const apply = (name: string, spec: object) => custom.patchNamespacedCustomObject(
    { group: 'image.openshift.io', version: 'v1', namespace, plural: 'imagestreams', name, body: { apiVersion: 'image.openshift.io/v1', kind: 'ImageStream', metadata: { name, namespace }, spec }, fieldManager: 'gitops' },
    setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
  ) as Promise<{ spec?: { tags?: unknown[] } }>;

  it('is accepted where OpenShift read the null as absent (`tags:`, a tag\'s `from:`, `from.namespace:`) or as "" (an annotation value), and an unknown from.kind is still refused at the field', async () => {
    await expect(apply('no-tags', { dockerImageRepository: null, tags: null })).resolves.toBeDefined();
    const stream = await apply('null-tag-fields', {
      tags: [
        { name: 'empty', from: null, reference: null, annotations: null },
        { name: 'local', from: { kind: 'ImageStreamTag', name: 'empty', namespace: null }, annotations: { description: null } },
      ],
    });
    expect(stream.spec?.tags).toHaveLength(2);
    let refusal: string | undefined;
    try {
      await apply('bad-kind', { tags: [{ name: 'a', from: { kind: 'Image', name: 'x' } }] });
    } catch (err) {
      if (!(err instanceof ApiException)) throw err;
      refusal = (JSON.parse(String(err.body)) as { message?: string }).message;
    }
    expect(refusal).toContain('spec.tags[0].from.kind: Invalid value: "Image": supported values: "DockerImage", "ImageStreamTag", "ImageStreamImage"');
  });
});
