/**
 * client-go's MutationCache for our listers: remembers the objects this process just wrote (the
 * API server's responses) and serves them instead of the informer's copy until the informer has
 * caught up. Without it, a sync that runs between our write and its watch event decides on the
 * state before our own write, and its next write fails with 409 Conflict (one wasted request
 * and a requeue per occurrence; the bench counted 0.5-2 per rollout).
 *
 * Which copy is newer is decided by resourceVersion, compared as integers: kube-apiserver's
 * resourceVersions are etcd revisions. The API contract calls them opaque, so a non-integer
 * resourceVersion (never seen from kube-apiserver) falls back to the informer's copy. A
 * remembered object is dropped once the informer holds the same or a newer version, or after
 * `ttlMs` (client-go: 10 s), so a write whose watch event was lost cannot pin a stale copy.
 *
 * Our creates are also announced to `onCreated` handlers at once (not client-go's): the deployer
 * controller takes a new RC's first step without waiting for the informer's add event, which
 * arrives one watch round trip later (design.md §5.1).
 */
import type { Clock, Lister, OwnCreates } from './ports.js';
import { resourceVersionNumber } from '../util/resource-version.js';

interface Versioned {
  metadata?: { namespace?: string; name?: string; resourceVersion?: string };
}

interface Entry<T> {
  readonly obj: T;
  /** Clock.monotonicMs() of the write: the TTL is elapsed time, whatever the wall clock does. */
  readonly at: number;
  /** Made by our create: shown even before the informer has seen it. */
  readonly created: boolean;
}

/** Default lifetime of a remembered write (client-go's mutation cache uses 10 s too). */
export const DefaultMutationTtlMs = 10_000;

const keyOf = (namespace: string | undefined, name: string | undefined): string =>
  namespace ? `${namespace}/${name ?? ''}` : (name ?? '');

/** The integer value of an object's resourceVersion, or undefined when it is not one. */
const rvNumber = (obj: Versioned | undefined): bigint | undefined => resourceVersionNumber(obj?.metadata?.resourceVersion);

/** True when `candidate` is strictly newer than `base` (both with integer resourceVersions). */
export function isNewer(candidate: Versioned, base: Versioned | undefined): boolean {
  const a = rvNumber(candidate);
  if (a === undefined) return false;
  if (base === undefined) return true;
  const b = rvNumber(base);
  return b !== undefined && a > b;
}

/** A Lister that overlays our own recent writes on an informer's cache. */
export class MutationCache<T extends Versioned> implements Lister<T>, OwnCreates<T> {
  private readonly writes = new Map<string, Entry<T>>();
  private readonly createdHandlers: Array<(obj: T) => void> = [];
  private lastSweep = 0;

  constructor(
    private readonly backing: Lister<T>,
    private readonly clock: Clock,
    private readonly ttlMs: number = DefaultMutationTtlMs,
  ) {}

  /**
   * Records the API server's response to one of our writes. `created`: the write was a create,
   * so the object is listed even before the informer sees it (client-go's `includeAdds`);
   * otherwise only an object the informer holds is overlaid.
   */
  mutated(obj: T, created = false): void {
    const key = keyOf(obj.metadata?.namespace, obj.metadata?.name);
    const prev = this.writes.get(key);
    // Two writes in flight may answer out of order: keep the newer one.
    if (prev && !isNewer(obj, prev.obj)) return;
    const now = this.clock.monotonicMs();
    this.writes.set(key, { obj, at: now, created: created || (prev?.created ?? false) });
    this.sweep(now);
    if (created) for (const handler of this.createdHandlers) handler(obj);
  }

  /**
   * Drops expired entries, at most once per TTL. Reads drop an entry once the informer catches
   * up, but an object deleted within the TTL of our write is never read again: its entry stayed
   * for the life of the process, one object per such deletion.
   */
  private sweep(now: number): void {
    if (now - this.lastSweep <= this.ttlMs) return;
    this.lastSweep = now;
    for (const [key, entry] of this.writes) if (now - entry.at > this.ttlMs) this.writes.delete(key);
  }

  onCreated(handler: (obj: T) => void): void {
    this.createdHandlers.push(handler);
  }

  get(namespace: string, name: string): T | undefined {
    const cached = this.backing.get(namespace, name);
    return this.fresher(keyOf(namespace, name), cached);
  }

  list(namespace?: string): T[] {
    return this.overlay(this.backing.list(namespace), (obj) => namespace === undefined || obj.metadata?.namespace === namespace);
  }

  /**
   * `items` (from the backing informer, e.g. an index) with our newer writes swapped in, plus
   * objects we created that the informer has not seen yet and that `include` accepts.
   */
  overlay(items: readonly T[], include: (obj: T) => boolean): T[] {
    if (this.writes.size === 0) return [...items];
    const seen = new Set<string>();
    const out = items.map((obj) => {
      const key = keyOf(obj.metadata?.namespace, obj.metadata?.name);
      seen.add(key);
      return this.fresher(key, obj) ?? obj;
    });
    for (const [key, entry] of [...this.writes]) {
      if (seen.has(key) || !entry.created || !include(entry.obj)) continue;
      const obj = this.fresher(key, undefined);
      if (obj) out.push(obj);
    }
    return out;
  }

  /** How many writes are remembered (for tests and metrics). */
  size(): number {
    return this.writes.size;
  }

  /**
   * Our remembered write when it is newer than the informer's copy; the informer's copy
   * otherwise (dropping the entry once it is stale or expired). An object the informer does
   * not hold is shown only when we created it: otherwise "not observed yet" and "deleted since"
   * cannot be told apart, and the informer is the authority on existence.
   */
  private fresher(key: string, cached: T | undefined): T | undefined {
    const entry = this.writes.get(key);
    if (!entry) return cached;
    const expired = this.clock.monotonicMs() - entry.at > this.ttlMs;
    if (expired || (cached !== undefined && !isNewer(entry.obj, cached))) {
      this.writes.delete(key);
      return cached;
    }
    if (cached === undefined && !entry.created) return undefined;
    return entry.obj;
  }
}
