/**
 * In-memory ImageStreams on the shared fake API (test/support/fakes.ts), and a FakeCluster with
 * them for image trigger tests.
 */
import type { ImageStream, TagReference } from '../../../src/apis/imagestream.js';
import type { ImageStreamClient } from '../../../src/image/ports.js';
import { FakeLister, FakeResourceClient, ObjectStore, newFakeCluster, type FakeApi, type FakeCluster } from '../../support/fakes.js';

export class FakeImageStreamClient extends FakeResourceClient<ImageStream> implements ImageStreamClient {
  constructor(api: FakeApi, objects: ObjectStore<ImageStream>) {
    super(api, objects, { requireResourceVersion: true, statusSubresource: true });
  }
  get(namespace: string, name: string): Promise<ImageStream> {
    return this.doGet(namespace, name);
  }
  create(namespace: string, stream: ImageStream): Promise<ImageStream> {
    return this.doCreate(namespace, stream);
  }
  update(stream: ImageStream): Promise<ImageStream> {
    return this.doUpdate(stream);
  }
  updateStatus(stream: ImageStream): Promise<ImageStream> {
    return this.doUpdate(stream, 'status');
  }
}

export interface ImageCluster extends FakeCluster {
  streams: ObjectStore<ImageStream>;
  streamLister: FakeLister<ImageStream>;
  streamClient: FakeImageStreamClient;
}

export function newImageCluster(): ImageCluster {
  const f = newFakeCluster();
  const streams = new ObjectStore<ImageStream>(f.api, 'imagestreams');
  return Object.assign(f, { streams, streamLister: new FakeLister(streams), streamClient: new FakeImageStreamClient(f.api, streams) });
}

/** A stream `ns/<name>` with the given spec tags (no status). */
export function stream(name: string, tags: TagReference[], namespace = 'ns'): ImageStream {
  return { apiVersion: 'image.openshift.io/v1', kind: 'ImageStream', metadata: { name, namespace, generation: 1 }, spec: { tags } };
}

/** A spec tag pointing at a pull spec. */
export const dockerTag = (name: string, image: string, extra: Partial<TagReference> = {}): TagReference =>
  ({ name, from: { kind: 'DockerImage', name: image }, ...extra });
