import { describe, it, expect } from '@jest/globals';
import yaml from 'js-yaml';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../../src/cli/index.js';
import { parseImportDryRun, runImport, type ImportDeps, type ImportOptions } from '../../../src/cli/import.js';
import type { ObjectApplier } from '../../../src/import/apply.js';
import type { SchemaSource } from '../../../src/import/prune.js';
import { readInputs } from '../../../src/import/read.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/import');
const fx = (name: string) => path.join(dir, name);

function harness(applier?: ObjectApplier, schemas?: SchemaSource) {
  let out = '';
  let err = '';
  const deps: ImportDeps = {
    out: { write: (s: string) => { out += s; } },
    err: { write: (s: string) => { err += s; } },
    readInputs: (files) => readInputs(files, async () => 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: from-stdin}\n'),
    readParamFile: async () => 'APP_DOMAIN=file.example\nNAME="from-file"\n',
    makeApplier: async () => {
      if (!applier) throw new Error('no cluster in this test');
      return { applier, namespace: 'ctx-ns' };
    },
    makeSchemaSource: async () => schemas,
    random: () => 0,
  };
  return { deps, out: () => out, err: () => err };
}
const opts = (o: Partial<ImportOptions>): ImportOptions => ({ files: [], params: [], apply: false, dryRun: 'none', ...o });

describe('dcctl import (command)', () => {
  it('prints only the objects on stdout and the report on stderr', async () => {
    const h = harness();
    expect(await runImport(opts({ files: [fx('oc-get-all-list.yaml')] }), h.deps)).toBe(0);
    const docs = yaml.loadAll(h.out()) as { kind: string }[];
    expect(docs.map((d) => d.kind)).toEqual(['DeploymentConfig', 'ImageStream', 'Service']);
    expect(h.err()).toMatch(/^import: 7 object\(s\): 0 imported unchanged, 3 changed, 4 skipped\n/);
    expect(h.err()).toMatch(/route.route.openshift.io\/web: skipped: Route/);
  });

  it('--param overrides --param-file, and -o json prints a List', async () => {
    const h = harness();
    const code = await runImport(opts({ files: [fx('template.yaml')], paramFile: 'p.env', params: ['NAME=from-flag'], output: 'json' }), h.deps);
    expect(code).toBe(0);
    const list = JSON.parse(h.out()) as { kind: string; items: { metadata: { name: string } }[] };
    expect(list.kind).toBe('List');
    expect(list.items.map((i) => i.metadata.name)).toEqual(['from-flag-db', 'from-flag', 'from-flag']);
    expect(h.err()).toMatch(/template shop says:\n {4}Created from-flag with 2 replicas./);
  });

  it('bad input: every problem on stderr, nothing on stdout, exit 1', async () => {
    const h = harness();
    expect(await runImport(opts({ files: [fx('bad/unknown-apiversion.yaml'), fx('bad/missing-required.yaml'), fx('nope.yaml')] }), h.deps)).toBe(1);
    expect(h.out()).toBe('');
    expect(h.err()).toMatch(/nope.yaml: no such file or directory/);
    expect(h.err()).toMatch(/nothing was printed or applied/);

    const h2 = harness();
    expect(await runImport(opts({ files: [fx('bad/unknown-apiversion.yaml'), fx('bad/missing-required.yaml')] }), h2.deps)).toBe(1);
    expect(h2.err().split('\n').filter((l) => l.startsWith('error: '))).toEqual([
      expect.stringMatching(/unknown-apiversion.yaml \(document 2\): apiVersion "policy\/v1beta1" \(kind PodSecurityPolicy\)/),
      expect.stringMatching(/unknown-apiversion.yaml \(document 3\): unknown kind Frobnicator/),
      expect.stringMatching(/missing-required.yaml \(document 1, parameters\[0\]\): Template "needs-domain": parameter APP_DOMAIN is required/),
      'error: the input was not imported: nothing was printed or applied',
    ]);
    expect(h2.out()).toBe('');
  });

  it('a string where a boolean goes (`test: "true"`): refused before anything is printed or applied, naming the field', async () => {
    const h = harness();
    expect(await runImport(opts({ files: [fx('bad/quoted-boolean.yaml')] }), h.deps)).toBe(1);
    expect(h.out()).toBe('');
    expect(h.err().split('\n').filter((l) => l.startsWith('error: '))).toEqual([
      expect.stringMatching(/quoted-boolean.yaml \(document 1\): deploymentconfig.apps.openshift.io\/sample: spec.test: "true" is a string where a boolean goes \(OpenShift refused it too\)/),
      'error: the input was not imported: nothing was printed or applied',
    ]);
  });

  it('values of a JSON type their field does not take: refused before anything is printed or applied, each named with its field', async () => {
    const h = harness();
    expect(await runImport(opts({ files: [fx('bad/wrong-types.yaml')] }), h.deps)).toBe(1);
    expect(h.out()).toBe('');
    expect(h.err().split('\n').filter((l) => l.startsWith('error: '))).toEqual([
      expect.stringMatching(/wrong-types.yaml \(document 1, items\[0\]\): imagestream.image.openshift.io\/matomo: metadata.labels\["shared"\]: true is a boolean where a string goes \(OpenShift refused it too\): quote it \("true"\)/),
      expect.stringMatching(/wrong-types.yaml \(document 1, items\[0\]\): imagestream.image.openshift.io\/matomo: spec.tags\[0\].importPolicy.scheduled: 1 is a number where a boolean goes/),
      expect.stringMatching(/wrong-types.yaml \(document 1, items\[1\]\): deploymentconfig.apps.openshift.io\/matomo: spec.template.spec.containers\[0\].env\[0\].value: 8080 is a number where a string goes/),
      'error: the input was not imported: nothing was printed or applied',
    ]);
  });

  it('a ${{NAME}} given a value that is not JSON: the refused field names the parameter', async () => {
    const ok = harness();
    expect(await runImport(opts({ files: [fx('bad/not-json-param.yaml')], params: ['REPLICAS=3', 'TEST=true'] }), ok.deps)).toBe(0);
    const h = harness();
    expect(await runImport(opts({ files: [fx('bad/not-json-param.yaml')], params: ['REPLICAS=three', 'TEST=yes'] }), h.deps)).toBe(1);
    expect(h.out()).toBe('');
    expect(h.err().split('\n').filter((l) => l.startsWith('error: '))).toEqual([
      expect.stringMatching(/deploymentconfig.apps.openshift.io\/typed: spec.replicas: "three" is a string where an integer goes \(OpenShift refused it too\); it is the value of \$\{\{REPLICAS\}\}, which is not JSON, so it stayed a string, as oc process keeps it: give REPLICAS a JSON value$/),
      expect.stringMatching(/deploymentconfig.apps.openshift.io\/typed: spec.test: "yes" is a string where a boolean goes \(OpenShift refused it too\); it is the value of \$\{\{TEST\}\}, which is not JSON, so it stayed a string, as oc process keeps it: give TEST a JSON value$/),
      'error: the input was not imported: nothing was printed or applied',
    ]);
  });

  it('a Template label replaces labels that are not all strings, as oc process did, and the report says which went', async () => {
    const h = harness();
    expect(await runImport(opts({ files: [fx('labels-not-strings.yaml')] }), h.deps)).toBe(0);
    const printed = yaml.loadAll(h.out()) as { kind: string; metadata: { labels: Record<string, string> } }[];
    expect(printed.map((o) => [o.kind, o.metadata.labels])).toEqual([
      ['ImageStream', { template: 'api-deploy' }],
      ['DeploymentConfig', { app: 'api', template: 'api-deploy' }],
    ]);
    expect(h.err()).toContain('changed: metadata.labels: shared: true is not a string: as oc process did, the Template\'s labels replaced all the object\'s own labels, so it is created without app, shared');
  });

  it('--template picks the Templates of a catalogue to process; the others are reported skipped', async () => {
    let out = '';
    let err = '';
    const io = { out: { write: (t: string) => { out += t; } }, err: { write: (t: string) => { err += t; } } };
    expect(await main(['import', '-f', fx('template-catalogue.yaml'), '--template', 'web-persistent', '-p', 'SIZE=5Gi'], 'dcctl', io)).toBe(0);
    expect(yaml.load(out)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { storage: 'persistent', size: '5Gi' } });
    expect(err).toContain('template.template.openshift.io/web-ephemeral: skipped: not processed: --template names other Templates of the input');
    // Without it, both Templates make "settings": refused, naming them and the flag.
    const h = harness();
    expect(await runImport(opts({ files: [fx('template-catalogue.yaml')] }), h.deps)).toBe(1);
    expect(h.err()).toContain('Templates "web-ephemeral" and "web-persistent" both make it; choose one with --template NAME');
  });

  it('reads stdin with -f -', async () => {
    const h = harness();
    expect(await runImport(opts({ files: ['-'] }), h.deps)).toBe(0);
    expect(h.out()).toBe('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-stdin\n');
  });

  it('--apply prints kubectl-style results; rejection applies nothing and exits 1', async () => {
    const written: string[] = [];
    const applier: ObjectApplier = {
      resource: async () => ({ namespaced: true }),
      apply: async (obj, dryRun) => {
        const name = (obj.metadata as { name: string }).name;
        if (name === 'negative') throw new Error('DeploymentConfig.apps.openshift.io "negative" is invalid: spec.replicas: Invalid value: -1');
        if (!dryRun) written.push(name);
        return obj;
      },
      create: async (obj) => obj,
    };
    const ok = harness(applier);
    expect(await runImport(opts({ files: [fx('export.json')], apply: true }), ok.deps)).toBe(0);
    expect(ok.out()).toBe('deploymentconfig.apps.openshift.io/api serverside-applied\nservice/api serverside-applied\n');

    const bad = harness(applier);
    written.length = 0;
    expect(await runImport(opts({ files: [fx('bad/server-rejects.yaml')], apply: true }), bad.deps)).toBe(1);
    expect(written).toEqual([]);
    expect(bad.out()).toBe('');
    expect(bad.err()).toMatch(/deploymentconfig.apps.openshift.io\/negative: changed.*\n(.*\n)*    error: DeploymentConfig.apps.openshift.io "negative" is invalid: spec.replicas/);
    expect(bad.err()).toMatch(/nothing was applied\n$/);
  });

  it('--apply creates objects with only generateName and reports the generated names', async () => {
    const applier: ObjectApplier = {
      resource: async () => ({ namespaced: true }),
      apply: async () => { throw new Error('server-side apply needs a name'); },
      create: async (obj, dryRun) => ({ ...obj, metadata: { ...(obj.metadata as object), name: dryRun ? undefined : `${(obj.metadata as { generateName: string }).generateName}abcde` } }),
    };
    const h = harness(applier);
    expect(await runImport(opts({ files: [fx('generate-name.yaml')], apply: true }), h.deps)).toBe(0);
    expect(h.out()).toBe('deploymentconfig.apps.openshift.io/smoke-abcde created\nconfigmap/smoke-settings-abcde created\n');
    expect(h.err()).toContain('    created: deploymentconfig.apps.openshift.io/smoke-abcde\n');
    const dry = harness(applier);
    expect(await runImport(opts({ files: [fx('generate-name.yaml')], dryRun: 'server' }), dry.deps)).toBe(0);
    expect(dry.out()).toBe('deploymentconfig.apps.openshift.io/smoke-<generated> created (server dry run)\nconfigmap/smoke-settings-<generated> created (server dry run)\n');
  });

  it('prunes with the schema source, and not at all with --dry-run=client', async () => {
    let asked = 0;
    const schemas: SchemaSource = { schemaFor: async () => { asked++; return { p: { apiVersion: 0, kind: 0, metadata: { x: 1 }, spec: { p: { ports: { x: 1 }, selector: { a: 0 }, sessionAffinity: 0, type: 0, clusterIP: 0 } } } }; } };
    const h = harness(undefined, schemas);
    expect(await runImport(opts({ files: [fx('openshift3-export.yaml')] }), h.deps)).toBe(0);
    expect(h.err()).toContain('    changed: removed unknown field spec.deprecatedPublicIPs (not in the v1 Service schema; OpenShift ignored it)\n');
    expect(h.out()).not.toMatch(/deprecatedPublicIPs|portalIP|capabilities|requires|updatePercent|args:/);
    expect(asked).toBe(1);
    const offline = harness(undefined, schemas);
    expect(await runImport(opts({ files: [fx('openshift3-export.yaml')], dryRun: 'client' }), offline.deps)).toBe(0);
    expect(asked).toBe(1);
    expect(offline.err()).toContain('note: v1 Service: unknown fields were not removed (no cluster to read its schema from)');
  });

  it('parses --dry-run like kubectl', () => {
    expect([undefined, '', 'client', 'server', 'none'].map((v) => parseImportDryRun(v))).toEqual(['none', 'client', 'client', 'server', 'none']);
    expect(() => parseImportDryRun('maybe')).toThrow('Invalid dry-run value (maybe)');
  });

  it('is registered in the dcctl entry point', async () => {
    let out = '';
    let err = '';
    const code = await main(['import', '-f', fx('multi-doc.yaml'), '-o', 'json'], 'dcctl', { out: { write: (s: string) => { out += s; } }, err: { write: (s: string) => { err += s; } } });
    expect(code).toBe(0);
    expect((JSON.parse(out) as { items: unknown[] }).items).toHaveLength(3);
    expect(err).toMatch(/rolebinding.authorization.openshift.io\/edit-team: skipped/);
    // -f and --param repeat (dcctl otherwise lets a repeated flag override the earlier one).
    out = '';
    expect(await main(['import', '-f', fx('template.yaml'), '-f', fx('export.json'), '--param', 'APP_DOMAIN=a.example', '-p', 'NAME=twice', '-o', 'json'], 'dcctl',
      { out: { write: (s: string) => { out += s; } }, err: { write: () => undefined } })).toBe(0);
    expect((JSON.parse(out) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name)).toEqual(['twice-db', 'twice', 'twice', 'api', 'api']);
    const usage = await main(['import'], 'dcctl', { out: { write: () => undefined }, err: { write: (s: string) => { err = s; } } });
    expect(usage).toBe(1);
    expect(err).toMatch(/an input is required: -f FILE/);
  });
});
