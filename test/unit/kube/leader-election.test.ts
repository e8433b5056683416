import { afterEach, describe, expect, it } from '@jest/globals';
import type { V1Lease } from '@kubernetes/client-node';
import { pino } from 'pino';
import { ApiError } from '../../../src/controller/errors.js';
import { sleep, until as waitUntil } from '../../support/wait.js';
import { steppableWallClock } from '../../support/wall-clock.js';
import { LeaderElector, type LeaseApi } from '../../../src/kube/leader-election.js';

const until = (cond: () => boolean, timeoutMs = 3000): Promise<void> => waitUntil(cond, timeoutMs, 5);

/** In-memory Lease store with apiserver-like resourceVersion checks. */
class MemoryLeases implements LeaseApi {
  lease: V1Lease | undefined;
  rv = 0;
  down = false;
  writes: V1Lease[] = [];
  reads = 0;
  /** How long each call takes, as a request to kube-apiserver does. */
  constructor(private readonly latencyMs = 0) {}
  async readNamespacedLease() {
    this.reads++;
    if (this.latencyMs) await sleep(this.latencyMs);
    if (this.down) throw new Error('ECONNREFUSED');
    if (!this.lease) throw new ApiError('not found', 404, 'NotFound');
    return structuredClone(this.lease);
  }
  async createNamespacedLease({ body }: { namespace: string; body: V1Lease }) {
    if (this.down) throw new Error('ECONNREFUSED');
    if (this.lease) throw new ApiError('exists', 409, 'AlreadyExists');
    return this.store(body);
  }
  async replaceNamespacedLease({ body }: { name: string; namespace: string; body: V1Lease }) {
    if (this.latencyMs) await sleep(this.latencyMs);
    if (this.down) throw new Error('ECONNREFUSED');
    if (body.metadata?.resourceVersion !== this.lease?.metadata?.resourceVersion) throw new ApiError('conflict', 409, 'Conflict');
    return this.store(body);
  }
  private store(body: V1Lease) {
    // Serialized like the wire would: MicroTime → string.
    const stored = JSON.parse(JSON.stringify(body)) as V1Lease;
    stored.metadata = { ...stored.metadata, resourceVersion: String(++this.rv) };
    this.lease = stored;
    this.writes.push(stored);
    return structuredClone(stored);
  }
}

const log = pino({ level: 'silent' });
const timing = { leaseDurationMs: 1000, renewDeadlineMs: 300, retryPeriodMs: 40 };
let electors: LeaderElector[] = [];
afterEach(async () => { await Promise.all(electors.map((e) => e.release())); electors = []; });

function elector(api: LeaseApi, identity: string, overrides: Partial<typeof timing> = {}) {
  const e = new LeaderElector(api, { namespace: 'ns', name: 'dc-controller', identity, log, ...timing, ...overrides });
  electors.push(e);
  const events: string[] = [];
  const done = e.run({ onStartedLeading: () => void events.push('started'), onStoppedLeading: () => void events.push('stopped') });
  return { e, events, done };
}

describe('LeaderElector', () => {
  it('creates the lease and renews it while leading; MicroTimes go out with 6 fractional digits', async () => {
    const api = new MemoryLeases();
    const a = elector(api, 'a');
    await until(() => a.events.includes('started'));
    expect(a.e.isLeader()).toBe(true);
    expect(api.lease?.spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 1, leaseTransitions: 0 });
    expect(String(api.lease?.spec?.renewTime)).toMatch(/\.\d{6}Z$/);
    const writes = api.writes.length;
    await sleep(150);
    expect(api.writes.length).toBeGreaterThan(writes);
    expect(api.lease?.spec?.holderIdentity).toBe('a');
  });

  it('only one of two candidates leads; release hands over at once', async () => {
    const api = new MemoryLeases();
    const a = elector(api, 'a');
    await until(() => a.e.isLeader());
    const b = elector(api, 'b');
    await sleep(200);
    expect(b.e.isLeader()).toBe(false);
    const released = Date.now();
    await a.e.release();
    await a.done;
    expect(a.events).toEqual(['started', 'stopped']);
    await until(() => b.e.isLeader());
    // Far sooner than the 1 s lease duration: the empty holder is taken on the next retry.
    expect(Date.now() - released).toBeLessThan(500);
    expect(api.lease?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('takes over an abandoned lease only after it expires', async () => {
    const api = new MemoryLeases();
    const now = new Date().toISOString();
    api.lease = { metadata: { name: 'dc-controller', namespace: 'ns', resourceVersion: '1' }, spec: { holderIdentity: 'dead', leaseDurationSeconds: 1, renewTime: now as never, leaseTransitions: 3 } };
    const b = elector(api, 'b');
    const t0 = Date.now();
    await until(() => b.e.isLeader(), 3000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(api.lease?.spec?.leaseTransitions).toBe(4);
  });

  it('steps down when it cannot renew within the renew deadline', async () => {
    const api = new MemoryLeases();
    const a = elector(api, 'a');
    await until(() => a.e.isLeader());
    api.down = true;
    await a.done;
    expect(a.e.isLeader()).toBe(false);
    expect(a.events).toEqual(['started', 'stopped']);
  });

  it('judges its renew deadline and others\' expiry by elapsed time, not by the wall clock', async () => {
    // The wall clock of a node can step (NTP, a resumed VM). 60 s forward while leading must not
    // look like 60 s without a renew, nor 60 s forward while another leads like an expired lease.
    const api = new MemoryLeases(5);
    const slow = { retryPeriodMs: 100 };
    const a = elector(api, 'a', slow);
    await until(() => a.e.isLeader());
    const b = elector(api, 'b', slow);
    await sleep(150);
    // Right after a renew, so that the leader is asleep when the clock steps.
    const writes = api.writes.length;
    await until(() => api.writes.length > writes);
    const wallClock = steppableWallClock();
    wallClock.step(60_000);
    try {
      await sleep(400);
      expect(a.events).toEqual(['started']);
      expect(a.e.isLeader()).toBe(true);
      expect(b.e.isLeader()).toBe(false);
      expect(api.lease?.spec?.holderIdentity).toBe('a');
    } finally {
      wallClock.restore();
    }
  });

  it('renews with one write and no read while the lease is as it wrote it, as client-go does', async () => {
    const api = new MemoryLeases();
    const a = elector(api, 'a');
    await until(() => a.e.isLeader());
    const [reads, writes] = [api.reads, api.writes.length];
    await until(() => api.writes.length >= writes + 5);
    expect(api.reads).toBe(reads);
    expect(api.lease?.spec).toMatchObject({ holderIdentity: 'a', leaseTransitions: 0 });
  });

  it('reads the lease again when its optimistic renew conflicts, and yields it to a holder that took it', async () => {
    const api = new MemoryLeases();
    const a = elector(api, 'a', { renewDeadlineMs: 900 });
    await until(() => a.e.isLeader());
    // Someone else's write (here: another holder, as after a forced takeover) moves the
    // resourceVersion: the renew built from a's own last write gets 409.
    const reads = api.reads;
    api.lease = { ...api.lease!, metadata: { ...api.lease!.metadata, resourceVersion: String(++api.rv) }, spec: { ...api.lease!.spec, holderIdentity: 'b', renewTime: new Date().toISOString() as never } };
    await until(() => !a.e.isLeader());
    expect(api.reads).toBeGreaterThan(reads);
    expect(a.events).toEqual(['started', 'stopped']);
    expect(api.lease?.spec?.holderIdentity).toBe('b');
  });

  it('rejects a renew deadline that is not shorter than the lease', () => {
    expect(() => new LeaderElector(new MemoryLeases(), { namespace: 'n', name: 'l', identity: 'i', log, leaseDurationMs: 10, renewDeadlineMs: 10 })).toThrow(RangeError);
  });
});
