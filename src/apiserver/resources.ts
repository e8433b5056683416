/**
 * The main resource, `/status` and `/scale` of `deploymentconfigs`: reads and watches proxied to
 * the storage group (same resourceVersions, selectors, paging), writes computed here with
 * OpenShift's create/update rules and defaulting, then stored with optimistic concurrency.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Annotations, ApiVersion, Kind } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { quantitiesAsOpenShiftStoredThem } from '../apis/quantities.js';
import { dcSpecWithoutNulls, specWithoutNulls } from '../apis/nulls.js';
import { toPublicApiVersion, toStorageApiVersion } from '../apis/storage.js';
import { applyDefaults } from '../apps/defaults.js';
import { decodeBody, fieldValidationOf, invalidPatchResult, judgeDuplicates, type BodyRole, type DecodedBody } from './field-validation.js';
import { applyPatch, patchKind, PatchTooLargeError } from './patch.js';
import type { RequestInfo } from './request-info.js';
import { PatchError } from './smp.js';
import { checkPodTemplate, templateChanged } from './template-check.js';
import {
  ApiStatusError, badRequest, entityTooLarge, fromStorageStatus, invalid, methodNotSupported, notAcceptable, unsupportedMediaType,
} from './status.js';
import { readBody, type UserStorage } from './storage.js';
import { negotiate, partialObjectMetadata, table, type IncludeObject, type Representation } from './table.js';

type ResourceInfo = Extract<RequestInfo, { kind: 'resource' }>;

export interface HandlerContext {
  readonly info: ResourceInfo;
  readonly storage: UserStorage;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The request body (read once, bounded). */
  body(): Promise<Buffer>;
}

interface DcList {
  apiVersion?: string;
  kind?: string;
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items?: DeploymentConfig[];
}

/** Query parameters forwarded to the storage for each verb (everything else is ours or ignored). */
const ReadParams = ['resourceVersion', 'resourceVersionMatch', 'labelSelector', 'fieldSelector', 'limit', 'continue', 'timeoutSeconds', 'allowWatchBookmarks', 'sendInitialEvents', 'watch'];
const WriteParams = ['dryRun', 'fieldManager', 'fieldValidation'];
const DeleteParams = ['dryRun', 'gracePeriodSeconds', 'propagationPolicy', 'orphanDependents', 'labelSelector', 'fieldSelector', 'ignoreStoreReadErrorWithClusterBreakingPotential'];

function pick(query: URLSearchParams, names: readonly string[]): URLSearchParams {
  const out = new URLSearchParams();
  for (const n of names) for (const v of query.getAll(n)) out.append(n, v);
  return out;
}

export function writeJson(res: ServerResponse, code: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), 'cache-control': 'no-cache, private' });
  res.end(data);
}

// The storage keeps the nulls a server-side apply leaves (src/apis/nulls.ts); OpenShift's API never
// answered with one.
const publicDc = (dc: DeploymentConfig, storageGroup: string): DeploymentConfig => specWithoutNulls(toPublicApiVersion(dc, storageGroup));

function publicList(list: DcList, storageGroup: string): DcList {
  return { ...list, apiVersion: ApiVersion, kind: 'DeploymentConfigList', items: (list.items ?? []).map((dc) => publicDc({ ...dc, apiVersion: dc.apiVersion ?? `${storageGroup}/v1`, kind: Kind }, storageGroup)) };
}

function includeObject(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

function representation(ctx: HandlerContext, isList: boolean): Representation {
  const r = negotiate(ctx.req.headers.accept, isList);
  if (!r) throw notAcceptable(ctx.req.headers.accept ?? '');
  return r;
}

/** Writes one DC in the representation the client asked for. */
function writeDc(ctx: HandlerContext, code: number, dc: DeploymentConfig): void {
  const rep = representation(ctx, false);
  const pub = publicDc(dc, ctx.storage.storageGroup);
  if (rep === 'table') writeJson(ctx.res, code, table([pub], { resourceVersion: pub.metadata?.resourceVersion }, includeObject(ctx.info.query)));
  else if (rep === 'metadata') writeJson(ctx.res, code, partialObjectMetadata(pub));
  else writeJson(ctx.res, code, pub);
}

/** Parses a JSON (or YAML) request body. */
export function parseBody(ctx: HandlerContext, buf: Buffer, role: BodyRole = 'object', kind: string = Kind): unknown {
  const type = (ctx.req.headers['content-type'] ?? 'application/json').split(';')[0]?.trim();
  const format = type === 'application/yaml' || type === 'application/apply-patch+yaml' ? 'yaml' : 'json';
  // A JSON patch's operations are not fields of the object.
  const judged = type !== 'application/json-patch+json';
  let body: DecodedBody;
  try {
    body = decodeBody(buf.toString('utf8'), format, judged);
  } catch (err) {
    throw badRequest(`the request body could not be decoded: ${(err as Error).message.split('\n')[0]}`);
  }
  if (judged) judgeDuplicates(body, role, fieldValidationOf(ctx.info.query), ctx.res, ctx.info.name, kind);
  return body.value;
}

function asDc(value: unknown, name: string | undefined): DeploymentConfig {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest('the request body must be a DeploymentConfig object');
  const dc = value as DeploymentConfig;
  if (dc.kind !== undefined && dc.kind !== Kind) throw badRequest(`the body is a ${String(dc.kind)}, not a ${Kind}`);
  if (dc.apiVersion !== undefined && dc.apiVersion !== ApiVersion) throw badRequest(`the body has apiVersion ${String(dc.apiVersion)}, want ${ApiVersion}`);
  dc.metadata ??= {};
  if (!dc.spec) throw invalid(Kind, dc.metadata.name ?? name ?? '', [{ reason: 'FieldValueRequired', field: 'spec', message: 'Required value' }]);
  return dc;
}

function checkCoordinates(dc: DeploymentConfig, ctx: HandlerContext): void {
  const { namespace, name } = ctx.info;
  if (dc.metadata.namespace && namespace && dc.metadata.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  if (namespace) dc.metadata.namespace = namespace;
  if (name !== undefined && dc.metadata.name !== undefined && dc.metadata.name !== name) {
    throw badRequest('the name of the object does not match the name on the URL');
  }
  if (name !== undefined) dc.metadata.name = name;
}

/**
 * OpenShift's PrepareForCreate (registry/deployconfig/strategy.go): empty status, lastTriggeredImage
 * cleared, defaults; and a Quantity sent as a fractional number (`cpu: 0.5`), which OpenShift's
 * decoder took, as its string, which the storage CRD takes (src/apis/quantities.ts).
 */
export function prepareForCreate(dc: DeploymentConfig): DeploymentConfig {
  const out = applyDefaults(dc);
  quantitiesAsOpenShiftStoredThem(out);
  out.apiVersion = ApiVersion;
  out.kind = Kind;
  delete out.status;
  for (const t of out.spec.triggers ?? []) if (t.imageChangeParams) delete t.imageChangeParams.lastTriggeredImage;
  return out;
}

/**
 * OpenShift's PrepareForUpdate (registry/deployconfig/strategy.go): the stored status wins, except that a submitted
 * `latestVersion` of exactly stored + 1 requests a rollout (`oc rollout latest` fallback, `oc
 * rollout undo`, `oc rollback`). Status is the controllers' here, so the request becomes this
 * project's instantiate request (forced, no trigger processing) in the same spec write: the
 * controller bumps latestVersion once, before any config-change trigger could.
 */
export function prepareForUpdate(dc: DeploymentConfig, stored: DeploymentConfig, newId: () => string = randomUUID): DeploymentConfig {
  const out = applyDefaults(dc);
  quantitiesAsOpenShiftStoredThem(out);
  out.apiVersion = ApiVersion;
  out.kind = Kind;
  const storedVersion = stored.status?.latestVersion ?? 0;
  const requested = dc.status?.latestVersion;
  out.status = stored.status ?? {};
  if (requested === storedVersion + 1) {
    out.metadata.annotations = {
      ...(out.metadata.annotations ?? {}),
      [Annotations.InstantiateRequest]: JSON.stringify({ id: newId(), force: true, latest: false }),
    };
  }
  return out;
}

async function getStored(ctx: HandlerContext): Promise<DeploymentConfig> {
  const { body } = await ctx.storage.json<DeploymentConfig>('GET', ctx.storage.dcPath(ctx.info.namespace, ctx.info.name));
  return publicDc(body, ctx.storage.storageGroup);
}

async function putStored(ctx: HandlerContext, dc: DeploymentConfig, subresource?: 'status', dryRun = false): Promise<{ status: number; body: DeploymentConfig }> {
  const query = pick(ctx.info.query, WriteParams);
  return ctx.storage.json<DeploymentConfig>('PUT', ctx.storage.dcPath(ctx.info.namespace, ctx.info.name, subresource), {
    body: toStorageApiVersion(dc, ctx.storage.storageGroup),
    query: dryRun ? dryRunOf(query) : query,
  });
}

/** `query` with dryRun=All (a dry run the front makes for its own checks). */
function dryRunOf(query: URLSearchParams): URLSearchParams {
  const q = new URLSearchParams(query);
  q.set('dryRun', 'All');
  return q;
}

// ------------------------------------------------------------------------------------- reads

export async function handleGet(ctx: HandlerContext): Promise<void> {
  const { body } = await ctx.storage.json<DeploymentConfig>('GET', ctx.storage.dcPath(ctx.info.namespace, ctx.info.name, ctx.info.subresource === 'status' ? 'status' : undefined),
    { query: pick(ctx.info.query, ['resourceVersion']) });
  writeDc(ctx, 200, body);
}

export async function handleList(ctx: HandlerContext): Promise<void> {
  const rep = representation(ctx, true);
  const { body } = await ctx.storage.json<DcList>('GET', ctx.storage.dcPath(ctx.info.namespace), { query: pick(ctx.info.query, ReadParams) });
  const list = publicList(body, ctx.storage.storageGroup);
  const meta = list.metadata ?? {};
  if (rep === 'table') writeJson(ctx.res, 200, table(list.items ?? [], meta, includeObject(ctx.info.query)));
  else if (rep === 'metadata') writeJson(ctx.res, 200, { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: meta, items: (list.items ?? []).map(partialObjectMetadata) });
  else writeJson(ctx.res, 200, list);
}

/** Proxies the storage's watch stream, event by event, in the client's representation. */
export async function handleWatch(ctx: HandlerContext): Promise<void> {
  const rep = representation(ctx, false);
  const query = pick(ctx.info.query, ReadParams);
  query.set('watch', 'true');
  if (ctx.info.name !== undefined) {
    // A watch of one object is a watch of the collection narrowed to its name.
    query.set('fieldSelector', [`metadata.name=${ctx.info.name}`, ...(query.get('fieldSelector') ? [query.get('fieldSelector')!] : [])].join(','));
  }
  const abort = new AbortController();
  const onClose = () => abort.abort();
  ctx.res.on('close', onClose);
  let upstream: IncomingMessage;
  try {
    upstream = await ctx.storage.raw('GET', ctx.storage.dcPath(ctx.info.namespace), { query, signal: abort.signal });
  } catch (err) {
    ctx.res.off('close', onClose);
    if (abort.signal.aborted) return;
    throw err;
  }
  if ((upstream.statusCode ?? 500) >= 300) {
    const buf = await readBody(upstream);
    let parsed: unknown;
    try { parsed = JSON.parse(buf.toString('utf8')); } catch { parsed = undefined; }
    throw fromStorageStatus(parsed, upstream.statusCode ?? 500, ctx.storage.storageGroup);
  }
  ctx.res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache, private' });
  ctx.res.flushHeaders();
  const include = includeObject(ctx.info.query);
  const convert = (event: { type?: string; object?: DeploymentConfig }): unknown => {
    const obj = event.object;
    if (!obj || event.type === 'ERROR') {
      return event.type === 'ERROR' ? { type: 'ERROR', object: fromStorageStatus(obj, (obj as { code?: number } | undefined)?.code ?? 500, ctx.storage.storageGroup).body } : event;
    }
    const pub = publicDc(obj, ctx.storage.storageGroup);
    if (rep === 'metadata') return { type: event.type, object: partialObjectMetadata(pub) };
    if (rep === 'table') {
      if (event.type === 'BOOKMARK') return { type: event.type, object: table([], { resourceVersion: pub.metadata?.resourceVersion }, include) };
      return { type: event.type, object: table([pub], { resourceVersion: pub.metadata?.resourceVersion }, include) };
    }
    return { type: event.type, object: pub };
  };
  let pending = '';
  await new Promise<void>((resolve) => {
    upstream.setEncoding('utf8');
    upstream.on('data', (chunk: string) => {
      pending += chunk;
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl).trim();
        pending = pending.slice(nl + 1);
        if (!line) continue;
        try {
          ctx.res.write(`${JSON.stringify(convert(JSON.parse(line) as { type?: string; object?: DeploymentConfig }))}\n`);
        } catch {
          // a torn line cannot happen with newline-delimited events; skip rather than kill the stream
        }
      }
    });
    upstream.on('end', resolve);
    upstream.on('error', resolve);
    upstream.on('close', resolve);
  });
  ctx.res.off('close', onClose);
  ctx.res.end();
}

// ------------------------------------------------------------------------------------ writes

export async function handleCreate(ctx: HandlerContext): Promise<void> {
  const dc = asDc(parseBody(ctx, await ctx.body()), undefined);
  checkCoordinates(dc, ctx);
  const prepared = prepareForCreate(dc);
  const create = (query: URLSearchParams) => ctx.storage.json<DeploymentConfig>('POST', ctx.storage.dcPath(ctx.info.namespace), {
    body: toStorageApiVersion(prepared, ctx.storage.storageGroup), query,
  });
  await checkPodTemplate(ctx.storage, prepared, ctx.info.namespace ?? '', () => create(dryRunOf(pick(ctx.info.query, WriteParams))));
  const { status, body } = await create(pick(ctx.info.query, WriteParams));
  writeDc(ctx, status, body);
}

export async function handleUpdate(ctx: HandlerContext): Promise<void> {
  const dc = asDc(parseBody(ctx, await ctx.body()), ctx.info.name);
  checkCoordinates(dc, ctx);
  if (!dc.metadata.resourceVersion) {
    throw invalid(Kind, ctx.info.name ?? '', [{ reason: 'FieldValueInvalid', field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' }]);
  }
  const stored = await getStored(ctx);
  if (ctx.info.subresource === 'status') {
    // Status update: spec, labels and annotations come from the stored object.
    const next = { ...stored, status: dc.status ?? {}, metadata: { ...stored.metadata, resourceVersion: dc.metadata.resourceVersion } };
    const { status, body } = await putStored(ctx, next, 'status');
    writeDc(ctx, status, body);
    return;
  }
  const next = prepareForUpdate(dc, stored);
  if (templateChanged(next, stored)) await checkPodTemplate(ctx.storage, next, ctx.info.namespace ?? '', () => putStored(ctx, next, undefined, true));
  const { status, body } = await putStored(ctx, next);
  writeDc(ctx, status, body);
}

const MaxPatchAttempts = 5;

export async function handlePatch(ctx: HandlerContext): Promise<void> {
  const kind = patchKind(ctx.req.headers['content-type']);
  if (!kind) throw unsupportedMediaType(ctx.req.headers['content-type'] ?? '');
  const raw = await ctx.body();
  if (kind === 'apply') {
    await forwardApply(ctx, raw);
    return;
  }
  const patch = parseBody(ctx, raw, 'patch');
  for (let attempt = 1; ; attempt++) {
    const stored = await getStored(ctx);
    let patched: DeploymentConfig;
    try {
      patched = applyPatch(stored, kind, patch);
    } catch (err) {
      if (err instanceof PatchTooLargeError) throw entityTooLarge(err.message);
      if (err instanceof PatchError) throw invalid(Kind, ctx.info.name ?? '', [{ reason: 'FieldValueInvalid', message: err.message }]);
      throw err;
    }
    if (patched.metadata?.name !== stored.metadata.name || (patched.metadata?.namespace ?? stored.metadata.namespace) !== stored.metadata.namespace) {
      throw badRequest('a patch cannot change the name or namespace of the object');
    }
    // A resourceVersion set by the patch is the client's precondition; otherwise ours (retried).
    const clientPrecondition = patched.metadata.resourceVersion !== stored.metadata.resourceVersion;
    const next = ctx.info.subresource === 'status'
      ? { ...stored, status: patched.status ?? {}, metadata: { ...stored.metadata, resourceVersion: patched.metadata.resourceVersion } }
      : prepareForUpdate(patched, stored);
    if (ctx.info.subresource !== 'status' && templateChanged(next, stored)) {
      await checkPodTemplate(ctx.storage, next, ctx.info.namespace ?? '', () => putStored(ctx, next, undefined, true).catch((err: unknown) => {
        // As the write itself answers it: a result the storage cannot decode is Invalid on `patch`.
        throw err instanceof ApiStatusError && err.code === 400 ? invalidPatchResult(ctx.info.name ?? '', err.message) : err;
      }));
    }
    try {
      const { status, body } = await putStored(ctx, next, ctx.info.subresource === 'status' ? 'status' : undefined);
      writeDc(ctx, status, body);
      return;
    } catch (err) {
      if (err instanceof ApiStatusError && err.code === 409 && !clientPrecondition && attempt < MaxPatchAttempts) continue;
      // The storage could not decode the patched object (Strict and an unknown field): kube-apiserver
      // answers a patch so with Invalid on `patch`, not with the update's BadRequest.
      if (err instanceof ApiStatusError && err.code === 400) throw invalidPatchResult(ctx.info.name ?? '', err.message);
      throw err;
    }
  }
}

/** The field manager of the write that stores OpenShift's defaults of an applied DC. */
export const DefaultsFieldManager = 'dcctl-apiserver-defaults';

/**
 * Server-side apply: the storage computes field ownership; the body is re-addressed to it. The
 * applied result is then defaulted like a created DC (`defaults.ts`, conditional defaults a
 * schema cannot express). As kube-apiserver's defaulting, the defaults get no owner: they are
 * written with an update, and the managed fields the apply computed are put back in a second,
 * resourceVersion-guarded write, so a later apply of those fields by anyone never conflicts.
 */
async function forwardApply(ctx: HandlerContext, raw: Buffer): Promise<void> {
  if (ctx.info.subresource === 'status') throw methodNotSupported('apply', 'DeploymentConfig/status');
  const doc = parseBody(ctx, raw, 'apply') as DeploymentConfig | null;
  if (!doc || typeof doc !== 'object') throw badRequest('an apply patch must be an object');
  if (doc.apiVersion !== ApiVersion || doc.kind !== Kind) {
    throw badRequest(`an apply patch must have apiVersion ${ApiVersion} and kind ${Kind}`);
  }
  // As in a create: the storage CRD takes a Quantity only as an integer or a string.
  quantitiesAsOpenShiftStoredThem(doc);
  const query = pick(ctx.info.query, [...WriteParams, 'force']);
  const path = ctx.storage.dcPath(ctx.info.namespace, ctx.info.name);
  const apply = (q: URLSearchParams) => ctx.storage.json<DeploymentConfig>('PATCH', path, {
    rawBody: { contentType: 'application/apply-patch+yaml', data: JSON.stringify(toStorageApiVersion(doc, ctx.storage.storageGroup)) },
    query: q,
  });
  // The template an apply makes is known once the storage merged it: a dry run first, judged as a
  // create's (an apply names only its manager's fields), then the apply itself.
  const trial = query.has('dryRun') ? undefined : await apply(dryRunOf(query));
  if (trial) await checkPodTemplate(ctx.storage, publicDc(trial.body, ctx.storage.storageGroup), ctx.info.namespace ?? '');
  const applied = await apply(query);
  if (!trial) await checkPodTemplate(ctx.storage, publicDc(applied.body, ctx.storage.storageGroup), ctx.info.namespace ?? '');
  let stored = applied.body;
  const defaultedSpec = (dc: DeploymentConfig) => applyDefaults(dc).spec;
  // Nulls the apply left are not worth a write: no reader sees them (publicDc, src/apis/nulls.ts).
  const needsDefaults = (dc: DeploymentConfig) => !isDeepStrictEqual(defaultedSpec(dc), dcSpecWithoutNulls(dc.spec));
  if (!needsDefaults(stored)) {
    writeDc(ctx, applied.status, stored);
    return;
  }
  if (query.has('dryRun')) {
    writeDc(ctx, applied.status, { ...stored, spec: defaultedSpec(stored) });
    return;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const withDefaults = await ctx.storage.json<DeploymentConfig>('PUT', path, {
        body: { ...stored, spec: defaultedSpec(stored) },
        query: { fieldManager: DefaultsFieldManager },
      });
      const owned = await disownDefaults(ctx.storage, path, withDefaults.body, stored.metadata.managedFields ?? []);
      writeDc(ctx, applied.status, owned);
      return;
    } catch (err) {
      if (!(err instanceof ApiStatusError && err.code === 409) || attempt >= MaxPatchAttempts) throw err;
      stored = (await ctx.storage.json<DeploymentConfig>('GET', path)).body;
      if (!needsDefaults(stored)) {
        writeDc(ctx, applied.status, stored);
        return;
      }
    }
  }
}

/**
 * Puts back the managed fields the apply computed, so the defaults written after it have no
 * owner. Guarded by resourceVersion; when another writer (the controller's status write, a
 * user) got in between, the current entries minus the defaults manager's are written instead,
 * which keeps that writer's ownership too. If every attempt loses, the defaults stay stored
 * and only their ownership stays with the defaults manager.
 */
export async function disownDefaults(
  storage: Pick<UserStorage, 'json'>, path: string, withDefaults: DeploymentConfig, appliedFields: readonly unknown[],
): Promise<DeploymentConfig> {
  let current = withDefaults;
  let fields: readonly unknown[] = appliedFields;
  for (let attempt = 1; ; attempt++) {
    try {
      const { body } = await storage.json<DeploymentConfig>('PATCH', path, {
        rawBody: {
          contentType: 'application/json-patch+json',
          data: JSON.stringify([
            { op: 'test', path: '/metadata/resourceVersion', value: current.metadata.resourceVersion },
            { op: 'replace', path: '/metadata/managedFields', value: fields },
          ]),
        },
        query: { fieldManager: DefaultsFieldManager },
      });
      return body;
    } catch (err) {
      if (!(err instanceof ApiStatusError && (err.code === 409 || err.code === 422)) || attempt >= MaxPatchAttempts) {
        if (err instanceof ApiStatusError && (err.code === 409 || err.code === 422)) return current;
        throw err;
      }
    }
    current = (await storage.json<DeploymentConfig>('GET', path)).body;
    const entries = current.metadata.managedFields ?? [];
    const others = entries.filter((entry) => entry.manager !== DefaultsFieldManager);
    if (others.length === entries.length || others.length === 0) return current;
    fields = others;
  }
}

export async function handleDelete(ctx: HandlerContext): Promise<void> {
  const raw = await ctx.body();
  const path = ctx.info.name !== undefined ? ctx.storage.dcPath(ctx.info.namespace, ctx.info.name) : ctx.storage.dcPath(ctx.info.namespace);
  const { status, body } = await ctx.storage.json<DeploymentConfig & DcList & { kind?: string }>('DELETE', path, {
    query: pick(ctx.info.query, DeleteParams),
    ...(raw.length > 0 ? { rawBody: { contentType: 'application/json', data: raw } } : {}),
  });
  if (body?.kind === 'Status') writeJson(ctx.res, status, body);
  else if (ctx.info.name === undefined) writeJson(ctx.res, status, publicList(body, ctx.storage.storageGroup));
  else writeDc(ctx, status, body);
}

/** `/scale`: the storage's autoscaling/v1 Scale, forwarded as is (any patch type). */
export async function handleScale(ctx: HandlerContext): Promise<void> {
  const raw = ctx.info.verb === 'get' ? Buffer.alloc(0) : await ctx.body();
  const method = ctx.info.verb === 'get' ? 'GET' : ctx.info.verb === 'update' ? 'PUT' : 'PATCH';
  const { status, body } = await ctx.storage.json<unknown>(method, ctx.storage.dcPath(ctx.info.namespace, ctx.info.name, 'scale'), {
    query: pick(ctx.info.query, WriteParams),
    ...(raw.length > 0 ? { rawBody: { contentType: ctx.req.headers['content-type'] ?? 'application/json', data: raw } } : {}),
  });
  writeJson(ctx.res, status, body);
}

