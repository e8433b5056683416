/**
 * High availability on the real local control plane: two `dcctl controller` replicas with Lease
 * leader election. Only the lease holder acts; when it is SIGKILLed mid-rollout the standby
 * takes over once the lease expires and finishes the rollout; on SIGTERM the leader releases the
 * lease and the standby takes over within seconds. Needs `npm run build`.
 */
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { CoordinationV1Api, type V1Lease } from '@kubernetes/client-node';
import { DcClient, dcManifest, phaseOf, shHook } from '../support/dc.js';
import { createNamespace, deleteNamespace, freePort, kubeConfig, startController, waitFor, type ControllerProcess } from '../support/kube.js';

const LeaseName = 'deploymentconfig-controller';
const coordination = kubeConfig().makeApiClient(CoordinationV1Api);

interface Replica {
  proc: ControllerProcess;
  port: number;
  /** The JSON log records the replica wrote so far. */
  records(): Array<Record<string, unknown>>;
  /** Its leader-election identity, read from its own log. */
  identity(): string | undefined;
  logged(msg: string): boolean;
}

const started: ControllerProcess[] = [];
const namespaces: string[] = [];

async function startReplica(ns: string): Promise<Replica> {
  const port = await freePort();
  const proc = startController(ns, ['--leader-elect=true', '--leader-election-namespace', ns, `--metrics-bind-address=127.0.0.1:${port}`]);
  started.push(proc);
  const records = () => proc.output().split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
  return {
    proc,
    port,
    records,
    identity: () => records().find((r) => r.component === 'leader-election' && typeof r.identity === 'string')?.identity as string | undefined,
    logged: (msg) => records().some((r) => r.msg === msg),
  };
}

async function lease(ns: string): Promise<V1Lease | undefined> {
  return coordination.readNamespacedLease({ name: LeaseName, namespace: ns }).catch(() => undefined);
}

async function leaderGauge(r: Replica): Promise<number> {
  const body = await (await fetch(`http://127.0.0.1:${r.port}/metrics`)).text();
  const m = /^dcctl_leader (\d+)/m.exec(body);
  return m ? Number(m[1]) : NaN;
}

/** Starts two replicas and returns [leader, standby] once one of them has synced its caches. */
async function electedPair(ns: string): Promise<[Replica, Replica]> {
  const a = await startReplica(ns);
  const b = await startReplica(ns);
  const leader = await waitFor('one replica to lead and sync its caches', () =>
    [a, b].find((r) => r.logged('Caches synced; starting workers')), { timeoutMs: 30_000 });
  const standby = leader === a ? b : a;
  // The standby has tried at least once and seen the lease taken.
  await waitFor('the standby to observe the leader', () => standby.logged('New leader observed'), { timeoutMs: 15_000 });
  return [leader, standby];
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.kill()));
});

afterAll(async () => {
  await Promise.all(namespaces.map((ns) => deleteNamespace(ns)));
});

describe('leader election and failover (e2e)', () => {
  it('only the lease holder acts; after SIGKILL of the leader mid-rollout the standby takes over and completes it', async () => {
    const ns = await createNamespace('ha-kill');
    namespaces.push(ns);
    const dc = new DcClient(ns);
    const [leader, standby] = await electedPair(ns);

    const l = await lease(ns);
    expect(l?.spec?.holderIdentity).toBe(leader.identity());
    expect(standby.identity()).toBeDefined();
    expect(standby.identity()).not.toBe(leader.identity());
    expect(standby.logged('Caches synced; starting workers')).toBe(false);
    expect(standby.logged('Starting informers')).toBe(false);
    expect(await leaderGauge(leader)).toBe(1);
    expect(await leaderGauge(standby)).toBe(0);
    // A standby is ready (it serves probes and waits); it just does not act.
    expect((await fetch(`http://127.0.0.1:${standby.port}/readyz`)).status).toBe(200);

    // A rollout that spends a few seconds in its pre hook, so the kill lands mid-way.
    await dc.create(dcManifest({
      replicas: 2,
      strategy: { type: 'Rolling', rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 60, pre: shHook('sleep 4', 'Abort') } },
    }));
    await dc.waitForPhase('web-1', 'Running', 30_000);
    expect(leader.records().some((r) => r.msg === 'Created deployer pod' && r.name === 'web-1')).toBe(true);

    const killedAt = Date.now();
    await leader.proc.kill();
    expect(phaseOf(await dc.rc('web-1'))).not.toBe('Complete');

    const standbyId = standby.identity()!;
    await waitFor('the standby to hold the lease', async () => (await lease(ns))?.spec?.holderIdentity === standbyId, { timeoutMs: 25_000, intervalMs: 100 });
    const takeoverMs = Date.now() - killedAt;
    await waitFor('the standby to sync its caches', () => standby.logged('Caches synced; starting workers'), { timeoutMs: 10_000 });

    await dc.waitForPhase('web-1', 'Complete', 60_000);
    const completedMs = Date.now() - killedAt;
    await dc.waitForOnlyActive(1, 2);
    await dc.waitForConditions({ Available: { status: 'True' }, Progressing: { status: 'True', reason: 'NewReplicationControllerAvailable' } });
    expect(await leaderGauge(standby)).toBe(1);
    expect((await lease(ns))?.spec?.leaseTransitions).toBeGreaterThanOrEqual(1);
    // Exactly one rollout was created (the new leader did not start a second one).
    expect((await dc.rcs()).map((rc) => rc.metadata?.name)).toEqual(['web-1']);
    expect((await dc.eventTexts('web')).filter((e) => e.includes('DeploymentCreated'))).toHaveLength(1);

    // The lease is 15 s; the standby retries every 2 s (+20 % jitter).
    expect(takeoverMs).toBeLessThan(15_000 + 4_000);
    console.log(`SIGKILL failover: lease taken over ${takeoverMs} ms after the kill; rollout Complete ${completedMs} ms after the kill`);
  });

  it('on SIGTERM the leader releases the lease and the standby takes over within seconds, then acts', async () => {
    const ns = await createNamespace('ha-term');
    namespaces.push(ns);
    const dc = new DcClient(ns);
    const [leader, standby] = await electedPair(ns);
    expect((await lease(ns))?.spec?.holderIdentity).toBe(leader.identity());

    await dc.create(dcManifest({ replicas: 2 }));
    await dc.waitForPhase('web-1', 'Complete', 60_000);

    const termAt = Date.now();
    const stopping = leader.proc.stop();
    const standbyId = standby.identity()!;
    await waitFor('the standby to hold the lease', async () => (await lease(ns))?.spec?.holderIdentity === standbyId, { timeoutMs: 15_000, intervalMs: 50 });
    const takeoverMs = Date.now() - termAt;
    expect(await stopping).toBe(0);
    const exitedMs = Date.now() - termAt;
    expect(leader.logged('Released leadership')).toBe(true);
    expect(leader.logged('Stopped')).toBe(true);
    await waitFor('the standby to sync its caches', () => standby.logged('Caches synced; starting workers'), { timeoutMs: 10_000 });

    // The new leader acts on the next change.
    dc.setImage('registry.local/web:2');
    await dc.waitForPhase('web-2', 'Complete', 60_000);
    await dc.waitForOnlyActive(2, 2);
    expect(standby.records().some((r) => r.msg === 'Created deployer pod' && r.name === 'web-2')).toBe(true);

    // A released lease is free at once; the standby's next retry (every 2-2.4 s) takes it.
    expect(takeoverMs).toBeLessThan(5_000);
    console.log(`SIGTERM handover: leader exited 0 after ${exitedMs} ms; standby held the lease ${takeoverMs} ms after SIGTERM`);
  });
});
