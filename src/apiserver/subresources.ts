/**
 * `instantiate`, `rollback` and `log` with OpenShift's semantics (openshift-apiserver's instantiate, rollback and deploylog REST handlers), built on
 * what the project already has: the instantiate request the DC controller handles, the CLI's
 * rollback generation, and the ordinary `pods/log` API.
 */
import { randomUUID } from 'node:crypto';
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, ApiVersion, Kind, Phase } from '../apis/constants.js';
import type { DeploymentConfig, DeploymentTriggerType, InstantiateAck } from '../apis/deploymentconfig.js';
import { decodeDeploymentConfig, DecodeError } from '../apis/encoded.js';
import { specWithoutNulls } from '../apis/nulls.js';
import { selectorString } from '../apps/deployment.js';
import { generateRollback, InvalidRollbackError, rollbackTarget } from '../apps/rollback.js';
import { deployerPodNameFor, rcNameFor } from '../util/naming.js';
import { setLongTimeout, sleep } from '../util/sleep.js';
import { parseBody, writeJson, type HandlerContext } from './resources.js';
import { deployerPodCanLog, parseDeploymentLogOptions, podForLogging, podLogQuery, targetVersion } from './deploylog.js';
import { ApiStatusError, badRequest, internal, invalid, invalidMessage, notFoundCore, serverTimeout, timeout } from './status.js';
import { readBody } from './storage.js';

async function storedDc(ctx: HandlerContext): Promise<DeploymentConfig> {
  const { body } = await ctx.storage.json<DeploymentConfig>('GET', ctx.storage.dcPath(ctx.info.namespace, ctx.info.name));
  return specWithoutNulls({ ...body, apiVersion: ApiVersion, kind: Kind });
}

// ------------------------------------------------------------------------------- instantiate

interface DeploymentRequest {
  kind?: string;
  apiVersion?: string;
  name?: string;
  latest?: boolean;
  force?: boolean;
  excludeTriggers?: DeploymentTriggerType[];
}

export interface InstantiateOptions {
  /** How long to wait for the controller's acknowledgement. */
  readonly ackTimeoutMs: number;
}

/**
 * Files the request as the annotation the DC controller handles (one merge patch, as the user)
 * and answers with the DC the controller's acknowledgement came with: Triggered → 201 with the
 * DC, NotTriggered → 204 (OpenShift's Status code), Rejected → 400 with the reason.
 */
export async function handleInstantiate(ctx: HandlerContext, opts: InstantiateOptions): Promise<void> {
  const req = parseBody(ctx, await ctx.body(), 'object', 'DeploymentRequest') as DeploymentRequest;
  const name = ctx.info.name ?? '';
  if (!req || typeof req !== 'object') throw badRequest('the body must be a DeploymentRequest');
  if (req.kind !== undefined && req.kind !== 'DeploymentRequest') throw badRequest(`the body is a ${String(req.kind)}, not a DeploymentRequest`);
  if (req.name !== undefined && req.name !== name) {
    throw invalid('DeploymentRequest', req.name, [{ reason: 'FieldValueInvalid', field: 'name', message: `Invalid value: "${req.name}": must match the deployment config name "${name}"` }]);
  }
  const dc = await storedDc(ctx);
  if (dc.spec.paused) {
    throw invalid('DeploymentRequest', name, [{ reason: 'FieldValueInvalid', field: 'name', message: `Invalid value: "${name}": deployment config "${name}" is paused - unpause to request a new deployment` }]);
  }
  const id = randomUUID();
  const request = { id, latest: req.latest === true, force: req.force === true, ...(req.excludeTriggers ? { excludeTriggers: req.excludeTriggers } : {}) };
  const patched = await ctx.storage.json<DeploymentConfig>('PATCH', ctx.storage.dcPath(ctx.info.namespace, name), {
    rawBody: { contentType: 'application/merge-patch+json', data: JSON.stringify({ metadata: { annotations: { [Annotations.InstantiateRequest]: JSON.stringify(request) } } }) },
  });
  const acked = await waitForAck(ctx, name, id, patched.body.metadata?.resourceVersion ?? '', opts.ackTimeoutMs);
  if (!acked) {
    throw timeout(`the controller has not handled instantiate request ${id} for deploymentconfig "${name}" within ${Math.round(opts.ackTimeoutMs / 1000)}s; it stays recorded in the ${Annotations.InstantiateRequest} annotation and is handled when the controller runs`);
  }
  const ack = acked.status?.lastInstantiateRequest as InstantiateAck;
  const out = specWithoutNulls({ ...acked, apiVersion: ApiVersion, kind: Kind });
  if (ack.outcome === 'Triggered') writeJson(ctx.res, 201, out);
  else if (ack.outcome === 'NotTriggered') {
    ctx.res.writeHead(204);
    ctx.res.end();
  } else throw badRequest(ack.message ?? `deployment config "${name}" cannot be instantiated`);
}

/** Watches the stored DC until its acknowledgement carries `id`; undefined on timeout. */
async function waitForAck(ctx: HandlerContext, name: string, id: string, fromRv: string, timeoutMs: number): Promise<DeploymentConfig | undefined> {
  const abort = new AbortController();
  const timer = setLongTimeout(() => abort.abort(), timeoutMs);
  try {
    while (!abort.signal.aborted) {
      // List first (the ack may already be there), then watch from that list's resourceVersion.
      const current = await ctx.storage.json<DeploymentConfig>('GET', ctx.storage.dcPath(ctx.info.namespace, name));
      if (current.body.status?.lastInstantiateRequest?.id === id) return current.body;
      const res = await ctx.storage.raw('GET', ctx.storage.dcPath(ctx.info.namespace), {
        query: { watch: 'true', fieldSelector: `metadata.name=${name}`, resourceVersion: current.body.metadata?.resourceVersion ?? fromRv, timeoutSeconds: String(Math.max(1, Math.ceil(timeoutMs / 1000))) },
        signal: abort.signal,
      }).catch(() => undefined);
      if (!res) break;
      let buf = '';
      try {
        for await (const chunk of res) {
          buf += (chunk as Buffer).toString('utf8');
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            const ev = JSON.parse(line) as { type: string; object?: DeploymentConfig };
            if (ev.type === 'DELETED') return undefined;
            if (ev.object?.status?.lastInstantiateRequest?.id === id) return ev.object;
          }
        }
      } catch {
        // aborted by the timer, or the watch broke: loop (a fresh GET decides)
      }
    }
    return undefined;
  } finally {
    timer.clear();
  }
}

// ---------------------------------------------------------------------------------- rollback

interface DeploymentConfigRollback {
  kind?: string;
  name?: string;
  updatedAnnotations?: Record<string, string> | null;
  spec?: {
    revision?: number;
    includeTriggers?: boolean;
    includeTemplate?: boolean;
    includeReplicationMeta?: boolean;
    includeStrategy?: boolean;
  };
}

/** Generates (does not store) the rolled-back DC, as OpenShift's rollback REST handler does. */
export async function handleRollback(ctx: HandlerContext): Promise<void> {
  const body = parseBody(ctx, await ctx.body(), 'object', 'DeploymentConfigRollback') as DeploymentConfigRollback;
  const name = ctx.info.name ?? '';
  if (!body || typeof body !== 'object' || !body.spec) {
    throw invalid('DeploymentConfigRollback', name, [{ reason: 'FieldValueRequired', field: 'spec', message: 'Required value' }]);
  }
  if (body.kind !== undefined && body.kind !== 'DeploymentConfigRollback') throw badRequest(`the body is a ${String(body.kind)}, not a DeploymentConfigRollback`);
  const revision: unknown = body.spec.revision ?? 0;
  // OpenShift's decoder takes only an int64 here. A string ("x", "1/../other") would name an RC
  // other than a version of this DC; the RC is read with this server's own credentials.
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision)) {
    throw badRequest(`json: cannot unmarshal ${typeof revision === 'number' ? `number ${revision}` : typeof revision} into Go struct field DeploymentConfigRollbackSpec.spec.revision of type int64`);
  }
  let current: DeploymentConfig;
  try {
    current = await storedDc(ctx);
  } catch (err) {
    if (err instanceof ApiStatusError) {
      throw invalidMessage('DeploymentConfigRollback', name, `The DeploymentConfigRollback "${name}" is invalid: name: Invalid value: "${name}": cannot get deployment config "${name}": ${err.message}`);
    }
    throw err;
  }
  let target: string;
  try {
    target = rollbackTarget(current, revision);
  } catch (err) {
    if (err instanceof InvalidRollbackError) throw invalidMessage('DeploymentConfigRollback', name, err.message);
    throw err;
  }
  let rc: V1ReplicationController;
  try {
    rc = (await ctx.storage.json<V1ReplicationController>('GET', `/api/v1/namespaces/${encodeURIComponent(ctx.info.namespace ?? '')}/replicationcontrollers/${encodeURIComponent(target)}`)).body;
  } catch (err) {
    if (err instanceof ApiStatusError) throw invalidMessage('DeploymentConfigRollback', name, `The DeploymentConfigRollback "${name}" is invalid: name: Invalid value: "${name}": ${err.message}`);
    throw err;
  }
  let to: DeploymentConfig;
  try {
    to = decodeDeploymentConfig(rc);
  } catch (err) {
    if (err instanceof DecodeError) throw invalidMessage('DeploymentConfigRollback', name, `The DeploymentConfigRollback "${name}" is invalid: name: Invalid value: "${name}": ${err.message}`);
    throw err;
  }
  const from = structuredClone(current);
  if (body.updatedAnnotations) from.metadata.annotations = { ...(from.metadata.annotations ?? {}), ...body.updatedAnnotations };
  const result = generateRollback(from, to, {
    revision,
    includeTemplate: body.spec.includeTemplate === true,
    includeTriggers: body.spec.includeTriggers === true,
    includeStrategy: body.spec.includeStrategy === true,
    includeReplicationMeta: body.spec.includeReplicationMeta === true,
  });
  writeJson(ctx.res, 201, specWithoutNulls({ ...result, apiVersion: ApiVersion, kind: Kind }));
}

// --------------------------------------------------------------------------------------- log

/** How long the log subresource waits for a rollout's RC, deployer pod or application pod (OpenShift: 60 s). */
const LogWaitMs = 60_000;
const LogPollMs = 500;

/**
 * The log of the latest (or `version`, or with `previous` the one before) rollout, as
 * openshift-apiserver's deploylog handler answers it: the deployer pod's log while the rollout
 * runs or after it failed, an application pod's for a complete one. A New/Pending rollout is
 * waited for (empty answer with `nowait`). The core `pods/log` answer is streamed through, so
 * `follow` follows. RCs and pods are read with the proxied identity: `deploymentconfigs/log`
 * alone grants the log, as on OpenShift.
 */
export async function handleLog(ctx: HandlerContext): Promise<void> {
  const parsed = parseDeploymentLogOptions(ctx.info.query);
  if (parsed.kind === 'badRequest') throw badRequest(parsed.message);
  if (parsed.kind === 'invalid') throw invalid('DeploymentLogOptions', '', parsed.causes);
  const opts = parsed.options;
  const name = ctx.info.name ?? '';
  const ns = encodeURIComponent(ctx.info.namespace ?? '');
  const dc = await storedDc(ctx);
  const target = targetVersion(name, dc.status?.latestVersion ?? 0, opts);
  if ('error' in target) throw badRequest(target.error);
  const rcName = rcNameFor(name, target.version);
  const readRc = async (): Promise<V1ReplicationController | undefined> => (await ctx.storage.json<V1ReplicationController>('GET', `/api/v1/namespaces/${ns}/replicationcontrollers/${encodeURIComponent(rcName)}`).catch((err: unknown) => {
    if (err instanceof ApiStatusError && err.code === 404) return undefined;
    throw err;
  }))?.body;
  const rc = await poll(readRc, (r) => r !== undefined, LogWaitMs);
  if (!rc) throw notFoundCore('replicationcontrollers', rcName);
  const deployerPod = deployerPodNameFor(rcName);
  let podName = deployerPod;
  const notStarted = (p: string | undefined): boolean => p === undefined || p === Phase.New || p === Phase.Pending;
  let phase = rc.metadata?.annotations?.[Annotations.Phase];
  if (notStarted(phase)) {
    if (opts.nowait) {
      ctx.res.writeHead(200, { 'content-type': 'text/plain' });
      ctx.res.end();
      return;
    }
    const readPod = async (): Promise<V1Pod | undefined> => (await ctx.storage.json<V1Pod>('GET', `/api/v1/namespaces/${ns}/pods/${encodeURIComponent(deployerPod)}`).catch((err: unknown) => {
      if (err instanceof ApiStatusError && err.code === 404) return undefined;
      throw err;
    }))?.body;
    if (!deployerPodCanLog(await poll(readPod, deployerPodCanLog, LogWaitMs))) {
      throw badRequest(`failed to run deployer pod ${deployerPod}: timed out waiting for the condition`);
    }
    const running = await poll(readRc, (r) => !notStarted(r?.metadata?.annotations?.[Annotations.Phase]), LogWaitMs);
    phase = running?.metadata?.annotations?.[Annotations.Phase];
    if (notStarted(phase)) throw serverTimeout('ReplicationController', 'get', 2);
  }
  if (phase === Phase.Complete) {
    const selector = selectorString(rc.spec?.selector);
    const pods = await poll(async () => (await ctx.storage.json<{ items: V1Pod[] }>('GET', `/api/v1/namespaces/${ns}/pods`, { query: { labelSelector: selector } })).body.items, (items) => items.length > 0, LogWaitMs);
    const app = podForLogging(pods);
    if (!app?.metadata?.name) throw internal(`no pod of replication controller ${rcName} appeared within ${LogWaitMs / 1000}s`);
    podName = app.metadata.name;
  }
  const upstream = await ctx.storage.raw('GET', `/api/v1/namespaces/${ns}/pods/${encodeURIComponent(podName)}/log`, { query: podLogQuery(opts), headers: { accept: '*/*' } });
  if ((upstream.statusCode ?? 500) >= 300) {
    const buf = await readBody(upstream);
    let body: { message?: string; reason?: string } | undefined;
    try { body = JSON.parse(buf.toString('utf8')) as typeof body; } catch { body = { message: buf.toString('utf8') }; }
    writeJson(ctx.res, upstream.statusCode ?? 500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: body?.message ?? 'log unavailable', ...(body?.reason ? { reason: body.reason } : {}), code: upstream.statusCode });
    return;
  }
  ctx.res.writeHead(200, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
  if (opts.follow) ctx.res.flushHeaders();
  ctx.res.on('close', () => upstream.destroy());
  upstream.pipe(ctx.res);
  await new Promise<void>((resolve) => { upstream.on('end', resolve); upstream.on('close', resolve); upstream.on('error', resolve); });
}

/** Calls `fn` until `done` holds or `timeoutMs` passes; returns the last value. */
async function poll<T>(fn: () => Promise<T>, done: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (done(v) || performance.now() >= end) return v;
    await sleep(LogPollMs);
  }
}
