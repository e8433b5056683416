import { describe, expect, it } from '@jest/globals';
import type { LifecycleHook } from '../../../src/apis/deploymentconfig.js';
import { tagImage } from '../../../src/cli/tag.js';
import { runDeployCommand } from '../../../src/deployer/command.js';
import { tagIntoStream } from '../../../src/image/tag.js';
import { conflict } from '../../support/fakes.js';
import { dockerTag, stream } from '../../support/builders.js';
import { deployerDeps, newFakeCluster } from '../../support/fakes.js';
import { Output } from '../../support/output.js';
import { newSimulatedCluster } from '../../support/simulation.js';
import { addRcFor, makeDc, NS as DNS } from '../deployer/helpers.js';

const collect = () => {
  let text = '';
  return { out: { write: (s: string) => { text += s; } }, err: { write: (s: string) => { text += s; } }, text: () => text };
};

describe('tagIntoStream', () => {
  it('creates the stream, then updates its spec tag keeping other tags, retrying conflicts', async () => {
    const f = newFakeCluster();
    const first = await tagIntoStream(f.streamClient, 'ns', 'web', 'latest', { kind: 'DockerImage', name: 'r/web:1' });
    expect(first.created).toBe(true);
    expect(f.streams.get('ns', 'web')?.spec?.tags).toEqual([{ name: 'latest', from: { kind: 'DockerImage', name: 'r/web:1' } }]);

    f.streams.mutate('ns', 'web', (s) => { s.spec!.tags!.push(dockerTag('keep', 'r/keep:1', { annotations: { a: 'b' } })); });
    f.api.failOn({ verb: 'update', resource: 'imagestreams' }, conflict('imagestreams', 'web'), 1);
    const second = await tagIntoStream(f.streamClient, 'ns', 'web', 'latest', { kind: 'DockerImage', name: 'r/web:2' });
    expect(second.created).toBe(false);
    expect(f.streams.get('ns', 'web')?.spec?.tags).toEqual([
      { name: 'latest', from: { kind: 'DockerImage', name: 'r/web:2' }, generation: 2 },
      dockerTag('keep', 'r/keep:1', { annotations: { a: 'b' } }),
    ]);
    expect(f.api.writes({ resource: 'imagestreams' }).map((a) => a.verb)).toEqual(['create', 'update', 'update']);
  });
});

describe('dcctl tag', () => {
  it('tags a pull spec into several destinations, creating streams as needed', async () => {
    const f = newFakeCluster();
    const io = collect();
    expect(await tagImage(f.streamClient, 'ns', { source: 'quay.io/org/web:1', targets: ['web:prod', 'other/web', 'web:stable'] }, io)).toBe(0);
    expect(io.text()).toBe('Tag web:prod set to quay.io/org/web:1.\nTag other/web:latest set to quay.io/org/web:1.\nTag web:stable set to quay.io/org/web:1.\n');
    expect(f.streams.get('other', 'web')?.spec?.tags?.[0]).toEqual({ name: 'latest', from: { kind: 'DockerImage', name: 'quay.io/org/web:1' } });
    expect(f.streams.get('ns', 'web')?.spec?.tags?.map((t) => t.name)).toEqual(['prod', 'stable']);
  });

  it('takes stream:tag as an ImageStreamTag when the stream exists, else as a pull spec', async () => {
    const f = newFakeCluster();
    f.streams.put(stream('web', [dockerTag('latest', 'r/web:1')]));
    const io = collect();
    await tagImage(f.streamClient, 'ns', { source: 'web:latest', targets: ['web:prod'] }, io);
    await tagImage(f.streamClient, 'ns', { source: 'nginx:1.25', targets: ['nginx:stable'] }, io);
    await tagImage(f.streamClient, 'ns', { source: 'web:latest', targets: ['web:docker'], sourceKind: 'docker', referencePolicy: 'local' }, io);
    const tags = f.streams.get('ns', 'web')?.spec?.tags ?? [];
    expect(tags.find((t) => t.name === 'prod')?.from).toEqual({ kind: 'ImageStreamTag', name: 'web:latest', namespace: 'ns' });
    expect(tags.find((t) => t.name === 'docker')).toMatchObject({ from: { kind: 'DockerImage', name: 'web:latest' }, referencePolicy: { type: 'Local' } });
    expect(f.streams.get('ns', 'nginx')?.spec?.tags?.[0]?.from).toEqual({ kind: 'DockerImage', name: 'nginx:1.25' });
  });

  it('rejects malformed destinations before writing anything', async () => {
    const f = newFakeCluster();
    await expect(tagImage(f.streamClient, 'ns', { source: 'r/x:1', targets: ['ok:1', 'a/b/c:1'] }, collect())).rejects.toThrow('invalid destination "a/b/c:1"');
    expect(f.api.writes()).toEqual([]);
  });
});

describe('tagImages hooks', () => {
  const tagHook = (to: string, containerName = 'app'): LifecycleHook => ({ failurePolicy: 'Abort', tagImages: [{ containerName, to: { kind: 'ImageStreamTag', name: to } }] });

  async function run(hook: LifecycleHook) {
    const cluster = newSimulatedCluster();
    const dc = makeDc('web', { type: 'Recreate', recreateParams: { post: hook } }, { replicas: 1 });
    addRcFor(cluster, dc, 1, { phase: 'Complete', replicas: 1 });
    addRcFor(cluster, dc, 2, { desired: 1 });
    const out = new Output();
    const err = new Output();
    const code = await runDeployCommand({ name: 'web-2', namespace: DNS }, {
      out: out.asStream(), errOut: err.asStream(), env: {}, makeDeps: () => deployerDeps(cluster, { imageStreams: true }),
    });
    return { code, out, err, cluster };
  }

  it('tags the deployed image of the container into the ImageStreamTag', async () => {
    const { code, out, cluster } = await run(tagHook('app:prod'));
    expect(code).toBe(0);
    expect(out.lines).toContain('--> post: Tagged "registry/app:1" into ns/app:prod');
    expect(cluster.streams.get(DNS, 'app')?.spec?.tags).toEqual([{ name: 'prod', from: { kind: 'DockerImage', name: 'registry/app:1' } }]);
    expect(cluster.events.list().map((e) => e.reason)).toContain('Completed');
  });

  it('fails the rollout (Abort) when the container does not exist', async () => {
    const { code, err } = await run(tagHook('app:prod', 'nosuch'));
    expect(code).toBe(1);
    expect(err.text).toContain('unable to find image for container "nosuch", container could not be found');
  });
});
