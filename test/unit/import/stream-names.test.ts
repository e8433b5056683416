import { describe, it, expect } from '@jest/globals';
import { importObjects } from '../../../src/import/pipeline.js';
import type { ImportEntry, ImportResult, KubeObject } from '../../../src/import/types.js';

const run = (objects: unknown[]): ImportResult =>
  importObjects([{ source: 'syndesis.json', text: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }) }], { params: new Map(), random: () => 0 });
const entry = (r: ImportResult, kind: string): ImportEntry => r.entries.find((e) => e.kind === kind && e.outcome !== 'skipped')!;
const get = (o: unknown, ...keys: (string | number)[]): unknown => keys.reduce((v: unknown, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

// OpenShift named an ImageStream after an image repository, where `_` is allowed
// (syndesis's `postgres_exporter`); a custom resource's name must be a DNS subdomain.
describe('ImageStream names OpenShift took and a CRD cannot', () => {
  const stream = {
    apiVersion: 'v1', kind: 'ImageStream', metadata: { name: 'postgres_exporter' },
    spec: { tags: [{ name: 'v0.4.7', from: { kind: 'DockerImage', name: 'wrouesnel/postgres_exporter:v0.4.7' } }, { name: 'latest', from: { kind: 'ImageStreamTag', name: 'postgres_exporter:v0.4.7' } }] },
  };
  const dc = {
    apiVersion: 'v1', kind: 'DeploymentConfig', metadata: { name: 'db' },
    spec: {
      replicas: 1, selector: { app: 'db' },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'exporter', image: 'x' }] } },
      triggers: [
        { type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['exporter'], from: { kind: 'ImageStreamTag', name: 'postgres_exporter:v0.4.7' } } },
        { type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['exporter'], from: { kind: 'ImageStreamTag', namespace: 'shared', name: 'postgres_exporter:v1' } } },
      ],
    },
  };
  const deployment = {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', annotations: { 'image.openshift.io/triggers': '[{"from":{"kind":"ImageStreamTag","name":"postgres_exporter:v0.4.7"},"fieldPath":"spec.template.spec.containers[?(@.name==\\"web\\")].image"}]' } },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'x' }] } } },
  };
  const r = run([stream, dc, deployment]);

  it('renames the stream to a DNS subdomain and says so', () => {
    const is = entry(r, 'ImageStream');
    expect([is.name, is.ref, get(is.object, 'metadata', 'name')]).toEqual(['postgres-exporter', 'imagestream.image.openshift.io/postgres-exporter', 'postgres-exporter']);
    expect(is.changes).toContain('metadata.name: postgres_exporter → postgres-exporter (a custom resource\'s name must be a DNS subdomain; OpenShift named an ImageStream as an image repository, where "_" is allowed)');
    expect(get(is.object, 'spec', 'tags', 1, 'from', 'name')).toBe('postgres-exporter:v0.4.7');
  });

  it('rewrites the references of this import to it, and leaves another namespace\'s stream of that name alone', () => {
    const d = entry(r, 'DeploymentConfig');
    expect(get(d.object, 'spec', 'triggers', 0, 'imageChangeParams', 'from', 'name')).toBe('postgres-exporter:v0.4.7');
    expect(get(d.object, 'spec', 'triggers', 1, 'imageChangeParams', 'from', 'name')).toBe('postgres_exporter:v1');
    expect(d.changes).toContain('spec.triggers[0].imageChangeParams.from.name: postgres_exporter:v0.4.7 → postgres-exporter:v0.4.7 (the ImageStream postgres_exporter of this import is renamed)');
    const dep = entry(r, 'Deployment');
    expect(JSON.parse(String(get(dep.object, 'metadata', 'annotations', 'image.openshift.io/triggers')))[0].from.name).toBe('postgres-exporter:v0.4.7');
    expect(dep.outcome).toBe('changed');
  });

  it('leaves a name that is already a DNS subdomain, and one no rename can make valid, to the server', () => {
    const plain = run([{ ...stream, metadata: { name: 'postgres-exporter' } }]);
    expect(entry(plain, 'ImageStream').changes.filter((c) => c.startsWith('metadata.name'))).toEqual([]);
    const taken = run([stream, { ...stream, metadata: { name: 'postgres-exporter' } }]);
    expect(taken.entries.filter((e) => e.kind === 'ImageStream').map((e) => e.name).sort()).toEqual(['postgres-exporter', 'postgres_exporter']);
  });
});
