import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { bundledSchema, pruneEntries, pruneUnknownFields, SchemaUnavailableError, type SchemaNode, type SchemaSource } from '../../../src/import/prune.js';
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
