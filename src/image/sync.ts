/**
 * The image trigger controller's syncs. Its queue holds two kinds of keys:
 * - `imagestream:<ns>/<name>`: recompute the stream's status tags from its spec (status.ts);
 * - `deploymentconfig:<ns>/<name>`: apply the DC's automatic ImageChange triggers (§7.2).
 */
import type { Logger } from 'pino';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import type { ImageStream } from '../apis/imagestream.js';
import type { Clock, DeploymentConfigClient, EventRecorder, Lister } from '../controller/ports.js';
import { splitKey } from '../util/keys.js';
import { allowAllCrossNamespace, type CrossNamespaceGate } from './cross-namespace.js';
import type { ImageStreamClient } from './ports.js';
import { gatedTagResolver, tagResolverFor } from './resolve.js';
import { syncedImageStream } from './status.js';
import { applyAutomaticTriggers } from './triggers.js';

export interface ImageTriggerSyncDeps {
  dcLister: Lister<DeploymentConfig>;
  streamLister: Lister<ImageStream>;
  dcClient: DeploymentConfigClient;
  streamClient: ImageStreamClient;
  clock: Clock;
  log?: Logger;
  /** References to another namespace's images (docs/image-triggers.md); default: all followed. */
  crossNamespace?: CrossNamespaceGate;
  /** Where a refused DC trigger is reported (a Warning event on the DC). */
  recorder?: EventRecorder;
}

const StreamPrefix = 'imagestream:';
const DcPrefix = 'deploymentconfig:';

/** Queue key of a stream sync. */
export const streamQueueKey = (key: string): string => `${StreamPrefix}${key}`;
/** Queue key of a DC trigger sync. */
export const dcQueueKey = (key: string): string => `${DcPrefix}${key}`;

/** Dispatches a queue key. Errors are retried by the runner (conflicts quietly). */
export async function syncImageTriggerKey(deps: ImageTriggerSyncDeps, queueKey: string): Promise<void> {
  if (queueKey.startsWith(StreamPrefix)) return syncImageStream(deps, queueKey.slice(StreamPrefix.length));
  if (queueKey.startsWith(DcPrefix)) return syncDeploymentConfigTriggers(deps, queueKey.slice(DcPrefix.length));
}

/** Writes the stream's recomputed status when it differs. A stream gone from the cache is ignored. */
export async function syncImageStream(deps: ImageTriggerSyncDeps, key: string): Promise<void> {
  const { namespace, name } = splitKey(key);
  const cached = deps.streamLister.get(namespace, name);
  if (!cached) return;
  const updated = syncedImageStream(cached, deps.clock.now(), (ns, n) => deps.streamLister.get(ns, n), deps.crossNamespace);
  if (!updated) return;
  deps.log?.debug({ imagestream: key }, 'updating image stream status tags');
  await deps.streamClient.updateStatus(updated);
}

/**
 * Applies the automatic triggers of a DC with a normal spec update (generation increments; the
 * DC controller then sees the new images and rolls out with an image-change cause). Paused-ness
 * is neither checked nor touched. A conflict is retried by the runner with the refreshed cache.
 */
export async function syncDeploymentConfigTriggers(deps: ImageTriggerSyncDeps, key: string): Promise<void> {
  const { namespace, name } = splitKey(key);
  const cached = deps.dcLister.get(namespace, name);
  if (!cached || cached.metadata.deletionTimestamp) return;
  const refusals = new Set<string>();
  const resolve = gatedTagResolver(tagResolverFor((ns, n) => deps.streamLister.get(ns, n)), cached,
    deps.crossNamespace ?? allowAllCrossNamespace, (reason) => refusals.add(reason));
  const { dc, unresolved } = applyAutomaticTriggers(cached, resolve);
  // The recorder aggregates repeats into one event's count; syncs come from changes and resyncs.
  for (const reason of refusals) deps.recorder?.event(cached, 'Warning', 'CrossNamespaceImageRefused', reason);
  if (unresolved.length > 0) {
    // Not an error: the DC waits until its tags exist; a stream change requeues it.
    deps.log?.debug({ dc: key, unresolved }, 'deployment config has unresolved images');
    return;
  }
  if (!dc) return;
  deps.log?.info({ dc: key }, 'updating deployment config images from image change triggers');
  // A 409 (stale cache) is requeued quietly by the runner and retried on the fresh object.
  await deps.dcClient.update(dc);
}
