import { describe, it, expect } from '@jest/globals';
import type { CoreV1Event, V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { ApiError } from '../../../src/controller/errors.js';
import { main } from '../../../src/cli/index.js';
import { orderRolloutPods, targetVersion } from '../../../src/cli/logs/logs.js';
import type { LogsContext, PodLogOptions } from '../../../src/cli/logs/ports.js';
import { Output } from '../../support/output.js';
import { NS, makeDc } from './fixtures.js';

const pod = (name: string, phase: string, rc = 'web-2'): V1Pod => ({
  metadata: { name, namespace: NS, labels: { 'openshift.io/deployer-pod-for.name': rc } },
  spec: { containers: [{ name: name.endsWith('-deploy') ? 'deployment' : 'lifecycle' }] },
  status: { phase },
});
const rc = (name: string, phase: string, extra: Record<string, string> = {}): V1ReplicationController =>
  ({ metadata: { name, namespace: NS, annotations: { [Annotations.Phase]: phase, ...extra } } });

function logsHarness(opts: { dc?: DeploymentConfig; rcs?: V1ReplicationController[]; pods?: V1Pod[][]; logs?: Record<string, string>; events?: Record<string, CoreV1Event[]> }) {
  const out = new Output();
  const err = new Output();
  const reads: Array<{ pod: string; container: string; opts: PodLogOptions }> = [];
  let listCalls = 0;
  const selectors: string[] = [];
  const ctx: LogsContext = {
    out, err, namespace: NS,
    getDc: async (name) => {
      if (!opts.dc || name !== opts.dc.metadata.name) throw new ApiError('not found', 404, 'NotFound');
      return opts.dc;
    },
    findRc: async (name) => opts.rcs?.find((r) => r.metadata?.name === name),
    listPods: async (selector) => {
      selectors.push(selector);
      const lists = opts.pods ?? [[]];
      return lists[Math.min(listCalls++, lists.length - 1)] ?? [];
    },
    streamPodLog: async (p, container, o) => {
      reads.push({ pod: p, container, opts: o });
      const text = opts.logs?.[p];
      if (text === undefined) throw new ApiError(`pods "${p}" not found`, 404, 'NotFound');
      out.write(text);
    },
    listEvents: async (name) => opts.events?.[name] ?? [],
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
