/**
 * The deployer controller's event wiring (design.md §5.1, §6.8): a pod-less rollout waiting for
 * its RCs is requeued only at its deadline, so every status change of one of its DC's RCs must
 * wake it, while status writes of the RC manager do not enqueue RCs that have no rollout in
 * flight.
 */
import { describe, expect, it } from '@jest/globals';
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Labels } from '../../../src/apis/constants.js';
import { wireDeployerController } from '../../../src/deployer-controller/controller.js';
import { InlineRollouts } from '../../../src/deployer-controller/inline.js';
import { WorkQueue } from '../../../src/controller/workqueue.js';
import { FakeInformer, newFakeCluster, drainQueue } from '../../support/fakes.js';

const NS = 'ns';

function rcOf(dc: string, version: number, phase: string): V1ReplicationController {
  return {
    metadata: {
      name: `${dc}-${version}`, namespace: NS, uid: `uid-${dc}-${version}`,
      labels: { [Labels.DeploymentConfig]: dc },
      annotations: { [Annotations.DeploymentConfig]: dc, [Annotations.Phase]: phase, [Annotations.DeployerMode]: 'inline' },
    },
    spec: { replicas: 3 },
    status: { replicas: 3, availableReplicas: 3 },
  };
}

/** The keys queued so far, sorted. */
const drain = async (queue: WorkQueue): Promise<string[]> => (await drainQueue(queue)).sort();

describe('wireDeployerController', () => {
  it('wakes the pod-less rollout in flight on any status change of its DC\'s RCs, and nothing else', async () => {
    const f = newFakeCluster();
    const queue = new WorkQueue({ name: 't' });
    const inline = new InlineRollouts();
    wireDeployerController({ rcs: new FakeInformer(f.rcs), pods: new FakeInformer<V1Pod>(f.pods), rcLister: f.rcLister, queue, inline });
    f.rcs.put(rcOf('app', 1, 'Complete'));
    f.rcs.put(rcOf('app', 2, 'Running'));
    f.rcs.put(rcOf('other', 1, 'Complete'));
    expect(await drain(queue)).toEqual(['ns/app-1', 'ns/app-2', 'ns/other-1']);

    // No rollout in flight: the RC manager's status writes enqueue nothing.
    f.rcs.mutate(NS, 'app-2', (rc) => { rc.status!.availableReplicas = 1; });
    expect(await drain(queue)).toEqual([]);

    inline.remember('ns/app-2', 'ns/app', { stage: 0, since: 0, lastProgressAt: 0 });
    // Its own RC's availability and the old RC's pods going away both wake it.
    f.rcs.mutate(NS, 'app-2', (rc) => { rc.status!.availableReplicas = 2; });
    expect(await drain(queue)).toEqual(['ns/app-2']);
    f.rcs.mutate(NS, 'app-1', (rc) => { rc.status!.replicas = 2; });
    expect(await drain(queue)).toEqual(['ns/app-2']);
    // Another DC's RC does not.
    f.rcs.mutate(NS, 'other-1', (rc) => { rc.status!.replicas = 2; });
    expect(await drain(queue)).toEqual([]);

    inline.forget('ns/app-2', 'ns/app');
    f.rcs.mutate(NS, 'app-1', (rc) => { rc.status!.replicas = 1; });
    expect(await drain(queue)).toEqual([]);
    queue.shutDown();
  });

  it('forgets a pod-less rollout whose RC is deleted in flight: nothing of it stays in memory', async () => {
    const f = newFakeCluster();
    const queue = new WorkQueue({ name: 't' });
    const inline = new InlineRollouts();
    wireDeployerController({ rcs: new FakeInformer(f.rcs), pods: new FakeInformer<V1Pod>(f.pods), rcLister: f.rcLister, queue, inline });
    // A tenant (or an ordinary DC deletion) creates and deletes RCs mid-rollout, over and over.
    for (let i = 0; i < 2000; i++) {
      const dc = `app${i}`;
      f.rcs.put(rcOf(dc, 1, 'Running'));
      inline.remember(`ns/${dc}-1`, `ns/${dc}`, { stage: 0, since: 0, lastProgressAt: 0 });
      inline.hookCreated(`ns/${dc}-1/${dc}-1-hook-pre`);
      f.rcs.remove(NS, `${dc}-1`);
    }
    const left = Array.from({ length: 2000 }, (_, i) => i).filter((i) => inline.recall(`ns/app${i}-1`) !== undefined
      || inline.inflightFor(`ns/app${i}`) !== undefined || inline.createdHook(`ns/app${i}-1/app${i}-1-hook-pre`));
    expect(left).toEqual([]);
    queue.shutDown();
  });
});
