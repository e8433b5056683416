import { describe, expect, it } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import type { RollingDeploymentStrategyParams } from '../../../src/apis/deploymentconfig.js';
import { rollingUpdaterWriter } from '../../../src/deployer/rolling.js';
import { Output } from '../../support/output.js';
import { newSimulatedCluster, workloadWrites } from '../../support/simulation.js';
import { NS, addRcFor, deploy, makeDc, replicaPairs } from './helpers.js';

function rollingSetup(desired: number, params: RollingDeploymentStrategyParams, oldReplicas = desired) {
  const cluster = newSimulatedCluster();
  const dc = makeDc('web', { type: 'Rolling', rollingParams: params }, { replicas: desired });
  addRcFor(cluster, dc, 1, { phase: 'Complete', replicas: oldReplicas, desired: null });
  addRcFor(cluster, dc, 2, { desired });
  return { cluster, dc };
}

describe('rolling strategy', () => {
  it('writes the RCs only by patches and lists the DC\'s RCs once: no GET, no write that is not a step', async () => {
    const { cluster } = rollingSetup(3, { maxSurge: '25%', maxUnavailable: '25%' });
    const { code, err } = await deploy(cluster, 'web-2');
    expect(err.text).toBe('');
    expect(code).toBe(0);
    const rcRequests = cluster.api.actions.filter((a) => a.resource === 'replicationcontrollers')
      .map((a) => `${a.verb}${a.subresource ? `/${a.subresource}` : ''}${a.patchType && !a.subresource ? ` ${a.patchType}` : ''} ${a.name}`);
    expect(rcRequests).toEqual([
      'list ', // the DC's RCs, named by web-2's `<dc>-<version>`: web-2 is taken from there
      // the six steps of the rolling update, each a merge patch of spec.replicas; the first of
      // web-2 carries update-source-id, the first of web-1 original-replicas
      'patch merge web-2', 'patch merge web-1', 'patch merge web-2', 'patch merge web-1', 'patch merge web-2', 'patch merge web-1',
      'patch merge web-2', // the updater's annotations removed
    ]);
    const patches = cluster.api.actions.filter((a) => a.resource === 'replicationcontrollers' && a.verb === 'patch');
    expect(patches[0]?.body).toEqual({ metadata: { annotations: { [Annotations.UpdateSourceId]: `web-1:${cluster.rcs.get(NS, 'web-1')!.metadata!.uid}` } }, spec: { replicas: 1 } });
    expect(patches[1]?.body).toEqual({ metadata: { annotations: { [Annotations.OriginalReplicas]: '3' } }, spec: { replicas: 2 } });
    expect(patches[2]?.body).toEqual({ spec: { replicas: 2 } });
    const annotations = cluster.rcs.get(NS, 'web-2')!.metadata!.annotations!;
    expect(annotations[Annotations.UpdateSourceId]).toBeUndefined();
    expect(annotations[Annotations.DesiredReplicas]).toBeUndefined();
    expect(cluster.rcs.get(NS, 'web-1')!.metadata!.annotations![Annotations.OriginalReplicas]).toBe('3');
  });

  it.each([
    {
      name: 'desired 3, surge 25%, unavailable 25%',
      desired: 3,
      params: { maxSurge: '25%', maxUnavailable: '25%' },
      header: 'Scaling up web-2 from 0 to 3, scaling down web-1 from 3 to 0 (keep 3 pods available, don\'t exceed 4 pods)',
      pairs: [[1, 3], [1, 2], [2, 2], [2, 1], [3, 1], [3, 0]],
      min: 3, max: 4,
    },
    {
      name: 'desired 10, surge 0, unavailable 1',
      desired: 10,
      params: { maxSurge: 0, maxUnavailable: 1 },
      header: 'Scaling up web-2 from 0 to 10, scaling down web-1 from 10 to 0 (keep 9 pods available, don\'t exceed 10 pods)',
      pairs: [
        [0, 9], [1, 9], [1, 8], [2, 8], [2, 7], [3, 7], [3, 6], [4, 6], [4, 5], [5, 5], [5, 4],
        [6, 4], [6, 3], [7, 3], [7, 2], [8, 2], [8, 1], [9, 1], [9, 0], [10, 0],
      ],
      min: 9, max: 10,
    },
    {
      name: 'desired 1',
      desired: 1,
      params: {},
      header: 'Scaling up web-2 from 0 to 1, scaling down web-1 from 1 to 0 (keep 1 pods available, don\'t exceed 2 pods)',
      pairs: [[1, 1], [1, 0]],
      min: 1, max: 2,
    },
    {
      name: 'desired 0',
      desired: 0,
      params: {},
      oldReplicas: 3,
      header: 'Scaling up web-2 from 0 to 0, scaling down web-1 from 3 to 0 (keep 0 pods available, don\'t exceed 0 pods)',
      pairs: [[0, 0]],
      min: 0, max: 3,
    },
  ])('$name', async ({ desired, params, header, pairs, min, max, oldReplicas }) => {
    const { cluster } = rollingSetup(desired, params as RollingDeploymentStrategyParams, oldReplicas ?? desired);
    const { code, out, err } = await deploy(cluster, 'web-2');
    expect(err.text).toBe('');
    expect(code).toBe(0);
    expect(out.lines[0]).toBe(`--> ${header}`);
    const seen = replicaPairs(workloadWrites(cluster), 'web-2', 'web-1', [0, oldReplicas ?? desired]);
    expect(seen).toEqual(pairs);
    for (const [n, o] of seen) {
      expect(n + o).toBeLessThanOrEqual(Math.max(max, oldReplicas ?? 0));
      expect(n + o).toBeGreaterThanOrEqual(min);
    }
    expect(out.lines.at(-1)).toBe('--> Success');
  });

  it('prints indented progress lines and cleans up the update annotations', async () => {
    const { cluster } = rollingSetup(3, { maxSurge: '25%', maxUnavailable: '25%' });
    const { code, out } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    expect(out.lines.slice(1, 4)).toEqual(['    Scaling web-2 up to 1', '    Scaling web-1 down to 2', '    Scaling web-2 up to 2']);
    const to = cluster.rcs.get(NS, 'web-2')!;
    expect(to.metadata?.annotations?.[Annotations.UpdateSourceId]).toBeUndefined();
    expect(to.metadata?.annotations?.[Annotations.DesiredReplicas]).toBeUndefined();
    expect(cluster.rcs.get(NS, 'web-1')!.metadata?.annotations?.[Annotations.OriginalReplicas]).toBe('3');
    // The source id was set with the first scale, before any other write to web-2.
    expect(workloadWrites(cluster).filter((w) => w.includes('web-2'))[0]).toBe('scale web-2 1');
  });

  it('sleeps UpdatePeriod between the scale-up and scale-down halves', async () => {
    const { cluster } = rollingSetup(1, { updatePeriodSeconds: 30 });
    const start = cluster.clock.now().getTime();
    const { code } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    // One iteration: scale-up wait (one RC-manager tick), 30 s period, scale-down wait, cleanup.
    const elapsed = cluster.clock.elapsedSince(start);
    expect(elapsed).toBeGreaterThanOrEqual(30_000);
    expect(elapsed).toBeLessThan(35_000);
  });

  it('counts only NEW pods available for minReadySeconds before scaling down', async () => {
    const cluster = newSimulatedCluster();
    const dc = makeDc('web', { type: 'Rolling', rollingParams: { maxSurge: 1, maxUnavailable: 0, updatePeriodSeconds: 1 } }, { replicas: 2, minReadySeconds: 20 });
    addRcFor(cluster, dc, 1, { phase: 'Complete', replicas: 2, desired: null });
    addRcFor(cluster, dc, 2, { desired: 2 });
    const start = cluster.clock.now().getTime();
    const { code } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    // web-1 cannot lose a pod before web-2's first pod has been Ready for 20 s.
    expect(cluster.clock.elapsedSince(start)).toBeGreaterThan(40_000);
    expect(replicaPairs(workloadWrites(cluster), 'web-2', 'web-1', [0, 2])).toEqual([[1, 2], [1, 1], [2, 1], [2, 0]]);
  });

  it('scales down as soon as the new pods are available once UpdatePeriod has passed, not a whole period later', async () => {
    const cluster = newSimulatedCluster();
    const dc = makeDc('web', { type: 'Rolling', rollingParams: { maxSurge: 1, maxUnavailable: 0, updatePeriodSeconds: 4 } }, { replicas: 1, minReadySeconds: 5 });
    addRcFor(cluster, dc, 1, { phase: 'Complete', replicas: 1, desired: null });
    addRcFor(cluster, dc, 2, { desired: 1 });
    const start = cluster.clock.now().getTime();
    const { code } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    expect(replicaPairs(workloadWrites(cluster), 'web-2', 'web-1', [0, 1])).toEqual([[1, 1], [1, 0]]);
    // web-2's pod exists after one RC-manager tick (0.5 s) and is available 5 s later; kubectl
    // looks every period (4.5 s, then 8.5 s) and would scale web-1 down at 8.5 s. Here: at 5.5 s,
    // then one tick for web-1 and one for the cleanup.
    const elapsed = cluster.clock.elapsedSince(start);
    expect(elapsed).toBeGreaterThanOrEqual(5_500);
    expect(elapsed).toBeLessThan(7_000);
  });

  it.each([
    { step: 'forward', ms: 3600_000 },
    { step: 'back', ms: -3600_000 },
  ])('keeps UpdatePeriod and timeoutSeconds to elapsed time when the wall clock steps $step an hour', async ({ ms }) => {
    // NTP or a resumed VM steps the node's clock. As kubectl's and OpenShift's Go (monotonic
    // time.Now), neither skips the period and scales down early, nor fails the rollout for a
    // timeout it did not wait for, nor sleeps an hour.
    const { cluster } = rollingSetup(3, { maxSurge: '25%', maxUnavailable: '25%', updatePeriodSeconds: 5, timeoutSeconds: 60 });
    const start = cluster.clock.monotonicMs();
    cluster.clock.setTimer(100, () => cluster.clock.stepWallClock(ms));
    const { code, err } = await deploy(cluster, 'web-2');
    expect(err.text).toBe('');
    expect(code).toBe(0);
    expect(replicaPairs(workloadWrites(cluster), 'web-2', 'web-1', [0, 3])).toEqual([[1, 3], [1, 2], [2, 2], [2, 1], [3, 1], [3, 0]]);
    // Three rounds of a 5 s period each, plus the RC manager's ticks.
    const elapsed = cluster.clock.monotonicMs() - start;
    expect(elapsed).toBeGreaterThanOrEqual(15_000);
    expect(elapsed).toBeLessThan(25_000);
  });

  it('fails when no replica count changes within timeoutSeconds', async () => {
    const { cluster } = rollingSetup(3, { maxSurge: 0, maxUnavailable: 1, timeoutSeconds: 10 });
    cluster.sim.neverReady.add('web-2');
    const start = cluster.clock.now().getTime();
    const { code, err } = await deploy(cluster, 'web-2');
    expect(code).toBe(1);
    expect(err.text).toBe('error: timed out waiting for any update progress to be made\n');
    expect(cluster.clock.elapsedSince(start)).toBeGreaterThan(10_000);
    // Availability was kept: never below 2 old + 0 available new.
    expect(replicaPairs(workloadWrites(cluster), 'web-2', 'web-1', [0, 3])).toEqual([[0, 2], [1, 2]]);
  });

  it.each([
    ['pre', '--> pre hook succeeded'],
    ['0%', '--> Reached 0% (before rollout)'],
    ['50%', '--> Reached 50% (currently 66%)'],
  ])('--until=%s stops with exit 0', async (until, line) => {
    const { cluster } = rollingSetup(3, { maxSurge: '25%', maxUnavailable: '25%' });
    const { code, out } = await deploy(cluster, 'web-2', until);
    expect(code).toBe(0);
    expect(out.lines.at(-1)).toBe(line);
    expect(out.text).not.toContain('--> Success');
    if (until !== '50%') expect(workloadWrites(cluster).filter((a) => a.startsWith('scale'))).toEqual([]);
  });

  it('fails when the new RC carries a foreign update-source-id', async () => {
    const { cluster } = rollingSetup(3, {});
    // Someone else marked it with another source.
    await cluster.rcClient.patch(NS, 'web-2', { metadata: { annotations: { [Annotations.UpdateSourceId]: 'web-0:other' } } }, 'merge');
    const { code, err } = await deploy(cluster, 'web-2');
    expect(code).toBe(1);
    expect(err.text).toMatch(/^error: missing\/unexpected annotations for controller web-2, expected web-1:uid-\d+ : map\[.*kubectl.kubernetes.io\/update-source-id:web-0:other.*\]\n$/);
  });

  it('rolls out the first deployment through the Recreate path with acceptance', async () => {
    const cluster = newSimulatedCluster();
    const dc = makeDc('web', { type: 'Rolling', rollingParams: {} }, { replicas: 3 });
    addRcFor(cluster, dc, 1, { desired: 3 });
    const { code, out } = await deploy(cluster, 'web-1');
    expect(code).toBe(0);
    expect(out.lines).toEqual(['--> Scaling web-1 to 3', '--> Success']);
    expect(workloadWrites(cluster)).toEqual(['scale web-1 3']);
  });

  it('first rollout after only failed ones scales the failed RC down and uses recreate', async () => {
    const cluster = newSimulatedCluster();
    const dc = makeDc('web', { type: 'Rolling', rollingParams: {} }, { replicas: 2 });
    addRcFor(cluster, dc, 1, { phase: 'Failed', replicas: 1 });
    addRcFor(cluster, dc, 2, { desired: 2 });
    const { code, out } = await deploy(cluster, 'web-2');
    expect(code).toBe(0);
    expect(out.lines).toEqual(['--> Scaled older deployment web-1 down', '--> Scaling web-2 to 2', '--> Success']);
  });

  it('reports an acceptance timeout for a first rollout', async () => {
    const cluster = newSimulatedCluster();
    const dc = makeDc('web', { type: 'Rolling', rollingParams: { timeoutSeconds: 5 } }, { replicas: 2 });
    addRcFor(cluster, dc, 1, { desired: 2 });
    cluster.sim.neverReady.add('web-1');
    const { code, err } = await deploy(cluster, 'web-1');
    expect(code).toBe(1);
    expect(err.text).toBe("error: update acceptor rejected web-1: pods for rc 'ns/web-1' took longer than 5 seconds to become available\n");
  });
});

describe('rollingUpdaterWriter', () => {
  it('prefixes the first line with --> and indents the rest, dropping "Continuing update"', () => {
    const out = new Output();
    const write = rollingUpdaterWriter(out.asStream());
    write('Continuing update with existing controller web-2.');
    write('first\n');
    write('second\nthird');
    expect(out.text).toBe('--> first\n    second\n    third\n');
  });
});
