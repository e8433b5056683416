/**
 * The part of OpenShift's image API this project has to play itself: nothing imports or pushes
 * images, so the status tags of an ImageStream are derived from its spec tags here.
 *
 * Rules (documented in docs/image-triggers.md):
 * - `from.kind: DockerImage` → the item `{dockerImageReference: from.name, image: imageIdFor(…)}`.
 * - `from.kind: ImageStreamTag` → a copy of the latest item of that tag: `tag` or `stream:tag`
 *   of the same stream (aliases, resolved in any order, cycles reported) or of another stream
 *   (`from.namespace`, default the stream's own).
 * - `from.kind: ImageStreamImage` (`stream@id`) → the item with that image id in that stream.
 * - A new item is pushed to the front of the history only when the resolved reference or image
 *   differs from the newest one; the same image again only raises the item's generation (as
 *   OpenShift's `AddTagEventToImageStream` does). History is capped at MaxTagHistory items.
 * - A tag that cannot be resolved keeps its history and gets an `ImportSuccess=False` condition;
 *   so does a reference to another namespace that the CrossNamespaceGate refuses (reason
 *   Forbidden): nothing new is copied from there, what was copied before stays in the history.
 * - Status tags without a spec tag are dropped (no registry can push to these streams).
 */
import type {
  ImageStream, ImageStreamStatus, NamedTagEventList, TagEvent, TagEventCondition, TagReference,
} from '../apis/imagestream.js';
import { formatTime } from '../apps/index.js';
import { canonicalJson } from '../util/canonical-json.js';
import { allowAllCrossNamespace, type CrossNamespaceGate } from './cross-namespace.js';
import {
  imageIdFor, latestTagEvent, parseImageStreamImageName, parseImageStreamTagName, type ImageStreamGetter,
} from './resolve.js';

/** Longest history kept per tag (OpenShift keeps all until pruned; nothing prunes here). */
export const MaxTagHistory = 10;

type Target = { ok: true; reference: string; image: string } | { ok: false; reason: string; message: string };

/**
 * The status `stream` should have at `now`. `getStream` looks up OTHER streams (cross-stream
 * tags); undefined there means not found. `gate` decides on tags that take images from another
 * namespace.
 */
export function computeImageStreamStatus(
  stream: ImageStream, now: Date, getStream: ImageStreamGetter = () => undefined, gate: CrossNamespaceGate = allowAllCrossNamespace,
): ImageStreamStatus {
  const namespace = stream.metadata.namespace ?? '';
  const name = stream.metadata.name ?? '';
  const specTags = stream.spec?.tags ?? [];
  const specByName = new Map(specTags.map((t) => [t.name, t]));
  const previous = new Map((stream.status?.tags ?? []).map((t) => [t.tag, t]));
  const streamGeneration = stream.metadata.generation ?? 0;

  const results = new Map<string, NamedTagEventList>();
  const resolving = new Set<string>();

  const resolveOwnTag = (tag: string): TagEvent | undefined => {
    const list = resolveSpecTag(tag);
    return list?.items?.[0] ?? undefined;
  };

  function target(ref: TagReference): Target | undefined {
    const from = ref.from;
    if (!from?.name) return undefined;
    const kind = from.kind || 'DockerImage';
    const fromNs = from.namespace || namespace;
    if (kind === 'DockerImage') {
      const reference = from.name.trim();
      return { ok: true, reference, image: imageIdFor(reference) };
    }
    // Images of another namespace only with admission's word that the writer may read them.
    const refused = fromNs !== namespace ? gate.refusal({ kind: 'ImageStream', metadata: stream.metadata }, fromNs) : undefined;
    if (refused) return { ok: false, reason: 'Forbidden', message: refused };
    if (kind === 'ImageStreamTag') {
      const parsed = from.name.includes(':') ? parseImageStreamTagName(from.name) : { stream: name, tag: from.name };
      if (!parsed) return { ok: false, reason: 'InvalidReference', message: `invalid ImageStreamTag name "${from.name}"` };
      const own = fromNs === namespace && parsed.stream === name;
      if (own && resolving.has(parsed.tag)) {
        return { ok: false, reason: 'InvalidReference', message: `tag "${ref.name}" is part of a reference cycle` };
      }
      const other = own ? undefined : getStream(fromNs, parsed.stream);
      const event = own ? resolveOwnTag(parsed.tag) : other && latestTagEvent(other, parsed.tag);
      if (!event) return { ok: false, reason: 'NotFound', message: `imagestreamtag "${fromNs}/${parsed.stream}:${parsed.tag}" has no image` };
      return { ok: true, reference: event.dockerImageReference, image: event.image };
    }
    if (kind === 'ImageStreamImage') {
      const parsed = parseImageStreamImageName(from.name);
      if (!parsed) return { ok: false, reason: 'InvalidReference', message: `invalid ImageStreamImage name "${from.name}"` };
      const source = fromNs === namespace && parsed.stream === name ? stream : getStream(fromNs, parsed.stream);
      const event = (source?.status?.tags ?? []).flatMap((t) => t.items ?? []).find((i) => i.image === parsed.id);
      if (!event) return { ok: false, reason: 'NotFound', message: `imagestreamimage "${fromNs}/${from.name}" not found` };
      return { ok: true, reference: event.dockerImageReference, image: event.image };
    }
    return { ok: false, reason: 'InvalidReference', message: `unsupported from.kind "${kind}"` };
  }

  function resolveSpecTag(tag: string): NamedTagEventList | undefined {
    const done = results.get(tag);
    if (done) return done;
    const ref = specByName.get(tag);
    if (!ref) return undefined;
    resolving.add(tag);
    const prev = previous.get(tag);
    const items = [...(prev?.items ?? [])];
    const t = target(ref);
    resolving.delete(tag);
    const list: NamedTagEventList = { tag, items };
    if (t?.ok) {
      const generation = ref.generation ?? streamGeneration;
      const head = items[0];
      if (head && head.dockerImageReference === t.reference && head.image === t.image) {
        if (head.generation < generation) items[0] = { ...head, generation };
      } else {
        items.unshift({ created: formatTime(now), dockerImageReference: t.reference, image: t.image, generation });
        items.splice(MaxTagHistory);
      }
    } else if (t) {
      const old = prev?.conditions?.find((c) => c.type === 'ImportSuccess');
      const cond: TagEventCondition = {
        type: 'ImportSuccess', status: 'False', reason: t.reason, message: t.message,
        generation: ref.generation ?? streamGeneration,
        lastTransitionTime: old && old.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : formatTime(now),
      };
      list.conditions = [cond];
    }
    results.set(tag, list);
    return list;
  }

  for (const ref of specTags) resolveSpecTag(ref.name);

  const status: ImageStreamStatus = {};
  const repo = stream.spec?.dockerImageRepository;
  if (repo) {
    status.dockerImageRepository = repo;
    status.publicDockerImageRepository = repo;
  }
  const tags = specTags.flatMap((t) => {
    const list = results.get(t.name);
    return list && ((list.items?.length ?? 0) > 0 || list.conditions) ? [list] : [];
  });
  if (tags.length > 0) status.tags = tags;
  return status;
}

/** Keys (`ns/stream`) of the OTHER streams `stream`'s spec tags take images from. */
export function streamsReferencedBy(stream: ImageStream): string[] {
  const namespace = stream.metadata.namespace ?? '';
  const keys = new Set<string>();
  for (const ref of stream.spec?.tags ?? []) {
    const from = ref.from;
    if (!from?.name || (from.kind !== 'ImageStreamTag' && from.kind !== 'ImageStreamImage')) continue;
    const parsed = from.kind === 'ImageStreamTag' ? parseImageStreamTagName(from.name) : parseImageStreamImageName(from.name);
    if (!parsed) continue;
    const key = `${from.namespace || namespace}/${parsed.stream}`;
    if (key !== `${namespace}/${stream.metadata.name ?? ''}`) keys.add(key);
  }
  return [...keys];
}

/**
 * The stream with its recomputed status, or undefined when the status is already right (so a
 * sync that changes nothing writes nothing).
 */
export function syncedImageStream(stream: ImageStream, now: Date, getStream?: ImageStreamGetter, gate?: CrossNamespaceGate): ImageStream | undefined {
  const status = computeImageStreamStatus(stream, now, getStream, gate);
  if (canonicalJson(status) === canonicalJson(stream.status ?? {})) return undefined;
  return { ...structuredClone(stream), status };
}
