/**
 * Pointing an ImageStream tag at an image: what `oc tag` and OpenShift's ImageStreamTag UPDATE
 * do, expressed on this project's ImageStream CRD as a write of the stream's SPEC tag (the
 * controller then resolves it into status history). Used by `dcctl tag` and tagImages hooks.
 */
import type { V1ObjectReference } from '@kubernetes/client-node';
import { ImageApiVersion, ImageStreamKind, type ImageStream, type TagReference } from '../apis/imagestream.js';
import { isAlreadyExists, isConflict, isNotFound } from '../controller/errors.js';
import type { ImageStreamClient } from './ports.js';

/** Extra settings of the written spec tag. */
export interface SpecTagOptions {
  readonly referencePolicy?: 'Source' | 'Local';
}

/**
 * A copy of `stream` whose spec tag `tag` points at `from`. An existing tag keeps its other
 * fields; its generation is set past the stream's, so re-tagging the same image is still
 * recorded (OpenShift bumps the tag generation on every tag write).
 */
export function withSpecTag(stream: ImageStream, tag: string, from: V1ObjectReference, opts: SpecTagOptions = {}): ImageStream {
  const copy = structuredClone(stream);
  copy.spec ??= {};
  const tags = (copy.spec.tags ??= []);
  let ref = tags.find((t) => t.name === tag);
  if (!ref) {
    ref = { name: tag };
    tags.push(ref);
  }
  ref.from = { ...from };
  if (copy.metadata.generation !== undefined) ref.generation = copy.metadata.generation + 1;
  if (opts.referencePolicy) ref.referencePolicy = { type: opts.referencePolicy };
  return copy;
}

/** A new stream holding only spec tag `tag`. */
export function newImageStream(namespace: string, name: string, tag: string, from: V1ObjectReference, opts: SpecTagOptions = {}): ImageStream {
  const ref: TagReference = { name: tag, from: { ...from } };
  if (opts.referencePolicy) ref.referencePolicy = { type: opts.referencePolicy };
  return { apiVersion: ImageApiVersion, kind: ImageStreamKind, metadata: { name, namespace }, spec: { tags: [ref] } };
}

const MaxAttempts = 5;

/**
 * Sets spec tag `tag` of stream `namespace/name` to `from`, creating the stream when it does not
 * exist. Conflicting writers are retried (fresh GET each time). Resolves with the stored stream
 * and whether it was created.
 */
export async function tagIntoStream(
  client: ImageStreamClient, namespace: string, name: string, tag: string, from: V1ObjectReference, opts: SpecTagOptions = {},
): Promise<{ stream: ImageStream; created: boolean }> {
  let lastErr: unknown;
  for (let attempt = 0; attempt < MaxAttempts; attempt++) {
    let current: ImageStream | undefined;
    try {
      current = await client.get(namespace, name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      if (!current) return { stream: await client.create(namespace, newImageStream(namespace, name, tag, from, opts)), created: true };
      return { stream: await client.update(withSpecTag(current, tag, from, opts)), created: false };
    } catch (err) {
      if (!isConflict(err) && !isAlreadyExists(err)) throw err;
      lastErr = err;
    }
  }
  throw lastErr;
}
