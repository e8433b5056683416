import { describe, expect, it } from '@jest/globals';
import type { CoreV1Event } from '@kubernetes/client-node';
import type { RcWarnings } from '../../../src/deployer/ports.js';
import type { LifecycleHook, RecreateDeploymentStrategyParams } from '../../../src/apis/deploymentconfig.js';
import { ApiError } from '../../../src/controller/errors.js';
import { newSimulatedCluster, workloadWrites } from '../../support/simulation.js';
import { NS, addRcFor, deploy, makeDc } from './helpers.js';

const hook = (failurePolicy: LifecycleHook['failurePolicy'], command = ['migrate']): LifecycleHook => ({
  failurePolicy,
  execNewPod: { containerName: 'app', command },
});

function recreateSetup(params: RecreateDeploymentStrategyParams, opts: { withFrom?: boolean; desired?: number } = {}) {
  const cluster = newSimulatedCluster();
  const desired = opts.desired ?? 2;
  const dc = makeDc('web', { type: 'Recreate', recreateParams: params }, { replicas: desired });
  if (opts.withFrom !== false) addRcFor(cluster, dc, 1, { phase: 'Complete', replicas: 2, desired: null });
  addRcFor(cluster, dc, 2, { desired });
  return { cluster, dc };
}

describe('recreate strategy', () => {
  it('runs pre → scale down → mid → scale to 1 → accept → scale up → post', async () => {
    const { cluster } = recreateSetup({ pre: hook('Abort'), mid: hook('Abort'), post: hook('Abort') });
    const { code, out, err } = await deploy(cluster, 'web-2');
    expect(err.text).toBe('');
    expect(code).toBe(0);
    expect(workloadWrites(cluster)).toEqual([
      'create pod web-2-hook-pre',
      'scale web-1 0',
      'create pod web-2-hook-mid',
      'scale web-2 1',
      'scale web-2 2',
      'create pod web-2-hook-post',
    ]);
    expect(out.lines).toEqual([
      '--> pre: Running hook pod ...',
      'web-2-hook-pre ran',
      '--> pre: Success',
      '--> Scaling web-1 down to zero',
      '--> mid: Running hook pod ...',
      'web-2-hook-mid ran',
      '--> mid: Success',
      '--> Scaling web-2 to 1 before performing acceptance check',
      '--> Scaling web-2 to 2',
      '--> post: Running hook pod ...',
      'web-2-hook-post ran',
      '--> post: Success',
      '--> Success',
    ]);
  });

  it('runs each hook once: a re-run reuses the finished hook pods', async () => {
    const { cluster } = recreateSetup({ pre: hook('Abort'), mid: hook('Abort'), post: hook('Abort') });
    const first = await deploy(cluster, 'web-2', 'mid');
    expect(first.code).toBe(0);
    expect(first.out.lines.at(-1)).toBe('--> mid hook succeeded');
    const second = await deploy(cluster, 'web-2');
    expect(second.code).toBe(0);
    expect(workloadWrites(cluster).filter((a) => a.startsWith('create pod'))).toEqual([
      'create pod web-2-hook-pre', 'create pod web-2-hook-mid', 'create pod web-2-hook-post',
    ]);
    expect(second.out.lines.slice(0, 3)).toEqual([
      '--> pre: Hook pod already succeeded',
      '--> Scaling web-1 down to zero',
      '--> mid: Hook pod already succeeded',
    ]);
    expect(second.out.text).not.toContain('web-2-hook-pre ran');
  });

  it.each([
    ['start', '--> Ready to start deployment', []],
    ['pre', '--> pre hook succeeded', []],
    ['0%', '--> Reached 0% (no running pods)', ['scale web-1 0']],
    ['mid', '--> mid hook succeeded', ['scale web-1 0']],
    ['50%', '--> Reached 50%', ['scale web-1 0', 'scale web-2 1']],
    ['100%', '--> Reached 100%', ['scale web-1 0', 'scale web-2 1', 'scale web-2 2']],
  ])('--until=%s', async (until, line, scales) => {
    const { cluster } = recreateSetup({});
    const { code, out } = await deploy(cluster, 'web-2', until);
    expect(code).toBe(0);
    expect(out.lines.at(-1)).toBe(line);
    expect(workloadWrites(cluster).filter((a) => a.startsWith('scale'))).toEqual(scales);
  });

  it('a first deployment stops at any percentage after full scale', async () => {
    const { cluster } = recreateSetup({}, { withFrom: false });
    const { code, out } = await deploy(cluster, 'web-2', '30%');
    expect(code).toBe(0);
    expect(out.lines).toEqual(['--> Scaling web-2 to 2', '--> Reached 30%']);
  });

  it('aborts on a failed pre hook (Abort): no scaling, Failed event, exit 1', async () => {
    const { cluster } = recreateSetup({ pre: hook('Abort') });
    cluster.sim.hookOutcomes.set('web-2-hook-pre', { phase: 'Failed', message: 'exit code 3', logs: 'boom\n' });
    const { code, out, err } = await deploy(cluster, 'web-2');
    expect(code).toBe(1);
    expect(err.text).toBe('error: pre hook failed: the pre hook failed: exit code 3, aborting rollout of ns/web-2\n');
    expect(out.lines).toEqual(['--> pre: Running hook pod ...', 'boom', '--> pre: Failed']);
    expect(workloadWrites(cluster).filter((a) => a.startsWith('scale'))).toEqual([]);
    const failed = cluster.events.list().find((e) => e.reason === 'Failed');
    expect(failed?.type).toBe('Warning');
    expect(failed?.message).toBe('The pre-hook failed: exit code 3, aborting rollout of ns/web-2');
  });

  it('continues after a failed hook with Ignore', async () => {
    const { cluster } = recreateSetup({ mid: hook('Ignore') });
    cluster.sim.hookOutcomes.set('web-2-hook-mid', { phase: 'Failed', message: 'nope' });
    const { code, out } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    expect(out.lines.at(-1)).toBe('--> Success');
    expect(cluster.events.list().find((e) => e.reason === 'Failed')?.message).toBe(
      'The mid-hook failed: nope (ignore), rollout of ns/web-2 will continue',
    );
  });

  it('Retry runs the hook pod with restartPolicy OnFailure and aborts when it still fails', async () => {
    const { cluster } = recreateSetup({ post: hook('Retry') });
    cluster.sim.hookOutcomes.set('web-2-hook-post', { phase: 'Failed', message: 'DeadlineExceeded' });
    const { code, err } = await deploy(cluster, 'web-2');
    expect(code).toBe(1);
    expect(err.text).toContain('error: post hook failed: the post hook failed: DeadlineExceeded, aborting rollout of ns/web-2');
    expect(cluster.pods.get(NS, 'web-2-hook-post')?.spec?.restartPolicy).toBe('OnFailure');
  });

  it('fails tagImages hooks with a clear message, honouring the failure policy', async () => {
    const tag: LifecycleHook = { failurePolicy: 'Abort', tagImages: [{ containerName: 'app', to: { kind: 'ImageStreamTag', name: 'app:prod' } }] };
    const { cluster } = recreateSetup({ pre: tag });
    const { code, err } = await deploy(cluster, 'web-2');
    expect(code).toBe(1);
    expect(err.text).toContain('tagImages hooks need the image.openshift.io ImageStream API, which this cluster does not serve yet');
    expect(cluster.events.list().find((e) => e.reason === 'Started')?.message).toBe(
      'Running pre-hook (TagImages) image "registry/app:1" as "app:prod" for rc ns/web-2',
    );
  });

  it('keeps going when hook logs are unavailable', async () => {
    const { cluster } = recreateSetup({ pre: hook('Abort') });
    cluster.logs.unavailable = true;
    const { code, out } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    expect(out.lines.slice(0, 3)).toEqual([
      '--> pre: Running hook pod ...',
      'warning: Unable to retrieve hook logs from web-2-hook-pre: the server could not find the requested resource',
      '--> pre: Success',
    ]);
  });

  it('warns and continues when old pods do not terminate in time', async () => {
    const { cluster } = recreateSetup({ timeoutSeconds: 3 });
    // A pod matching web-1's selector that nobody deletes.
    const selector = cluster.rcs.get(NS, 'web-1')!.spec!.selector!;
    cluster.sim.sticky.add('straggler');
    cluster.pods.put({ metadata: { name: 'straggler', namespace: NS, labels: selector }, status: { phase: 'Unknown' } });
    const { code, out } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    expect(out.text).toContain(
      '--> Failed to wait for old pods to be terminated: timed out waiting for the condition\nNew pods may be scaled up before old pods get terminated!\n',
    );
  });

  it('forwards the Warning events of both RCs, `to` first, from one LIST of the namespace\'s RC warnings', async () => {
    const { cluster } = recreateSetup({});
    const rcEvent = (name: string, rc: string, uid: string | undefined, type: string, reason: string) => cluster.eventClient.create(NS, {
      metadata: { name, namespace: NS },
      involvedObject: { kind: 'ReplicationController', name: rc, namespace: NS, uid },
      type, reason, message: `${reason} of ${rc}`,
    });
    await rcEvent('e1', 'web-1', cluster.rcs.get(NS, 'web-1')!.metadata!.uid, 'Warning', 'FailedDelete');
    await rcEvent('e2', 'web-2', cluster.rcs.get(NS, 'web-2')!.metadata!.uid, 'Warning', 'FailedCreate');
    await rcEvent('e3', 'web-2', cluster.rcs.get(NS, 'web-2')!.metadata!.uid, 'Normal', 'SuccessfulCreate');
    await rcEvent('e4', 'web-2', 'uid-of-an-earlier-web-2', 'Warning', 'Stale');
    await rcEvent('e5', 'other-1', 'x', 'Warning', 'NotOurs');
    const { code, out } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    expect(out.lines.filter((l) => l.startsWith('-->  '))).toEqual(['-->  FailedCreate: web-2 FailedCreate of web-2', '-->  FailedDelete: web-1 FailedDelete of web-1']);
    expect(cluster.api.actions.filter((a) => a.resource === 'events' && a.verb === 'list')).toHaveLength(1);
  });

  it('forged warnings cannot drive unbounded writes: at most 25 per RC are repeated on the DC, and the log says how many were not', async () => {
    const { cluster } = recreateSetup({});
    const uid = cluster.rcs.get(NS, 'web-2')!.metadata!.uid;
    // Anyone who may create events can write Warning events naming the RC.
    for (let i = 0; i < 200; i++) {
      await cluster.eventClient.create(NS, {
        metadata: { name: `forged-${String(i).padStart(3, '0')}`, namespace: NS },
        involvedObject: { kind: 'ReplicationController', name: 'web-2', namespace: NS, uid },
        type: 'Warning', reason: 'Forged', message: `forged ${i}`,
      });
    }
    const before = cluster.events.list().length;
    const { code, out } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    const repeated = cluster.events.list().slice(before).filter((e) => e.involvedObject?.kind === 'DeploymentConfig' && e.reason === 'Forged');
    expect(repeated).toHaveLength(25);
    expect(out.lines.filter((l) => l.startsWith('-->  Forged:'))).toHaveLength(25);
    expect(out.text).toContain('--> 175 more Warning events of web-2 not repeated on the DC');
  });

  it('forwards Warning events of the RCs to the DC at the end', async () => {
    const { cluster } = recreateSetup({});
    const to = cluster.rcs.get(NS, 'web-2')!;
    await cluster.eventClient.create(NS, {
      metadata: { name: 'web-2.1', namespace: NS },
      involvedObject: { kind: 'ReplicationController', name: 'web-2', namespace: NS, uid: to.metadata!.uid },
      type: 'Warning', reason: 'FailedCreate', message: 'exceeded quota',
    });
    const { code, out } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    expect(out.lines.at(-2)).toBe('-->  FailedCreate: web-2 exceeded quota');
    const forwarded = cluster.events.list().at(-1)!;
    expect(forwarded.involvedObject).toMatchObject({ kind: 'DeploymentConfig', name: 'web', apiVersion: 'apps.openshift.io/v1' });
    expect(forwarded).toMatchObject({ type: 'Warning', reason: 'FailedCreate', message: 'exceeded quota', source: { component: 'web-2-deploy' } });
  });

  it('with a watch of the RC warnings: repeats the ones raised during the run and lists no events', async () => {
    const { cluster } = recreateSetup({});
    const to = cluster.rcs.get(NS, 'web-2')!;
    // The namespace went on changing after the RC's last change (its deployer pod waited for a
    // node, say): the watch starts from the run's own read, so none of that is replayed.
    for (let i = 0; i < 3; i++) {
      await cluster.eventClient.create(NS, {
        metadata: { name: `other-${i}`, namespace: NS },
        involvedObject: { kind: 'Pod', name: `other-${i}`, namespace: NS }, type: 'Normal', reason: 'Scheduled', message: 'scheduled',
      });
    }
    const startedAt = cluster.api.currentResourceVersion();
    expect(Number(startedAt)).toBeGreaterThan(Number(to.metadata!.resourceVersion));
    // The RC manager's warning when the deployer scales web-2 up (a quota, say).
    let raised = false;
    cluster.api.onAction((a) => {
      if (raised || a.verb !== 'patch' || a.name !== 'web-2') return;
      raised = true;
      void cluster.eventClient.create(NS, {
        metadata: { name: 'web-2.quota', namespace: NS },
        involvedObject: { kind: 'ReplicationController', name: 'web-2', namespace: NS, uid: to.metadata!.uid },
        type: 'Warning', reason: 'FailedCreate', message: 'exceeded quota',
      });
    });
    // Collects what the watch would deliver from the moment it is opened.
    const opened: string[] = [];
    const collected: CoreV1Event[] = [];
    const watchRcWarnings = async (namespace: string, resourceVersion: string): Promise<RcWarnings> => {
      opened.push(`${namespace}@${resourceVersion}`);
      const stop = cluster.api.onCommit((c) => {
        const e = c.after as CoreV1Event | undefined;
        if (c.action.resource === 'events' && e?.involvedObject?.kind === 'ReplicationController' && e.type === 'Warning') collected.push(e);
      });
      return { collected: () => [...collected], close: stop };
    };
    const { code, out } = await deploy(cluster, 'web-2', undefined, { watchRcWarnings });
    expect(code).toBe(0);
    expect(opened).toEqual([`${NS}@${startedAt}`]);
    expect(out.lines.filter((l) => l.startsWith('-->  '))).toEqual(['-->  FailedCreate: web-2 exceeded quota']);
    expect(cluster.api.actions.filter((a) => a.resource === 'events' && a.verb === 'list')).toEqual([]);
    expect(cluster.events.list().at(-1)).toMatchObject({ involvedObject: { kind: 'DeploymentConfig', name: 'web' }, reason: 'FailedCreate' });
  });

  it('a watch of the RC warnings that broke: one LIST at the end instead', async () => {
    const { cluster } = recreateSetup({});
    await cluster.eventClient.create(NS, {
      metadata: { name: 'web-2.1', namespace: NS },
      involvedObject: { kind: 'ReplicationController', name: 'web-2', namespace: NS, uid: cluster.rcs.get(NS, 'web-2')!.metadata!.uid },
      type: 'Warning', reason: 'FailedCreate', message: 'exceeded quota',
    });
    const watchRcWarnings = async (): Promise<RcWarnings> => ({ collected: () => undefined, close: () => undefined });
    const { code, out } = await deploy(cluster, 'web-2', undefined, { watchRcWarnings });
    expect(code).toBe(0);
    expect(out.lines.filter((l) => l.startsWith('-->  '))).toEqual(['-->  FailedCreate: web-2 exceeded quota']);
    expect(cluster.api.actions.filter((a) => a.resource === 'events' && a.verb === 'list')).toHaveLength(1);
  });

  it('retries admission warm-up errors of a scale', async () => {
    const { cluster } = recreateSetup({});
    const scale = { verb: 'patch', resource: 'replicationcontrollers', name: 'web-1' } as const;
    cluster.api.failOn(scale, new ApiError('pods "x" is forbidden: not yet ready to handle request', 403, 'Forbidden'), 1);
    const { code } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    expect(cluster.rcs.get(NS, 'web-2')!.spec?.replicas).toBe(2);
  });

  it('scales by merge patches, never reading the RC or its scale', async () => {
    const { cluster } = recreateSetup({});
    const { code } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    const rcRequests = cluster.api.actions.filter((a) => a.resource === 'replicationcontrollers').map((a) => `${a.verb}${a.subresource ? `/${a.subresource}` : ''} ${a.name}`);
    // The DC's RCs are listed (and watched) once, the RC to roll out taken from there (no GET); every scale is a patch.
    expect(rcRequests.filter((r) => r.startsWith('get'))).toEqual([]);
    expect(rcRequests.filter((r) => r.startsWith('list'))).toHaveLength(1);
    expect(rcRequests.filter((r) => /^(update|patch)/.test(r))).toEqual(['patch web-1', 'patch web-2', 'patch web-2']);
    expect(cluster.api.actions.some((a) => a.subresource === 'scale')).toBe(false);
  });

  it('fails on other scale errors', async () => {
    const { cluster } = recreateSetup({});
    cluster.api.failOn({ verb: 'patch', resource: 'replicationcontrollers', name: 'web-1' }, new ApiError('replicationcontrollers "web-1" is forbidden', 403, 'Forbidden'), 1);
    const { code, err } = await deploy(cluster, 'web-2');
    expect(code).toBe(1);
    expect(err.text).toBe('error: couldn\'t scale web-1 to 0: replicationcontrollers "web-1" is forbidden\n');
  });
});
