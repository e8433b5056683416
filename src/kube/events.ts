/**
 * Best-effort core/v1 Event recorder (client-go `record.EventRecorder` in miniature).
 *
 * - Never throws into sync code: writes run in the background and failures are only logged.
 * - Repeated events are aggregated like client-go's correlator: the same (object, type, reason,
 *   message) within `aggregateWindowMs` bumps `count` and `lastTimestamp` of the existing Event
 *   with a merge patch instead of creating a new one.
 * - Memory is bounded: at most `cacheSize` remembered events (oldest evicted first) and at most
 *   `maxPending` queued writes (further events are dropped with a log line).
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { systemClock, type Clock, type EventClient, type EventRecorder, type InvolvedObject } from '../controller/ports.js';
import { isNotFound } from '../controller/errors.js';
import { formatTime } from '../apps/time.js';

export interface EventRecorderOptions {
  readonly client: EventClient;
  /** `source.component` / `reportingComponent`, e.g. `deploymentconfig-controller`. */
  readonly component: string;
  /** `source.host` / `reportingInstance` (pod or host name). */
  readonly host?: string;
  readonly log: Logger;
  /** @default systemClock */
  readonly clock?: Clock;
  /** @default 10 minutes */
  readonly aggregateWindowMs?: number;
  /** @default 4096 */
  readonly cacheSize?: number;
  /** @default 1000 */
  readonly maxPending?: number;
}

interface Seen {
  name: string;
  namespace: string;
  count: number;
  /** Clock.monotonicMs() of its last occurrence: the aggregation window is elapsed time. */
  lastAt: number;
}

/** A full API object (DC, RC) passed instead of a flat reference. */
interface KubeObjectLike {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
}

/** Accepts a flat reference or a whole object; sync code passes the DC or RC it works on. */
function toInvolvedObject(target: InvolvedObject | KubeObjectLike): InvolvedObject {
  const meta = (target as KubeObjectLike).metadata;
  if (!meta) return target as InvolvedObject;
  return { apiVersion: target.apiVersion, kind: target.kind, name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion };
}

/** Same-millisecond suffix of event names, shared by every recorder of the process (see nanosHex). */
let eventNameSeq = 0;

/** Longest message the recorder sends; longer ones are cut (the API validates event size). */
const MaxMessageLength = 1024;

/** Event recorder writing through an `EventClient`; see the module comment for the contract. */
export class KubeEventRecorder implements EventRecorder {
  private readonly client: EventClient;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly windowMs: number;
  private readonly cacheSize: number;
  private readonly maxPending: number;
  private readonly seen = new Map<string, Seen>();
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(private readonly opts: EventRecorderOptions) {
    this.client = opts.client;
    this.log = opts.log.child({ component: opts.component });
    this.clock = opts.clock ?? systemClock;
    this.windowMs = opts.aggregateWindowMs ?? 10 * 60_000;
    this.cacheSize = opts.cacheSize ?? 4096;
    this.maxPending = opts.maxPending ?? 1000;
  }

  event(target: InvolvedObject | KubeObjectLike, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const object = toInvolvedObject(target);
    if (this.pending >= this.maxPending) {
      this.log.warn({ reason, object: { namespace: object.namespace, name: object.name } }, 'Event queue full; dropping event');
      return;
    }
    const now = this.clock.now();
    const at = this.clock.monotonicMs();
    this.pending++;
    // Writes are serialized so a repeat of an event whose create is still in flight patches it
    // instead of racing it with a second create.
    this.tail = this.tail
      .then(() => this.write(object, type, reason, message.slice(0, MaxMessageLength), now, at))
      .catch((err: unknown) => {
        this.log.warn({ err, reason, object: { namespace: object.namespace, name: object.name } }, 'Failed to record event');
      })
      .finally(() => {
        this.pending--;
      });
  }

  /** Resolves once every event recorded so far has been written (or has failed). */
  flush(): Promise<void> {
    return this.tail;
  }

  private async write(object: InvolvedObject, type: string, reason: string, message: string, now: Date, at: number): Promise<void> {
    const namespace = object.namespace || 'default';
    const key = JSON.stringify([namespace, object.kind, object.name, object.uid, type, reason, message]);
    const seen = this.seen.get(key);
    const nowMs = now.getTime();
    if (seen && at - seen.lastAt <= this.windowMs && this.client.patch) {
      try {
        await this.client.patch(seen.namespace, seen.name, { count: seen.count + 1, lastTimestamp: formatTime(now) });
        seen.count++;
        seen.lastAt = at;
        this.remember(key, seen);
        return;
      } catch (err) {
        // The event expired (events have a TTL) or was deleted: start a new series.
        if (!isNotFound(err)) throw err;
      }
    }
    const name = `${object.name ?? 'unknown'}.${this.nanosHex(nowMs)}`;
    const event: CoreV1Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: object.apiVersion,
        kind: object.kind,
        name: object.name,
        namespace: object.namespace,
        uid: object.uid,
        resourceVersion: object.resourceVersion,
      },
      reason,
      message,
      type,
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      source: { component: this.opts.component, host: this.opts.host },
      reportingComponent: this.opts.component,
      reportingInstance: this.opts.host ?? '',
    };
    await this.client.create(namespace, event);
    this.remember(key, { name, namespace, count: 1, lastAt: at });
  }

  private remember(key: string, entry: Seen): void {
    // Re-inserting moves the key to the end, so Map order is least-recently-used first.
    this.seen.delete(key);
    this.seen.set(key, entry);
    while (this.seen.size > this.cacheSize) {
      const oldest = this.seen.keys().next().value;
      if (oldest === undefined) break;
      this.seen.delete(oldest);
    }
  }

  /**
   * client-go names events `<object>.<hex UnixNano>`; a counter keeps same-millisecond names
   * unique. It is the process's, not the recorder's: each controller has its own recorder, and
   * two of them often record for the same DC in the same millisecond (DeploymentCreated and the
   * first ScalingReplicationController); with a counter each, equal counts gave equal names, and
   * the second create failed with AlreadyExists, losing the event.
   */
  private nanosHex(ms: number): string {
    eventNameSeq = (eventNameSeq + 1) % 1_000_000;
    return (BigInt(ms) * 1_000_000n + BigInt(eventNameSeq)).toString(16);
  }
}
