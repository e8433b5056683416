/**
 * The deployer's watch of RC Warning events (src/kube/rc-warnings.ts, docs/design.md §6.2) on the
 * real kube-apiserver: started at an RC's resourceVersion (events and RCs share etcd's revision
 * sequence), it delivers the RC Warning events written after that RC changed and nothing else,
 * without a LIST of the namespace's events.
 */
import { describe, expect, it } from '@jest/globals';
import { CoreV1Api, type CoreV1Event } from '@kubernetes/client-node';
import { loadKubeConfig } from '../../src/kube/client.js';
import { watchRcWarnings } from '../../src/kube/rc-warnings.js';
import { loadRestConfig, RestClient } from '../../src/kube/rest.js';
import { useNamespace, waitFor } from '../support/kube.js';

const kc = loadKubeConfig();
const core = kc.makeApiClient(CoreV1Api);
const space = useNamespace('rc-warnings', kc);

const rcEvent = (name: string, type: 'Warning' | 'Normal', reason: string, kind = 'ReplicationController'): Promise<CoreV1Event> =>
  core.createNamespacedEvent({
    namespace: space.name,
    body: {
      metadata: { name, namespace: space.name },
      involvedObject: { kind, name: 'web-2', namespace: space.name },
      type, reason, message: `${reason} (${name})`, count: 1,
    },
  });

describe('watchRcWarnings on the real plane', () => {
  it('delivers the RC warnings written after the RC\'s resourceVersion, filtered by the server', async () => {
    const config = loadRestConfig();
    expect(config).toBeDefined();
    const rest = new RestClient(config!, 'dcctl-test');
    await rcEvent('web-2.before', 'Warning', 'Earlier');
    const rc = await core.createNamespacedReplicationController({
      namespace: space.name,
      body: {
        metadata: { name: 'web-2' },
        spec: { replicas: 0, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
      },
    });
    const warnings = await watchRcWarnings(rest, space.name, rc.metadata!.resourceVersion!);
    expect(warnings).toBeDefined();
    try {
      await rcEvent('web-2.quota', 'Warning', 'FailedCreate');
      await rcEvent('web-2.created', 'Normal', 'SuccessfulCreate');
      await rcEvent('web.dc', 'Warning', 'NotAnRc', 'DeploymentConfig');
      await rcEvent('web-2.later', 'Warning', 'FailedDelete');
      await waitFor('both warnings watched', () => (warnings!.collected() ?? []).length >= 2, { timeoutMs: 10_000 });
      expect(warnings!.collected()?.map((e) => `${e.metadata?.name} ${e.reason}`)).toEqual(['web-2.quota FailedCreate', 'web-2.later FailedDelete']);
      // A repeat of the same warning (the recorder bumps its count) replaces it.
      await core.patchNamespacedEvent({ namespace: space.name, name: 'web-2.quota', body: [{ op: 'replace', path: '/count', value: 4 }] });
      await waitFor('the repeat watched', () => warnings!.collected()?.[0]?.count === 4, { timeoutMs: 10_000 });
    } finally {
      warnings?.close();
    }
  });
});
