/**
 * What image code reads and writes through; src/kube/imagestreams.ts implements it against the
 * API server, unit tests in memory. Errors are ApiError (see controller/errors.ts).
 */
import type { ImageStream } from '../apis/imagestream.js';

/** Writes on ImageStreams (status through the /status subresource). */
export interface ImageStreamClient {
  get(namespace: string, name: string): Promise<ImageStream>;
  create(namespace: string, stream: ImageStream): Promise<ImageStream>;
  /** PUT the main resource with optimistic concurrency (409 on a stale resourceVersion). */
  update(stream: ImageStream): Promise<ImageStream>;
  /** PUT .../status with optimistic concurrency. */
  updateStatus(stream: ImageStream): Promise<ImageStream>;
}
