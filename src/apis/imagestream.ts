/**
 * TypeScript shapes of the minimal `image.openshift.io/v1` ImageStream served by
 * crds/imagestream.yaml. Field names follow openshift/api `image/v1/types.go`; only what image
 * triggers, `dcctl tag` and tagImages hooks need is modelled (see docs/image-triggers.md).
 */
import type { V1ObjectMeta, V1ObjectReference } from '@kubernetes/client-node';

export const ImageGroup = 'image.openshift.io' as const;
export const ImageVersion = 'v1' as const;
export const ImageApiVersion = `${ImageGroup}/${ImageVersion}` as const;
export const ImageStreamKind = 'ImageStream' as const;
export const ImageStreamPlural = 'imagestreams' as const;

/** `TagReferencePolicy`: `Local` resolves to `<status.dockerImageRepository>@<image>`. */
export interface TagReferencePolicy { type?: 'Source' | 'Local' }

export interface TagImportPolicy {
  insecure?: boolean;
  scheduled?: boolean;
  importMode?: string;
}

/** A spec tag (`TagReference`). */
export interface TagReference {
  name: string;
  annotations?: Record<string, string> | null;
  from?: V1ObjectReference;
  /** True: the tag only points at the image; nothing resolves it into status (OpenShift: no import). */
  reference?: boolean;
  /** Bumped by writers to ask for a re-resolution even when `from` did not change. */
  generation?: number;
  importPolicy?: TagImportPolicy;
  referencePolicy?: TagReferencePolicy;
}

/** One history item of a status tag (`TagEvent`), newest first. */
export interface TagEvent {
  created: string;
  dockerImageReference: string;
  /** Image id: the digest of a digest reference, else `sha256:<sha256 of the reference>`. */
  image: string;
  generation: number;
}

export interface TagEventCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
  generation: number;
}

/** A status tag (`NamedTagEventList`). */
export interface NamedTagEventList {
  tag: string;
  items: TagEvent[] | null;
  conditions?: TagEventCondition[];
}

export interface ImageLookupPolicy { local: boolean }

export interface ImageStreamSpec {
  lookupPolicy?: ImageLookupPolicy;
  dockerImageRepository?: string;
  tags?: TagReference[];
}

export interface ImageStreamStatus {
  dockerImageRepository?: string;
  publicDockerImageRepository?: string;
  tags?: NamedTagEventList[];
}

export interface ImageStream {
  apiVersion?: string;
  kind?: string;
  metadata: V1ObjectMeta;
  spec?: ImageStreamSpec;
  status?: ImageStreamStatus;
}
