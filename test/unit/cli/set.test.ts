import { describe, it, expect } from '@jest/globals';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { ApiError } from '../../../src/controller/errors.js';
import { formatError } from '../../../src/cli/errors.js';
import { main } from '../../../src/cli/index.js';
import { parseEnv, splitEnvironmentFromResources, selectsContainer, updateEnv } from '../../../src/cli/set/env.js';
import type { SetContext } from '../../../src/cli/set/ports.js';
import { triggersAction } from '../../../src/cli/set/triggers.js';
import { newFakeCluster } from '../../support/fakes.js';
import { Output } from '../../support/output.js';
import { NS, makeDc } from './fixtures.js';

/**
 * A SetContext over the fake cluster holding `dc`. `conflicts`: that many patches find the DC
 * changed by someone else in between (409 on their resourceVersion).
 */
function setHarness(dc: DeploymentConfig, opts: { conflicts?: number; sources?: Record<string, string[]>; stdin?: string } = {}) {
  const f = newFakeCluster();
  const name = dc.metadata.name!;
  f.dcs.put(dc, { keepResourceVersion: true });
  let conflicts = opts.conflicts ?? 0;
  f.api.onAction((a) => {
    if (a.resource === 'deploymentconfigs' && a.verb === 'patch' && conflicts > 0) {
      conflicts--;
      f.dcs.mutate(NS, name, () => undefined);
    }
  });
  const out = new Output();
  const err = new Output();
  const ctx: SetContext = {
    out, err, namespace: NS,
    getDc: (n) => f.dcClient.get(NS, n),
    patchDc: (n, patch, { dryRun }) => f.dcClient.patch(NS, n, patch, 'merge', { dryRun }),
    sourceKeys: async (kind, n) => {
      const keys = opts.sources?.[`${kind}/${n}`];
      if (!keys) throw new ApiError(`${kind}s "${n}" not found`, 404, 'NotFound');
      return keys;
    },
    readStdin: async () => opts.stdin ?? '',
  };
  const run = (args: string[]) => main(args, 'dcctl', { out, err, makeSetContext: async () => ctx });
  /** Each patch sent, dry runs included. */
  const patches = () => f.api.writes({ resource: 'deploymentconfigs' }).map((a) => ({ patch: a.body, dryRun: a.dryRun ?? false }));
  return { ctx, out, err, patches, run, stored: () => f.dcs.get(NS, name)! };
}

const twoContainers = (): DeploymentConfig => {
  const dc = makeDc('web');
  dc.spec.template!.spec!.containers = [
    { name: 'web', image: 'nginx:2', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] },
    { name: 'sidecar', image: 'envoy:1' },
  ];
  return dc;
};

describe('set image', () => {
  it('patches the container image with the resourceVersion and prints "image updated"', async () => {
    const h = setHarness(twoContainers());
    expect(await h.run(['set', 'image', 'dc/web', 'web=nginx:3'])).toBe(0);
    expect(h.out.text).toBe('deploymentconfig.apps.openshift.io/web image updated\n');
    expect(h.patches()).toHaveLength(1);
    expect(h.patches()[0]?.patch).toMatchObject({ metadata: { resourceVersion: '7' } });
    expect(h.stored().spec.template?.spec?.containers.map((c) => c.image)).toEqual(['nginx:3', 'envoy:1']);
  });

  it('"*" sets every container; an unchanged image writes and prints nothing', async () => {
    const h = setHarness(twoContainers());
    expect(await h.run(['set', 'image', 'dc', 'web', '*=busybox'])).toBe(0);
    expect(h.stored().spec.template?.spec?.containers.map((c) => c.image)).toEqual(['busybox', 'busybox']);
    const h2 = setHarness(twoContainers());
    expect(await h2.run(['set', 'image', 'dc/web', 'web=nginx:2'])).toBe(0);
    expect(h2.out.text).toBe('');
    expect(h2.patches()).toEqual([]);
  });

  it('still applies the other pairs and fails naming a missing container', async () => {
    const h = setHarness(twoContainers());
    expect(await h.run(['set', 'image', 'dc/web', 'web=nginx:3', 'nope=x'])).toBe(1);
    expect(h.stored().spec.template?.spec?.containers[0]?.image).toBe('nginx:3');
    expect(h.err.text).toContain('error: unable to find container named "nope"');
  });

  it('--dry-run prints without writing; --dry-run=server sends dryRun and stores nothing; -o yaml prints the object', async () => {
    const h = setHarness(twoContainers());
    expect(await h.run(['set', 'image', 'dc/web', 'web=nginx:3', '--dry-run'])).toBe(0);
    expect(h.out.text).toBe('deploymentconfig.apps.openshift.io/web image updated (dry run)\n');
    expect(h.patches()).toEqual([]);
    expect(await h.run(['set', 'image', 'dc/web', 'web=nginx:4', '--dry-run=server', '-o', 'yaml'])).toBe(0);
    expect(h.patches().map((p) => p.dryRun)).toEqual([true]);
    expect(h.out.text).toContain('kind: DeploymentConfig');
    expect(h.out.text).toContain('image: nginx:4');
    expect(h.stored().spec.template?.spec?.containers[0]?.image).toBe('nginx:2');
  });

  it('re-reads and retries when the DC changed under it (409 on the resourceVersion)', async () => {
    const h = setHarness(twoContainers(), { conflicts: 2 });
    expect(await h.run(['set', 'image', 'dc/web', 'web=nginx:9'])).toBe(0);
    expect(h.patches()).toHaveLength(3);
    expect(h.stored().spec.template?.spec?.containers[0]?.image).toBe('nginx:9');
  });

  it('names a missing DC as the API server does', async () => {
    const h = setHarness(twoContainers());
    expect(await h.run(['set', 'image', 'dc/nope', 'web=x'])).toBe(1);
    expect(h.err.text).toBe('Error from server (NotFound): deploymentconfigs.apps.openshift.io "nope" not found\n');
  });
});

describe('set env', () => {
  it('replaces in place, appends, removes; prints "updated"', async () => {
    const h = setHarness(twoContainers());
    expect(await h.run(['set', 'env', 'dc/web', 'A=10', 'C=3', 'B-', '-c', 'web'])).toBe(0);
    expect(h.out.text).toBe('deploymentconfig.apps.openshift.io/web updated\n');
    expect(h.stored().spec.template?.spec?.containers[0]?.env).toEqual([{ name: 'A', value: '10' }, { name: 'C', value: '3' }]);
    expect(h.stored().spec.template?.spec?.containers[1]?.env).toBeUndefined();
  });

  it('--from=secret/x --prefix references every key; -e and stdin add more', async () => {
    const h = setHarness(twoContainers(), { sources: { 'secret/db': ['password', 'user-name'] }, stdin: 'X=1 # comment\n\nY=2\n' });
    expect(await h.run(['set', 'env', '-e', '-', 'dc/web', '--from=secret/db', '--prefix=DB_', '-c', 'web'])).toBe(0);
    expect(h.stored().spec.template?.spec?.containers[0]?.env).toEqual([
      { name: 'A', value: '1' }, { name: 'B', value: '2' },
      { name: 'DB_X', value: '1 ' }, { name: 'DB_Y', value: '2' },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
      { name: 'DB_USER_NAME', valueFrom: { secretKeyRef: { name: 'db', key: 'user-name' } } },
    ]);
  });

  it('--list prints each container (references as comments) and writes nothing', async () => {
    const dc = twoContainers();
    dc.spec.template!.spec!.containers[0]!.env!.push({ name: 'P', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'p' } } });
    const h = setHarness(dc);
    expect(await h.run(['set', 'env', 'dc/web', '--list'])).toBe(0);
    expect(h.out.text).toBe('# deploymentconfigs/web, container web\nA=1\nB=2\n# P from configmap cfg, key p\n# deploymentconfigs/web, container sidecar\n');
    expect(h.patches()).toEqual([]);
  });

  it('rejects bad input with oc\'s messages', async () => {
    const h = setHarness(twoContainers());
    expect(await h.run(['set', 'env', 'dc/web', 'A=1', 'A-'])).toBe(1);
    expect(h.err.text).toContain('can not both modify and remove the same environment variable in the same command');
    expect(await h.run(['set', 'env', 'dc/web', 'A=1', 'dc/other'])).toBe(1);
    expect(h.err.text).toContain('all resources must be specified before environment changes');
    expect(await h.run(['set', 'env', 'dc/web', 'A=5', '--overwrite=false'])).toBe(1);
    expect(h.err.text).toContain("'A' already has a value (1), and --overwrite is false");
    expect(await h.run(['set', 'env', 'dc/web', '--list', '-o', 'yaml'])).toBe(1);
    expect(h.err.text).toContain('--list and --output may not be specified together');
    expect(await h.run(['set', 'env', 'dc/web', '--from=secret/missing'])).toBe(1);
    expect(h.err.text).toContain('error: secrets "missing" not found');
    expect(h.patches()).toEqual([]);
  });

  it('warns when no container matches', async () => {
    const h = setHarness(twoContainers());
    expect(await h.run(['set', 'env', 'dc/web', 'A=1', '-c', 'db*'])).toBe(0);
    expect(h.err.text).toBe('warning: deploymentconfigs/web does not have any containers matching "db*"\n');
    expect(h.patches()).toEqual([]);
  });

  it('pure helpers follow oc', () => {
    expect(splitEnvironmentFromResources(['dc/web', 'A=1', 'B-'])).toEqual({ resources: ['dc/web'], envArgs: ['A=1', 'B-'] });
    expect(parseEnv(['A=x=y', 'B-'])).toEqual({ env: [{ name: 'A', value: 'x=y' }], remove: ['B'] });
    expect(() => parseEnv(['1A=x'])).toThrow('environment variable 1A=x is invalid');
    expect(updateEnv([{ name: 'A', value: '1' }], [{ name: 'A', value: '2' }, { name: 'A', value: '3' }], [])).toEqual([{ name: 'A', value: '2' }]);
    expect(selectsContainer('web-main', 'web-*')).toBe(true);
    expect(selectsContainer('sidecar', 'web*')).toBe(false);
  });
});

describe('set triggers', () => {
  const withTriggers = () => {
    const dc = twoContainers();
    dc.spec.triggers = [
      { type: 'ConfigChange' },
      { type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['web'], from: { kind: 'ImageStreamTag', name: 'web:latest' }, lastTriggeredImage: 'reg/web@sha256:1' } },
    ];
    return dc;
  };

  it('prints the table oc prints', async () => {
    const h = setHarness(withTriggers());
    expect(await h.run(['set', 'triggers', 'dc/web'])).toBe(0);
    expect(h.out.text).toBe([
      'NAME                   TYPE    VALUE             AUTO',
      'deploymentconfigs/web  config                    true',
      'deploymentconfigs/web  image   web:latest (web)  true',
      '',
    ].join('\n'));
  });

  it('--manual turns every trigger manual; --auto back; unchanged prints nothing', async () => {
    const h = setHarness(withTriggers());
    expect(await h.run(['set', 'triggers', 'dc/web', '--manual'])).toBe(0);
    expect(h.out.text).toBe('deploymentconfig.apps.openshift.io/web triggers updated\n');
    expect(h.stored().spec.triggers).toEqual([
      { type: 'ImageChange', imageChangeParams: { automatic: false, containerNames: ['web'], from: { kind: 'ImageStreamTag', name: 'web:latest' }, lastTriggeredImage: 'reg/web@sha256:1' } },
    ]);
    expect(await h.run(['set', 'triggers', 'dc/web', '--auto'])).toBe(0);
    expect(h.stored().spec.triggers?.map((t) => t.type)).toEqual(['ConfigChange', 'ImageChange']);
    expect(h.stored().spec.triggers?.[1]?.imageChangeParams?.automatic).toBe(true);
    const before = h.patches().length;
    expect(await h.run(['set', 'triggers', 'dc/web', '--auto'])).toBe(0);
    expect(h.patches().length).toBe(before);
  });

  it('--from-image adds a trigger for the named containers; --remove drops it; --from-config --remove drops config', async () => {
    const h = setHarness(twoContainers());
    expect(await h.run(['set', 'triggers', 'dc/web', '--from-image=other/envoy:v2', '-c', 'sidecar'])).toBe(0);
    expect(h.stored().spec.triggers).toEqual([
      { type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['sidecar'], from: { kind: 'ImageStreamTag', name: 'envoy:v2', namespace: 'other' } } },
    ]);
    expect(await h.run(['set', 'triggers', 'dc/web', '--from-config'])).toBe(0);
    expect(h.stored().spec.triggers?.map((t) => t.type)).toEqual(['ConfigChange', 'ImageChange']);
    expect(await h.run(['set', 'triggers', 'dc/web', '--from-image=other/envoy:v2', '--remove'])).toBe(0);
    expect(await h.run(['set', 'triggers', 'dc/web', '--from-config', '--remove'])).toBe(0);
    expect(h.stored().spec.triggers).toEqual([]);
  });

  it('validates like oc', async () => {
    const h = setHarness(twoContainers());
    expect(await h.run(['set', 'triggers', 'dc/web', '--from-image=web:latest'])).toBe(1);
    expect(h.err.text).toContain('you must specify --containers when setting --from-image');
    expect(await h.run(['set', 'triggers', 'dc/web', '--from-image=web:latest', '-c', 'nope'])).toBe(1);
    expect(h.err.text).toContain('not all container names exist: nope (accepts: sidecar, web)');
    expect(await h.run(['set', 'triggers', 'dc/web', '--from-image=web'])).toBe(1);
    expect(h.err.text).toContain('the value of --from-image must include the tag you wish to pull from');
    expect(h.patches()).toEqual([]);
    expect(() => triggersAction({ auto: true, manual: true }, NS)).toThrow('you must specify at most one of --auto or --manual');
    expect(() => triggersAction({ remove: true }, NS)).toThrow('--remove requires a flag defining a trigger type to be specified');
    expect(() => triggersAction({ removeAll: true, fromConfig: true }, NS)).toThrow('--remove-all may not be used with any other flag');
    expect(formatError(new Error('x'))).toBe('error: x');
  });
});
