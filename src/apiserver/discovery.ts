/**
 * Discovery and OpenAPI documents of `apps.openshift.io/v1`, as OpenShift publishes them.
 * Pure: computed once at start.
 */
import { createHash } from 'node:crypto';
import { Group, Version } from '../apis/constants.js';
import { componentSchemas } from './openapi-schemas.generated.js';

const groupVersion = `${Group}/${Version}`;

/** `/apis/apps.openshift.io/v1` (the resource list OpenShift serves for the group). */
export function apiResourceList(): object {
  const crud = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion,
    resources: [
      { name: 'deploymentconfigs', singularName: 'deploymentconfig', namespaced: true, kind: 'DeploymentConfig', verbs: crud, shortNames: ['dc'], categories: ['all'], storageVersionHash: storageVersionHash() },
      { name: 'deploymentconfigs/instantiate', singularName: '', namespaced: true, group: Group, version: Version, kind: 'DeploymentRequest', verbs: ['create'] },
      { name: 'deploymentconfigs/log', singularName: '', namespaced: true, group: Group, version: Version, kind: 'DeploymentLog', verbs: ['get'] },
      { name: 'deploymentconfigs/rollback', singularName: '', namespaced: true, group: Group, version: Version, kind: 'DeploymentConfigRollback', verbs: ['create'] },
      { name: 'deploymentconfigs/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
      { name: 'deploymentconfigs/status', singularName: '', namespaced: true, kind: 'DeploymentConfig', verbs: ['get', 'patch', 'update'] },
    ],
  };
}

function storageVersionHash(): string {
  // apiserver's hash: base64 of the first 8 bytes of sha256("<group>/<version>/<kind>").
  return createHash('sha256').update(`${Group}/${Version}/DeploymentConfig`).digest().subarray(0, 8).toString('base64');
}

export function apiGroup(): object {
  const v = { groupVersion, version: Version };
  return { kind: 'APIGroup', apiVersion: 'v1', name: Group, versions: [v], preferredVersion: v };
}

export function apiGroupList(): object {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: [apiGroup()] };
}

const SchemaPrefix = 'com.github.openshift.api.apps.v1.';

/** The OpenAPI v3 document of the group (`/openapi/v3/apis/apps.openshift.io/v1`). */
export function openApiV3(): object {
  const ref = (n: string) => ({ $ref: `#/components/schemas/${SchemaPrefix}${n}` });
  const json = (schema: object) => ({ content: { 'application/json': { schema } } });
  const ns = { name: 'namespace', in: 'path', required: true, schema: { type: 'string' } };
  const name = { name: 'name', in: 'path', required: true, schema: { type: 'string' } };
  const base = `/apis/${Group}/${Version}/namespaces/{namespace}/deploymentconfigs`;
  // The write options the front passes on. kubectl looks for `fieldValidation` among a PATCH
  // operation's query parameters to decide that the server validates fields (otherwise it
  // validates client-side, which refuses partial server-side apply configurations).
  const query = (...names: string[]) => names.map((n) => ({ name: n, in: 'query', schema: { type: n === 'force' ? 'boolean' : 'string' }, uniqueItems: true }));
  const writeQuery = query('dryRun', 'fieldManager', 'fieldValidation');
  const action = (verb: string, kind: string, body?: object, parameters?: object[]) => ({
    'x-kubernetes-action': verb,
    'x-kubernetes-group-version-kind': { group: Group, version: Version, kind },
    ...(parameters ? { parameters } : {}),
    ...(body ? { requestBody: json(body) } : {}),
    responses: { 200: { description: 'OK', ...json(ref(kind)) } },
  });
  return {
    openapi: '3.0.0',
    info: { title: 'OpenShift apps.openshift.io/v1 (deploymentconfig-controller)', version: 'v1' },
    paths: {
      [`/apis/${Group}/${Version}/deploymentconfigs`]: { get: action('list', 'DeploymentConfigList') },
      [base]: { parameters: [ns], get: action('list', 'DeploymentConfigList'), post: action('post', 'DeploymentConfig', ref('DeploymentConfig'), writeQuery) },
      [`${base}/{name}`]: {
        parameters: [ns, name],
        get: action('get', 'DeploymentConfig'),
        put: action('put', 'DeploymentConfig', ref('DeploymentConfig'), writeQuery),
        patch: action('patch', 'DeploymentConfig', { type: 'object' }, [...writeQuery, ...query('force')]),
        delete: action('delete', 'DeploymentConfig'),
      },
      [`${base}/{name}/status`]: { parameters: [ns, name], get: action('get', 'DeploymentConfig'), put: action('put', 'DeploymentConfig', ref('DeploymentConfig')) },
      [`${base}/{name}/instantiate`]: { parameters: [ns, name], post: action('post', 'DeploymentRequest', ref('DeploymentRequest')) },
      [`${base}/{name}/rollback`]: { parameters: [ns, name], post: action('post', 'DeploymentConfigRollback', ref('DeploymentConfigRollback')) },
      [`${base}/{name}/log`]: { parameters: [ns, name], get: action('get', 'DeploymentLog') },
    },
    components: { schemas: componentSchemas },
  };
}

/** `/openapi/v3`: the index the aggregator and kubectl read, with a content hash per group. */
export function openApiV3Index(doc: object): object {
  const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 128).toUpperCase();
  return { paths: { [`apis/${Group}/${Version}`]: { serverRelativeURL: `/openapi/v3/apis/${Group}/${Version}?hash=${hash}` } } };
}

/** Converts a v3 schema tree to Swagger 2.0 (`#/definitions`, `$ref` instead of `allOf: [$ref]`, no anyOf). */
function toV2(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toV2);
  if (node === null || typeof node !== 'object') return node;
  const src = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/components/schemas/', '#/definitions/');
    else if (k === 'nullable' || k === 'x-kubernetes-validations') continue;
    else out[k] = toV2(v);
  }
  const allOf = src['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1 && typeof (allOf[0] as { $ref?: unknown }).$ref === 'string') {
    delete out['allOf'];
    out['$ref'] = ((allOf[0] as { $ref: string }).$ref).replace('#/components/schemas/', '#/definitions/');
    delete out['default'];
  }
  if (src['x-kubernetes-int-or-string'] === true) {
    delete out['anyOf'];
    delete out['pattern'];
    out['type'] = 'string';
    out['format'] = 'int-or-string';
  } else if (out['anyOf'] !== undefined) {
    delete out['anyOf'];
  }
  if (out['oneOf'] !== undefined) {
    // v3's Quantity/IntOrString are oneOf string|number; Swagger 2.0 has no oneOf (kube-apiserver
    // refuses to merge a spec with one): they are strings there, as in Kubernetes' own v2.
    delete out['oneOf'];
    out['type'] ??= 'string';
  }
  return out;
}

/** `/openapi/v2`: merged by kube-apiserver into the cluster's Swagger document. */
export function openApiV2(): object {
  const v3 = openApiV3() as { paths: Record<string, Record<string, unknown>> };
  const paths: Record<string, unknown> = {};
  for (const [p, item] of Object.entries(v3.paths)) {
    const converted: Record<string, unknown> = {};
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters') {
        converted[method] = (op as Array<{ name: string; in: string; required: boolean }>).map((x) => ({ name: x.name, in: x.in, required: x.required, type: 'string', uniqueItems: true }));
        continue;
      }
      const o = op as { 'x-kubernetes-action': string; 'x-kubernetes-group-version-kind': object; parameters?: Array<{ name: string; in: string; schema: { type: string } }>; responses: Record<string, { content: Record<string, { schema: unknown }> }> };
      converted[method] = {
        ...(o.parameters ? { parameters: o.parameters.map((x) => ({ name: x.name, in: x.in, type: x.schema.type, uniqueItems: true })) } : {}),
        consumes: ['*/*'],
        produces: ['application/json'],
        schemes: ['https'],
        'x-kubernetes-action': o['x-kubernetes-action'],
        'x-kubernetes-group-version-kind': o['x-kubernetes-group-version-kind'],
        responses: { 200: { description: 'OK', schema: toV2(o.responses['200']?.content['application/json']?.schema) } },
      };
    }
    paths[p] = converted;
  }
  return {
    swagger: '2.0',
    info: { title: 'OpenShift apps.openshift.io/v1 (deploymentconfig-controller)', version: 'v1' },
    paths,
    definitions: toV2(componentSchemas),
  };
}
