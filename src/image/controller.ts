/**
 * Wiring of the image trigger controller (design.md §7.2): DC events re-index the DC's trigger
 * references and enqueue the DC; ImageStream events enqueue the stream (status tags) and exactly
 * the DCs whose triggers reference it.
 */
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import type { ImageStream } from '../apis/imagestream.js';
import { DeploymentConfigs, ImageStreams } from '../apis/resources.js';
import type { DeploymentConfigClient, EventRecorder, EventSource, InformerSource, Lister } from '../controller/ports.js';
import { newController, newQueue, type Controller, type ControllerContext } from '../controller/runner.js';
import type { WorkQueue } from '../controller/workqueue.js';
import { objectKey } from '../util/keys.js';
import { allowAllCrossNamespace, type CrossNamespaceGate } from './cross-namespace.js';
import { ImageStreamTriggerIndex } from './index.js';
import type { ImageStreamClient } from './ports.js';
import { streamsReferencedBy } from './status.js';
import { dcQueueKey, streamQueueKey, syncImageTriggerKey } from './sync.js';
import { referencedImageStreams } from './triggers.js';

const keyOf = (obj: { metadata?: { namespace?: string; name?: string } }): string | undefined =>
  obj.metadata?.namespace && obj.metadata.name ? objectKey(obj.metadata.namespace, obj.metadata.name) : undefined;

export interface ImageTriggerControllerClients {
  readonly dcs: DeploymentConfigClient;
  /** The DC lister that sees this process's own writes (the shared mutation cache). */
  readonly dcLister: Lister<DeploymentConfig>;
  readonly streams: ImageStreamClient;
  /** Refused cross-namespace triggers become Warning events on their DC. */
  readonly recorder?: EventRecorder;
}

export interface ImageTriggerControllerOptions {
  /** Decides on references to another namespace's images (docs/image-triggers.md); default: all followed. */
  readonly crossNamespace?: CrossNamespaceGate;
}

/**
 * `NewImageTriggerController`: caches DCs and ImageStreams, keeps ImageStream status tags in step
 * with their spec and applies automatic ImageChange triggers.
 */
export function newImageTriggerController(
  informers: InformerSource,
  clients: ImageTriggerControllerClients,
  ctx: ControllerContext,
  opts: ImageTriggerControllerOptions = {},
): Controller {
  const dcs = informers.informerFor<DeploymentConfig>(DeploymentConfigs);
  const streams = informers.informerFor<ImageStream>(ImageStreams);
  const name = 'imagetrigger';
  const queue = newQueue(ctx, name);
  wireImageTriggerController({ dcs, streams, queue });
  const crossNamespace = opts.crossNamespace ?? allowAllCrossNamespace;
  // A change of the gate's decisions (the admission policy appeared, went or changed) re-syncs
  // everything that references another namespace now, not at the next resync.
  crossNamespace.onChange?.(() => requeueCrossNamespaceReferences({ dcs: dcs.list(), streams: streams.list(), queue }));
  const log = ctx.log.child({ controller: name });
  const sync = (key: string) => syncImageTriggerKey({
    dcLister: clients.dcLister, streamLister: streams, dcClient: clients.dcs, streamClient: clients.streams, clock: ctx.clock, log,
    crossNamespace, recorder: clients.recorder,
  }, key);
  // OpenShift retries trigger updates forever (capped backoff): a DC must never stay stale.
  return newController(ctx, name, queue, sync, {
    maxRetries: Number.POSITIVE_INFINITY,
  });
}

/** Enqueues every stream and DC that takes images from a namespace other than its own. */
export function requeueCrossNamespaceReferences(opts: { dcs: readonly DeploymentConfig[]; streams: readonly ImageStream[]; queue: WorkQueue }): void {
  const foreign = (obj: { metadata?: { namespace?: string } }, refs: string[]) =>
    refs.some((ref) => !ref.startsWith(`${obj.metadata?.namespace ?? ''}/`));
  for (const stream of opts.streams) {
    const key = keyOf(stream);
    if (key && foreign(stream, streamsReferencedBy(stream))) opts.queue.add(streamQueueKey(key));
  }
  for (const dc of opts.dcs) {
    const key = keyOf(dc);
    if (key && foreign(dc, referencedImageStreams(dc))) opts.queue.add(dcQueueKey(key));
  }
}

/** Registers the handlers; returns the index (for tests and metrics). */
export function wireImageTriggerController(opts: {
  dcs: EventSource<DeploymentConfig>;
  streams: EventSource<ImageStream>;
  queue: WorkQueue;
  index?: ImageStreamTriggerIndex;
}): ImageStreamTriggerIndex {
  const { dcs, streams, queue } = opts;
  const index = opts.index ?? new ImageStreamTriggerIndex();
  // Stream key ↔ the stream keys its spec tags point into. Scanning every stream's tags on each
  // stream event cost ~230 ms per event with 1000 streams of 1000 tags, in any namespace.
  const streamReferences = new ImageStreamTriggerIndex();

  const onDc = (dc: DeploymentConfig) => {
    const key = keyOf(dc);
    if (!key) return;
    const refs = referencedImageStreams(dc);
    index.set(key, refs);
    if (refs.length > 0) queue.add(dcQueueKey(key));
  };
  dcs.on('add', onDc);
  dcs.on('update', (_old, dc) => onDc(dc));
  dcs.on('delete', (dc) => {
    const key = keyOf(dc);
    if (key) index.remove(key);
  });

  const onStream = (stream: ImageStream, deleted = false) => {
    const key = keyOf(stream);
    if (!key) return;
    if (!deleted) queue.add(streamQueueKey(key));
    for (const dc of index.dcsFor(key)) queue.add(dcQueueKey(dc));
    if (deleted) streamReferences.remove(key);
    else streamReferences.set(key, streamsReferencedBy(stream));
    for (const other of streamReferences.dcsFor(key)) queue.add(streamQueueKey(other));
  };
  streams.on('add', (s) => onStream(s));
  streams.on('update', (_old, s) => onStream(s));
  streams.on('delete', (s) => onStream(s, true));
  return index;
}
