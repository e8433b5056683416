#!/usr/bin/env node
// Generates src/apiserver/openapi-schemas.generated.ts: the OpenAPI v3 component schemas that the
// aggregated API server (docs/apiserver.md) publishes for apps.openshift.io/v1, and from which
// its strategic merge patch reads the patch merge keys.
//
//   node hack/gen-apiserver-openapi.mjs [--openapi <api__v1_openapi.json>] [--check]
//
// The DC types come from crds/deploymentconfig.yaml (the same schema the CRD mode validates
// with), except that `spec.template` and `metadata` refer to the upstream Kubernetes schemas
// (with descriptions and x-kubernetes-patch-merge-key/strategy), copied with their closure from
// the Kubernetes OpenAPI v3 document of k8s.io/kubernetes@$K8S_VERSION (Go module cache).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const argValue = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const outFile = path.join(repo, 'src/apiserver/openapi-schemas.generated.ts');

function openapiPath() {
  const explicit = argValue('--openapi') ?? process.env.K8S_OPENAPI;
  if (explicit) return explicit;
  const env = readFileSync(path.join(repo, 'hack/versions.env'), 'utf8');
  const version = process.env.K8S_VERSION ?? /^K8S_VERSION=\$?\{?[A-Z_]*:?-?(v[0-9.]+)/m.exec(env)?.[1] ?? 'v1.36.3';
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'gen-openapi-'));
  const out = execFileSync('go', ['mod', 'download', '-json', `k8s.io/kubernetes@${version}`], {
    cwd, encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod', GOWORK: 'off', GOTOOLCHAIN: 'local' }, maxBuffer: 1 << 24,
  });
  return path.join(JSON.parse(out).Dir, 'api/openapi-spec/v3/api__v1_openapi.json');
}

const upstream = JSON.parse(readFileSync(openapiPath(), 'utf8')).components.schemas;
const crd = yaml.loadAll(readFileSync(path.join(repo, 'crds/deploymentconfig.yaml'), 'utf8')).find((d) => d?.kind === 'CustomResourceDefinition');
const dcSchema = structuredClone(crd.spec.versions[0].schema.openAPIV3Schema);

const K = 'io.k8s.api.core.v1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const P = 'com.github.openshift.api.apps.v1.';
const ref = (name, extra = {}) => ({ allOf: [{ $ref: `#/components/schemas/${name}` }], ...extra });
const gvk = (kind) => ({ 'x-kubernetes-group-version-kind': [{ group: 'apps.openshift.io', version: 'v1', kind }] });

// Copy the closure of the upstream types we refer to.
const schemas = {};
const visit = (name) => {
  if (schemas[name] || !upstream[name]) return;
  schemas[name] = upstream[name];
  JSON.stringify(upstream[name], (k, v) => { if (k === '$ref') visit(v.split('/').pop()); return v; });
};
for (const n of [`${K}PodTemplateSpec`, `${M}ObjectMeta`, `${M}ListMeta`, `${M}Status`, `${M}Time`]) visit(n);

// The DC: the CRD's schema with upstream references for metadata and the pod template.
dcSchema.description = 'Deployment Configs define the template for a pod and manages deploying new images or configuration changes. A single deployment configuration is usually analogous to a single micro-service. Can support many different deployment patterns, including full restart, customizable rolling updates, and fully custom behaviors, as well as pre- and post- deployment hooks. Each individual deployment is represented as a replication controller.\n\nA deployment is "triggered" when its configuration is changed or a tag in an Image Stream is changed. Triggers can be disabled to allow manual control over a deployment. The "strategy" determines how the deployment is carried out and may be changed at any time. The `latestVersion` field is updated when a new deployment is triggered by any means.';
dcSchema.properties.metadata = ref(`${M}ObjectMeta`, { default: {}, description: "Standard object's metadata." });
dcSchema.properties.apiVersion.description = 'APIVersion defines the versioned schema of this representation of an object.';
dcSchema.properties.kind.description = 'Kind is a string value representing the REST resource this object represents.';
const spec = dcSchema.properties.spec;
spec.description ??= 'Spec represents a desired deployment state and how to deploy to it.';
spec.properties.template = ref(`${K}PodTemplateSpec`, { description: 'Template is the object that describes the pod that will be created if insufficient replicas are detected.' });
const status = dcSchema.properties.status;
status.description ??= 'Status represents the current deployment state.';
if (status.properties?.conditions) {
  Object.assign(status.properties.conditions, { 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge' });
}
delete dcSchema.required;
schemas[`${P}DeploymentConfig`] = { ...dcSchema, required: ['spec'], ...gvk('DeploymentConfig') };
schemas[`${P}DeploymentConfigList`] = {
  description: 'DeploymentConfigList is a collection of deployment configs.',
  type: 'object',
  required: ['items'],
  properties: {
    apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
    kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
    metadata: ref(`${M}ListMeta`, { default: {} }),
    items: { type: 'array', description: 'Items is a list of deployment configs', items: ref(`${P}DeploymentConfig`, { default: {} }) },
  },
  ...gvk('DeploymentConfigList'),
};
schemas[`${P}DeploymentRequest`] = {
  description: 'DeploymentRequest is a request to a deployment config for a new deployment.',
  type: 'object',
  required: ['name', 'latest', 'force'],
  properties: {
    apiVersion: { type: 'string' }, kind: { type: 'string' },
    name: { type: 'string', default: '', description: 'Name of the deployment config for requesting a new deployment.' },
    latest: { type: 'boolean', default: false, description: 'Latest will update the deployment config with the latest state from all triggers.' },
    force: { type: 'boolean', default: false, description: 'Force will try to force a new deployment to run. If the deployment config is paused, then setting this to true will return an Invalid error.' },
    excludeTriggers: { type: 'array', items: { type: 'string', default: '' }, description: 'ExcludeTriggers instructs the instantiator to avoid processing the specified triggers. This field overrides the triggers from latest and allows clients to control specific logic. This field is ignored if not specified.' },
  },
  ...gvk('DeploymentRequest'),
};
schemas[`${P}DeploymentConfigRollback`] = {
  description: 'DeploymentConfigRollback provides the input to rollback generation.',
  type: 'object',
  required: ['name', 'spec'],
  properties: {
    apiVersion: { type: 'string' }, kind: { type: 'string' },
    name: { type: 'string', default: '', description: 'Name of the deployment config that will be rolled back.' },
    updatedAnnotations: { type: 'object', additionalProperties: { type: 'string', default: '' }, description: 'UpdatedAnnotations is a set of new annotations that will be added in the deployment config.' },
    spec: {
      description: 'Spec defines the options to rollback generation.', default: {}, type: 'object',
      required: ['from', 'includeTriggers', 'includeTemplate', 'includeReplicationMeta', 'includeStrategy'],
      properties: {
        from: ref(`${K}ObjectReference`, { default: {}, description: 'From points to a ReplicationController which is a deployment.' }),
        revision: { type: 'integer', format: 'int64', description: 'Revision to rollback to. If set to 0, rollback to the last revision.' },
        includeTriggers: { type: 'boolean', default: false, description: 'IncludeTriggers specifies whether to include config Triggers.' },
        includeTemplate: { type: 'boolean', default: false, description: 'IncludeTemplate specifies whether to include the PodTemplateSpec.' },
        includeReplicationMeta: { type: 'boolean', default: false, description: 'IncludeReplicationMeta specifies whether to include the replica count and selector.' },
        includeStrategy: { type: 'boolean', default: false, description: 'IncludeStrategy specifies whether to include the deployment Strategy.' },
      },
    },
  },
  ...gvk('DeploymentConfigRollback'),
};
visit(`${K}ObjectReference`);
schemas[`${P}DeploymentLog`] = {
  description: 'DeploymentLog represents the logs for a deployment', type: 'object',
  properties: { apiVersion: { type: 'string' }, kind: { type: 'string' } }, ...gvk('DeploymentLog'),
};

const sorted = Object.fromEntries(Object.keys(schemas).sort().map((k) => [k, schemas[k]]));
const json = JSON.stringify(sorted);
const text = `// Generated by hack/gen-apiserver-openapi.mjs; do not edit by hand.\n`
  + `/** OpenAPI v3 component schemas of apps.openshift.io/v1 (DC types + the upstream types they use). */\n`
  + `export const componentSchemas: Record<string, unknown> = JSON.parse(${JSON.stringify(json)}) as Record<string, unknown>;\n`;
if (args.includes('--check')) {
  const current = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
  if (current !== text) { console.error(`${path.relative(repo, outFile)} is stale: run node hack/gen-apiserver-openapi.mjs`); process.exit(1); }
} else {
  writeFileSync(outFile, text);
}
console.error(`${path.relative(repo, outFile)}: ${Object.keys(sorted).length} schemas, ${text.length} bytes`);
