/**
 * The aggregated API server's HTTPS front: authentication (authn.ts), a SubjectAccessReview per
 * request (authz.ts), routing by RequestInfo, and the handlers. Every failure is a Kubernetes
 * `Status`; a request that fails authentication or authorization never reaches a handler.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { Group, Plural, Version } from '../apis/constants.js';
import type { RawTransport } from '../kube/raw.js';
import { authenticate, authenticationConfigFrom, type AuthenticationConfig, type UserInfo } from './authn.js';
import { Authorizer, type Decision } from './authz.js';
import { apiGroup, apiGroupList, apiResourceList, openApiV2, openApiV3, openApiV3Index } from './discovery.js';
import { isServed, requestInfo, type RequestInfo } from './request-info.js';
import {
  handleCreate, handleDelete, handleGet, handleList, handlePatch, handleScale, handleUpdate, handleWatch, writeJson, type HandlerContext,
} from './resources.js';
import { ApiStatusError, entityTooLarge, forbidden, forbiddenPath, internal, methodNotSupported, notFoundPath, unauthorized } from './status.js';
import { UserStorage } from './storage.js';
import { addWarning } from './field-validation.js';
import { handleInstantiate, handleLog, handleRollback } from './subresources.js';

export interface FrontOptions {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
  readonly storageGroup: string;
  readonly transport: RawTransport;
  readonly log: Logger;
  /** How long `instantiate` waits for the controller. @default 30000 */
  readonly instantiateTimeoutMs?: number;
  /** Re-read extension-apiserver-authentication this often. @default 60000 */
  readonly authConfigRefreshMs?: number;
  /** Largest request body accepted (kube-apiserver: 3 MiB). */
  readonly maxBodyBytes?: number;
}

const HealthPaths = new Set(['/healthz', '/livez', '/readyz', '/healthz/ping', '/livez/ping', '/readyz/ping']);

/** A running front; `close` stops accepting and ends open watches. */
export interface Front {
  readonly server: Server;
  /** Whether the authentication config has been read (readiness). */
  ready(): boolean;
  close(): Promise<void>;
}

export async function startFront(opts: FrontOptions, listen: { port: number; host?: string }): Promise<Front> {
  const log = opts.log;
  const selfStorage = new UserStorage(opts.transport, opts.storageGroup, undefined);
  let authConfig: AuthenticationConfig | undefined;
  const loadAuthConfig = async (): Promise<void> => {
    const { body } = await selfStorage.json<{ data?: Record<string, string> }>('GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication');
    authConfig = authenticationConfigFrom(body.data ?? {});
    if (authConfig.requestHeaderCAs.length === 0) log.warn('extension-apiserver-authentication has no requestheader-client-ca-file: aggregated requests cannot authenticate');
  };
  await loadAuthConfig();
  const refresh = setInterval(() => {
    loadAuthConfig().catch((err: unknown) => log.warn({ err }, 'could not refresh extension-apiserver-authentication; keeping the previous one'));
  }, opts.authConfigRefreshMs ?? 60_000);
  refresh.unref();

  const authorizer = new Authorizer(async (spec): Promise<Decision> => {
    const { body } = await selfStorage.json<{ status?: { allowed?: boolean; denied?: boolean; reason?: string } }>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec },
    });
    return { allowed: body.status?.allowed === true && body.status.denied !== true, ...(body.status?.reason ? { reason: body.status.reason } : {}) };
  });

  const v2 = JSON.stringify(openApiV2());
  const v3Doc = openApiV3();
  const v3 = JSON.stringify(v3Doc);
  const v3Index = openApiV3Index(v3Doc);
  const maxBody = opts.maxBodyBytes ?? 3 << 20;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const info = requestInfo(req.method ?? 'GET', req.url ?? '/');
    let user: UserInfo | undefined;
    try {
      if (info.kind === 'nonResource' && HealthPaths.has(info.path)) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
        return;
      }
      const peer = (req.socket as TLSSocket).getPeerCertificate?.(false);
      const result = authConfig ? authenticate(peer?.raw, req.headersDistinct as Record<string, string[]>, authConfig) : { kind: 'anonymous' as const, reason: 'not ready' };
      if (result.kind === 'anonymous') {
        log.debug({ path: req.url, reason: result.reason }, 'unauthenticated request');
        throw unauthorized();
      }
      user = result.kind === 'user' ? result.user : undefined;
      if (info.kind === 'nonResource') {
        await serveNonResource(info, user);
        return;
      }
      if (info.kind === 'notFound') throw notFoundPath();
      if (!user) throw unauthorized();
      if (!isServed(info.verb, info.subresource, info.name !== undefined)) {
        throw methodNotSupported(info.verb, info.subresource ? `DeploymentConfig/${info.subresource}` : 'DeploymentConfig');
      }
      const decision = await authorizer.authorize(user, {
        resource: {
          verb: info.verb, group: Group, version: Version, resource: Plural,
          ...(info.namespace ? { namespace: info.namespace } : {}),
          ...(info.subresource ? { subresource: info.subresource } : {}),
          ...(info.name !== undefined ? { name: info.name } : {}),
        },
      });
      if (!decision.allowed) throw forbidden(user.name, info.verb, Plural, info.subresource, info.namespace, info.name, decision.reason);
      await dispatch(info, user, req, res);
    } catch (err) {
      const status = err instanceof ApiStatusError ? err : internal((err as Error).message ?? String(err));
      if (!(err instanceof ApiStatusError)) log.error({ err, path: req.url }, 'request failed');
      if (!res.headersSent) writeJson(res, status.code, status.body);
      else res.end();
    } finally {
      log.debug({ method: req.method, path: req.url, user: user?.name, code: res.statusCode, ms: Math.round(performance.now() - started) }, 'request');
    }

    async function serveNonResource(i: Extract<RequestInfo, { kind: 'nonResource' }>, u: UserInfo | undefined): Promise<void> {
      if (u) {
        const d = await authorizer.authorize(u, { nonResource: { path: i.path, verb: i.verb } });
        if (!d.allowed) throw forbiddenPath(u.name, i.verb, i.path);
      }
      switch (i.path) {
        case '/apis': writeJson(res, 200, apiGroupList()); return;
        case `/apis/${Group}`: writeJson(res, 200, apiGroup()); return;
        case `/apis/${Group}/${Version}`: writeJson(res, 200, apiResourceList()); return;
        case '/openapi/v2': writeRaw(res, v2); return;
        case '/openapi/v3': writeJson(res, 200, v3Index); return;
        case `/openapi/v3/apis/${Group}/${Version}`: writeRaw(res, v3); return;
        case '/version': writeJson(res, 200, { major: '1', minor: '0', gitVersion: 'v0.1.0-dcctl' }); return;
        default: throw notFoundPath();
      }
    }
  };

  const dispatch = async (info: Extract<RequestInfo, { kind: 'resource' }>, user: UserInfo, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let bodyPromise: Promise<Buffer> | undefined;
    const ctx: HandlerContext = {
      info, req, res,
      storage: new UserStorage(opts.transport, opts.storageGroup, user, (warning) => addWarning(res, warning)),
      body: () => (bodyPromise ??= readRequestBody(req, maxBody)),
    };
    switch (info.subresource) {
      case 'instantiate': return handleInstantiate(ctx, { ackTimeoutMs: opts.instantiateTimeoutMs ?? 30_000 });
      case 'rollback': return handleRollback(ctx);
      case 'log': return handleLog(ctx);
      case 'scale': return handleScale(ctx);
      default: break;
    }
    switch (info.verb) {
      case 'get': return handleGet(ctx);
      case 'list': return handleList(ctx);
      case 'watch': return handleWatch(ctx);
      case 'create': return handleCreate(ctx);
      case 'update': return handleUpdate(ctx);
      case 'patch': return handlePatch(ctx);
      case 'delete':
      case 'deletecollection': return handleDelete(ctx);
    }
  };

  const server = createServer({ cert: opts.cert, key: opts.key, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    void handle(req, res);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  return {
    server,
    ready: () => authConfig !== undefined,
    close: async () => {
      clearInterval(refresh);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function writeRaw(res: ServerResponse, json: string): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

async function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > limit) throw entityTooLarge(`limit is ${limit}`);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}
