/**
 * `--apply` / `--dry-run=server`: sends the imported objects to the cluster with server-side
 * apply, in three phases so a bad file is never half-applied:
 *
 * 1. Resolve every kind through discovery. An ImageStream without its CRD is skipped with a hint;
 *    any other kind the cluster does not serve, or a discovery failure, stops the import before
 *    anything is written.
 * 2. Server dry-run of EVERY object. Any rejection stops the import before anything is written;
 *    every rejection is reported, naming the object (and the field, in the server's message). A
 *    DC's pod template is also dry-run as an RC's (templateRefusal), which the CRD cannot check.
 * 3. (not with --dry-run=server) Apply for real, Namespaces first, then in input order. A failure
 *    here (a race with another writer, a quota) is reported for that object and the rest continue.
 */
import { ApiError, isInvalid, isNotFound } from '../controller/errors.js';
import { errorMessage, userMessage } from '../util/error-message.js';
import { replicationControllerProbe } from '../apps/template-probe.js';
import type { ImportEntry, KubeObject } from './types.js';

/** Discovery answer for one kind. */
export interface ResourceInfo { readonly namespaced: boolean }

/** The cluster side of `--apply`; src/kube/apply.ts implements it. */
export interface ObjectApplier {
  /** undefined when the cluster does not serve `apiVersion`/`kind`. */
  resource(apiVersion: string, kind: string): Promise<ResourceInfo | undefined>;
  /** Server-side apply (fieldManager dcctl-import, force false); dryRun asks for validation only. */
  apply(obj: KubeObject, dryRun: boolean): Promise<KubeObject>;
  /** Create (POST), for objects with only generateName, which server-side apply cannot take. */
  create(obj: KubeObject, dryRun: boolean): Promise<KubeObject>;
}

export interface ApplyOutcome {
  readonly entry: ImportEntry;
  /** `applied` covers `created` (objects with only generateName, see `created`). */
  readonly result: 'applied' | 'skipped' | 'failed' | 'not-applied';
  readonly message?: string;
  /** The object as the server returned it. */
  readonly object?: KubeObject;
  /** The name the server generated (objects with only generateName, not on a dry run). */
  readonly created?: string;
}

export interface ApplyOptions {
  /** Namespace of namespaced objects that name none. */
  readonly namespace: string;
  readonly dryRun: boolean;
}

export interface ApplySummary {
  readonly outcomes: ApplyOutcome[];
  /** Set when phase 1 or 2 failed: nothing was written. */
  readonly stoppedBeforeApply: boolean;
}

const isDeploymentConfig = (e: ImportEntry): boolean => e.kind === 'DeploymentConfig' && e.apiVersion === 'apps.openshift.io/v1';

/**
 * Why the server refuses the DC's pod template as the template of the RCs the DC will make (a
 * dry-run create of replicationControllerProbe), worded for the DC; undefined when it takes it or
 * cannot say (no right to create RCs, an outage): the import goes on, as it would without this.
 */
async function templateRefusal(applier: ObjectApplier, dc: KubeObject, entry: ImportEntry): Promise<string | undefined> {
  const meta = dc.metadata as Record<string, unknown>;
  const probe = replicationControllerProbe(dc, typeof meta['namespace'] === 'string' ? meta['namespace'] : '');
  if (!probe) return undefined;
  try {
    await applier.create(probe as KubeObject, true);
    return undefined;
  } catch (err) {
    if (!isInvalid(err) || !(err instanceof ApiError)) return undefined;
    // The Status's causes, as kube-apiserver words a field list (`field: what`, several in
    // brackets); without them the server's whole message, which names the probe RC.
    const causes = err.causes.map((c) => (c.field ? `${c.field}: ${c.message ?? ''}` : c.message ?? ''));
    const what = causes.length === 0 ? `the server said: ${errorMessage(err)}` : causes.length === 1 ? causes[0] : `[${causes.join(', ')}]`;
    return `DeploymentConfig.apps.openshift.io "${entry.name || entry.generateName || ''}" is invalid: ${what} `
      + "(its pod template, checked as the template of the ReplicationControllers it makes: none of them could be created; OpenShift's API checked a DeploymentConfig's template the same way)";
  }
}

/** Runs the three phases over the non-skipped entries (entries may be marked skipped in phase 1). */
export async function applyEntries(entries: readonly ImportEntry[], applier: ObjectApplier, opts: ApplyOptions): Promise<ApplySummary> {
  const outcomes = new Map<ImportEntry, ApplyOutcome>();
  const todo: { entry: ImportEntry; obj: KubeObject }[] = [];
  let stop = false;

  for (const entry of entries) {
    if (entry.outcome === 'skipped' || !entry.object) continue;
    let info: ResourceInfo | undefined;
    try {
      info = await applier.resource(entry.apiVersion, entry.kind);
    } catch (err) {
      outcomes.set(entry, { entry, result: 'failed', message: `cannot discover ${entry.apiVersion} ${entry.kind}: ${userMessage(err)}` });
      stop = true;
      continue;
    }
    if (!info) {
      if (entry.kind === 'ImageStream') {
        entry.outcome = 'skipped';
        entry.reason = `this cluster does not serve ${entry.apiVersion} ImageStream`;
        entry.hint = 'install the ImageStream CRD (kubectl apply -f crds/imagestream.yaml) and run the image trigger controller, then import again';
        outcomes.set(entry, { entry, result: 'skipped', message: entry.reason });
        continue;
      }
      const install = entry.kind === 'DeploymentConfig' ? ': install the DeploymentConfig CRD (kubectl apply -k crds/)' : '';
      outcomes.set(entry, { entry, result: 'failed', message: `the server doesn't have a resource type for apiVersion ${entry.apiVersion} kind ${entry.kind}${install}` });
      stop = true;
      continue;
    }
    const obj = structuredClone(entry.object);
    const meta = obj.metadata as Record<string, unknown>;
    if (info.namespaced && typeof meta['namespace'] !== 'string') meta['namespace'] = opts.namespace;
    if (!info.namespaced) delete meta['namespace'];
    todo.push({ entry, obj });
  }

  // Objects in a namespace this import creates cannot be validated before it exists.
  const newNamespaces = new Set(todo.filter((t) => t.entry.kind === 'Namespace' && t.entry.apiVersion === 'v1').map((t) => t.entry.name));
  if (!stop) {
    for (const t of todo) {
      try {
        const res = t.entry.generateName !== undefined ? await applier.create(t.obj, true) : await applier.apply(t.obj, true);
        const refused = isDeploymentConfig(t.entry) ? await templateRefusal(applier, t.obj, t.entry) : undefined;
        if (refused !== undefined) {
          outcomes.set(t.entry, { entry: t.entry, result: 'failed', message: refused });
          stop = true;
          continue;
        }
        outcomes.set(t.entry, { entry: t.entry, result: 'applied', object: res });
      } catch (err) {
        const ns = (t.obj.metadata as Record<string, unknown>)['namespace'];
        if (isNotFound(err) && typeof ns === 'string' && newNamespaces.has(ns)) {
          outcomes.set(t.entry, { entry: t.entry, result: 'applied' });
          continue;
        }
        outcomes.set(t.entry, { entry: t.entry, result: 'failed', message: userMessage(err) });
        stop = true;
      }
    }
  }

  if (!stop && !opts.dryRun) {
    const ordered = [...todo.filter((t) => newNamespaces.has(t.entry.name) && t.entry.kind === 'Namespace'),
      ...todo.filter((t) => !(newNamespaces.has(t.entry.name) && t.entry.kind === 'Namespace'))];
    for (const t of ordered) {
      try {
        if (t.entry.generateName !== undefined) {
          const res = await applier.create(t.obj, false);
          const name = (res.metadata as Record<string, unknown> | undefined)?.['name'];
          outcomes.set(t.entry, { entry: t.entry, result: 'applied', object: res, created: typeof name === 'string' ? name : '' });
          continue;
        }
        const res = await applier.apply(t.obj, false);
        outcomes.set(t.entry, { entry: t.entry, result: 'applied', object: res });
      } catch (err) {
        outcomes.set(t.entry, { entry: t.entry, result: 'failed', message: userMessage(err) });
      }
    }
  }

  if (stop) {
    for (const t of todo) {
      const o = outcomes.get(t.entry);
      if (!o || o.result === 'applied') outcomes.set(t.entry, { entry: t.entry, result: 'not-applied' });
    }
  }
  const list = entries.flatMap((e) => { const o = outcomes.get(e); return o ? [o] : []; });
  return { outcomes: list, stoppedBeforeApply: stop };
}
