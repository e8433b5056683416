/**
 * Values on RCs that anyone allowed to patch RCs in the namespace (every deployer and hook pod
 * among them) can rewrite. Attacks from issue 14, item 1: a forged
 * `openshift.io/deployment-config.latest-version` must never move status.latestVersion or cause
 * more than the one status write that reports it.
 */
import { describe, expect, it } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import { newFakeCluster, type FakeCluster } from '../../support/fakes.js';
import { deployerSets, makeDc, NAME, NS, rcFor, settle, storedDc, sync } from './fixtures.js';

const rcNames = (f: FakeCluster): string[] => f.rcs.list(NS).map((rc) => rc.metadata!.name!).sort();
const replicaFailure = (f: FakeCluster) => storedDc(f).status?.conditions?.find((c) => c.type === 'ReplicaFailure');
const statusWrites = (f: FakeCluster) => f.api.find({ verb: 'update', subresource: 'status' }).length;

/** A DC rolled out to app-1 Complete with one replica. */
async function rolledOut(): Promise<FakeCluster> {
  const f = newFakeCluster();
  f.dcs.put(makeDc());
  await settle(f);
  deployerSets(f, `${NAME}-1`, 'Complete', 1);
  await settle(f);
  expect(storedDc(f).status?.latestVersion).toBe(1);
  return f;
}

describe('forged latest-version annotation on an RC', () => {
  it.each(['2147483647', '99', '2', 'one', '-7'])('latest-version=%s on app-1: no version moves, one status write, a condition and an event', async (forged) => {
    const f = await rolledOut();
    const writesBefore = statusWrites(f);
    f.rcs.mutate(NS, `${NAME}-1`, (rc) => { rc.metadata!.annotations![Annotations.LatestVersion] = forged; });

    const rounds = await settle(f, 50);

    expect(rounds).toBeLessThanOrEqual(3);
    expect(storedDc(f).status?.latestVersion).toBe(1);
    expect(statusWrites(f) - writesBefore).toBe(1);
    expect(rcNames(f)).toEqual(['app-1']);
    expect(replicaFailure(f)).toMatchObject({
      status: 'True', reason: 'InvalidReplicationController',
      message: `replication controller "app-1" has annotation openshift.io/deployment-config.latest-version=${JSON.stringify(forged)}, which disagrees with the version in its name; version 1 is used`,
    });
    expect(f.recorder.reasons()).toEqual(expect.arrayContaining(['InvalidReplicationController']));
    expect(f.recorder.reasons().filter((r) => r === 'InvalidReplicationController')).toHaveLength(1);

    // Setting it back clears the condition; nothing was rolled out meanwhile.
    f.rcs.mutate(NS, `${NAME}-1`, (rc) => { rc.metadata!.annotations![Annotations.LatestVersion] = '1'; });
    await settle(f);
    expect(replicaFailure(f)).toBeUndefined();
    expect(storedDc(f).status?.latestVersion).toBe(1);
    expect(rcNames(f)).toEqual(['app-1']);
  });

  it('an adopted RC not named <dc>-<N> never moves latestVersion, whatever it claims', async () => {
    const f = await rolledOut();
    const stray = rcFor(makeDc(), 1);
    stray.metadata!.name = 'stray';
    stray.metadata!.uid = 'stray-uid';
    stray.metadata!.ownerReferences = [];
    stray.metadata!.annotations![Annotations.LatestVersion] = '2147483647';
    f.rcs.put(stray);
    await settle(f, 50);
    expect(storedDc(f).status?.latestVersion).toBe(1);
    expect(replicaFailure(f)?.message).toContain('replication controller "stray" is not named <deployment config>-<version>');
    expect(rcNames(f)).toEqual(['app-1', 'stray']);
  });

  it('a DC re-created over orphans resumes at the newest adopted RC in one status write', async () => {
    const f = newFakeCluster();
    const old = makeDc({ latestVersion: 40 });
    for (const v of [38, 39, 40]) f.rcs.put(rcFor(old, v, { replicas: v === 40 ? 1 : 0 }));
    for (const v of [38, 39, 40]) f.rcs.mutate(NS, `${NAME}-${v}`, (rc) => { rc.metadata!.ownerReferences = []; });
    f.dcs.put(makeDc({ latestVersion: 1 }));
    await sync(f);
    expect(storedDc(f).status?.latestVersion).toBe(40);
    expect(statusWrites(f)).toBe(1);
    await settle(f);
    expect(rcNames(f)).toEqual(['app-38', 'app-39', 'app-40']);
  });
});

describe('unknown phase annotation on an RC (issue 14 item 4b)', () => {
  it('is reported by a condition and one event instead of blocking the DC silently; fixing it recovers', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc());
    await settle(f);
    deployerSets(f, `${NAME}-1`, 'Exploded' as 'Complete');
    await settle(f);
    expect(replicaFailure(f)).toMatchObject({
      status: 'True', reason: 'InvalidReplicationController',
      message: 'replication controller "app-1" has unknown phase "Exploded" in annotation openshift.io/deployment.phase, so no controller can move its rollout on; '
        + "set it to one of New, Pending, Running, Complete, Failed, or run 'rollout cancel' or 'rollout retry'",
    });
    expect(f.recorder.reasons().filter((r) => r === 'InvalidReplicationController')).toHaveLength(1);
    const writes = f.api.writes().length;
    await settle(f);
    expect(f.api.writes().length).toBe(writes);

    deployerSets(f, `${NAME}-1`, 'Complete', 1);
    await settle(f);
    expect(replicaFailure(f)).toBeUndefined();
    expect(storedDc(f).status?.conditions?.find((c) => c.type === 'Progressing')?.reason).toBe('NewReplicationControllerAvailable');
  });
});
