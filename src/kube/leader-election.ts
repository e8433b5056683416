/**
 * Lease-based leader election (coordination.k8s.io/v1), following client-go's
 * `leaderelection` package: one replica holds the Lease and renews it every `retryPeriodMs`;
 * others take over once the holder stops renewing for `leaseDurationMs`, or at once after
 * the holder `release()`s it (empty holderIdentity). All writes use optimistic concurrency on
 * the Lease's resourceVersion, so two candidates can never both win the same round.
 *
 * Expiry is judged by the LOCAL time at which a candidate last saw the lease record change,
 * not by the renewTime written in it, so clock skew between nodes does not matter. Local times
 * are monotonic (`elapsedMs`), as client-go's are: a step of the wall clock (NTP, a resumed VM)
 * neither expires another holder's lease nor makes the leader think it missed its renewals.
 */
import type { V1Lease } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { isNotFound } from '../controller/errors.js';
import type { RestClient } from './rest.js';
import { groupPath } from './rest-paths.js';
import { sleep } from '../util/sleep.js';
import { toApiError } from './errors.js';

/** Milliseconds on a monotonic clock, for durations only (the Lease's times are wall-clock). */
const elapsedMs = (): number => performance.now();

/** The Lease calls the elector makes (a seam for unit tests; CoordinationV1Api fits it). */
export interface LeaseApi {
  readNamespacedLease(p: { name: string; namespace: string }): Promise<V1Lease>;
  createNamespacedLease(p: { namespace: string; body: V1Lease }): Promise<V1Lease>;
  replaceNamespacedLease(p: { name: string; namespace: string; body: V1Lease }): Promise<V1Lease>;
}

export interface LeaderElectorOptions {
  readonly namespace: string;
  /** Lease name, e.g. `deploymentconfig-controller`. */
  readonly name: string;
  /** Unique per replica, e.g. `${hostname}_${uuid}`. */
  readonly identity: string;
  /** @default 15000 */
  readonly leaseDurationMs?: number;
  /** A leader that could not renew for this long steps down. @default 10000 */
  readonly renewDeadlineMs?: number;
  /** @default 2000 */
  readonly retryPeriodMs?: number;
  readonly log: Logger;
}

export interface LeaderCallbacks {
  /** Called once leadership is acquired; the signal aborts when leadership ends. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Called once when leadership is lost or released (not called if it was never acquired). */
  onStoppedLeading(): void | Promise<void>;
  /** Called when a different holder is observed. */
  onNewLeader?(identity: string): void;
}

/**
 * A Lease time as metav1.MicroTime parses it: RFC 3339 with six fractional digits, as
 * client-node's V1MicroTime writes it (both clients serialize a Date through toISOString). Our
 * own, because this module must not import client-node, which the controller loads only for the
 * kubeconfigs that need it (design.md §1.1).
 */
class MicroTime extends Date {
  override toISOString(): string {
    return `${super.toISOString().slice(0, -1)}000Z`;
  }
}

/**
 * The Lease calls on the small JSON client (plain JSON: its times are strings, not Dates): a renew
 * every retry period through client-node's serializer and node-fetch was most of an idle
 * controller's CPU.
 */
export function restLeaseApi(rest: RestClient): LeaseApi {
  const path = (namespace: string, name?: string): string => groupPath('coordination.k8s.io', 'v1', namespace, 'leases', name);
  return {
    readNamespacedLease: ({ name, namespace }) => rest.request<V1Lease>('GET', path(namespace, name)),
    createNamespacedLease: ({ namespace, body }) => rest.request<V1Lease>('POST', path(namespace), { body }),
    replaceNamespacedLease: ({ name, namespace, body }) => rest.request<V1Lease>('PUT', path(namespace, name), { body }),
  };
}

/** See the module comment. One `run()` per instance. */
export class LeaderElector {
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly log: Logger;

  private leading = false;
  private stopping = false;
  private observedRecord = '';
  private observedAtMs = 0;
  private observedLeader = '';
  private lease: V1Lease | undefined;
  /** Aborted by release(): cuts the retry/renew wait short. */
  private readonly stopSignal = new AbortController();
  private loop: Promise<void> | undefined;
  private leadership: AbortController | undefined;
  private callbacks: LeaderCallbacks | undefined;
  private stoppedCalled = false;

  constructor(
    private readonly api: LeaseApi,
    private readonly opts: LeaderElectorOptions,
  ) {
    this.leaseDurationMs = opts.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = opts.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = opts.retryPeriodMs ?? 2_000;
    if (this.renewDeadlineMs >= this.leaseDurationMs) throw new RangeError('renewDeadlineMs must be shorter than leaseDurationMs');
    this.log = opts.log.child({ lease: `${opts.namespace}/${opts.name}`, identity: opts.identity });
  }

  /** True while this replica holds the lease. */
  isLeader(): boolean {
    return this.leading;
  }

  /**
   * Campaigns until the lease is acquired, then renews it. Resolves when leadership is lost
   * (renew failed for `renewDeadlineMs`) or after `release()`.
   */
  run(callbacks: LeaderCallbacks): Promise<void> {
    if (this.loop) throw new Error('LeaderElector.run() may only be called once');
    this.callbacks = callbacks;
    this.loop = this.campaign();
    return this.loop;
  }

  /**
   * Gives the lease up so another replica can take over at once (call on SIGTERM): stops
   * renewing, waits for an in-flight attempt, writes an empty holderIdentity, then calls
   * `onStoppedLeading`. Safe to call when not leading or more than once.
   */
  async release(): Promise<void> {
    this.stopping = true;
    this.stopSignal.abort();
    await this.loop;
  }

  private async campaign(): Promise<void> {
    // 1. Acquire: retry every retryPeriod (jittered so candidates don't collide in lockstep).
    while (!this.stopping) {
      if (await this.attempt()) break;
      await sleep(this.retryPeriodMs * (1 + Math.random() * 0.2), this.stopSignal.signal);
    }
    if (this.stopping) return;
    this.leading = true;
    this.leadership = new AbortController();
    this.log.info('Acquired leadership');
    const cb = this.callbacks;
    void Promise.resolve()
      .then(() => cb?.onStartedLeading(this.leadership!.signal))
      .catch((err: unknown) => this.log.error({ err }, 'onStartedLeading failed'));

    // 2. Renew every retryPeriod; give up when no renew succeeded for renewDeadline.
    let lastRenewMs = elapsedMs();
    while (!this.stopping) {
      await sleep(this.retryPeriodMs, this.stopSignal.signal);
      if (this.stopping) break;
      const remaining = this.renewDeadlineMs - (elapsedMs() - lastRenewMs);
      if ((await this.attempt(remaining)) && this.observedLeader === this.opts.identity) {
        lastRenewMs = elapsedMs();
        continue;
      }
      if (elapsedMs() - lastRenewMs >= this.renewDeadlineMs || (this.observedLeader !== '' && this.observedLeader !== this.opts.identity)) {
        this.log.warn('Lost leadership');
        await this.stepDown();
        return;
      }
    }
    // 3. Released voluntarily.
    await this.writeRelease();
    await this.stepDown();
  }

  private async stepDown(): Promise<void> {
    this.leading = false;
    this.leadership?.abort();
    if (this.stoppedCalled) return;
    this.stoppedCalled = true;
    try {
      await this.callbacks?.onStoppedLeading();
    } catch (err) {
      this.log.error({ err }, 'onStoppedLeading failed');
    }
  }

  /** One tryAcquireOrRenew round, bounded by `timeoutMs`; false on any failure. */
  private async attempt(timeoutMs = this.renewDeadlineMs): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(1, timeoutMs));
      timer.unref?.();
    });
    try {
      return await Promise.race([this.tryAcquireOrRenew(), timeout]);
    } catch (err) {
      this.log.debug({ err: toApiError(err) }, 'Lease acquire/renew attempt failed');
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private spec(transitions: number, acquireTime: MicroTime, now: number): NonNullable<V1Lease['spec']> {
    return {
      holderIdentity: this.opts.identity,
      leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
      acquireTime,
      renewTime: new MicroTime(now),
      leaseTransitions: transitions,
    };
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const { name, namespace, identity } = this.opts;
    const now = Date.now();
    const seenAt = elapsedMs();
    // client-go's fast path: a leader whose lease has not expired renews from the lease it wrote
    // last, one PUT instead of a GET and a PUT. If anyone wrote it since, the resourceVersion no
    // longer matches (409) and the slow path below reads what they wrote.
    const own = this.lease;
    if (this.leading && own?.metadata?.resourceVersion && own.spec?.holderIdentity === identity
      && this.observedAtMs + this.durationMsOf(own) > seenAt) {
      try {
        this.lease = await this.api.replaceNamespacedLease({ name, namespace, body: this.writeBody(own, now) });
        this.observe(this.lease, elapsedMs());
        return true;
      } catch (err) {
        this.log.debug({ err: toApiError(err) }, 'Optimistic lease renew failed; reading the lease');
      }
    }
    let current: V1Lease;
    try {
      current = await this.api.readNamespacedLease({ name, namespace });
    } catch (e) {
      const err = toApiError(e);
      if (!isNotFound(err)) throw err;
      const body: V1Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec: this.spec(0, new MicroTime(now), now) };
      this.lease = await this.api.createNamespacedLease({ namespace, body });
      this.observe(this.lease, elapsedMs());
      return true;
    }
    this.observe(current, seenAt);
    const spec = current.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    if (holder !== '' && holder !== identity && this.observedAtMs + this.durationMsOf(current) > seenAt) return false;

    // A 409 here means another candidate wrote first: we lost this round.
    this.lease = await this.api.replaceNamespacedLease({ name, namespace, body: this.writeBody(current, now) });
    this.observe(this.lease, elapsedMs());
    return true;
  }

  /** How long `lease` lasts unrenewed: its own leaseDurationSeconds, ours when it has none. */
  private durationMsOf(lease: V1Lease): number {
    return (lease.spec?.leaseDurationSeconds ?? Math.ceil(this.leaseDurationMs / 1000)) * 1000;
  }

  /** `current` held by us from now on: renewed when we hold it, taken over (one more transition) otherwise. */
  private writeBody(current: V1Lease, now: number): V1Lease {
    const spec = current.spec ?? {};
    const isHolder = (spec.holderIdentity ?? '') === this.opts.identity;
    const transitions = spec.leaseTransitions ?? 0;
    const acquireTime = isHolder && spec.acquireTime ? new MicroTime(new Date(spec.acquireTime).getTime()) : new MicroTime(now);
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: this.opts.name,
        namespace: this.opts.namespace,
        resourceVersion: current.metadata?.resourceVersion,
        labels: current.metadata?.labels,
        annotations: current.metadata?.annotations,
      },
      spec: this.spec(isHolder ? transitions : transitions + 1, acquireTime, now),
    };
  }

  /** `seenAt`: elapsedMs() when the lease was read. */
  private observe(lease: V1Lease, seenAt: number): void {
    const spec = lease.spec ?? {};
    const record = JSON.stringify([spec.holderIdentity ?? '', String(spec.renewTime ?? ''), spec.leaseTransitions ?? 0]);
    if (record !== this.observedRecord) {
      this.observedRecord = record;
      this.observedAtMs = seenAt;
    }
    const holder = spec.holderIdentity ?? '';
    if (holder !== this.observedLeader) {
      this.observedLeader = holder;
      if (holder !== '' && holder !== this.opts.identity) {
        this.log.info({ leader: holder }, 'New leader observed');
        try {
          this.callbacks?.onNewLeader?.(holder);
        } catch (err) {
          this.log.error({ err }, 'onNewLeader failed');
        }
      }
    }
  }

  /** Empties holderIdentity with a 1 s duration, as client-go's ReleaseOnCancel does. */
  private async writeRelease(): Promise<void> {
    const lease = this.lease;
    if (!lease?.metadata?.resourceVersion) return;
    const now = Date.now();
    try {
      await this.api.replaceNamespacedLease({
        name: this.opts.name,
        namespace: this.opts.namespace,
        body: {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.opts.name, namespace: this.opts.namespace, resourceVersion: lease.metadata.resourceVersion },
          spec: {
            holderIdentity: '',
            leaseDurationSeconds: 1,
            acquireTime: new MicroTime(now),
            renewTime: new MicroTime(now),
            leaseTransitions: lease.spec?.leaseTransitions ?? 0,
          },
        },
      });
      this.log.info('Released leadership');
    } catch (err) {
      // Someone else already took it (409) or the API is down: the lease simply expires.
      this.log.warn({ err: toApiError(err) }, 'Failed to release lease');
    }
  }
}
