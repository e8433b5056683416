/**
 * The import pipeline without I/O: decode → process Templates → check every object → rewrite
 * and strip → per-object report entries. Any unusable input (syntax error, unknown apiVersion,
 * missing required parameter, unknown --param, duplicate object) throws ImportInputError with
 * EVERY problem found, so nothing is printed or applied from a half-understood file.
 */
import { Annotations } from '../apis/constants.js';
import { quantitiesAsOpenShiftStoredThem } from '../apis/quantities.js';
import { importDeploymentConfig } from './deploymentconfig.js';
import type { RandomInt } from './generator.js';
import { classify, refOf, type KindClass } from './kinds.js';
import { convertRemovedVersion } from './removed-versions.js';
import { namespaceNotes, networkPolicyNotes, rebindToImportedNamespace, projectDefaultSkip, serviceCaNotes } from './openshift-project.js';
import { decodeDocuments, flattenLists, isListKind, type DuplicateKey, type FoundObject } from './parse.js';
import {
  stripClaimFields, stripImageStreamFields, stripNulls, stripNullTimestamps, stripServerFields, stripServiceAccountFields, stripServiceFields,
} from './strip.js';
import { normalizeImageStreamFields, renameDeploymentConfigFields, renameServiceFields, retargetAutoscaler } from './renames.js';
import { bundledSchema } from './prune.js';
import { renameStreamsForCrd } from './stream-names.js';
import { isTemplate, parameterNames, parameterReferenceIn, processTemplate, templateNameOf } from './template.js';
import {
  ImportInputError, formatOrigin, isObject, metadataMap, type ImportEntry, type ImportResult, type InputProblem, type KubeObject,
} from './types.js';

/** One input file (or stdin) and its text. */
export interface ImportInput { readonly source: string; readonly text: string }

export interface ImportOptions {
  /** `--param-file` values overridden by `--param` values. */
  readonly params: ReadonlyMap<string, string>;
  readonly random: RandomInt;
  /** `--template`: the names of the Templates to process; empty or absent: every Template. */
  readonly templates?: ReadonlySet<string>;
}

interface Candidate extends FoundObject {
  readonly keepNamespace: boolean;
  readonly changes?: readonly string[];
  /** The Template that made it. */
  readonly template?: string;
  /** A Template `--template` did not name: reported, not processed. */
  readonly unselected?: boolean;
  readonly notJsonValues?: ReadonlyMap<string, readonly string[]>;
}
type ValidClass = Exclude<KindClass, { type: 'invalid' }>;

/** Runs the pipeline; throws ImportInputError when any input is unusable. */
export function importObjects(inputs: readonly ImportInput[], options: ImportOptions): ImportResult {
  const problems: InputProblem[] = [];
  const found: FoundObject[] = [];
  const duplicates: TrackedDuplicate[] = [];
  for (const input of inputs) {
    const d = decodeDocuments(input.text, input.source);
    found.push(...d.objects);
    problems.push(...d.problems);
    duplicates.push(...d.duplicateKeys.map((k) => ({ ...k, source: input.source })));
  }

  const allTemplates = found.filter((f) => isTemplate(f.object));
  const templateName = (f: FoundObject): string => templateNameOf(f.object) ?? '';
  const chosen = options.templates && options.templates.size > 0 ? options.templates : undefined;
  for (const name of chosen ?? []) {
    if (!allTemplates.some((t) => templateName(t) === name)) {
      problems.push({ origin: { source: '--template' }, message: `--template ${name}: the input has no Template of that name (it has ${allTemplates.map(templateName).join(', ') || 'none'})` });
    }
  }
  const selected = (f: FoundObject): boolean => !chosen || chosen.has(templateName(f));
  const templates = allTemplates.filter(selected);
  const declared = new Set(templates.flatMap((t) => parameterNames(t.object)));
  for (const name of options.params.keys()) {
    if (templates.length === 0) {
      problems.push({ origin: { source: '--param' }, message: `parameter ${name} given, but the input has no Template` });
    } else if (!declared.has(name)) {
      problems.push({ origin: { source: '--param' }, message: `unknown parameter name "${name}": the templates declare ${[...declared].sort().join(', ') || 'no parameters'}` });
    }
  }
  const candidates: Candidate[] = [];
  const templateMessages: ImportResult['templateMessages'] = [];
  const templateNotes: string[] = [];
  for (const f of found) {
    if (!isTemplate(f.object) || !selected(f)) {
      candidates.push({ ...f, keepNamespace: false, ...(isTemplate(f.object) ? { unselected: true } : {}) });
      continue;
    }
    const t = processTemplate(f.object, f.origin, options.params, options.random);
    problems.push(...t.problems);
    templateNotes.push(...t.notes);
    for (const made of t.objects) {
      if (!isListKind(made.object)) { candidates.push(made); continue; }
      // A list the Template makes (OpenShift 3.0 templates held a ServiceList): oc created its
      // items, flattened by kubectl's resource builder; the Template's labels stayed on the list.
      const items: FoundObject[] = [];
      flattenLists(made.object, made.origin, items, problems);
      candidates.push(...items.map((item) => ({ ...item, keepNamespace: false, template: made.template, ...(made.notJsonValues ? { notJsonValues: made.notJsonValues } : {}) })));
    }
    if (t.message.trim() !== '') templateMessages.push({ template: t.name, message: t.message });
  }

  const checked: { c: Candidate; cls: ValidClass; kind: string; name: string; generateName?: string }[] = [];
  const seen = new Map<string, Candidate>();
  for (const c of candidates) {
    const o = c.object;
    const where = { origin: c.origin };
    if (typeof o.apiVersion !== 'string' || o.apiVersion === '') { problems.push({ ...where, message: 'apiVersion is missing' }); continue; }
    if (typeof o.kind !== 'string' || o.kind === '') { problems.push({ ...where, message: 'kind is missing' }); continue; }
    const meta = isObject(o.metadata) ? o.metadata : undefined;
    const name = typeof meta?.['name'] === 'string' ? meta['name'] : '';
    // `oc create` takes an object with only generateName; the server picks the name (--apply creates it).
    const generateName = name === '' && typeof meta?.['generateName'] === 'string' && meta['generateName'] !== '' ? meta['generateName'] : undefined;
    if (name === '' && generateName === undefined) {
      problems.push({ ...where, message: `${o.kind} has neither metadata.name nor metadata.generateName` });
      continue;
    }
    // RBAC names are path segments, where `${X}` is a valid name; every other kind's name is DNS-like.
    const unsubstituted = o.apiVersion.startsWith('rbac.authorization.k8s.io/') ? null : parameterReferenceIn(name || generateName || '');
    if (unsubstituted) {
      // From a Template: a reference it does not declare, or one a parameter's value brought in
      // (values are not substituted themselves): OpenShift refused such a name too.
      const fix = c.template !== undefined
        ? `Template "${c.template}" declares no such parameter, or a parameter's value holds it (values are not substituted, as in oc process): give that parameter a value without it (--param)`
        : 'import the Template it came from (with --param), or write the name';
      problems.push({ ...where, message: `${o.kind} "${name || generateName}": metadata.${name ? 'name' : 'generateName'} holds the Template parameter reference `
        + `${unsubstituted}, which nothing substituted: ${fix}` });
      continue;
    }
    const cls = classify(o.apiVersion, o.kind);
    if (cls.type === 'invalid') { problems.push({ ...where, message: cls.message }); continue; }
    if (generateName !== undefined) {
      checked.push({ c, cls, kind: o.kind, name, generateName });
      continue;
    }
    const ns = c.keepNamespace && typeof meta?.['namespace'] === 'string' ? meta['namespace'] : '';
    const key = `${refOf(cls.apiVersion, o.kind, name)} ${ns}`;
    const first = seen.get(key);
    if (first) {
      // A file of alternative Templates (`oc get templates -o yaml`: mysql-ephemeral next to
      // mysql-persistent) makes the same objects twice; oc process took only the first Template.
      const alternatives = first.template !== undefined && c.template !== undefined && first.template !== c.template
        ? `: Templates "${first.template}" and "${c.template}" both make it; choose one with --template NAME (oc process processes only the first Template of a file)` : '';
      problems.push({ ...where, message: `${o.kind} "${name}" is defined twice (first at ${formatOrigin(first.origin)})${alternatives}` });
      continue;
    }
    seen.set(key, c);
    checked.push({ c, cls, kind: o.kind, name });
  }
  if (problems.length > 0) {
    // Report in input order (file, then document), whatever stage found the problem.
    const order = (p: InputProblem) => [inputs.findIndex((i) => i.source === p.origin.source), 'document' in p.origin ? p.origin.document : 0];
    throw new ImportInputError([...problems].sort((a, b) => {
      const [fa = 0, da = 0] = order(a);
      const [fb = 0, db = 0] = order(b);
      return fa - fb || da - db;
    }));
  }

  const streams = new Set(checked.filter((x) => x.cls.type === 'imagestream').map((x) => x.name));
  const selectingServices = new Set(checked.filter((x) => x.kind === 'Service' && x.cls.apiVersion === 'v1'
    && isObject(x.c.object['spec']) && isObject(x.c.object['spec']['selector'])).map((x) => x.name));

  const entries = checked.map(({ c, cls, kind, name, generateName }) => toEntry(c, cls, kind, name, generateName, { streams, selectingServices, duplicates }));
  renameStreamsForCrd(entries);
  const notes: string[] = [...templateNotes];
  for (const d of duplicates) {
    if (!d.claimed) notes.push(`${formatOrigin({ source: d.source, document: d.document, path: '' })}: ${duplicateKeyLine(d.path, d)}`);
  }
  if (entries.some((e) => e.kind === 'DeploymentConfig' && e.outcome !== 'skipped')) {
    notes.push('`kubectl get dc` shows the trigger types (ConfigChange,ImageChange) in TRIGGERED BY, not oc\'s config,image(name:tag) summary: read spec.triggers for the image triggers');
  }
  return { entries, templateMessages, notes };
}

interface Scan {
  readonly streams: ReadonlySet<string>;
  readonly selectingServices: ReadonlySet<string>;
  readonly duplicates: TrackedDuplicate[];
}

/** A duplicate key of an input; the object it is in reports it and claims it, the import reports the rest. */
type TrackedDuplicate = DuplicateKey & { readonly source: string; claimed?: boolean };

const duplicateKeyLine = (field: string, d: DuplicateKey): string => d.format === 'yaml'
  ? `${field} is written twice in one mapping (line ${d.line}, column ${d.column}): the later value is kept, as OpenShift's YAML reader did`
  : `${field} is written twice in one object (line ${d.line}, column ${d.column}): the later value is kept, as OpenShift's JSON decoder did`;

/** The duplicate keys inside the object found at `origin`, with their paths inside it. */
function duplicatesIn(origin: ImportEntry['origin'], duplicates: Scan['duplicates']): string[] {
  return duplicates.flatMap((d) => {
    if (d.source !== origin.source || d.document !== origin.document) return [];
    if (origin.path !== '' && !(d.path.startsWith(`${origin.path}.`) || d.path.startsWith(`${origin.path}[`))) return [];
    d.claimed = true;
    return [duplicateKeyLine(d.path.slice(origin.path.length).replace(/^\./, ''), d)];
  });
}

function toEntry(c: Candidate, cls: ValidClass, kind: string, name: string, generateName: string | undefined, scan: Scan): ImportEntry {
  const original = c.object;
  const entry: ImportEntry = {
    ref: refOf(cls.apiVersion, kind, generateName === undefined ? name : `${generateName}<generated>`),
    apiVersion: cls.apiVersion, kind, name, ...(generateName !== undefined ? { generateName } : {}), origin: c.origin,
    outcome: 'imported', changes: [], notes: [], ...(c.notJsonValues ? { notJsonValues: c.notJsonValues } : {}),
  };
  const skip = c.unselected ? { reason: 'not processed: --template names other Templates of the input' } : skipReason(original, cls, kind, name, scan);
  if (skip) {
    entry.outcome = 'skipped';
    entry.reason = skip.reason;
    entry.hint = skip.hint;
    return entry;
  }

  entry.changes.push(...duplicatesIn(c.origin, scan.duplicates));
  if (c.changes) entry.changes.push(...c.changes);
  const obj = structuredClone(original) as KubeObject;
  const meta = obj.metadata as Record<string, unknown>;
  if (cls.type === 'kubernetes' && cls.convertedFrom !== undefined) entry.changes.push(...convertRemovedVersion(obj, cls.convertedFrom, kind, cls.apiVersion));
  const legacy = obj.apiVersion !== cls.apiVersion;
  if (legacy) {
    entry.changes.push(`apiVersion ${String(obj.apiVersion)} → ${cls.apiVersion} (the legacy group-less form cannot be routed to a CRD)`);
    obj.apiVersion = cls.apiVersion;
  }
  const exportedNamespace = typeof meta['namespace'] === 'string' && meta['namespace'] !== '' ? meta['namespace'] : undefined;
  if (!c.keepNamespace && 'namespace' in meta) {
    delete meta['namespace'];
    if (exportedNamespace) entry.changes.push(`removed metadata.namespace "${exportedNamespace}" (objects go to the namespace of -n or the kubeconfig context)`);
  }
  const rebound = rebindToImportedNamespace(obj, cls.apiVersion, kind, exportedNamespace);
  entry.changes.push(...rebound.changes);
  entry.notes.push(...rebound.notes, ...serviceCaNotes(obj, cls.apiVersion, kind), ...networkPolicyNotes(obj, cls.apiVersion, kind), ...namespaceNotes(obj, cls.apiVersion, kind));
  if (kind === 'Service' && cls.apiVersion === 'v1') entry.changes.push(...renameServiceFields(obj));
  if (kind === 'HorizontalPodAutoscaler' && cls.apiVersion.startsWith('autoscaling/')) entry.changes.push(...retargetAutoscaler(obj));
  if (cls.type === 'deploymentconfig') entry.changes.push(...renameDeploymentConfigFields(obj));
  if (cls.type === 'imagestream') entry.changes.push(...normalizeImageStreamFields(obj));
  const removed = [...stripServerFields(obj), ...stripNullTimestamps(obj)];
  if (kind === 'Service' && cls.apiVersion === 'v1') removed.push(...stripServiceFields(obj));
  if (kind === 'PersistentVolumeClaim' && cls.apiVersion === 'v1') removed.push(...stripClaimFields(obj));
  if (kind === 'ServiceAccount' && cls.apiVersion === 'v1') removed.push(...stripServiceAccountFields(obj, name));
  if (cls.type === 'imagestream') {
    removed.push(...stripImageStreamFields(obj));
    entry.notes.push('ImageStreams are served by the ImageStream CRD (crds/imagestream.yaml) and resolved by the image trigger controller; there is no integrated registry, so tags must point at external images (from.kind DockerImage)');
  }
  if (removed.length > 0) entry.changes.push(`removed server-written fields: ${removed.join(', ')}`);
  // Before the nulls: a null Quantity in a map is "0", not the "" of a null string.
  if (cls.type === 'deploymentconfig') {
    for (const q of quantitiesAsOpenShiftStoredThem(obj)) {
      entry.changes.push(q.sent === null
        ? `${q.path}: null → "0" (a Quantity: OpenShift read a null one as zero and stored "0")`
        : `${q.path}: ${q.text} → "${q.text}" (a Quantity: the CRD takes a number only as an integer; OpenShift read ${q.text} as the same quantity)`);
    }
  }
  const crdSchema = bundledSchema(cls.apiVersion, kind);
  if (crdSchema !== undefined) entry.changes.push(...stripNulls(obj, crdSchema));
  if (cls.type === 'deploymentconfig') {
    const dc = importDeploymentConfig(obj, { legacy, exportedNamespace, importedStreams: scan.streams });
    entry.changes.push(...dc.changes);
    entry.notes.push(...dc.notes);
  }
  if (generateName !== undefined) {
    entry.notes.push(`metadata.generateName "${generateName}": the server picks the name when the object is created, so each import creates another one; `
      + 'create it with `kubectl create -f` (kubectl apply needs a name) or `dcctl import --apply`, which reports the name');
  }
  entry.object = obj;
  entry.outcome = entry.changes.length > 0 ? 'changed' : 'imported';
  return entry;
}

function skipReason(o: KubeObject, cls: ValidClass, kind: string, name: string, scan: Scan): { reason: string; hint?: string } | undefined {
  if (cls.type === 'openshift-only') {
    return { reason: cls.info.reason, hint: kind === 'Route' ? `${cls.info.hint}; ${describeRoute(o)}` : cls.info.hint };
  }
  const meta = o.metadata as Record<string, unknown>;
  if (kind === 'Event') return { reason: 'events are written by the cluster' };
  const controller = (Array.isArray(meta['ownerReferences']) ? meta['ownerReferences'] : [])
    .find((r: unknown) => isObject(r) && r['controller'] === true) as Record<string, unknown> | undefined;
  if (controller) {
    return { reason: `managed by its controller ${String(controller['kind'])}/${String(controller['name'])}, which creates it again on the new cluster` };
  }
  // OpenShift 3 made a DC's RCs without an owner reference; adopting them takes the DC's label,
  // which old RCs lack, so applied they ran their pods next to the DC's own first rollout.
  const annotations = metadataMap(o, 'annotations');
  const madeFor = annotations[Annotations.DeploymentConfig];
  if (kind === 'ReplicationController' && cls.apiVersion === 'v1' && typeof madeFor === 'string') {
    return { reason: `a rollout of DeploymentConfig ${madeFor} (made by OpenShift without an owner reference), which rolls out again on the new cluster` };
  }
  // Before Kubernetes 1.8 (OpenShift 3.7) a controller named itself in this annotation, not in an
  // owner reference, so the pods of an `oc get all` of that time look like anyone's.
  const createdBy = legacyCreator(annotations['kubernetes.io/created-by']);
  if (createdBy) {
    return { reason: `made by its controller ${createdBy} (named in the kubernetes.io/created-by annotation, as controllers did before Kubernetes 1.8), which creates it again on the new cluster` };
  }
  if (kind === 'Pod' && cls.apiVersion === 'v1') {
    const build = annotations['openshift.io/build.name'] ?? metadataMap(o, 'labels')['openshift.io/build.name'];
    if (typeof build === 'string') return { reason: `the pod of Build ${build}, which only OpenShift runs` };
    // A deployer or hook pod (and every pod of a DC's RC carries it too, from the RC's template).
    const rollout = annotations[Annotations.Deployment];
    if (typeof rollout === 'string') return { reason: `a pod OpenShift ran for rollout ${rollout} of a DeploymentConfig (no owner reference), which rolls out again on the new cluster` };
  }
  if (kind === 'Secret' && cls.apiVersion === 'v1') {
    const sa = annotations['kubernetes.io/service-account.name'];
    if (o['type'] === 'kubernetes.io/service-account-token') return { reason: `a token generated by the cluster for service account ${String(sa)}` };
    // OpenShift 4.16+ makes them without a token secret and names the account in its own annotation.
    const pullSecretOf = annotations['openshift.io/internal-registry-auth-token.service-account'];
    if (o['type'] === 'kubernetes.io/dockercfg' && (annotations['openshift.io/token-secret.name'] !== undefined || pullSecretOf !== undefined)) {
      return { reason: `a registry credential generated by OpenShift for service account ${String(sa ?? pullSecretOf)}` };
    }
  }
  const projectDefault = projectDefaultSkip(o, cls.apiVersion, kind, name);
  if (projectDefault) return projectDefault;
  if ((kind === 'Endpoints' && cls.apiVersion === 'v1' && scan.selectingServices.has(name))) {
    return { reason: `maintained by the endpoints controller for Service ${name}, which has a selector` };
  }
  return undefined;
}

/**
 * `Kind/name` of the controller a pre-1.8 `kubernetes.io/created-by` annotation names (a JSON
 * SerializedReference); undefined when the annotation is absent or not such a reference.
 */
function legacyCreator(annotation: unknown): string | undefined {
  if (typeof annotation !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(annotation);
  } catch {
    return undefined;
  }
  const ref = isObject(parsed) && isObject(parsed['reference']) ? parsed['reference'] : undefined;
  return ref && typeof ref['kind'] === 'string' && typeof ref['name'] === 'string' ? `${ref['kind']}/${ref['name']}` : undefined;
}

function describeRoute(o: KubeObject): string {
  const spec = isObject(o['spec']) ? o['spec'] : {};
  const to = isObject(spec['to']) ? spec['to'] : {};
  const port = isObject(spec['port']) ? spec['port']['targetPort'] : undefined;
  const tls = isObject(spec['tls']) ? spec['tls']['termination'] : undefined;
  const host = typeof spec['host'] === 'string' && spec['host'] !== '' ? `host ${spec['host']}` : 'a generated host';
  return `this Route sends ${host}${typeof spec['path'] === 'string' ? ` path ${spec['path']}` : ''} to service ${String(to['name'] ?? '?')}`
    + `${port !== undefined ? ` port ${String(port)}` : ''}${tls ? ` with TLS termination ${String(tls)}` : ''}`;
}
