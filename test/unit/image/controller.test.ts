import { describe, expect, it } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { WorkQueue } from '../../../src/controller/workqueue.js';
import { syncDeploymentConfig, type DeploymentConfigSyncDeps } from '../../../src/deploymentconfig/sync.js';
import { wireImageTriggerController } from '../../../src/image/controller.js';
import { tagResolverFor } from '../../../src/image/resolve.js';
import { syncImageTriggerKey } from '../../../src/image/sync.js';
import { tagIntoStream } from '../../../src/image/tag.js';
import { conflict } from '../../support/fakes.js';
import { deployerSets, imageTrigger, makeDc, NS } from '../deploymentconfig/fixtures.js';
import { dockerTag, stream } from '../../support/builders.js';
import { drainQueue, FakeInformer, newFakeCluster, type FakeCluster } from '../../support/fakes.js';

/** Runs the image trigger syncs and DC syncs until nothing writes any more. */
async function settleAll(f: FakeCluster, dcDeps: DeploymentConfigSyncDeps): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const before = f.api.writes().length;
    for (const s of f.streams.list()) await syncImageTriggerKey(f, `imagestream:${s.metadata.namespace}/${s.metadata.name}`);
    for (const d of f.dcs.list()) {
      const key = `${d.metadata.namespace}/${d.metadata.name}`;
      await syncImageTriggerKey(f, `deploymentconfig:${key}`);
      await syncDeploymentConfig(dcDeps, key).catch(() => undefined);
    }
    if (f.api.writes().length === before) return;
  }
  throw new Error('did not settle');
}

const dcDepsFor = (f: FakeCluster): DeploymentConfigSyncDeps => ({ ...f, resolveImageTag: tagResolverFor((ns, n) => f.streamLister.get(ns, n)) });
const stored = (f: FakeCluster) => f.dcs.get(NS, 'app')!;
const image = (d: DeploymentConfig) => d.spec.template?.spec?.containers[0]?.image;

describe('image trigger controller with the DC controller', () => {
  it('waits for the tag, rolls out once it exists (config change), and again with "image change" when it moves', async () => {
    const f = newFakeCluster();
    const dcDeps = dcDepsFor(f);
    f.dcs.put(makeDc({ image: ' ', triggers: [imageTrigger('web:latest', ['web']), { type: 'ConfigChange' }] }));
    await settleAll(f, dcDeps);
    expect(stored(f).status?.latestVersion).toBe(0);
    expect(f.api.writes({ resource: 'deploymentconfigs', subresource: undefined })).toEqual([]);

    await tagIntoStream(f.streamClient, NS, 'web', 'latest', { kind: 'DockerImage', name: 'r/web:1' });
    await settleAll(f, dcDeps);
    expect(image(stored(f))).toBe('r/web:1');
    expect(stored(f).spec.triggers?.[0]?.imageChangeParams?.lastTriggeredImage).toBe('r/web:1');
    expect(stored(f).status).toMatchObject({ latestVersion: 1, details: { message: 'config change' } });
    expect(f.rcs.get(NS, 'app-1')?.spec?.template?.spec?.containers[0]?.image).toBe('r/web:1');
    deployerSets(f, 'app-1', 'Complete', 1);

    await tagIntoStream(f.streamClient, NS, 'web', 'latest', { kind: 'DockerImage', name: 'r/web:2' });
    await settleAll(f, dcDeps);
    expect(stored(f).status).toMatchObject({
      latestVersion: 2,
      details: { message: 'image change', causes: [{ type: 'ImageChange', imageTrigger: { from: { kind: 'DockerImage', name: 'r/web:2' } } }] },
    });
    expect(f.rcs.get(NS, 'app-2')?.metadata?.annotations?.[Annotations.StatusReason]).toBe('image change');
  });

  it('automatic: false waits for rollout latest, which resolves the tag and rolls out', async () => {
    const f = newFakeCluster();
    const dcDeps = dcDepsFor(f);
    f.dcs.put(makeDc({ image: ' ', triggers: [imageTrigger('web:latest', ['web'], undefined, false)] }));
    await tagIntoStream(f.streamClient, NS, 'web', 'latest', { kind: 'DockerImage', name: 'r/web:1' });
    await settleAll(f, dcDeps);
    expect(stored(f).status?.latestVersion).toBe(0);
    expect(image(stored(f))).toBe(' ');

    f.dcs.mutate(NS, 'app', (d) => { d.metadata.annotations = { [Annotations.InstantiateRequest]: JSON.stringify({ id: 'r1', latest: true, force: true }) }; });
    await settleAll(f, dcDeps);
    expect(image(stored(f))).toBe('r/web:1');
    expect(stored(f).status).toMatchObject({
      latestVersion: 1, details: { message: 'manual change' }, lastInstantiateRequest: { id: 'r1', outcome: 'Triggered' },
    });
    // The trigger stays manual: moving the tag changes nothing.
    deployerSets(f, 'app-1', 'Complete', 1);
    await tagIntoStream(f.streamClient, NS, 'web', 'latest', { kind: 'DockerImage', name: 'r/web:2' });
    await settleAll(f, dcDeps);
    expect(stored(f).status?.latestVersion).toBe(1);
    expect(image(stored(f))).toBe('r/web:1');
  });

  it('retries a conflicting DC update (stale cache) instead of losing it', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc({ image: ' ', triggers: [imageTrigger('web:latest', ['web'])] }));
    f.streams.put(stream('web', [dockerTag('latest', 'r/web:1')]));
    await syncImageTriggerKey(f, 'imagestream:ns/web');
    f.api.failOn({ verb: 'update', resource: 'deploymentconfigs' }, conflict('deploymentconfigs', 'app'), 1);
    await expect(syncImageTriggerKey(f, 'deploymentconfig:ns/app')).rejects.toMatchObject({ code: 409 });
    await syncImageTriggerKey(f, 'deploymentconfig:ns/app');
    expect(image(stored(f))).toBe('r/web:1');
  });
});

/** The keys queued so far, sorted. */
const drain = async (queue: WorkQueue): Promise<string[]> => (await drainQueue(queue)).sort();

describe('wireImageTriggerController', () => {
  it('a stream change requeues exactly the streams whose spec tags point into it, kept in an index', async () => {
    const f = newFakeCluster();
    const queue = new WorkQueue({ name: 't' });
    // Every stream event used to list every stream of the cluster and parse all their tags; the
    // index answers from the streams' own events.
    wireImageTriggerController({ dcs: new FakeInformer(f.dcs), streams: new FakeInformer(f.streams), queue });
    const from = (name: string, kind: 'ImageStreamTag' | 'ImageStreamImage' = 'ImageStreamTag', namespace?: string) =>
      ({ name: 'x', from: { kind, name, ...(namespace ? { namespace } : {}) } });
    f.streams.put(stream('base', [dockerTag('1', 'r/base:1')]));
    f.streams.put(stream('app', [from('base:1')]));
    f.streams.put(stream('tool', [from('base@sha256:abc', 'ImageStreamImage')]));
    f.streams.put(stream('remote', [from('base:1', 'ImageStreamTag', NS)], 'other'));
    f.streams.put(stream('plain', [dockerTag('1', 'r/plain:1')]));
    await drain(queue);

    f.streams.mutate(NS, 'base', (s) => { s.spec = { tags: [dockerTag('1', 'r/base:2')] }; });
    expect(await drain(queue)).toEqual(['imagestream:ns/app', 'imagestream:ns/base', 'imagestream:ns/tool', 'imagestream:other/remote']);
    f.streams.mutate(NS, 'plain', (s) => { s.spec = { tags: [dockerTag('1', 'r/plain:2')] }; });
    expect(await drain(queue)).toEqual(['imagestream:ns/plain']);

    // app stops pointing at base; tool is deleted: neither is requeued by base any more.
    f.streams.mutate(NS, 'app', (s) => { s.spec = { tags: [dockerTag('1', 'r/app:1')] }; });
    f.streams.remove(NS, 'tool');
    await drain(queue);
    f.streams.mutate(NS, 'base', (s) => { s.spec = { tags: [dockerTag('1', 'r/base:3')] }; });
    expect(await drain(queue)).toEqual(['imagestream:ns/base', 'imagestream:other/remote']);
    // A deleted stream still requeues the streams that point into it (their status loses the tag).
    f.streams.remove(NS, 'base');
    expect(await drain(queue)).toEqual(['imagestream:other/remote']);
    queue.shutDown();
  });

  it('requeues exactly the DCs that reference a changed stream', async () => {
    const f = newFakeCluster();
    const queue = new WorkQueue({ name: 't' });
    wireImageTriggerController({ dcs: new FakeInformer(f.dcs), streams: new FakeInformer(f.streams), queue });
    const withTrigger = (name: string, tag: string): DeploymentConfig => ({ ...makeDc({ triggers: [imageTrigger(tag, ['web'])] }), metadata: { name, namespace: NS } });
    f.dcs.put(withTrigger('a', 'web:latest'));
    f.dcs.put(withTrigger('b', 'other:1'));
    f.dcs.put({ ...makeDc(), metadata: { name: 'plain', namespace: NS } });
    expect(await drain(queue)).toEqual(['deploymentconfig:ns/a', 'deploymentconfig:ns/b']);

    f.streams.put(stream('web', []));
    expect(await drain(queue)).toEqual(['deploymentconfig:ns/a', 'imagestream:ns/web']);
    f.streams.mutate(NS, 'web', (s) => { s.spec = { tags: [dockerTag('latest', 'r/web:2')] }; });
    expect(await drain(queue)).toEqual(['deploymentconfig:ns/a', 'imagestream:ns/web']);
    f.dcs.put(withTrigger('b', 'web:prod'));
    await drain(queue);
    f.dcs.remove(NS, 'a');
    f.streams.remove(NS, 'web');
    expect(await drain(queue)).toEqual(['deploymentconfig:ns/b']);
    queue.shutDown();
  });
});
