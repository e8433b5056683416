import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// js-yaml, not client-node's loadYaml: that one maps the CRD onto V1JSONSchemaProps and renames
// the x-kubernetes-* keys.
import yaml from 'js-yaml';

// Cheap, cluster-free checks of the generated CRD; admission behaviour is proven against a real
// apiserver in test/integration/crd-admission.test.ts.
interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  required?: string[];
  default?: unknown;
  description?: string;
  enum?: unknown[];
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-validations'?: { rule: string; message?: string; messageExpression?: string; fieldPath?: string; reason?: string }[];
  [k: string]: unknown;
}
interface Crd {
  metadata: { name: string };
  spec: {
    group: string;
    scope: string;
    names: { kind: string; plural: string; shortNames: string[]; categories: string[] };
    versions: {
      name: string; served: boolean; storage: boolean;
      subresources: { status: object; scale: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath: string } };
      additionalPrinterColumns: { name: string; type: string; jsonPath: string }[];
      schema: { openAPIV3Schema: Schema };
    }[];
  };
}

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const raw = readFileSync(path.join(repo, 'crds/deploymentconfig.yaml'), 'utf8');
const crd = yaml.load(raw) as Crd;
const version = crd.spec.versions[0]!;
const root = version.schema.openAPIV3Schema;

function walk(node: Schema, at: string, visit: (n: Schema, at: string) => void): void {
  visit(node, at);
  for (const [k, v] of Object.entries(node.properties ?? {})) walk(v, `${at}.${k}`, visit);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${at}.*`, visit);
  if (node.items) walk(node.items, `${at}[]`, visit);
}
function at(p: string): Schema {
  let node: Schema | undefined = root;
  for (const part of p.split('.')) {
    if (part === '[]') node = node?.items;
    else if (part === '*') node = typeof node?.additionalProperties === 'object' ? node.additionalProperties : undefined;
    else node = node?.properties?.[part];
  }
  if (!node) throw new Error(`no schema at ${p}`);
  return node;
}

describe('crds/deploymentconfig.yaml', () => {
  it('declares the OpenShift resource names', () => {
    expect(crd.metadata.name).toBe('deploymentconfigs.apps.openshift.io');
    expect(crd.spec.group).toBe('apps.openshift.io');
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.names).toMatchObject({ kind: 'DeploymentConfig', plural: 'deploymentconfigs', shortNames: ['dc'], categories: ['all'] });
    expect(crd.spec.versions).toHaveLength(1);
    expect(version).toMatchObject({ name: 'v1', served: true, storage: true });
  });

  it('has status and scale subresources with a string label selector path', () => {
    expect(version.subresources.status).toEqual({});
    expect(version.subresources.scale).toEqual({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' });
    expect(at('status.selector').type).toBe('string');
  });

  it('prints the oc get dc columns', () => {
    expect(version.additionalPrinterColumns.map((c) => [c.name, c.jsonPath])).toEqual([
      ['Revision', '.status.latestVersion'],
      ['Desired', '.spec.replicas'],
      ['Current', '.status.updatedReplicas'],
      ['Triggered By', '.spec.triggers[*].type'],
      ['Age', '.metadata.creationTimestamp'],
    ]);
  });

  it('is a structural schema: every node is typed, int-or-string or preserves unknown fields', () => {
    const bad: string[] = [];
    walk(root, '', (n, p) => {
      const intOrString = n['x-kubernetes-int-or-string'] === true;
      if (!n.type && !intOrString) bad.push(`${p}: no type`);
      if (n.anyOf && !intOrString) bad.push(`${p}: anyOf outside int-or-string`);
      if (n.properties && n.additionalProperties) bad.push(`${p}: properties and additionalProperties`);
      if ('$ref' in n || 'allOf' in n || 'oneOf' in n) bad.push(`${p}: unresolved composition`);
      if (n.type === 'object' && !n.properties && !n.additionalProperties && !n['x-kubernetes-preserve-unknown-fields'] && p !== '.metadata') bad.push(`${p}: empty object`);
    });
    expect(bad).toEqual([]);
  });

  it('uses the upstream pod template (volumes, probes, security context are all there)', () => {
    const container = at('spec.template.spec.containers.[]');
    expect(Object.keys(container.properties ?? {})).toEqual(expect.arrayContaining(['livenessProbe', 'readinessProbe', 'securityContext', 'resources', 'env', 'ports']));
    expect(at('spec.template.spec.containers')).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
    expect(at('spec.template.spec.containers.[].ports.[].protocol').default).toBe('TCP');
    expect(at('spec.template.spec.volumes.[].configMap').type).toBe('object');
    expect(at('spec.template.spec.containers.[].resources.limits.*')['x-kubernetes-int-or-string']).toBe(true);
  });

  it('keeps only the uniqueness rules kube-apiserver\'s pod validation enforces (docs/crd.md)', () => {
    const keyed: string[] = [];
    walk(at('spec'), 'spec', (n, p) => {
      const t = n['x-kubernetes-list-type'];
      if (t === 'map' || t === 'set') keyed.push(`${p} ${t} ${(n['x-kubernetes-list-map-keys'] ?? []).join(',')}`.trim());
    });
    const containers = ['containers', 'initContainers', 'ephemeralContainers'];
    expect(keyed.sort()).toEqual([
      'spec.strategy.resources.claims map name',
      ...containers.map((c) => `spec.template.spec.${c} map name`),
      ...containers.flatMap((c) => [
        `spec.template.spec.${c}[].resources.claims map name`,
        `spec.template.spec.${c}[].volumeDevices map devicePath`,
        `spec.template.spec.${c}[].volumeMounts map mountPath`,
      ]),
      'spec.template.spec.resourceClaims map name',
      'spec.template.spec.resources.claims map name',
      'spec.template.spec.schedulingGates map name',
      'spec.template.spec.topologySpreadConstraints map topologyKey,whenUnsatisfiable',
      'spec.template.spec.volumes map name',
    ].sort());
    // Duplicates that pods (and OpenShift) accept: env names, ports, hostAliases, pull secrets, hook env.
    for (const p of ['spec.template.spec.containers.[].env', 'spec.template.spec.containers.[].ports', 'spec.template.spec.hostAliases',
      'spec.template.spec.imagePullSecrets', 'spec.strategy.recreateParams.pre.execNewPod.env', 'spec.strategy.customParams.environment']) {
      expect([p, at(p)['x-kubernetes-list-type']]).toEqual([p, undefined]);
    }
  });

  it('refuses DC names longer than a label value, naming the limit', () => {
    const rules = (root as Schema & { 'x-kubernetes-validations'?: { rule: string; message: string }[] })['x-kubernetes-validations'] ?? [];
    expect(rules).toEqual([expect.objectContaining({ rule: 'size(self.metadata.name) <= 63', message: expect.stringContaining('label values are limited to 63 characters') })]);
  });

  it('keeps every list-map key required or defaulted (the apiserver rejects the CRD otherwise)', () => {
    const bad: string[] = [];
    walk(root, '', (n, p) => {
      for (const key of n['x-kubernetes-list-map-keys'] ?? []) {
        const item = n.items;
        if (!item?.required?.includes(key) && item?.properties?.[key]?.default === undefined) bad.push(`${p}: ${key}`);
      }
    });
    expect(bad).toEqual([]);
  });

  it('applies only the unconditional OpenShift defaults in the schema', () => {
    expect(at('spec.triggers').default).toEqual([{ type: 'ConfigChange' }]);
    expect(at('spec.strategy').default).toEqual({ type: 'Rolling', activeDeadlineSeconds: 21600 });
    expect(at('spec.strategy.type').default).toBe('Rolling');
    expect(at('spec.strategy.activeDeadlineSeconds').default).toBe(21600);
    expect(at('spec.revisionHistoryLimit').default).toBe(10);
    expect(at('spec.strategy.rollingParams.timeoutSeconds').default).toBe(600);
    expect(at('spec.strategy.recreateParams.timeoutSeconds').default).toBe(600);
    expect(at('spec.triggers.[].imageChangeParams.from.kind').default).toBe('ImageStreamTag');
    // Conditional defaults belong to the controller: a schema default here would be wrong.
    expect(at('spec.strategy.rollingParams.maxSurge').default).toBeUndefined();
    expect(at('spec.strategy.rollingParams.maxUnavailable').default).toBeUndefined();
    expect(at('spec').properties?.selector?.default).toBeUndefined();
  });

  it('bounds every list a CEL rule iterates so the cost estimate stays finite', () => {
    for (const p of ['spec.template.spec.containers', 'spec.template.spec.initContainers', 'spec.triggers',
      'spec.triggers.[].imageChangeParams.containerNames', 'spec.strategy.rollingParams.pre.tagImages']) {
      expect([p, typeof at(p).maxItems]).toEqual([p, 'number']);
    }
    expect(typeof at('spec.selector').maxProperties).toBe('number');
    expect(typeof at('spec.template.metadata.labels').maxProperties).toBe('number');
  });

  it('guards status counters against decrements with transition rules', () => {
    expect(at('status.latestVersion')['x-kubernetes-validations']?.map((v) => v.rule)).toEqual(['self >= oldSelf', 'self <= oldSelf + 1']);
    expect(at('status.observedGeneration')['x-kubernetes-validations']?.map((v) => v.rule)).toEqual(['self >= oldSelf']);
  });

  it('drops descriptions so client-side apply fits the 256 KiB annotation limit', () => {
    let descriptions = 0;
    walk(root, '', (n) => { if (n.description) descriptions++; });
    expect(descriptions).toBe(0);
    expect(JSON.stringify(crd).length).toBeLessThan(200 * 1024);
  });

  it('gives every CEL rule a message and a reason or field location', () => {
    const rules: NonNullable<Schema['x-kubernetes-validations']> = [];
    walk(root, '', (n) => rules.push(...(n['x-kubernetes-validations'] ?? [])));
    expect(rules.length).toBeGreaterThan(20);
    for (const r of rules) expect([r.rule, Boolean(r.message ?? r.messageExpression)]).toEqual([r.rule, true]);
  });
});

interface Policy {
  kind: string;
  metadata: { name: string };
  spec: {
    policyName?: string;
    validationActions?: string[];
    failurePolicy?: string;
    matchConstraints?: { resourceRules: { apiGroups: string[]; apiVersions: string[]; operations: string[]; resources: string[] }[] };
    matchConditions?: { name: string; expression: string }[];
    validations?: { expression: string; message: string; reason: string }[];
  };
}

describe('crds/deploymentconfig-policy.yaml (design.md §2.3)', () => {
  const docs = yaml.loadAll(readFileSync(path.join(repo, 'crds/deploymentconfig-policy.yaml'), 'utf8')) as Policy[];
  const policy = docs.find((d) => d.kind === 'ValidatingAdmissionPolicy')!;
  const binding = docs.find((d) => d.kind === 'ValidatingAdmissionPolicyBinding')!;
  const storage = yaml.load(readFileSync(path.join(repo, 'crds/storage/deploymentconfig.yaml'), 'utf8')) as Crd;
  const storageSpecRules = storage.spec.versions[0]!.schema.openAPIV3Schema.properties!['spec']!['x-kubernetes-validations'] ?? [];

  it('holds the rules that read the whole spec, which the CRD (evaluated on every /status write) no longer has', () => {
    expect(at('spec')['x-kubernetes-validations']).toBeUndefined();
    // The storage CRD of API mode keeps them in its schema: both modes enforce the same rules.
    expect(storageSpecRules.length).toBe(17);
    // A policy's has() is true for a null field, a CRD rule's is not: the policy asks for a value
    // too (test/integration/crd-nulls.test.ts proves each null reads as absent).
    const asPolicy = (rule: string) => rule.replace(/\bself\b/g, 'object.spec').replace(/\bhas\(([^()]+)\)/g, '(has($1) && $1 != null)');
    expect(policy.spec.validations?.map((v) => v.expression)).toEqual(storageSpecRules.map((r) => asPolicy(r.rule)));
  });

  it('names the field first in every message, as the CRD\'s errors do', () => {
    expect(policy.spec.validations?.map((v) => v.message.split(': ')[0])).toEqual(storageSpecRules.map((r) => `spec${r.fieldPath}`));
    for (const v of policy.spec.validations ?? []) expect([v.message, v.reason]).toEqual([expect.stringMatching(/^spec\.[^:]+: (Required|Invalid|Unsupported) value: /), 'Invalid']);
  });

  it('matches creates and spec changes of the main resource only, and denies', () => {
    expect(policy.spec.matchConstraints?.resourceRules).toEqual([{ apiGroups: ['apps.openshift.io'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deploymentconfigs'] }]);
    expect(policy.spec.matchConditions?.map((c) => c.expression)).toEqual(["request.operation == 'CREATE' || object.spec != oldObject.spec"]);
    expect(policy.spec.failurePolicy).toBe('Fail');
    expect(binding.spec).toEqual({ policyName: policy.metadata.name, validationActions: ['Deny'] });
  });
});

describe('crds/optional/deploymentconfig-quantities-policy.yaml (Kubernetes 1.36+)', () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const docs = yaml.loadAll(readFileSync(path.join(here, '../../../crds/optional/deploymentconfig-quantities-policy.yaml'), 'utf8')) as {
    kind?: string; spec?: { failurePolicy?: string; policyName?: string; matchConstraints?: { resourceRules?: { resources?: string[] }[] }; mutations?: { patchType: string; jsonPatch?: { expression: string } }[] };
    metadata?: { name?: string };
  }[];
  const policy = docs.find((d) => d?.kind === 'MutatingAdmissionPolicy')!;
  const binding = docs.find((d) => d?.kind === 'MutatingAdmissionPolicyBinding')!;

  it('patches every place the DC holds Quantities, maps of strings and maps of Quantities, in one JSON patch expression, and never blocks a write', async () => {
    const { DcQuantities } = await import('../../../src/apis/quantities.generated.js');
    type Node = 1 | { p?: Record<string, Node>; i?: Node; a?: Node };
    // The JSON pointer of each place, as the expression spells it: '/spec' + '/' + string(i0) + ...
    const pointers = (n: Node, at: string): string[] => n === 1 ? [at] : [
      ...Object.entries(n.p ?? {}).flatMap(([k, c]) => pointers(c, `${at} + '/${k}'`)),
      ...(n.i !== undefined ? pointers(n.i, `${at} + '/' + string(i${(at.match(/string\(i/g) ?? []).length})`) : []),
      ...(n.a !== undefined ? [`${at} + '/' + jsonpatch.escapeKey(`] : []),
    ];
    const places = pointers(DcQuantities as Node, "''");
    expect(places.length).toBe(25);
    const mutations = policy.spec?.mutations ?? [];
    expect(mutations.map((m) => m.patchType)).toEqual(['JSONPatch']);
    for (const place of places) expect(mutations[0]!.jsonPatch!.expression).toContain(`path: ${place}`);
    // Null values in maps of strings become "", in maps of Quantities "0", in the same expression
    // (src/apis/string-maps.generated.ts, src/apis/quantities.generated.ts).
    const { DcSpecStringMaps } = await import('../../../src/apis/string-maps.generated.js');
    const { DcSpecQuantityMaps } = await import('../../../src/apis/quantities.generated.js');
    for (const { skeleton, count, zero } of [{ skeleton: DcSpecStringMaps, count: 22, zero: '' }, { skeleton: DcSpecQuantityMaps, count: 13, zero: '0' }]) {
      const maps = pointers(skeleton as Node, "'' + '/spec'");
      expect(maps.length).toBe(count);
      for (const map of maps) expect(mutations[0]!.jsonPatch!.expression).toContain(`path: ${map} + '/' + jsonpatch.escapeKey(`);
      const patches = mutations[0]!.jsonPatch!.expression.match(new RegExp(`== null_type\\)\\.map\\(k\\d+, JSONPatch\\{op: 'replace', path: [^}]*, value: '${zero}'\\}\\)`, 'g'));
      expect(patches).toHaveLength(count);
    }
    expect(policy.spec?.failurePolicy).toBe('Ignore');
    expect(policy.spec?.matchConstraints?.resourceRules?.map((r) => r.resources)).toEqual([['deploymentconfigs']]);
    expect(binding.spec?.policyName).toBe(policy.metadata?.name);
  });
});
