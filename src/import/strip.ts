/**
 * Removal of what an API server (or a controller, or kubectl) wrote into an exported object, so
 * the object applies to another cluster as a new one. Each function mutates its argument and
 * returns the paths it removed, for the report.
 */
import { isScalar, schemaOfKey, type SchemaNode } from './prune.js';
import { isObject, metadataMap, type KubeObject } from './types.js';

const serverMetadata = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields', 'selfLink',
  'deletionTimestamp', 'deletionGracePeriodSeconds'] as const;

// Annotations written by servers, controllers or kubectl that describe the OLD cluster.
const serverAnnotations = [
  'kubectl.kubernetes.io/last-applied-configuration',
  'deployment.kubernetes.io/revision',
  'openshift.io/image.dockerRepositoryCheck',
  'openshift.io/sa.scc.mcs', 'openshift.io/sa.scc.supplemental-groups', 'openshift.io/sa.scc.uid-range',
  'pv.kubernetes.io/bind-completed', 'pv.kubernetes.io/bound-by-controller',
  'volume.beta.kubernetes.io/storage-provisioner', 'volume.kubernetes.io/storage-provisioner', 'volume.kubernetes.io/selected-node',
];

/**
 * Strips server-written metadata and `status`. `ownerReferences` are removed too: they name uids
 * of the old cluster, and the garbage collector deletes objects whose owner uid does not exist.
 */
export function stripServerFields(obj: KubeObject): string[] {
  const removed: string[] = [];
  const meta = isObject(obj.metadata) ? obj.metadata : undefined;
  if (meta) {
    for (const f of serverMetadata) {
      if (f in meta) { delete meta[f]; removed.push(`metadata.${f}`); }
    }
    if ('ownerReferences' in meta) { delete meta['ownerReferences']; removed.push('metadata.ownerReferences'); }
    const ann = meta['annotations'];
    if (isObject(ann)) {
      for (const a of serverAnnotations) {
        if (a in ann) { delete ann[a]; removed.push(`metadata.annotations["${a}"]`); }
      }
      if (Object.keys(ann).length === 0) delete meta['annotations'];
    }
  }
  if ('status' in obj) { delete obj['status']; removed.push('status'); }
  return removed;
}

/** Service: cluster IPs are allocated from the old cluster's service range. */
export function stripServiceFields(obj: KubeObject): string[] {
  const spec = isObject(obj['spec']) ? obj['spec'] : undefined;
  if (!spec) return [];
  const removed: string[] = [];
  // "None" makes a headless Service: that is the user's choice, not an allocation.
  if ('clusterIP' in spec && spec['clusterIP'] !== 'None') { delete spec['clusterIP']; removed.push('spec.clusterIP'); }
  if (Array.isArray(spec['clusterIPs']) && !spec['clusterIPs'].includes('None')) { delete spec['clusterIPs']; removed.push('spec.clusterIPs'); }
  return removed;
}

/** PersistentVolumeClaim: the bound volume belongs to the old cluster. */
export function stripClaimFields(obj: KubeObject): string[] {
  const spec = isObject(obj['spec']) ? obj['spec'] : undefined;
  if (!spec || !('volumeName' in spec)) return [];
  delete spec['volumeName'];
  return ['spec.volumeName'];
}

/** ServiceAccount: token and dockercfg secrets are generated per cluster. */
export function stripServiceAccountFields(obj: KubeObject, name: string): string[] {
  const generated = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(token|dockercfg)-[a-z0-9]{5}$`);
  const removed: string[] = [];
  for (const field of ['secrets', 'imagePullSecrets'] as const) {
    const list = obj[field];
    if (!Array.isArray(list)) continue;
    const kept = list.filter((s) => !(isObject(s) && typeof s['name'] === 'string' && generated.test(s['name'])));
    if (kept.length === list.length) continue;
    removed.push(`${field} (generated ${list.length - kept.length === 1 ? 'entry' : 'entries'})`);
    if (kept.length === 0) delete obj[field]; else obj[field] = kept;
  }
  // OpenShift 4.16+ names the generated pull secret in an annotation as well.
  const annotations = metadataMap(obj, 'annotations');
  const ref = annotations[InternalRegistryPullSecretRef];
  if (typeof ref === 'string' && generated.test(ref)) {
    delete annotations[InternalRegistryPullSecretRef];
    removed.push(`metadata.annotations["${InternalRegistryPullSecretRef}"] (generated entry)`);
  }
  return removed;
}

const InternalRegistryPullSecretRef = 'openshift.io/internal-registry-pull-secret-ref';

/** ImageStream: spec tag generations are written by the server. */
export function stripImageStreamFields(obj: KubeObject): string[] {
  const spec = isObject(obj['spec']) ? obj['spec'] : undefined;
  const tags = spec && Array.isArray(spec['tags']) ? spec['tags'] : [];
  const removed: string[] = [];
  tags.forEach((t: unknown, i: number) => {
    if (isObject(t) && 'generation' in t) { delete t['generation']; removed.push(`spec.tags[${i}].generation`); }
  });
  return removed;
}

/**
 * `creationTimestamp: null` inside embedded templates (`spec.template.metadata`), which Go
 * clients serialise from an empty time. A CRD's structural schema refuses the null in a
 * server-side apply unless the field is nullable, as it is in this project's DC CRD (older
 * installs of it and other CRDs are not); it means nothing, so the output leaves it out for all.
 */
export function stripNullTimestamps(obj: KubeObject): string[] {
  const removed: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) { v.forEach((x, i) => walk(x, `${path}[${i}]`)); return; }
    if (!isObject(v)) return;
    for (const [k, child] of Object.entries(v)) {
      const p = path ? `${path}.${k}` : k;
      if (k === 'metadata' && path !== '' && isObject(child) && child['creationTimestamp'] === null) {
        delete child['creationTimestamp'];
        removed.push(`${p}.creationTimestamp`);
      }
      walk(child, p);
    }
  };
  walk(obj, '');
  return removed;
}

/**
 * Nulls in an object served by one of this project's CRDs. OpenShift's (Go) decoder read a null
 * field as absent and a null string-map value as "", so exports and templates carry them
 * (`rollingParams:` with nothing after it, `args: null`). The CRDs take a null at an optional
 * field (and store it), but not at a required one, and CRDs installed by earlier versions take
 * none in a server-side apply ("must be of type object"), which is how import applies; so null
 * fields are removed and null map values become "", as OpenShift read them (a null in a map of
 * Quantities was made "0" before: src/apis/quantities.ts). Null list items and subtrees the schema leaves open are left for the server to judge.
 */
export function stripNulls(value: unknown, schema: SchemaNode, path = ''): string[] {
  if (isScalar(schema) || schema.x) return [];
  const changes: string[] = [];
  if (Array.isArray(value)) {
    if (schema.i !== undefined) value.forEach((v, i) => changes.push(...stripNulls(v, schema.i as SchemaNode, `${path}[${i}]`)));
    return changes;
  }
  if (!isObject(value)) return changes;
  for (const [k, v] of Object.entries(value)) {
    const known = schemaOfKey(schema, k);
    const p = known?.entry ? `${path}[${JSON.stringify(k)}]` : path ? `${path}.${k}` : k;
    if (v === null) {
      if (known?.entry && (known.node === 0 || known.node === 4)) {
        value[k] = '';
        changes.push(`${p}: null → "" (as OpenShift read a null map value)`);
      } else {
        delete value[k];
        changes.push(`removed ${p}: null (OpenShift read a null field as absent)`);
      }
      continue;
    }
    if (known !== undefined) changes.push(...stripNulls(v, known.node, p));
  }
  return changes;
}
