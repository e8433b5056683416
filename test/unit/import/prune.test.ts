import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { bundledSchema, numbersFromQuotedNumbers, pruneEntries, scalarTypeProblems, pruneUnknownFields, SchemaUnavailableError, type SchemaNode, type SchemaSource } from '../../../src/import/prune.js';
import { importObjects } from '../../../src/import/pipeline.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dcSchema = bundledSchema('apps.openshift.io/v1', 'DeploymentConfig') as SchemaNode;

describe('pruneUnknownFields', () => {
  it('removes what the DeploymentConfig CRD does not know, at any depth, and keeps the rest', () => {
    const dc = {
      apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig',
      metadata: { name: 'x', labels: { a: 'b' }, clusterName: '' },
      spec: {
        serviceAccountName: 'sa',
        strategy: { type: 'Recreate', recreateParams: { pre: { failurePolicy: 'Abort', execNewPod: { command: ['x'], args: ['y'], env: [{ name: 'A', value: '1' }] } } } },
        template: {
          metadata: { labels: { a: 'b' }, resourceVersion: '1' },
          spec: { containers: [{ name: 'c', image: 'i', capabilities: { add: ['X'] }, resources: { requires: { cpu: '1' }, limits: { cpu: '2' } } }] },
        },
      },
    };
    expect(pruneUnknownFields(dc, dcSchema)).toEqual([
      'metadata.clusterName',
      'spec.serviceAccountName',
      'spec.strategy.recreateParams.pre.execNewPod.args',
      'spec.template.metadata.resourceVersion',
      'spec.template.spec.containers[0].capabilities',
      'spec.template.spec.containers[0].resources.requires',
    ]);
    expect(dc.spec.template.spec.containers[0]).toEqual({ name: 'c', image: 'i', resources: { limits: { cpu: '2' } } });
    expect(dc.spec.strategy.recreateParams.pre.execNewPod).toEqual({ command: ['x'], env: [{ name: 'A', value: '1' }] });
    expect(dc.metadata).toEqual({ name: 'x', labels: { a: 'b' } });
  });

  it('keeps map values and preserve-unknown subtrees (ImageStream importPolicy)', () => {
    const is = { spec: { tags: [{ name: 'a', importPolicy: { future: true }, annotations: { 'x/y': 'z' }, bogus: 1 }] } };
    expect(pruneUnknownFields(is, bundledSchema('image.openshift.io/v1', 'ImageStream') as SchemaNode)).toEqual(['spec.tags[0].bogus']);
    expect(is.spec.tags[0]).toEqual({ name: 'a', importPolicy: { future: true }, annotations: { 'x/y': 'z' } });
  });
});

describe('pruneEntries', () => {
  const entries = () => importObjects([{ source: 'f', text: readFileSync(path.join(repo, 'test/fixtures/import/openshift3-export.yaml'), 'utf8') }],
    { params: new Map(), random: () => 0 }).entries;
  const serviceSchema: SchemaNode = { p: { apiVersion: 0, kind: 0, metadata: { x: 1 }, spec: { p: { ports: { i: { p: { name: 0, port: 0, protocol: 0, targetPort: 0 } } }, selector: { a: 0 }, sessionAffinity: 0, type: 0, clusterIP: 0 } } } };

  it('reports every removed field as a change of its object, with schemas of other kinds from the source', async () => {
    const e = entries();
    const source: SchemaSource = { schemaFor: async (apiVersion, kind) => (apiVersion === 'v1' && kind === 'Service' ? serviceSchema : undefined) };
    expect(await pruneEntries(e, source)).toEqual([]);
    const svc = e.find((x) => x.ref === 'service/catalog');
    expect(svc?.changes).toContain('removed unknown field spec.deprecatedPublicIPs (not in the v1 Service schema; OpenShift ignored it)');
    expect((svc?.object?.['spec'] as Record<string, unknown>)['deprecatedPublicIPs']).toBeUndefined();
  });

  it('says which kinds were not checked when the cluster cannot answer', async () => {
    const source: SchemaSource = { schemaFor: async () => { throw new SchemaUnavailableError('connect ECONNREFUSED 127.0.0.1:6443'); } };
    expect(await pruneEntries(entries(), source)).toEqual([
      'v1 Service: unknown fields were not removed (connect ECONNREFUSED 127.0.0.1:6443); kubectl\'s strict validation will name any',
    ]);
    expect(await pruneEntries(entries(), undefined)).toEqual([
      'v1 Service: unknown fields were not removed (no cluster to read its schema from); kubectl\'s strict validation will name any',
    ]);
  });

  it('the bundled schemas match the CRD files', () => {
    const crd = yaml.load(readFileSync(path.join(repo, 'crds/deploymentconfig.yaml'), 'utf8')) as { spec: { versions: { schema: { openAPIV3Schema: { properties: Record<string, unknown> } } }[] } };
    const top = Object.keys(crd.spec.versions[0]!.schema.openAPIV3Schema.properties).sort();
    expect(Object.keys((dcSchema as { p: object }).p).sort()).toEqual(top);
  });
});

// OpenShift up to 3.7 decoded JSON with a reader that took "1" for the integer 1, so Templates
// wrote `replicas: "${REPLICAS}"`; 3.8 and later (and every Kubernetes) refuse the string.
describe('numbersFromQuotedNumbers', () => {
  it('makes a quoted number a number where the schema wants an integer, and leaves strings, int-or-strings and Quantities alone', () => {
    const dc = {
      spec: {
        replicas: '3', revisionHistoryLimit: '-1', minReadySeconds: 'ten',
        strategy: { rollingParams: { intervalSeconds: '1', maxSurge: '25%', maxUnavailable: '1' } },
        template: { spec: { terminationGracePeriodSeconds: '30', securityContext: { supplementalGroups: ['1000', 2000] }, containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1' } }, ports: [{ containerPort: '8080' }] }] } },
      },
    };
    expect(numbersFromQuotedNumbers(dc, dcSchema)).toEqual([
      { path: 'spec.replicas', from: '3', to: 3 },
      { path: 'spec.revisionHistoryLimit', from: '-1', to: -1 },
      { path: 'spec.strategy.rollingParams.intervalSeconds', from: '1', to: 1 },
      { path: 'spec.template.spec.terminationGracePeriodSeconds', from: '30', to: 30 },
      { path: 'spec.template.spec.securityContext.supplementalGroups[0]', from: '1000', to: 1000 },
      { path: 'spec.template.spec.containers[0].ports[0].containerPort', from: '8080', to: 8080 },
    ]);
    expect(dc.spec.replicas).toBe(3);
    expect(dc.spec.template.spec.securityContext.supplementalGroups).toEqual([1000, 2000]);
    // Not a number: left for the server to refuse, naming the field.
    expect(dc.spec.minReadySeconds).toBe('ten');
    // int-or-string and Quantity fields take strings.
    expect(dc.spec.strategy.rollingParams.maxUnavailable).toBe('1');
    expect(dc.spec.template.spec.containers[0]?.resources.limits.cpu).toBe('1');
  });

  it('reads a quoted number where the schema wants any number, and nothing that is not one', () => {
    const schema: SchemaNode = { p: { ratio: 2, count: 1 } };
    const o = { ratio: '0.5', count: '1.5' };
    expect(numbersFromQuotedNumbers(o, schema)).toEqual([{ path: 'ratio', from: '0.5', to: 0.5 }]);
    expect(o).toEqual({ ratio: 0.5, count: '1.5' });
  });

  it('reports each conversion on the entry, and the entry as changed', async () => {
    const r = importObjects([{ source: 't.yaml', text: 'apiVersion: apps.openshift.io/v1\nkind: DeploymentConfig\nmetadata: {name: web}\nspec:\n  replicas: "2"\n  template: {spec: {containers: [{name: web, image: nginx}]}}\n' }], { params: new Map(), random: () => 0 });
    await pruneEntries(r.entries, undefined);
    const entry = r.entries[0];
    expect(entry?.outcome).toBe('changed');
    expect((entry?.object?.['spec'] as Record<string, unknown>)['replicas']).toBe(2);
    expect(entry?.changes).toContain('spec.replicas: "2" → 2 (a number written as a string, as a Template\'s "${NAME}" writes one: OpenShift up to 3.7 read it as the number; later versions and Kubernetes refuse it. In a Template, ${{NAME}} substitutes a number)');
  });
});

// What OpenShift refused as well: a string where a boolean goes (`test: 'true'`, fabric8's
// "invalid DC" fixture), or where a number goes but the string is not one. The CRD path answers a
// server-side apply of it with a 500 ("failed to create typed patch object"); import says it first.
describe('scalarTypeProblems', () => {
  it('names each string where the schema wants a boolean, or a number it does not spell', () => {
    const dc = { spec: { test: 'true', paused: false, replicas: 'ten', revisionHistoryLimit: 3, template: { spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 'http' }] }] } } } };
    expect(scalarTypeProblems(dc, dcSchema)).toEqual([
      'spec.test: "true" is a string where a boolean goes (OpenShift refused it too): write it without quotes; in a Template, ${{NAME}} substitutes a boolean',
      'spec.replicas: "ten" is a string where an integer goes (OpenShift refused it too)',
      'spec.template.spec.containers[0].ports[0].containerPort: "http" is a string where an integer goes (OpenShift refused it too)',
    ]);
  });

  // Real cases: a Template's `${{IMPORT_POLICY_SCHEDULED}}` given 1 (sogis matomo), a label
  // `shared: true` (bcgov TransAction), `value: 8080` in an env entry. Go's decoder took none of
  // them, nor did the one OpenShift used before 3.8; a server-side apply answers each with a 500.
  it('names numbers and booleans where a string goes, numbers where a boolean goes, and lists or maps where the other goes', () => {
    const dc = {
      metadata: { name: 'web', labels: { shared: true, app: 'web' }, annotations: { port: 8080 } },
      spec: {
        paused: 1, replicas: true, selector: ['app'],
        strategy: { rollingParams: { maxSurge: 1, maxUnavailable: '25%' } },
        template: {
          metadata: { labels: 'web' },
          spec: { containers: [{ name: 'c', image: 'i', command: '/bin/sh', env: [{ name: 'PORT', value: 8080 }, { name: 'X', value: null }],
            resources: { limits: { cpu: 1, memory: '1Gi' } } }] },
        },
      },
    };
    expect(scalarTypeProblems(dc, dcSchema)).toEqual([
      'metadata.labels["shared"]: true is a boolean where a string goes (OpenShift refused it too): quote it ("true"); in a Template, write "${NAME}" for a string',
      'metadata.annotations["port"]: 8080 is a number where a string goes (OpenShift refused it too): quote it ("8080"); in a Template, write "${NAME}" for a string',
      'spec.paused: 1 is a number where a boolean goes (OpenShift refused it too)',
      'spec.replicas: true is a boolean where an integer goes (OpenShift refused it too)',
      'spec.selector is a list where a map goes (OpenShift refused it too)',
      'spec.template.metadata.labels: "web" is a string where a map goes (OpenShift refused it too)',
      'spec.template.spec.containers[0].command: "/bin/sh" is a string where a list goes (OpenShift refused it too)',
      'spec.template.spec.containers[0].env[0].value: 8080 is a number where a string goes (OpenShift refused it too): quote it ("8080"); in a Template, write "${NAME}" for a string',
    ]);
  });

  // ditaba/openshift-config-yaml: a Secret's `data` written in clear text (`database-user:
  // postgres_user`). Go decodes such a value as base64 and refused it; a server-side apply answers
  // it with a 500 ("failed to convert new object ... illegal base64 data at input byte 8").
  it('names a value of a base64 field (a Secret\'s data) that is not base64, without printing it, and takes padded and line-wrapped base64', () => {
    const secretSchema: SchemaNode = { p: { data: { a: 5 }, stringData: { a: 4 } } };
    const secret = { data: { user: 'postgres_user', ok: 'cG9zdGdyZXM=', wrapped: 'cG9z\ndGdy\nZXM=', empty: '', short: 'db' }, stringData: { plain: 'postgres_user' } };
    expect(scalarTypeProblems(secret, secretSchema)).toEqual([
      'data["user"] is not base64 (OpenShift refused it too): base64-encode it, or move it to stringData',
      'data["short"] is not base64 (OpenShift refused it too): base64-encode it, or move it to stringData',
    ]);
    expect(scalarTypeProblems({ data: { n: 5 } }, secretSchema)).toEqual(['data["n"]: 5 is a number where a base64 string goes (OpenShift refused it too)']);
    // In a Secret no value is printed (pruneEntries redacts by kind).
    expect(scalarTypeProblems({ stringData: { password: 123456 } }, secretSchema, '', true)).toEqual(['stringData["password"] is a number where a string goes (OpenShift refused it too)']);
  });

  it('judges the typed fields of an open subtree (an ImageStream tag\'s importPolicy) and leaves its unknown fields alone', () => {
    const isSchema = bundledSchema('image.openshift.io/v1', 'ImageStream') as SchemaNode;
    const stream = { spec: { tags: [{ name: 'latest', importPolicy: { scheduled: 1, insecure: 'false', futureField: 7 } }] } };
    expect(scalarTypeProblems(stream, isSchema)).toEqual([
      'spec.tags[0].importPolicy.scheduled: 1 is a number where a boolean goes (OpenShift refused it too)',
      'spec.tags[0].importPolicy.insecure: "false" is a string where a boolean goes (OpenShift refused it too): write it without quotes; in a Template, ${{NAME}} substitutes a boolean',
    ]);
    expect(pruneUnknownFields(stream, isSchema)).toEqual([]);
    expect(stream.spec.tags[0]?.importPolicy.futureField).toBe(7);
  });

  it('stops the import with every such problem, before anything is printed or applied', async () => {
    const r = importObjects([{ source: 't.yaml', text: 'apiVersion: apps.openshift.io/v1\nkind: DeploymentConfig\nmetadata: {name: web}\nspec:\n  test: "true"\n  template: {spec: {containers: [{name: web, image: nginx}]}}\n' }], { params: new Map(), random: () => 0 });
    await expect(pruneEntries(r.entries, undefined)).rejects.toThrow('t.yaml (document 1): deploymentconfig.apps.openshift.io/web: spec.test: "true" is a string where a boolean goes');
  });
});
