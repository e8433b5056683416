/**
 * The deployer's feeds (src/kube/deployer-io.ts, docs/design.md §6.2) on the real kube-apiserver:
 * the initial list of a DC's RCs is a streamed watch (WatchList), so a rollout's waits cost one
 * watch request per feed and no LIST; the waits are then decided by that same watch.
 */
import { describe, expect, it } from '@jest/globals';
import { CoreV1Api } from '@kubernetes/client-node';
import { loadKubeConfig } from '../../src/kube/client.js';
import { KubeDeployerWatchers, type DeployerLists, type WatchLike } from '../../src/kube/deployer-io.js';
import { restDeployerPorts } from '../../src/kube/deployer-rest.js';
import { loadRestConfig, RestClient } from '../../src/kube/rest.js';
import { useNamespace } from '../support/kube.js';

const kc = loadKubeConfig();
const core = kc.makeApiClient(CoreV1Api);
const space = useNamespace('deployer-feeds', kc);

const rcBody = (name: string) => ({
  metadata: { name, labels: { 'openshift.io/deployment-config.name': 'web' } },
  spec: { replicas: 0, selector: { app: 'web', deployment: name }, template: { metadata: { labels: { app: 'web', deployment: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
});

describe('the deployer\'s feeds on the real plane', () => {
  it('lists a DC\'s RCs through one streamed watch, and decides later waits from it: no LIST', async () => {
    const rest = new RestClient(loadRestConfig()!, 'dcctl-test');
    const ports = restDeployerPorts(rest);
    const listed: string[] = [];
    const watched: Record<string, unknown>[] = [];
    const lists: DeployerLists = {
      replicationControllers: (namespace, selector) => {
        listed.push(`rcs ${JSON.stringify(selector)}`);
        return ports.lists.replicationControllers(namespace, selector);
      },
      pods: (namespace, selector) => {
        listed.push(`pods ${JSON.stringify(selector)}`);
        return ports.lists.pods(namespace, selector);
      },
    };
    const watch: WatchLike = {
      watch: (path, query, callback, done) => {
        watched.push(query);
        return rest.watch(path, query, callback, done);
      },
    };
    await core.createNamespacedReplicationController({ namespace: space.name, body: rcBody('web-1') });
    await core.createNamespacedReplicationController({ namespace: space.name, body: rcBody('web-2') });
    const watchers = new KubeDeployerWatchers(lists, watch, { streamingLists: true });
    try {
      const { items: rcs } = await watchers.listAndWatch(space.name, 'openshift.io/deployment-config.name=web');
      expect(rcs.map((r) => r.metadata?.name).sort()).toEqual(['web-1', 'web-2']);

      const scaled = watchers.waitFor(space.name, 'web-2', (r) => r.spec?.replicas === 2, 30_000);
      await core.patchNamespacedReplicationController({ namespace: space.name, name: 'web-2', body: [{ op: 'replace', path: '/spec/replicas', value: 2 }] });
      await expect(scaled).resolves.toMatchObject({ metadata: { name: 'web-2' }, spec: { replicas: 2 } });

      // One request in all, accepted as a streamed list (a refused one would have fallen back to a LIST).
      expect(listed).toEqual([]);
      expect(watched).toEqual([expect.objectContaining({ sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan' })]);
    } finally {
      watchers.close();
    }
  });
  it('resolves with the revision the list is current at, past the RCs\' own and any write made before it', async () => {
    const rest = new RestClient(loadRestConfig()!, 'dcctl-test');
    const ports = restDeployerPorts(rest);
    const rc = await core.createNamespacedReplicationController({ namespace: space.name, body: rcBody('api-1') });
    // The namespace goes on changing after the RC's last change; a watch of its events from the
    // RC's revision would replay all of this, one from the list's revision none of it.
    let last = '';
    for (let i = 0; i < 5; i++) {
      const event = await core.createNamespacedEvent({
        namespace: space.name,
        body: { metadata: { name: `other-${i}` }, involvedObject: { kind: 'Pod', name: `other-${i}`, namespace: space.name }, reason: 'Scheduled', message: 'm', type: 'Normal' },
      });
      last = event.metadata!.resourceVersion!;
    }
    for (const streamingLists of [true, false]) {
      const watchers = new KubeDeployerWatchers(ports.lists, rest, { streamingLists });
      try {
        const listed = await watchers.listAndWatch(space.name, 'openshift.io/deployment-config.name=web');
        expect(listed.items.map((r) => r.metadata?.name)).toContain('api-1');
        expect(BigInt(listed.resourceVersion)).toBeGreaterThanOrEqual(BigInt(last));
        expect(BigInt(listed.resourceVersion)).toBeGreaterThan(BigInt(rc.metadata!.resourceVersion!));
      } finally {
        watchers.close();
      }
    }
  });
});
