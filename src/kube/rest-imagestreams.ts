/**
 * ImageStreams (crds/imagestream.yaml) on the small JSON client of src/kube/rest.ts, for the
 * controller and the deployer process alike: ApiError on failure, the API server's plain JSON,
 * `fieldManager` on writes when given. No runtime imports beyond constants, so the deployer
 * bundle stays small.
 */
import { ImageGroup, ImageStreamPlural, ImageVersion, type ImageStream } from '../apis/imagestream.js';
import type { ImageStreamClient } from '../image/ports.js';
import type { RestClient } from './rest.js';
import { groupPath, named } from './rest-paths.js';

export function restImageStreamClient(rest: RestClient, fieldManager?: string): ImageStreamClient {
  const path = (namespace: string, name?: string, sub?: string): string => groupPath(ImageGroup, ImageVersion, namespace, ImageStreamPlural, name, sub);
  const query = { fieldManager };
  return {
    get: (namespace, name) => rest.request<ImageStream>('GET', path(namespace, name)),
    create: (namespace, stream) => rest.request<ImageStream>('POST', path(namespace), { body: stream, query }),
    update: (stream) => {
      const { name, namespace } = named(stream);
      return rest.request<ImageStream>('PUT', path(namespace, name), { body: stream, query });
    },
    updateStatus: (stream) => {
      const { name, namespace } = named(stream);
      return rest.request<ImageStream>('PUT', path(namespace, name, 'status'), { body: stream, query });
    },
  };
}
