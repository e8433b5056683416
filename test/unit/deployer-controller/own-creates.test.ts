import { describe, expect, it } from '@jest/globals';
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../../src/apis/constants.js';
import { MutationCache } from '../../../src/controller/mutation-cache.js';
import type { EventSource, Lister } from '../../../src/controller/ports.js';
import { recordingRcClient } from '../../../src/controller/recording-clients.js';
import { WorkQueue } from '../../../src/controller/workqueue.js';
import { wireDeployerController } from '../../../src/deployer-controller/controller.js';

const rc = (name: string, resourceVersion: string): V1ReplicationController => ({
  metadata: { namespace: 'ns', name, resourceVersion, annotations: { [Annotations.DeploymentConfig]: 'app' } },
  spec: { replicas: 0 },
});

/** An informer stand-in: the test fires its events by hand; it lists nothing. */
class Events<T> implements EventSource<T>, Lister<T> {
  readonly adds: Array<(obj: T) => void> = [];
  on(event: 'add' | 'delete' | 'update', handler: ((obj: T) => void) | ((o: T, n: T) => void)): void {
    if (event === 'add') this.adds.push(handler as (obj: T) => void);
  }
  add(obj: T): void {
    for (const h of this.adds) h(obj);
  }
  get(): T | undefined {
    return undefined;
  }
  list(): T[] {
    return [];
  }
}

function setup() {
  const informer = new Events<V1ReplicationController>();
  const cache = new MutationCache<V1ReplicationController>(informer, { now: () => new Date(0), monotonicMs: () => 0 });
  const created: V1ReplicationController[] = [];
  const writer = recordingRcClient({
    create: async (_ns: string, obj: V1ReplicationController) => { created.push(obj); return obj; },
  } as never, cache);
  let adds = 0;
  const queue = new WorkQueue({
    name: 't',
    metrics: { setDepth: () => undefined, incAdds: () => { adds++; }, observeQueueLatency: () => undefined, observeWorkDuration: () => undefined, incRetries: () => undefined },
  });
  wireDeployerController({ rcs: informer, pods: new Events<V1Pod>(), rcLister: cache, queue, ownCreates: cache });
  return { informer, cache, writer, queue, adds: () => adds };
}

describe('RCs this process creates (design.md §5.1)', () => {
  it('are queued for the deployer controller as soon as the create returns, and readable from the mutation cache', async () => {
    const { writer, queue, cache, adds } = setup();
    await writer.create('ns', rc('app-1', '10'));
    expect(adds()).toBe(1);
    expect(queue.len()).toBe(1);
    expect(await queue.get()).toBe('ns/app-1');
    // The sync reads it before the informer has seen it.
    expect(cache.get('ns', 'app-1')?.metadata?.resourceVersion).toBe('10');
  });

  it('are not queued again by the informer add event of the same version, but by one of a newer version', async () => {
    const { writer, informer, adds } = setup();
    await writer.create('ns', rc('app-1', '10'));
    informer.add(rc('app-1', '10'));
    expect(adds()).toBe(1);
    await writer.create('ns', rc('app-2', '20'));
    // A relist that first shows the RC already changed is news.
    informer.add(rc('app-2', '21'));
    expect(adds()).toBe(3);
  });

  it('leave RCs created by others, and RCs not made for a DC, to the informer', async () => {
    const { writer, informer, adds } = setup();
    informer.add(rc('other-1', '5'));
    expect(adds()).toBe(1);
    const plain = rc('plain', '6');
    delete plain.metadata!.annotations;
    await writer.create('ns', plain);
    informer.add(plain);
    expect(adds()).toBe(1);
  });
});
