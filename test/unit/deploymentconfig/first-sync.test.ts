/**
 * A triggered rollout with nothing to cancel: the RC is created from the bumped DC and the bump is
 * stored with the RC's own status write (one write fewer between a DC write and its RC), and a
 * crash between the two leaves an RC newer than latestVersion, which the next sync records
 * (step 4) with the cause the RC carries, never creating it twice.
 */
import { describe, expect, it } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import { decodeDeploymentConfig } from '../../../src/apis/encoded.js';
import { RetriableError } from '../../../src/controller/errors.js';
import { conflict, newFakeCluster, type FakeCluster } from '../../support/fakes.js';
import { makeDc, NS, progressing, rcFor, setImage, storedDc, syncCatch, userEdits } from './fixtures.js';

const STATUS = 'update deploymentconfigs/status ns/app';
const statusWrite = { verb: 'update', resource: 'deploymentconfigs', subresource: 'status' } as const;

/** A DC at version 1 whose RC `app-1` is Complete. */
function rolledOut(): FakeCluster {
  const f = newFakeCluster();
  const dc = makeDc({ latestVersion: 1 });
  f.dcs.put(dc);
  f.rcs.put(rcFor(dc, 1, { replicas: 1 }));
  return f;
}

describe('a triggered rollout with nothing to cancel', () => {
  it('creates the new RC first and stores the bump, its cause and Progressing in one status write', async () => {
    const f = rolledOut();
    userEdits(f, setImage('nginx:2'));
    expect(await syncCatch(f)).toBeUndefined();
    expect(f.api.writeSummary()).toEqual(['create replicationcontrollers ns/app-2', STATUS]);
    const status = storedDc(f).status!;
    expect(status.latestVersion).toBe(2);
    expect(status.details).toEqual({ message: 'config change', causes: [{ type: 'ConfigChange' }] });
    expect(status.observedGeneration).toBe(storedDc(f).metadata.generation);
    expect(progressing(f)).toMatchObject({ status: 'True', reason: 'NewReplicationControllerCreated' });
    // The RC encodes the DC as it is after the bump, as OpenShift's does.
    const encoded = decodeDeploymentConfig(f.rcs.get(NS, 'app-2')!);
    expect(encoded.status?.latestVersion).toBe(2);
    expect(encoded.spec.template?.spec?.containers[0]?.image).toBe('nginx:2');
    expect(f.recorder.summary()).toEqual(['Normal DeploymentCreated: Created new replication controller "app-2" for version 2']);
  });

  it('stores the bump alone while the latest rollout still runs, then cancels it before any new RC exists', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ latestVersion: 1 });
    f.dcs.put(dc);
    f.rcs.put(rcFor(dc, 1, { phase: 'Running' }));
    userEdits(f, setImage('nginx:2'));
    const err = await syncCatch(f);
    expect(err).toBeInstanceOf(RetriableError);
    expect((err as Error).message).toMatch(/found previous inflight deployment/);
    expect(f.api.writeSummary()).toEqual([STATUS, 'update replicationcontrollers ns/app-1']);
    expect(storedDc(f).status?.latestVersion).toBe(2);
    expect(f.rcs.get(NS, 'app-2')).toBeUndefined();
    expect(f.rcs.get(NS, 'app-1')?.metadata?.annotations?.[Annotations.Cancelled]).toBe('true');
  });
});

describe('a crash between creating the RC and storing the bump', () => {
  it('the next sync records the version and cause the RC carries, without creating it again', async () => {
    const f = rolledOut();
    userEdits(f, setImage('nginx:2'));
    f.api.failOn(statusWrite, new Error('connection reset'), 1);
    expect(await syncCatch(f)).toBeDefined();
    expect(storedDc(f).status?.latestVersion).toBe(1);
    expect(f.rcs.get(NS, 'app-2')).toBeDefined();

    const before = f.api.writes().length;
    expect(await syncCatch(f)).toBeUndefined();
    expect(f.api.writeSummary().slice(before)).toEqual([STATUS]);
    expect(storedDc(f).status).toMatchObject({ latestVersion: 2, details: { message: 'config change', causes: [{ type: 'ConfigChange' }] } });
    // Settled: the next sync finds the RC for latestVersion and creates nothing.
    expect(await syncCatch(f)).toBeUndefined();
    expect(f.api.find({ verb: 'create' }).map((a) => a.name)).toEqual(['app-2']);
  });

  it('the first rollout too: version 0 resumes at the RC that exists', async () => {
    const f = newFakeCluster();
    f.dcs.put(makeDc());
    f.api.failOn(statusWrite, conflict('deploymentconfigs', 'app'), 1);
    expect(await syncCatch(f)).toBeDefined();
    expect(storedDc(f).status?.latestVersion).toBe(0);
    expect(await syncCatch(f)).toBeUndefined();
    expect(await syncCatch(f)).toBeUndefined();
    expect(storedDc(f).status?.latestVersion).toBe(1);
    expect(f.api.find({ verb: 'create' }).map((a) => a.name)).toEqual(['app-1']);
  });

  it('a pause that lands in between: the status still reports the RC that exists', async () => {
    const f = rolledOut();
    userEdits(f, setImage('nginx:2'));
    f.api.failOn(statusWrite, conflict('deploymentconfigs', 'app'), 1);
    await syncCatch(f);
    userEdits(f, (dc) => { dc.spec.paused = true; });
    expect(await syncCatch(f)).toBeUndefined();
    expect(storedDc(f).status?.latestVersion).toBe(2);
  });
});

describe('the cause is taken from the RC only when it can be believed', () => {
  /** DC at version 1 with an RC `app-2` whose encoded config says `encodedVersion` and `details`. */
  function withNewerRc(encodedVersion: number, details: unknown): FakeCluster {
    const f = rolledOut();
    const dc = storedDc(f);
    f.rcs.put(rcFor(dc, 2, {
      phase: 'New',
      mutate: (rc) => {
        const encoded = JSON.parse(rc.metadata!.annotations![Annotations.EncodedConfig]!) as Record<string, Record<string, unknown>>;
        encoded.status!.latestVersion = encodedVersion;
        encoded.status!.details = details;
        rc.metadata!.annotations![Annotations.EncodedConfig] = JSON.stringify(encoded);
      },
    }));
    return f;
  }

  it('an encoded config written for another version: latestVersion moves, the old cause stays', async () => {
    const f = withNewerRc(7, { message: 'forged', causes: [{ type: 'Manual' }] });
    const previous = storedDc(f).status?.details;
    await syncCatch(f);
    expect(storedDc(f).status?.latestVersion).toBe(2);
    expect(storedDc(f).status?.details).toEqual(previous);
  });

  it('oversized or ill-typed details are bounded and filtered', async () => {
    const causes = [
      { type: 'ImageChange', imageTrigger: { from: { kind: 'DockerImage', name: 'x'.repeat(5000), extra: 1 } } },
      { type: 'Rm -rf' }, 42, { type: 7 },
      ...Array.from({ length: 100 }, () => ({ type: 'ConfigChange' })),
    ];
    const f = withNewerRc(2, { message: 'm'.repeat(100_000), causes });
    await syncCatch(f);
    const details = storedDc(f).status?.details;
    expect(details?.message).toHaveLength(1024);
    expect(details?.causes?.[0]).toEqual({ type: 'ImageChange', imageTrigger: { from: { kind: 'DockerImage', name: 'x'.repeat(1024) } } });
    // 32 entries looked at; 3 of them are not causes.
    expect(details?.causes).toHaveLength(29);
  });

  it('an unreadable encoded config: latestVersion still moves, once', async () => {
    const f = rolledOut();
    f.rcs.put(rcFor(storedDc(f), 2, { phase: 'New', mutate: (rc) => { rc.metadata!.annotations![Annotations.EncodedConfig] = '{not json'; } }));
    const before = f.api.writes().length;
    await syncCatch(f);
    await syncCatch(f);
    expect(storedDc(f).status?.latestVersion).toBe(2);
    expect(f.api.writeSummary().slice(before).filter((w) => w === STATUS).length).toBeLessThanOrEqual(2);
  });
});
