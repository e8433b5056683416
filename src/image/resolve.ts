/**
 * Resolving ImageStreamTags to image references (library-go `imageutil`: `ParseImageStreamTagName`,
 * `LatestTaggedImage`, `ResolveReferenceForTagEvent`). Pure: streams come from a getter (the
 * informer cache in production).
 */
import { createHash } from 'node:crypto';
import type { ImageStream, TagEvent } from '../apis/imagestream.js';
import type { CrossNamespaceGate, ReferringObject } from './cross-namespace.js';

/** Looks a stream up by namespace and name; undefined when it does not exist. */
export type ImageStreamGetter = (namespace: string, name: string) => ImageStream | undefined;

/**
 * Resolves `<stream>:<tag>` in `namespace` to the pull spec of the tag's latest image, or
 * undefined when the stream, the tag or its history does not exist.
 */
export type ImageTagResolver = (namespace: string, streamTag: string) => string | undefined;

/** `ParseImageStreamTagName`: `stream:tag` with exactly one colon and both parts non-empty. */
export function parseImageStreamTagName(name: string): { stream: string; tag: string } | undefined {
  const parts = name.split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { stream: parts[0], tag: parts[1] };
}

/** `ParseImageStreamImageName`: `stream@<algorithm>:<hex>`. */
export function parseImageStreamImageName(name: string): { stream: string; id: string } | undefined {
  const parts = name.split('@');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { stream: parts[0], id: parts[1] };
}

const digestPattern = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$/;

/**
 * The image id recorded for a pull spec. Nothing here reads registries, so an image has no
 * manifest digest unless the reference carries one: `repo@sha256:abc…` → `sha256:abc…`;
 * otherwise a stable stand-in, `sha256:` + hex SHA-256 of the trimmed reference.
 */
export function imageIdFor(reference: string): string {
  const ref = reference.trim();
  const at = ref.lastIndexOf('@');
  if (at >= 0 && digestPattern.test(ref.slice(at + 1))) return ref.slice(at + 1);
  return `sha256:${createHash('sha256').update(ref).digest('hex')}`;
}

/** `LatestTaggedImage`: the first (newest) history item of status tag `tag`. */
export function latestTagEvent(stream: ImageStream, tag: string): TagEvent | undefined {
  const list = stream.status?.tags?.find((t) => t.tag === tag);
  return list?.items?.[0] ?? undefined;
}

/**
 * `ResolveReferenceForTagEvent`: a tag with `referencePolicy: Local` resolves to
 * `<status.dockerImageRepository>@<image>` (OpenShift's pull-through form) when the stream has a
 * repository; otherwise, and for `Source`, to the item's own `dockerImageReference`.
 */
export function referenceForTagEvent(stream: ImageStream, tag: string, event: TagEvent): string {
  const spec = stream.spec?.tags?.find((t) => t.name === tag);
  const repo = stream.status?.dockerImageRepository;
  if (spec?.referencePolicy?.type === 'Local' && repo && event.image) {
    const at = repo.indexOf('@');
    const bare = at >= 0 ? repo.slice(0, at) : repo;
    // Drop a tag from the repository, but not a registry port (`host:5000/repo`).
    const slash = bare.lastIndexOf('/');
    const colon = bare.lastIndexOf(':');
    return `${colon > slash ? bare.slice(0, colon) : bare}@${event.image}`;
  }
  return event.dockerImageReference;
}

/** The pull spec `stream`'s tag resolves to (latest item, reference policy applied). */
export function resolveTag(stream: ImageStream, tag: string): string | undefined {
  const event = latestTagEvent(stream, tag);
  if (!event || !event.dockerImageReference) return undefined;
  return referenceForTagEvent(stream, tag, event) || undefined;
}

/** An ImageTagResolver over a stream getter. */
export function tagResolverFor(getStream: ImageStreamGetter): ImageTagResolver {
  return (namespace, streamTag) => {
    const parsed = parseImageStreamTagName(streamTag);
    if (!parsed) return undefined;
    const stream = getStream(namespace, parsed.stream);
    return stream ? resolveTag(stream, parsed.tag) : undefined;
  };
}

/**
 * `resolve` for the triggers of `dc`: a tag in another namespace resolves only when `gate` lets
 * the DC take images from there (docs/image-triggers.md "Cross-namespace references"); a refused
 * one is unresolved (the DC keeps its last image, or waits for a first one) and is reported
 * through `onRefused`.
 */
export function gatedTagResolver(
  resolve: ImageTagResolver, dc: ReferringObject, gate: CrossNamespaceGate, onRefused: (reason: string) => void = () => undefined,
): ImageTagResolver {
  return (namespace, streamTag) => {
    if (namespace !== (dc.metadata.namespace ?? '')) {
      const refused = gate.refusal({ kind: 'DeploymentConfig', metadata: dc.metadata }, namespace);
      if (refused) {
        onRefused(refused);
        return undefined;
      }
    }
    return resolve(namespace, streamTag);
  };
}
