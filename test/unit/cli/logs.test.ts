import { describe, it, expect } from '@jest/globals';
import type { CoreV1Event, V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { ApiError, isNotFound } from '../../../src/controller/errors.js';
import { main } from '../../../src/cli/index.js';
import { orderRolloutPods, targetVersion } from '../../../src/cli/logs/logs.js';
import type { LogsContext, PodLogOptions } from '../../../src/cli/logs/ports.js';
import { newFakeCluster } from '../../support/fakes.js';
import { Output } from '../../support/output.js';
import { NS, makeDc } from './fixtures.js';

const pod = (name: string, phase: string, rc = 'web-2'): V1Pod => ({
  metadata: { name, namespace: NS, labels: { 'openshift.io/deployer-pod-for.name': rc } },
  spec: { containers: [{ name: name.endsWith('-deploy') ? 'deployment' : 'lifecycle' }] },
  status: { phase },
});
const rc = (name: string, phase: string, extra: Record<string, string> = {}): V1ReplicationController =>
  ({ metadata: { name, namespace: NS, annotations: { [Annotations.Phase]: phase, ...extra } } });

/**
 * A LogsContext over the fake cluster holding `dc`, `rcs` and `events` (by RC name). `pods[i]`
 * is what the cluster holds when the command lists pods the i-th time (the last one stays).
 */
function logsHarness(opts: { dc?: DeploymentConfig; rcs?: V1ReplicationController[]; pods?: V1Pod[][]; logs?: Record<string, string>; events?: Record<string, CoreV1Event[]> }) {
  const f = newFakeCluster();
  if (opts.dc) f.dcs.put(opts.dc);
  for (const r of opts.rcs ?? []) f.rcs.put(r);
  for (const [rcName, events] of Object.entries(opts.events ?? {})) {
    for (const e of events) f.events.put({ ...e, metadata: { ...e.metadata, namespace: NS }, involvedObject: { ...e.involvedObject, name: rcName } });
  }
  for (const [name, text] of Object.entries(opts.logs ?? {})) f.logs.texts.set(`${NS}/${name}`, text);
  let listCalls = 0;
  f.api.onAction((a) => {
    if (a.resource !== 'pods' || a.verb !== 'list') return;
    const lists = opts.pods ?? [[]];
    for (const p of f.pods.list(NS)) f.pods.remove(NS, p.metadata!.name!);
    for (const p of lists[Math.min(listCalls++, lists.length - 1)] ?? []) f.pods.put(p);
  });
  const out = new Output();
  const err = new Output();
  const reads: Array<{ pod: string; container: string; opts: PodLogOptions }> = [];
  const selectors: string[] = [];
  const ctx: LogsContext = {
    out, err, namespace: NS,
    getDc: (name) => f.dcClient.get(NS, name),
    findRc: async (name) => f.rcClient.get(NS, name).catch((e: unknown) => { if (isNotFound(e)) return undefined; throw e; }),
    listPods: async (selector) => {
      selectors.push(selector);
      return f.podClient.list(NS, selector);
    },
    streamPodLog: async (p, container, o) => {
      reads.push({ pod: p, container, opts: o });
      if (!f.logs.texts.has(`${NS}/${p}`)) throw new ApiError(`pods "${p}" not found`, 404, 'NotFound');
      await f.logs.follow(NS, p, container, out.asStream());
    },
    listEvents: (name) => f.eventClient.list(NS, `involvedObject.name=${name}`),
    sleep: async () => undefined,
  };
  const run = (args: string[]) => main(args, 'dcctl', { out, err, makeLogsContext: async () => ctx });
  return { out, err, reads, run, selectors };
}

describe('logs dc/NAME', () => {
  const dc = makeDc('web', { latestVersion: 2 });

  it('prints the latest deployer log, then the hook pods pre → post with a header', async () => {
    const h = logsHarness({
      dc, rcs: [rc('web-2', 'Complete')],
      pods: [[pod('web-2-hook-post', 'Succeeded'), pod('web-2-deploy', 'Succeeded'), pod('web-2-hook-pre', 'Succeeded')]],
      logs: { 'web-2-deploy': '--> Scaling up\n', 'web-2-hook-pre': 'migrating\n', 'web-2-hook-post': 'notified\n' },
    });
    expect(await h.run(['logs', 'dc/web', '--tail', '5', '--timestamps'])).toBe(0);
    expect(h.out.text).toBe('--> Scaling up\n'
      + '\n==> web-2-hook-pre (lifecycle hook pod, Succeeded) <==\nmigrating\n'
      + '\n==> web-2-hook-post (lifecycle hook pod, Succeeded) <==\nnotified\n');
    expect(h.reads[0]).toEqual({ pod: 'web-2-deploy', container: 'deployment', opts: { follow: false, timestamps: true, tailLines: 5 } });
    expect(h.selectors[0]).toBe('openshift.io/deployer-pod-for.name=web-2');
  });

  it('--version and --previous pick the rollout; -f waits for a pending deployer and follows it', async () => {
    const h = logsHarness({
      dc, rcs: [rc('web-1', 'Complete'), rc('web-2', 'Running')],
      pods: [[pod('web-1-deploy', 'Succeeded', 'web-1')]],
      logs: { 'web-1-deploy': 'one\n' },
    });
    expect(await h.run(['logs', 'dc/web', '--previous'])).toBe(0);
    expect(await h.run(['logs', 'web', '--version', '1'])).toBe(0);
    expect(h.out.text).toBe('one\none\n');
    const f = logsHarness({
      dc, rcs: [rc('web-2', 'Pending')],
      pods: [[pod('web-2-deploy', 'Pending')], [pod('web-2-deploy', 'Pending')], [pod('web-2-deploy', 'Running')]],
      logs: { 'web-2-deploy': 'live\n' },
    });
    expect(await f.run(['logs', 'dc/web', '-f'])).toBe(0);
    expect(f.reads.map((r) => r.opts.follow)).toEqual([true]);
    expect(f.out.text).toBe('live\n');
  });

  it('says the deployer pod is gone and prints what is left: RC annotations and events', async () => {
    const ev: CoreV1Event = {
      metadata: { name: 'e1' }, involvedObject: { kind: 'ReplicationController', name: 'web-2' },
      type: 'Normal', reason: 'RolloutComplete', message: 'done', lastTimestamp: new Date('2026-11-30T10:00:00Z'),
    };
    const h = logsHarness({
      dc, rcs: [rc('web-2', 'Failed', { [Annotations.StatusReason]: 'deployer pod failed' })],
      pods: [[]], events: { 'web-2': [ev] },
    });
    expect(await h.run(['logs', 'dc/web'])).toBe(1);
    expect(h.out.text).toContain('Rollout web-2:\n  phase: Failed\n  reason: deployer pod failed\nEvents:\n');
    expect(h.out.text).toMatch(/2026-11-30T10:00:00.000Z +Normal +RolloutComplete +replicationcontroller\/web-2 +done/);
    expect(h.err.text).toBe('error: the deployer pod web-2-deploy of rollout #2 is gone (deleted after the rollout, by `rollout retry` or by hand); its log cannot be read\n');
  });

  it('explains a pruned RC, a DC without rollouts, a bad version and a pending deployer without -f', async () => {
    const pruned = logsHarness({ dc, rcs: [rc('web-2', 'Complete')] });
    expect(await pruned.run(['logs', 'dc/web', '--version', '1'])).toBe(1);
    expect(pruned.err.text).toContain('replication controller web-1 of rollout #1 is gone (pruned by revisionHistoryLimit or deleted)');
    const none = logsHarness({ dc: makeDc('web') });
    expect(await none.run(['logs', 'dc/web'])).toBe(1);
    expect(none.err.text).toBe('error: no deployment exists for deploymentConfig "web"\n');
    expect(() => targetVersion(2, 'web', { version: 3, previous: false })).toThrow('has no rollout #3 (latest is #2)');
    expect(() => targetVersion(1, 'web', { previous: true })).toThrow('has no previous rollout');
    const pending = logsHarness({ dc, rcs: [rc('web-2', 'Pending')], pods: [[pod('web-2-deploy', 'Pending')]] });
    expect(await pending.run(['logs', 'dc/web'])).toBe(1);
    expect(pending.err.text).toContain('has not started yet (phase Pending); use -f to wait for it');
    const missing = logsHarness({});
    expect(await missing.run(['logs', 'dc/nope'])).toBe(1);
    expect(missing.err.text).toBe('Error from server (NotFound): deploymentconfigs.apps.openshift.io "nope" not found\n');
  });

  it('orders pods: deployer, then pre, mid, post', () => {
    const o = orderRolloutPods('web-2', [pod('web-2-hook-mid', 'Succeeded'), pod('web-2-hook-post', 'Succeeded'), pod('web-2-hook-pre', 'Succeeded'), pod('web-2-deploy', 'Running')]);
    expect(o.deployer?.metadata?.name).toBe('web-2-deploy');
    expect(o.hooks.map((p) => p.metadata?.name)).toEqual(['web-2-hook-pre', 'web-2-hook-mid', 'web-2-hook-post']);
  });
});
