/**
 * Values on RCs that anyone allowed to patch RCs in the namespace (every deployer and hook pod
 * among them) can rewrite. Attacks from issue 14, item 1: a forged
 * `openshift.io/deployment-config.latest-version` must never move status.latestVersion or cause
 * more than the one status write that reports it.
 */
import { describe, expect, it } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import { newFakeCluster, type FakeCluster } from '../../support/fakes.js';
import { deployerSets, makeDc, NAME, NS, progressing, rcFor, setImage, settle, storedDc, sync } from './fixtures.js';

const rcNames = (f: FakeCluster): string[] => f.rcs.list(NS).map((rc) => rc.metadata!.name!).sort();
const replicaFailure = (f: FakeCluster) => storedDc(f).status?.conditions?.find((c) => c.type === 'ReplicaFailure');
const statusWrites = (f: FakeCluster) => f.api.find({ verb: 'update', subresource: 'status' }).length;

/**
 * An RC labelled for the DC but owned by nobody, claiming `latestVersion`: what anyone allowed to
 * create RCs in the namespace can put there for the DC controller to adopt.
 */
function putOrphan(f: FakeCluster, name: string, uid: string, latestVersion: string, replicas?: number): void {
  const rc = rcFor(makeDc(), 1, replicas === undefined ? {} : { replicas });
  rc.metadata!.name = name;
  rc.metadata!.uid = uid;
  rc.metadata!.ownerReferences = [];
  rc.metadata!.annotations![Annotations.LatestVersion] = latestVersion;
  f.rcs.put(rc);
}

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
    putOrphan(f, 'stray', 'stray-uid', '2147483647');
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

describe('forged values are quoted in bounded space', () => {
  // 120 KB of `"` doubles when quoted into the condition, and doubles again in the encoded config
  // of the next RC: over the 256 KiB annotation limit, no new RC could be created.
  it('120 KB latest-version values on two RCs, then a 120 KB phase: the condition stays small and the next rollout is created', async () => {
    const f = await rolledOut();
    f.dcs.mutate(NS, NAME, setImage('nginx:2'));
    await settle(f);
    deployerSets(f, `${NAME}-2`, 'Complete', 1);
    await settle(f);
    const forged = '"'.repeat(120_000);
    for (const v of [1, 2]) f.rcs.mutate(NS, `${NAME}-${v}`, (rc) => { rc.metadata!.annotations![Annotations.LatestVersion] = forged; });
    await settle(f, 50);

    let message = replicaFailure(f)?.message ?? '';
    expect(message).toContain('replication controller "app-1" has annotation openshift.io/deployment-config.latest-version=');
    expect(message).toContain('replication controller "app-2" has annotation openshift.io/deployment-config.latest-version=');
    expect(message).toContain('(120000 characters)');
    expect(message.length).toBeLessThan(1024);

    f.dcs.mutate(NS, NAME, setImage('nginx:3'));
    await settle(f, 50);
    const rc3 = f.rcs.get(NS, `${NAME}-3`);
    expect(rc3).toBeDefined();
    const annotationBytes = Object.entries(rc3!.metadata!.annotations!).reduce((n, [k, v]) => n + k.length + v.length, 0);
    expect(annotationBytes).toBeLessThan(16 * 1024);

    deployerSets(f, `${NAME}-3`, forged as 'Complete');
    await settle(f, 50);
    message = replicaFailure(f)?.message ?? '';
    expect(message).toContain('replication controller "app-3" has unknown phase');
    expect(message.length).toBeLessThan(1024);
  });

  it('a hundred RCs with forged values: the condition names the first problems and counts the rest', async () => {
    const f = await rolledOut();
    for (let i = 0; i < 100; i++) {
      putOrphan(f, `stray-${String(i).padStart(3, '0')}`, `stray-${i}`, 'x'.repeat(1000));
    }
    await settle(f, 50);
    const message = replicaFailure(f)?.message ?? '';
    expect(message).toContain('replication controller "stray-000" is not named <deployment config>-<version>');
    expect(message).toMatch(/; and 9\d more$/);
    expect(message.length).toBeLessThan(2048);
  });
});

describe('versions beyond what a DC can reach (an orphan RC <dc>-<huge>)', () => {
  it.each([String(2 ** 31), String(Number.MAX_SAFE_INTEGER), '99999999999999999999'])('an orphan app-%s is not a version: latestVersion stays, the next rollouts are created', async (huge) => {
    const f = await rolledOut();
    putOrphan(f, `${NAME}-${huge}`, 'orphan', huge, 0);
    await settle(f, 30);
    expect(storedDc(f).status?.latestVersion).toBe(1);
    expect(replicaFailure(f)?.message).toContain(`replication controller "${NAME}-${huge}"`);

    for (const v of [2, 3]) {
      f.dcs.mutate(NS, NAME, setImage(`nginx:${v}`));
      await settle(f, 30);
      deployerSets(f, `${NAME}-${v}`, 'Complete', 1);
      await settle(f, 30);
      expect(storedDc(f).status?.latestVersion).toBe(v);
      expect(f.rcs.get(NS, `${NAME}-${v}`)?.metadata?.annotations?.[Annotations.Cancelled]).toBeUndefined();
    }
    await expect(sync(f)).resolves.toBeUndefined();
  });
});

describe('an orphan RC at the highest version (<dc>-2147483647)', () => {
  async function caughtUp(): Promise<FakeCluster> {
    const f = await rolledOut();
    putOrphan(f, `${NAME}-2147483647`, 'orphan', '2147483647', 0);
    await settle(f, 30);
    expect(storedDc(f).status?.latestVersion).toBe(2147483647);
    return f;
  }

  it('a config change is refused with a condition and one event, without a write loop or an RC that is no version', async () => {
    const f = await caughtUp();
    f.dcs.mutate(NS, NAME, setImage('nginx:2'));
    expect(await settle(f, 30)).toBeLessThanOrEqual(3);
    expect(rcNames(f)).toEqual([`${NAME}-1`, `${NAME}-2147483647`]);
    expect(progressing(f)).toMatchObject({
      status: 'False', reason: 'ReplicationControllerCreateError',
      message: 'latestVersion 2147483647 is the highest version a DeploymentConfig can reach (2147483647): no newer replication controller can be created',
    });
    expect(f.recorder.reasons().filter((r) => r === 'DeploymentCreationFailed')).toHaveLength(1);
    const writes = f.api.writes().length;
    await settle(f, 30);
    await expect(sync(f)).resolves.toBeUndefined();
    expect(f.api.writes().length).toBe(writes);
  });

  it('an instantiate request (`rollout latest`) is acknowledged as Rejected with the reason', async () => {
    const f = await caughtUp();
    f.dcs.mutate(NS, NAME, (dc) => { dc.metadata.annotations = { ...(dc.metadata.annotations ?? {}), [Annotations.InstantiateRequest]: '{"id":"r1","force":true}' }; });
    await settle(f, 30);
    expect(storedDc(f).status?.lastInstantiateRequest).toMatchObject({ id: 'r1', outcome: 'Rejected', latestVersion: 2147483647 });
    expect(storedDc(f).status?.lastInstantiateRequest?.message).toContain('is the highest version');
    expect(rcNames(f)).toEqual([`${NAME}-1`, `${NAME}-2147483647`]);
  });
});

describe('an encoded config nested deeper than any DC', () => {
  it.each([['60000 levels of []', 60_000], ['not JSON', -1]])('%s on the latest RC: reported by a condition and an event, like any unreadable config', async (_what, depth) => {
    const f = await rolledOut();
    f.rcs.mutate(NS, `${NAME}-1`, (rc) => {
      const encoded = rc.metadata!.annotations![Annotations.EncodedConfig]!;
      rc.metadata!.annotations![Annotations.EncodedConfig] = depth < 0 ? 'not json'
        : encoded.replace('"template":{', `"template":{"x":${'['.repeat(depth)}${']'.repeat(depth)},`);
    });
    f.dcs.mutate(NS, NAME, (dc) => { dc.spec.replicas = 3; });
    await expect(sync(f)).rejects.toThrow(/couldn't decode deployment config from deployment ns\/app-1/);
    expect(replicaFailure(f)).toMatchObject({ status: 'True', reason: 'InvalidReplicationController' });
    expect(replicaFailure(f)?.message).toMatch(/^replication controller "app-1" cannot be read: couldn't decode deployment config from deployment ns\/app-1: /);
    expect(f.recorder.reasons()).toContain('InvalidReplicationController');
  });
});
