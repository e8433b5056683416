/**
 * Where DeploymentConfigs are stored. In CRD mode the public group is the storage
 * (`deploymentconfigs.apps.openshift.io`); in API mode (docs/apiserver.md) an aggregated API
 * server serves `apps.openshift.io/v1` and the objects live in the CRD
 * `deploymentconfigs.apps.dcctl.io`. Controllers always see and write `apps.openshift.io/v1`
 * objects: only the REST coordinates differ.
 */
import { ApiVersion, Group, Version } from './constants.js';

/** The storage group of API mode. */
export const StorageGroup = 'apps.dcctl.io' as const;

/** Accepted values of `--dc-group`. */
export const DcGroups = [Group, StorageGroup] as const;
export type DcGroup = (typeof DcGroups)[number];

/** `apiVersion` of objects in `group`. */
export const apiVersionOf = (group: string): string => `${group}/${Version}`;

/**
 * Returns `obj` as the public API presents it (`apps.openshift.io/v1`); managedFields entries
 * name the storage apiVersion too and are rewritten alike. Objects of other groups are returned
 * unchanged; the input is never mutated.
 */
export function toPublicApiVersion<T extends { apiVersion?: string; metadata?: unknown }>(obj: T, from: string): T {
  return rewriteApiVersion(obj, apiVersionOf(from), ApiVersion);
}

/** The inverse of `toPublicApiVersion`: the object as the storage group expects it. */
export function toStorageApiVersion<T extends { apiVersion?: string; metadata?: unknown }>(obj: T, to: string): T {
  return rewriteApiVersion(obj, ApiVersion, apiVersionOf(to));
}

function rewriteApiVersion<T extends { apiVersion?: string; metadata?: unknown }>(obj: T, from: string, to: string): T {
  if (from === to || obj === null || typeof obj !== 'object') return obj;
  const meta = obj.metadata as { managedFields?: Array<{ apiVersion?: string }> } | undefined;
  const managed = meta?.managedFields;
  const touchesManaged = managed?.some((m) => m.apiVersion === from) ?? false;
  if (obj.apiVersion !== from && !touchesManaged) return obj;
  const out = { ...obj };
  if (obj.apiVersion === from) out.apiVersion = to;
  if (touchesManaged && managed) {
    out.metadata = { ...meta, managedFields: managed.map((m) => (m.apiVersion === from ? { ...m, apiVersion: to } : m)) };
  }
  return out;
}
