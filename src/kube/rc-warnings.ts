/**
 * RcWarnings (src/deployer/ports.ts) on one watch. Why not the LIST OpenShift's deployer makes at
 * the end of a run: kube-apiserver keeps no watch cache for events (its default watch cache sizes
 * turn it off for them), so every LIST of events, whatever its field selector, reads and decodes
 * every event of the namespace from etcd. In a namespace of 1000 DCs that LIST took a median of
 * 203 ms (p90 657 ms) per rollout and grew with every rollout (docs/benchmarks-n1000.md). A watch
 * from a resourceVersion is served from etcd's history of the changes since then only.
 *
 * The resourceVersion is that of the deployer's first read (its list of the DC's RCs):
 * kube-apiserver's resourceVersions are etcd revisions, one sequence for every resource, so the
 * watch sees every event written since the run began. An older one (the RC's last change, made
 * before the deployer pod waited for its node) would have etcd replay, and kube-apiserver decode,
 * every event of the namespace written since, for each deployer (docs/design.md §6.2). A watch
 * the server refuses (another storage, a compacted revision) or that ends early makes
 * `collected()` undefined, and the deployer lists as before: nothing is missed, it only costs more.
 * So does a flood: the collector holds at most MaxCollectedWarnings events (anyone who may create
 * events can write RC warnings), and gives up on the watch beyond that.
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import { RcWarningSelector, type RcWarnings } from '../deployer/ports.js';
import type { WatchLike } from './deployer-io.js';
import { toPlain } from './plain.js';
import { resourceVersionNumber } from '../util/resource-version.js';

/** Opens the watch; undefined when the server refuses it. */
export async function watchRcWarnings(watch: WatchLike, namespace: string, resourceVersion: string): Promise<RcWarnings | undefined> {
  if (resourceVersionNumber(resourceVersion) === undefined) return undefined;
  const collector = new RcWarningCollector();
  try {
    collector.controller = await watch.watch(`/api/v1/namespaces/${encodeURIComponent(namespace)}/events`,
      { fieldSelector: RcWarningSelector, resourceVersion },
      (type, obj) => collector.apply(type, obj),
      () => collector.broke());
  } catch {
    return undefined;
  }
  return collector;
}

/** What the collector keeps in memory at most; beyond, the deployer lists at the end instead. */
export const MaxCollectedWarnings = 1000;

class RcWarningCollector implements RcWarnings {
  controller: AbortController | undefined;
  private readonly events = new Map<string, CoreV1Event>();
  private broken = false;
  private closed = false;

  apply(type: string, raw: unknown): void {
    if (this.broken || this.closed) return;
    if (type === 'ERROR') {
      // Usually 410 Gone: the revision was compacted. Whatever came before may be incomplete.
      this.broke();
      return;
    }
    const event = toPlain(raw as CoreV1Event);
    const name = event.metadata?.name;
    if (type === 'BOOKMARK' || name === undefined) return;
    if (type === 'DELETED') this.events.delete(name);
    else if (this.events.has(name) || this.events.size < MaxCollectedWarnings) this.events.set(name, event);
    else this.broke();
  }

  /** The watch ended or failed: events after this point would be missed. */
  broke(): void {
    if (this.closed) return;
    this.broken = true;
    this.controller?.abort();
  }

  collected(): CoreV1Event[] | undefined {
    return this.broken ? undefined : [...this.events.values()];
  }

  close(): void {
    this.closed = true;
    this.controller?.abort();
  }
}
