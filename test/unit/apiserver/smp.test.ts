import { describe, expect, it } from '@jest/globals';
import { deploymentConfigSchema } from '../../../src/apiserver/schema.js';
import { PatchError, strategicMergePatch } from '../../../src/apiserver/smp.js';

const dc = () => ({
  apiVersion: 'apps.openshift.io/v1',
  kind: 'DeploymentConfig',
  metadata: { name: 'web', labels: { app: 'web', tier: 'fe' }, finalizers: ['a'] },
  spec: {
    replicas: 2,
    triggers: [{ type: 'ConfigChange' }, { type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['web'], from: { kind: 'ImageStreamTag', name: 'web:latest' } } }],
    strategy: { type: 'Rolling', rollingParams: { maxSurge: '25%' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          { name: 'web', image: 'web:1', args: ['a', 'b'], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], ports: [{ containerPort: 8080, protocol: 'TCP' }] },
          { name: 'side', image: 'side:1' },
        ],
        volumes: [{ name: 'data', emptyDir: {} }, { name: 'cfg', configMap: { name: 'cfg' } }],
      },
    },
  },
});
const patch = (p: unknown) => strategicMergePatch(dc(), p, deploymentConfigSchema());
const containers = (o: ReturnType<typeof dc>) => o.spec.template.spec.containers;

describe('strategic merge patch of a DeploymentConfig (pod template merge keys)', () => {
  it('merges containers by name: `oc set image` changes one image and keeps the others', () => {
    const out = patch({ spec: { template: { spec: { containers: [{ name: 'side', image: 'side:2' }] } } } });
    expect(containers(out).map((c) => [c.name, c.image])).toEqual([['web', 'web:1'], ['side', 'side:2']]);
    expect(containers(out)[0]!.env).toHaveLength(2);
  });

  it('merges env by name, deletes with $patch: delete and orders with $setElementOrder (what `oc set env` sends)', () => {
    const out = patch({
      spec: { template: { spec: {
        containers: [{
          name: 'web',
          env: [{ name: 'C', value: '3' }, { name: 'A', value: 'x' }, { name: 'B', $patch: 'delete' }],
        }],
      } } },
    });
    expect(containers(out)[0]!.env).toEqual([{ name: 'A', value: 'x' }, { name: 'C', value: '3' }]);
    const ordered = patch({
      spec: { template: { spec: { containers: [{ name: 'web', '$setElementOrder/env': [{ name: 'C' }, { name: 'B' }, { name: 'A' }], env: [{ name: 'C', value: '3' }] }] } } },
    });
    expect(containers(ordered)[0]!.env!.map((e) => e.name)).toEqual(['C', 'B', 'A']);
  });

  it('merges volumes by name and ports by containerPort; replaces lists without a merge strategy (args)', () => {
    const out = patch({ spec: { template: { spec: {
      volumes: [{ name: 'logs', emptyDir: {} }, { name: 'cfg', configMap: { name: 'cfg2' } }],
      containers: [{ name: 'web', ports: [{ containerPort: 9090 }], args: ['c'] }],
    } } } });
    expect(out.spec.template.spec.volumes.map((v) => v.name)).toEqual(['data', 'cfg', 'logs']);
    expect(out.spec.template.spec.volumes[1]).toEqual({ name: 'cfg', configMap: { name: 'cfg2' } });
    expect(containers(out)[0]!.ports!.map((p) => p.containerPort)).toEqual([8080, 9090]);
    expect(containers(out)[0]!.args).toEqual(['c']);
  });

  it('null deletes a field; $patch: delete on a map deletes it; $patch: replace replaces a map', () => {
    const out = patch({ metadata: { labels: { tier: null } }, spec: { strategy: { rollingParams: { $patch: 'delete' } } } });
    expect(out.metadata.labels).toEqual({ app: 'web' });
    expect(out.spec.strategy).toEqual({ type: 'Rolling' });
    const replaced = patch({ metadata: { labels: { $patch: 'replace', only: 'this' } } });
    expect(replaced.metadata.labels).toEqual({ only: 'this' });
  });

  it('replaces a merged list with a $patch: replace element', () => {
    const out = patch({ spec: { template: { spec: { containers: [{ $patch: 'replace' }, { name: 'solo', image: 's:1' }] } } } });
    expect(containers(out)).toEqual([{ name: 'solo', image: 's:1' }]);
  });

  it('triggers have no merge key in OpenShift: the list is replaced (`oc set triggers` sends all)', () => {
    const out = patch({ spec: { triggers: [{ type: 'ConfigChange' }] } });
    expect(out.spec.triggers).toEqual([{ type: 'ConfigChange' }]);
  });

  it('merges primitive lists with the merge strategy and deletes with $deleteFromPrimitiveList', () => {
    const out = patch({ metadata: { finalizers: ['b'] } });
    expect(out.metadata.finalizers).toEqual(['a', 'b']);
    const removed = patch({ metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } });
    expect(removed.metadata.finalizers).toEqual([]);
  });

  it('$retainKeys drops the keys it does not list (volume source switch)', () => {
    const out = patch({ spec: { template: { spec: { volumes: [{ name: 'data', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/x' } }] } } } });
    expect(out.spec.template.spec.volumes[0]).toEqual({ name: 'data', hostPath: { path: '/x' } });
    expect(() => patch({ spec: { template: { spec: { volumes: [{ name: 'data', $retainKeys: ['name'], hostPath: { path: '/x' } }] } } } })).toThrow('the field "hostPath" is not in $retainKeys ["name"]');
  });

  it('$retainKeys does not need to list a key the patch sets to null: `oc set volumes --overwrite` from emptyDir to a configMap (oc 4.x body, -v=8)', () => {
    const out = patch(JSON.parse('{"spec":{"template":{"spec":{"$setElementOrder/volumes":[{"name":"data"},{"name":"cfg"}],"volumes":[{"$retainKeys":["configMap","name"],"configMap":{"defaultMode":420,"name":"cfg"},"emptyDir":null,"name":"data"}]}}}}'));
    expect(out.spec.template.spec.volumes).toEqual([{ name: 'data', configMap: { defaultMode: 420, name: 'cfg' } }, { name: 'cfg', configMap: { name: 'cfg' } }]);
  });

  it('rejects an element without the merge key and an unknown $patch, naming them', () => {
    expect(() => patch({ spec: { template: { spec: { containers: [{ image: 'x' }] } } } })).toThrow(/does not contain declared merge key: name/);
    expect(() => patch({ spec: { $patch: 'frobnicate' } })).toThrow(PatchError);
  });

  // The front is one Node.js process: a patch that takes quadratic time stops every other request
  // for as long. A 3 MiB body holds ~100000 entries; 30000 took 17 s per list before (n × m key
  // comparisons), so each merge here is one pass with an index.
  it('a patch of 30000 entries onto 30000 stored ones merges each by its key in one pass (env by name, finalizers, $deleteFromPrimitiveList, $retainKeys)', () => {
    const n = 30000;
    const big = dc();
    const stored = Array.from({ length: n }, (_, i) => ({ name: `E${i}`, value: 'old' }));
    big.spec.template.spec.containers[0]!.env = stored;
    big.metadata.finalizers = Array.from({ length: n }, (_, i) => `f${i}`);
    const schema = deploymentConfigSchema();

    const env = Array.from({ length: n }, (_, i) => ({ name: `E${n - 1 - i}`, value: `new${i}` }));
    env.push({ name: 'E0', $patch: 'delete' } as unknown as { name: string; value: string });
    const out = strategicMergePatch(big, {
      metadata: { finalizers: Array.from({ length: n }, (_, i) => `f${i + n / 2}`) },
      spec: { template: { spec: { containers: [{ name: 'web', env }] } } },
    }, schema);
    const merged = out.spec.template.spec.containers[0]!.env!;
    expect(merged).toHaveLength(n - 1);
    expect(merged[0]).toEqual({ name: 'E1', value: `new${n - 2}` });
    expect(merged[n - 2]).toEqual({ name: `E${n - 1}`, value: 'new0' });
    expect(out.metadata.finalizers).toHaveLength(n + n / 2);
    expect(out.metadata.finalizers!.at(-1)).toBe(`f${n + n / 2 - 1}`);

    const removed = strategicMergePatch(big, { metadata: { '$deleteFromPrimitiveList/finalizers': Array.from({ length: n - 1 }, (_, i) => `f${i + 1}`) } }, schema);
    expect(removed.metadata.finalizers).toEqual(['f0']);

    const keys = Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    const retained = strategicMergePatch({ ...big, metadata: { ...big.metadata, labels: keys } }, { metadata: { labels: { $retainKeys: Object.keys(keys).slice(1), k1: 'w' } } }, schema);
    expect(Object.keys(retained.metadata.labels!)).toHaveLength(n - 1);
    expect(retained.metadata.labels!.k1).toBe('w');
  });

  it('a key stored twice (OpenShift took env lists that repeat a name) resolves to its first live entry: a delete takes the first, the next patch of that key merges into the second', () => {
    const twice = dc();
    twice.spec.template.spec.containers[0]!.env = [{ name: 'A', value: '1' }, { name: 'A', value: '2' }, { name: 'B', value: '3' }];
    const out = strategicMergePatch(twice, { spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'A', $patch: 'delete' }, { name: 'A', value: 'x' }] }] } } } }, deploymentConfigSchema());
    expect(containers(out)[0]!.env).toEqual([{ name: 'A', value: 'x' }, { name: 'B', value: '3' }]);
  });

  it('does not mutate its inputs', () => {
    const original = dc();
    const p = { spec: { template: { spec: { containers: [{ name: 'web', image: 'web:9' }] } } } };
    const before = JSON.stringify([original, p]);
    strategicMergePatch(original, p, deploymentConfigSchema());
    expect(JSON.stringify([original, p])).toBe(before);
  });
});
