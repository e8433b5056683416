/**
 * `dcctl migrate-storage --to=aggregated|crd`: moves every DeploymentConfig between the CRD mode
 * (`deploymentconfigs.apps.openshift.io` CRD) and the API mode (aggregated front + storage CRD
 * `deploymentconfigs.apps.dcctl.io`), keeping every RC and its history (docs/apiserver.md).
 *
 * A copied DC gets a new uid, and the garbage collector deletes an RC as soon as it finds that
 * the owner `apps.openshift.io/v1 DeploymentConfig <name>` no longer has the uid in the RC's
 * owner reference. So RCs are ORPHANED (no owner reference: never collected) before anything
 * moves, and re-owned to the new uid only once the public API answers that name WITH that uid.
 * Every step is idempotent: a failed run can simply be repeated.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiVersion, Group, Kind, Labels, Plural, Version } from '../apis/constants.js';
import type { DeploymentConfig, DeploymentConfigStatus } from '../apis/deploymentconfig.js';
import { dcSpecWithoutNulls } from '../apis/nulls.js';
import { StorageGroup } from '../apis/storage.js';
import { ApiStatusError } from './status.js';
import type { UserStorage } from './storage.js';

export type MigrationTarget = 'aggregated' | 'crd';

/** Annotation on a copied DC: the uid it was copied from (makes a repeated run idempotent). */
export const MigratedFromUid = 'deploy.dcctl.io/migrated-from-uid';
const ApiServiceName = `${Version}.${Group}`;
const PublicCrd = `${Plural}.${Group}`;

export interface MigrationOptions {
  readonly to: MigrationTarget;
  /** Ignore a live controller lease (the controllers would adopt RCs while they are orphaned). */
  readonly force?: boolean;
  /** How long to wait for the group to be served after switching. @default 120000 */
  readonly switchTimeoutMs?: number;
  readonly log: (line: string) => void;
}

export interface MigrationReport {
  copied: number;
  alreadyCopied: number;
  orphaned: number;
  reowned: number;
  deletedSources: number;
  /** DCs left where they are: being deleted, or in a namespace being deleted. */
  skipped: number;
}

interface List<T> { items?: T[]; metadata?: { continue?: string } }
interface ApiService { metadata?: { name?: string; resourceVersion?: string; labels?: Record<string, string> }; spec?: { service?: unknown } & Record<string, unknown>; status?: { conditions?: Array<{ type?: string; status?: string }> } }
interface Lease { metadata?: { name?: string; namespace?: string }; spec?: { holderIdentity?: string; renewTime?: string; leaseDurationSeconds?: number } }

const is404 = (err: unknown): boolean => err instanceof ApiStatusError && err.code === 404;

async function listAll<T>(rest: UserStorage, path: string, query: Record<string, string> = {}): Promise<T[]> {
  const out: T[] = [];
  let cont: string | undefined;
  do {
    const { body } = await rest.json<List<T>>('GET', path, { query: { ...query, limit: '500', ...(cont ? { continue: cont } : {}) } });
    out.push(...(body.items ?? []));
    cont = body.metadata?.continue || undefined;
  } while (cont);
  return out;
}

const dcCollection = (group: string, ns?: string): string => `/apis/${group}/${Version}${ns ? `/namespaces/${encodeURIComponent(ns)}` : ''}/${Plural}`;
const rcPath = (ns: string, name?: string): string => `/api/v1/namespaces/${encodeURIComponent(ns)}/replicationcontrollers${name ? `/${encodeURIComponent(name)}` : ''}`;
const key = (dc: DeploymentConfig): string => `${dc.metadata.namespace ?? ''}/${dc.metadata.name ?? ''}`;

/**
 * The status a copy is given: the source's, except that observedGeneration counts the copy's own
 * generations. The copy starts again at generation 1, and the schema refuses a lower
 * observedGeneration than the stored one, so the source's (2 after one template change) left the
 * controller unable to write the copy's status at all: every sync failed until the spec had
 * changed that many times again. A status that had seen its spec sees the copy's; one behind
 * stays one behind, so the controller still syncs it.
 */
export function statusForCopy(source: DeploymentConfig, copyGeneration: number): DeploymentConfigStatus {
  const status: DeploymentConfigStatus = { ...source.status };
  if (status.observedGeneration !== undefined) {
    const current = status.observedGeneration >= (source.metadata.generation ?? 0);
    status.observedGeneration = current ? copyGeneration : Math.max(0, copyGeneration - 1);
  }
  return status;
}

/**
 * The copy of `dc` to create in the target (server-written metadata dropped), without the null
 * fields a server-side apply left in its spec: the copy is what the DC's readers saw (src/apis/nulls.ts).
 */
export function copyForTarget(dc: DeploymentConfig, targetGroup: string): DeploymentConfig {
  const m = dc.metadata;
  return {
    apiVersion: `${targetGroup}/${Version}`,
    kind: Kind,
    metadata: {
      name: m.name, namespace: m.namespace,
      ...(m.labels ? { labels: m.labels } : {}),
      annotations: { ...(m.annotations ?? {}), [MigratedFromUid]: m.uid ?? '' },
    },
    spec: dcSpecWithoutNulls(dc.spec),
  };
}

/** Index of the controller owner reference of `rc` pointing at `uid`, or -1. */
export function ownerIndex(rc: V1ReplicationController, uid: string): number {
  return (rc.metadata?.ownerReferences ?? []).findIndex((r) => r.uid === uid && r.kind === Kind && r.controller === true);
}

async function checkControllersStopped(rest: UserStorage, opts: MigrationOptions): Promise<void> {
  const leases = await listAll<Lease>(rest, '/apis/coordination.k8s.io/v1/leases', { fieldSelector: 'metadata.name=deploymentconfig-controller' }).catch(() => [] as Lease[]);
  for (const l of leases) {
    const renew = l.spec?.renewTime ? Date.parse(l.spec.renewTime) : 0;
    const live = l.spec?.holderIdentity && Date.now() - renew < 2 * (l.spec.leaseDurationSeconds ?? 15) * 1000;
    if (!live) continue;
    const msg = `the controllers are running (lease ${l.metadata?.namespace}/${l.metadata?.name} held by ${l.spec?.holderIdentity}): stop them first (kubectl -n <ns> scale deployment/deploymentconfig-controller --replicas=0), or pass --force`;
    if (!opts.force) throw new Error(msg);
    opts.log(`warning: ${msg}`);
  }
}

async function crdEstablished(rest: UserStorage, name: string): Promise<boolean> {
  try {
    const { body } = await rest.json<{ status?: { conditions?: Array<{ type?: string; status?: string }> } }>('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
    return (body.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
  } catch (err) {
    if (is404(err)) return false;
    throw err;
  }
}

async function getApiService(rest: UserStorage): Promise<ApiService | undefined> {
  try {
    return (await rest.json<ApiService>('GET', `/apis/apiregistration.k8s.io/v1/apiservices/${ApiServiceName}`)).body;
  } catch (err) {
    if (is404(err)) return undefined;
    throw err;
  }
}

const isAvailable = (s: ApiService | undefined): boolean => (s?.status?.conditions ?? []).some((c) => c.type === 'Available' && c.status === 'True');

async function until(what: string, timeoutMs: number, fn: () => Promise<boolean>): Promise<void> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    if (await fn().catch(() => false)) return;
    if (performance.now() > end) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)}s waiting for ${what}`);
    await sleep(500);
  }
}

/** Removes the DC owner reference (uid-guarded); returns whether it changed anything. */
async function orphan(rest: UserStorage, rc: V1ReplicationController, uid: string): Promise<boolean> {
  const i = ownerIndex(rc, uid);
  if (i < 0) return false;
  await rest.json('PATCH', rcPath(rc.metadata?.namespace ?? '', rc.metadata?.name), {
    rawBody: {
      contentType: 'application/json-patch+json',
      data: JSON.stringify([
        { op: 'test', path: `/metadata/ownerReferences/${i}/uid`, value: uid },
        { op: 'remove', path: `/metadata/ownerReferences/${i}` },
      ]),
    },
  });
  return true;
}

/** Re-owns an orphaned RC of `dc` (label match, no controller) to `dc`'s uid. */
async function reown(rest: UserStorage, rc: V1ReplicationController, dc: DeploymentConfig): Promise<boolean> {
  if ((rc.metadata?.ownerReferences ?? []).some((r) => r.controller === true)) return false;
  const ref = { apiVersion: ApiVersion, kind: Kind, name: dc.metadata.name, uid: dc.metadata.uid, controller: true, blockOwnerDeletion: true };
  const ops = rc.metadata?.ownerReferences?.length
    ? [{ op: 'add', path: '/metadata/ownerReferences/-', value: ref }]
    : [{ op: 'add', path: '/metadata/ownerReferences', value: [ref] }];
  await rest.json('PATCH', rcPath(rc.metadata?.namespace ?? '', rc.metadata?.name), {
    rawBody: { contentType: 'application/json-patch+json', data: JSON.stringify([{ op: 'test', path: '/metadata/uid', value: rc.metadata?.uid }, ...ops]) },
  });
  return true;
}

/** Why a DC is not migrated, or undefined to migrate it. */
export function skipReason(dc: DeploymentConfig, terminatingNamespaces: ReadonlySet<string>): string | undefined {
  if (terminatingNamespaces.has(dc.metadata.namespace ?? '')) return `namespace "${dc.metadata.namespace ?? ''}" is being deleted`;
  if (dc.metadata.deletionTimestamp) return `it is being deleted (since ${String(dc.metadata.deletionTimestamp)})`;
  return undefined;
}

const isNamespaceTerminating = (err: unknown): boolean =>
  err instanceof ApiStatusError && err.code === 403 && (err.body.details?.causes ?? []).some((c) => c.type === 'NamespaceTerminating');

async function terminatingNamespaces(rest: UserStorage, names: ReadonlySet<string>): Promise<Set<string>> {
  const out = new Set<string>();
  for (const ns of names) {
    const phase = await rest.json<{ status?: { phase?: string } }>('GET', `/api/v1/namespaces/${encodeURIComponent(ns)}`).then((r) => r.body.status?.phase, (err: unknown) => {
      if (is404(err)) return 'Terminating';
      throw err;
    });
    if (phase === 'Terminating') out.add(ns);
  }
  return out;
}

export async function migrateStorage(rest: UserStorage, opts: MigrationOptions): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, alreadyCopied: 0, orphaned: 0, reowned: 0, deletedSources: 0, skipped: 0 };
  const timeoutMs = opts.switchTimeoutMs ?? 120_000;
  const toApi = opts.to === 'aggregated';
  const sourceGroup = toApi ? Group : StorageGroup;
  const targetGroup = toApi ? StorageGroup : Group;
  await checkControllersStopped(rest, opts);
  const targetCrd = toApi ? `${Plural}.${StorageGroup}` : PublicCrd;
  if (!(await crdEstablished(rest, targetCrd))) {
    throw new Error(`the CRD ${targetCrd} is not installed: apply ${toApi ? 'crds/storage/deploymentconfig.yaml' : 'crds/deploymentconfig.yaml and crds/deploymentconfig-policy.yaml'} first`);
  }

  // 1. Make the source readable. To API mode, the public CRD is the source: an APIService of the
  // group (the overlay's) hides it, so it is set aside and restored after the copy.
  const apiService = await getApiService(rest);
  const external = apiService?.spec?.service ? apiService : undefined;
  if (toApi && external) {
    if (await crdEstablished(rest, PublicCrd)) {
      opts.log(`setting APIService ${ApiServiceName} aside while the CRD objects are read`);
      await rest.json('DELETE', `/apis/apiregistration.k8s.io/v1/apiservices/${ApiServiceName}`);
      await until('the CRD to serve the group again', timeoutMs, async () => {
        const s = await getApiService(rest);
        return s !== undefined && !s.spec?.service && isAvailable(s);
      });
    }
  }
  const sourceServed = toApi ? await crdEstablished(rest, PublicCrd) : true;
  const listed = sourceServed ? await listAll<DeploymentConfig>(rest, dcCollection(sourceGroup)).catch((err: unknown) => {
    if (is404(err)) return [] as DeploymentConfig[];
    throw err;
  }) : [];
  opts.log(`${listed.length} DeploymentConfig(s) in ${sourceGroup}`);
  // A DC being deleted (or whose namespace is) is not copied: the target could not take it (a
  // terminating namespace refuses new objects) and it is going away with its RCs anyway.
  const terminating = await terminatingNamespaces(rest, new Set(listed.map((dc) => dc.metadata.namespace ?? '')));
  const sources: DeploymentConfig[] = [];
  for (const dc of listed) {
    const why = skipReason(dc, terminating);
    if (!why) { sources.push(dc); continue; }
    opts.log(`skipping ${key(dc)}: ${why}; it is not copied and its RCs go with it`);
    report.skipped++;
  }

  // 2. Orphan every RC a source DC controls.
  for (const dc of sources) {
    const rcs = await listAll<V1ReplicationController>(rest, rcPath(dc.metadata.namespace ?? ''), { labelSelector: `${Labels.DeploymentConfig}=${dc.metadata.name}` });
    for (const rc of rcs) if (await orphan(rest, rc, dc.metadata.uid ?? '')) report.orphaned++;
  }

  // 3. Copy into the target (to CRD mode: the front must stop serving the group first).
  if (!toApi && external) {
    opts.log(`deleting APIService ${ApiServiceName}: the CRD serves the group again`);
    await rest.json('DELETE', `/apis/apiregistration.k8s.io/v1/apiservices/${ApiServiceName}`);
    await until('the CRD to serve the group', timeoutMs, async () => {
      const s = await getApiService(rest);
      return s !== undefined && !s.spec?.service && isAvailable(s);
    });
  }
  const targets = new Map<string, DeploymentConfig>();
  for (const dc of sources) {
    const copy = copyForTarget(dc, targetGroup);
    let created: DeploymentConfig;
    try {
      created = (await rest.json<DeploymentConfig>('POST', dcCollection(targetGroup, dc.metadata.namespace), { body: copy })).body;
    } catch (err) {
      if (isNamespaceTerminating(err)) {
        // The namespace began terminating after the check above: same as a skip.
        opts.log(`skipping ${key(dc)}: namespace "${dc.metadata.namespace ?? ''}" is being deleted; it is not copied and its RCs go with it`);
        report.skipped++;
        continue;
      }
      if (!(err instanceof ApiStatusError && err.code === 409)) throw err;
      const existing = (await rest.json<DeploymentConfig>('GET', `${dcCollection(targetGroup, dc.metadata.namespace)}/${encodeURIComponent(dc.metadata.name ?? '')}`)).body;
      if (existing.metadata.annotations?.[MigratedFromUid] !== dc.metadata.uid) {
        throw new Error(`${key(dc)} already exists in ${targetGroup} and was not copied from uid ${dc.metadata.uid ?? ''}: resolve by hand`);
      }
      targets.set(key(dc), existing);
      report.alreadyCopied++;
      continue;
    }
    if (dc.status) {
      created = (await rest.json<DeploymentConfig>('PUT', `${dcCollection(targetGroup, dc.metadata.namespace)}/${encodeURIComponent(dc.metadata.name ?? '')}/status`, {
        body: { ...created, status: statusForCopy(dc, created.metadata.generation ?? 1) },
      })).body;
    }
    targets.set(key(dc), created);
    report.copied++;
  }

  // 4. Retire the source: to API mode the public CRD goes (its objects with it; the RCs are
  // orphans) and the APIService comes back; to CRD mode the storage objects are deleted.
  if (toApi) {
    if (await crdEstablished(rest, PublicCrd)) {
      opts.log(`deleting the CRD ${PublicCrd}`);
      report.deletedSources += sources.length;
      await rest.json('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${PublicCrd}`);
      await until(`the CRD ${PublicCrd} to be gone`, timeoutMs, async () => !(await crdEstablished(rest, PublicCrd)) && (await rest.json('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${PublicCrd}`).then(() => false, (e: unknown) => is404(e))));
    }
    if (external) {
      // The CRD's automanaged local APIService goes with the CRD; ours replaces it only after.
      await until(`the CRD's APIService ${ApiServiceName} to be removed`, timeoutMs, async () => {
        const s = await getApiService(rest);
        return s === undefined || s.metadata?.labels?.['kube-aggregator.kubernetes.io/automanaged'] === undefined;
      });
      opts.log(`restoring APIService ${ApiServiceName}`);
      const { metadata, spec } = external;
      await rest.json('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
        body: { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: metadata?.name, ...(metadata?.labels ? { labels: metadata.labels } : {}) }, spec },
      }).catch((err: unknown) => { if (!(err instanceof ApiStatusError && err.code === 409)) throw err; });
    }
  } else {
    for (const dc of sources) {
      await rest.json('DELETE', `${dcCollection(StorageGroup, dc.metadata.namespace)}/${encodeURIComponent(dc.metadata.name ?? '')}`, {
        query: { propagationPolicy: 'Orphan' },
      }).catch((err: unknown) => { if (!is404(err)) throw err; });
      report.deletedSources++;
    }
  }

  // 5. Re-own, once the public API answers each DC with its new uid.
  const publicReady = await (async () => {
    try {
      await until('apps.openshift.io/v1 to be served', timeoutMs, async () => {
        await rest.json('GET', dcCollection(Group), { query: { limit: '1' } });
        return true;
      });
      return true;
    } catch {
      return false;
    }
  })();
  if (!publicReady) {
    opts.log(`apps.openshift.io/v1 is not served yet: the RCs stay orphaned (safe); run this command again once ${toApi ? 'the APIService is Available' : 'the CRD serves'} to re-own them`);
    return report;
  }
  // Every DC of the target, not only this run's copies: a repeated run finishes an earlier one.
  for (const dc of await listAll<DeploymentConfig>(rest, dcCollection(targetGroup))) {
    const ns = dc.metadata.namespace ?? '';
    const seen = await rest.json<DeploymentConfig>('GET', `${dcCollection(Group, ns)}/${encodeURIComponent(dc.metadata.name ?? '')}`).then((r) => r.body, () => undefined);
    if (seen?.metadata.uid !== dc.metadata.uid) {
      opts.log(`${key(dc)}: the public API does not answer with uid ${dc.metadata.uid ?? ''} yet; its RCs stay orphaned (run again)`);
      continue;
    }
    const rcs = await listAll<V1ReplicationController>(rest, rcPath(ns), { labelSelector: `${Labels.DeploymentConfig}=${dc.metadata.name}` });
    for (const rc of rcs) if (await reown(rest, rc, dc)) report.reowned++;
  }
  return report;
}
