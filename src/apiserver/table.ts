/**
 * Server-side printing (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`, what
 * `kubectl get` asks for) with OpenShift's DeploymentConfig columns, and the
 * PartialObjectMetadata forms the garbage collector and namespace controller read. Pure.
 */
import type { DeploymentConfig } from '../apis/deploymentconfig.js';

export const columnDefinitions = [
  { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
  { name: 'Revision', type: 'string', format: '', description: 'Last deployment revision.', priority: 0 },
  { name: 'Desired', type: 'string', format: '', description: 'Number of desired replicas.', priority: 0 },
  { name: 'Current', type: 'string', format: '', description: 'Number of current replicas.', priority: 0 },
  { name: 'Triggered By', type: 'string', format: '', description: 'What triggers a new deployment.', priority: 0 },
];

/** OpenShift's TRIGGERED BY cell: sorted set of `config` and `image([<containers>:]<istag>)`. */
export function triggeredBy(dc: DeploymentConfig): string {
  const set = new Set<string>();
  const containerCount = dc.spec?.template?.spec?.containers?.length ?? 0;
  for (const t of dc.spec?.triggers ?? []) {
    if (t.type === 'ConfigChange') set.add('config');
    else if (t.type === 'ImageChange') {
      const p = t.imageChangeParams;
      if (!p?.automatic) continue;
      const names = p.containerNames ?? [];
      const prefix = containerCount !== 1 && names.length !== containerCount ? `${names.join(',')}:` : '';
      set.add(`image(${prefix}${p.from?.name ?? ''})`);
    } else if (t.type) set.add(String(t.type));
  }
  return [...set].sort().join(',');
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function partialObjectMetadata(obj: { apiVersion?: string; kind?: string; metadata?: object }): object {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata ?? {} };
}

function rowOf(dc: DeploymentConfig, include: IncludeObject): object {
  const desired = `${dc.spec?.replicas ?? 0}${dc.spec?.test ? ' (during test)' : ''}`;
  const object = include === 'None' ? undefined : include === 'Object' ? dc : partialObjectMetadata(dc);
  return {
    cells: [dc.metadata?.name ?? '', dc.status?.latestVersion ?? 0, desired, dc.status?.updatedReplicas ?? 0, triggeredBy(dc)],
    ...(object ? { object } : {}),
  };
}

export function table(dcs: readonly DeploymentConfig[], listMeta: object, include: IncludeObject, withColumns = true): object {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    ...(withColumns ? { columnDefinitions } : { columnDefinitions: [] }),
    rows: dcs.map((dc) => rowOf(dc, include)),
  };
}

/** What the client asked for, from its Accept header. */
export type Representation = 'object' | 'table' | 'metadata';

/** Picks the first acceptable media type of `accept` (kube-apiserver's negotiation, JSON only). */
export function negotiate(accept: string | undefined, isList: boolean): Representation | undefined {
  if (!accept) return 'object';
  for (const clause of accept.split(',')) {
    const [type = '', ...params] = clause.split(';').map((s) => s.trim());
    const p = Object.fromEntries(params.map((x) => x.split('=').map((s) => s.trim()) as [string, string]));
    if (type !== 'application/json' && type !== '*/*' && type !== 'application/*') continue;
    if (p['as'] === undefined) return 'object';
    if (p['g'] !== 'meta.k8s.io' || (p['v'] !== 'v1' && p['v'] !== 'v1beta1')) continue;
    if (p['as'] === 'Table') return 'table';
    if (p['as'] === (isList ? 'PartialObjectMetadataList' : 'PartialObjectMetadata')) return 'metadata';
  }
  return undefined;
}
