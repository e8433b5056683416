import { describe, it, expect } from '@jest/globals';
import { ApiError } from '../../../src/controller/errors.js';
import { applyEntries, type ObjectApplier } from '../../../src/import/apply.js';
import { importObjects } from '../../../src/import/pipeline.js';
import type { ImportEntry, KubeObject } from '../../../src/import/types.js';

/** A cluster that serves `served` kinds and rejects objects named in `reject` (dry run or real). */
function fakeCluster(opts: { served?: string[]; namespaced?: Record<string, boolean>; reject?: Record<string, string>; failReal?: string[] } = {}) {
  const served = new Set(opts.served ?? ['v1/ConfigMap', 'v1/Namespace', 'v1/Service', 'apps.openshift.io/v1/DeploymentConfig']);
  const calls: { name: string; namespace?: unknown; dryRun: boolean }[] = [];
  const applier: ObjectApplier = {
    async resource(apiVersion, kind) {
      return served.has(`${apiVersion}/${kind}`) ? { namespaced: opts.namespaced?.[kind] ?? kind !== 'Namespace' } : undefined;
    },
    async apply(obj: KubeObject, dryRun: boolean) {
      const meta = obj.metadata as Record<string, unknown>;
      const name = meta['name'] as string;
      calls.push({ name, namespace: meta['namespace'], dryRun });
      const reason = opts.reject?.[name];
      if (reason) throw new ApiError(reason, 422, 'Invalid');
      if (!dryRun && opts.failReal?.includes(name)) throw new ApiError(`configmaps "${name}" is forbidden: exceeded quota`, 403, 'Forbidden');
      return { ...obj, metadata: { ...meta, uid: 'u' } };
    },
    async create(obj: KubeObject, dryRun: boolean) {
      const meta = obj.metadata as Record<string, unknown>;
      calls.push({ name: `create ${String(meta['generateName'])}`, namespace: meta['namespace'], dryRun });
      return { ...obj, metadata: { ...meta, name: dryRun ? undefined : `${String(meta['generateName'])}x7k2p`, uid: 'u' } };
    },
  };
  return { applier, calls };
}

const entries = (yaml: string): ImportEntry[] => importObjects([{ source: 'in.yaml', text: yaml }], { params: new Map(), random: () => 0 }).entries;
const cm = (name: string, ns?: string) => `---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}${ns ? `, namespace: ${ns}` : ''}}\n`;

// What kube-apiserver checks of an RC's template (ValidatePodTemplateSpecForRC) and OpenShift's
// API checked of every DC, but the CRD cannot: real exports held an empty secretKeyRef name, an
// envFrom naming nothing and a volumeMount of no volume. Such a DC was refused by OpenShift; here
// it applied, and every rollout failed creating its RC.
describe('applyEntries: the pod template of a DC, checked as its ReplicationControllers will be', () => {
  const dc = (name: string, container: string, triggers = '') => `---\napiVersion: apps.openshift.io/v1\nkind: DeploymentConfig\nmetadata: {name: ${name}}\n`
    + `spec:\n  selector: {app: ${name}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec:\n      containers: [${container}]\n${triggers}`;
  function probingCluster(refuse: (rc: KubeObject) => Array<[string, string]> | undefined) {
    const probes: KubeObject[] = [];
    const { applier, calls } = fakeCluster();
    applier.create = async (obj: KubeObject) => {
      probes.push(obj);
      const why = refuse(obj);
      if (why) {
        const causes = why.map(([field, message]) => ({ field, message, reason: 'FieldValueInvalid' }));
        const list = why.map(([field, message]) => `${field}: ${message}`);
        throw new ApiError(`ReplicationController "${String((obj.metadata as Record<string, unknown>)['generateName'])}q8x2z" is invalid: `
          + `${list.length === 1 ? list[0] : `[${list.join(', ')}]`}`, 422, 'Invalid', { causes });
      }
      return obj;
    };
    return { applier, calls, probes };
  }

  it('dry-runs each DC\'s template as an RC after the DC itself; a refusal stops the import naming the DC and the field, and nothing is written', async () => {
    const { applier, calls, probes } = probingCluster((rc) => (JSON.stringify(rc).includes('"name":""') ? [['spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef.name', 'Invalid value: "": a lowercase RFC 1123 subdomain must consist of ...']] : undefined));
    const s = await applyEntries(entries(dc('good', '{name: c, image: nginx}') + dc('bad', '{name: c, image: nginx, env: [{name: P, valueFrom: {secretKeyRef: {name: "", key: p}}}]}') + cm('a')), applier, { namespace: 'team', dryRun: false });
    expect(s.stoppedBeforeApply).toBe(true);
    expect(calls.every((c) => c.dryRun)).toBe(true);
    expect(s.outcomes.map((o) => [o.entry.name, o.result, o.message])).toEqual([
      ['good', 'not-applied', undefined],
      ['bad', 'failed', 'DeploymentConfig.apps.openshift.io "bad" is invalid: spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef.name: Invalid value: "": a lowercase RFC 1123 subdomain must consist of ... '
        + '(its pod template, checked as the template of the ReplicationControllers it makes: none of them could be created; OpenShift\'s API checked a DeploymentConfig\'s template the same way)'],
      ['a', 'not-applied', undefined],
    ]);
    expect(probes.map((p) => [p.kind, (p.metadata as Record<string, unknown>)['generateName'], (p.metadata as Record<string, unknown>)['namespace'], (p['spec'] as Record<string, unknown>)['replicas']]))
      .toEqual([['ReplicationController', 'good-', 'team', 0], ['ReplicationController', 'bad-', 'team', 0]]);
  });

  it('lists several refused fields as kube-apiserver does, and without causes quotes the server whole', async () => {
    const refusal = async (throwIt: () => never) => {
      const { applier } = fakeCluster();
      applier.create = async () => throwIt();
      const s = await applyEntries(entries(dc('web', '{name: c, image: nginx}')), applier, { namespace: 'team', dryRun: true });
      return s.outcomes[0]?.message?.replace(/ \(its pod template.*$/, '');
    };
    expect(await refusal(() => {
      throw new ApiError('ReplicationController "web-q8x2z" is invalid: [x, y]', 422, 'Invalid', { causes: [
        { field: 'spec.template.spec.volumes[0].name', message: 'Required value' }, { field: 'spec.template.spec.containers[0].image', message: 'Required value' }] });
    })).toBe('DeploymentConfig.apps.openshift.io "web" is invalid: [spec.template.spec.volumes[0].name: Required value, spec.template.spec.containers[0].image: Required value]');
    expect(await refusal(() => { throw new ApiError('ReplicationController "web-q8x2z" is invalid: something', 422, 'Invalid'); }))
      .toBe('DeploymentConfig.apps.openshift.io "web" is invalid: the server said: ReplicationController "web-q8x2z" is invalid: something');
  });

  it('fills an empty image that an ImageChange trigger sets with OpenShift\'s placeholder, as its validation did; an empty image no trigger sets stays empty', async () => {
    const { applier, probes } = probingCluster(() => undefined);
    const triggers = '  triggers:\n  - type: ImageChange\n    imageChangeParams: {containerNames: [web], from: {kind: ImageStreamTag, name: "web:latest"}}\n';
    await applyEntries(entries(dc('web', '{name: web, image: ""}, {name: side, image: ""}', triggers)), applier, { namespace: 'team', dryRun: true });
    const containers = ((probes[0]?.['spec'] as Record<string, any>)['template'].spec.containers as { name: string; image: string }[]);
    expect(containers.map((c) => [c.name, c.image])).toEqual([['web', 'unset'], ['side', '']]);
  });

  it('does not stop the import when the template cannot be checked (no right to create RCs), only when it is refused', async () => {
    const { applier } = fakeCluster();
    applier.create = async () => { throw new ApiError('replicationcontrollers is forbidden: User "dev" cannot create resource "replicationcontrollers"', 403, 'Forbidden'); };
    const s = await applyEntries(entries(dc('web', '{name: c, image: nginx}')), applier, { namespace: 'team', dryRun: false });
    expect(s.outcomes.map((o) => o.result)).toEqual(['applied']);
  });
});

describe('applyEntries', () => {
  it('dry-runs everything, then applies everything, into the default namespace', async () => {
    const { applier, calls } = fakeCluster();
    const s = await applyEntries(entries(cm('a') + cm('b')), applier, { namespace: 'team', dryRun: false });
    expect(s.stoppedBeforeApply).toBe(false);
    expect(s.outcomes.map((o) => o.result)).toEqual(['applied', 'applied']);
    expect(calls).toEqual([
      { name: 'a', namespace: 'team', dryRun: true }, { name: 'b', namespace: 'team', dryRun: true },
      { name: 'a', namespace: 'team', dryRun: false }, { name: 'b', namespace: 'team', dryRun: false },
    ]);
  });

  it('applies nothing when the server rejects any object, and names it', async () => {
    const { applier, calls } = fakeCluster({ reject: { b: 'ConfigMap "b" is invalid: data[x y]: Invalid value' } });
    const s = await applyEntries(entries(cm('a') + cm('b') + cm('c')), applier, { namespace: 'team', dryRun: false });
    expect(s.stoppedBeforeApply).toBe(true);
    expect(calls.every((c) => c.dryRun)).toBe(true);
    expect(s.outcomes.map((o) => [o.entry.name, o.result, o.message])).toEqual([
      ['a', 'not-applied', undefined],
      ['b', 'failed', 'Error from server (Invalid): ConfigMap "b" is invalid: data[x y]: Invalid value'],
      ['c', 'not-applied', undefined],
    ]);
  });

  it('stops before writing when a kind is not served, but skips an ImageStream without its CRD', async () => {
    const is = '---\napiVersion: image.openshift.io/v1\nkind: ImageStream\nmetadata: {name: web}\n';
    const { applier, calls } = fakeCluster();
    const ok = await applyEntries(entries(cm('a') + is), applier, { namespace: 'n', dryRun: false });
    expect(ok.outcomes.map((o) => [o.entry.ref, o.result])).toEqual([['configmap/a', 'applied'], ['imagestream.image.openshift.io/web', 'skipped']]);
    expect(ok.outcomes[1]?.entry.hint).toMatch(/crds\/imagestream.yaml/);
    expect(calls.map((c) => c.name)).toEqual(['a', 'a']);

    const crd = '---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n';
    const { applier: a2, calls: c2 } = fakeCluster();
    const bad = await applyEntries(entries(cm('a') + crd), a2, { namespace: 'n', dryRun: false });
    expect(bad.stoppedBeforeApply).toBe(true);
    expect(bad.outcomes[1]?.message).toBe("the server doesn't have a resource type for apiVersion example.com/v1 kind Widget");
    expect(c2).toEqual([]);
  });

  it('--dry-run=server never writes', async () => {
    const { applier, calls } = fakeCluster();
    const s = await applyEntries(entries(cm('a')), applier, { namespace: 'n', dryRun: true });
    expect(s.outcomes.map((o) => o.result)).toEqual(['applied']);
    expect(calls).toEqual([{ name: 'a', namespace: 'n', dryRun: true }]);
  });

  it('after validation, reports a failing object and applies the others', async () => {
    const { applier } = fakeCluster({ failReal: ['b'] });
    const s = await applyEntries(entries(cm('a') + cm('b') + cm('c')), applier, { namespace: 'n', dryRun: false });
    expect(s.stoppedBeforeApply).toBe(false);
    expect(s.outcomes.map((o) => o.result)).toEqual(['applied', 'failed', 'applied']);
  });

  it('creates a Namespace of the import first and tolerates its absence during the dry run', async () => {
    const ns = '---\napiVersion: v1\nkind: Namespace\nmetadata: {name: fresh}\n';
    const { applier, calls } = fakeCluster();
    // The fake answers NotFound for objects in "fresh" during the dry run, as a real server does.
    const inner = applier.apply;
    applier.apply = async (obj, dryRun) => {
      if (dryRun && (obj.metadata as Record<string, unknown>)['namespace'] === 'fresh') throw new ApiError('namespaces "fresh" not found', 404, 'NotFound');
      return inner(obj, dryRun);
    };
    const text = `${cm('a')}${ns}`;
    const es = entries(text);
    // Template-style namespace references keep their namespace; emulate one by setting it on the object.
    (es[0]?.object?.metadata as Record<string, unknown>)['namespace'] = 'fresh';
    const s = await applyEntries(es, applier, { namespace: 'n', dryRun: false });
    expect(s.outcomes.map((o) => o.result)).toEqual(['applied', 'applied']);
    expect(calls.filter((c) => !c.dryRun).map((c) => c.name)).toEqual(['fresh', 'a']);
  });
});

describe('objects with only generateName', () => {
  it('are created (dry run first), and the outcome carries the generated name', async () => {
    const { applier, calls } = fakeCluster();
    const e = entries('apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: job-}\n');
    expect(e[0]?.ref).toBe('configmap/job-<generated>');
    const s = await applyEntries(e, applier, { namespace: 'team', dryRun: false });
    expect(calls).toEqual([{ name: 'create job-', namespace: 'team', dryRun: true }, { name: 'create job-', namespace: 'team', dryRun: false }]);
    expect(s.outcomes.map((o) => [o.result, o.created])).toEqual([['applied', 'job-x7k2p']]);
  });
});
