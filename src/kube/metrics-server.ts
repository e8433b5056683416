/**
 * The /metrics, /healthz, /livez and /readyz server (docs/operations.md "Metrics").
 *
 * Two modes, as Kubernetes controllers serve metrics today (controller-runtime's
 * `WithAuthenticationAndAuthorization`):
 * - local (default): plain HTTP, bound to 127.0.0.1, no authentication: only this host can read it.
 * - secure (`--metrics-secure`, what deploy/ runs): HTTPS (certificate from `--metrics-cert-dir`,
 *   else a self-signed one made at start), and every /metrics request must carry a bearer token
 *   that a TokenReview accepts and whose user a SubjectAccessReview allows `get` on the
 *   non-resource URL `/metrics` (`--metrics-auth=false` turns the check off). Probes stay open:
 *   they reveal nothing and the kubelet sends no token.
 * Decisions are cached per token (allowed: a minute, refused: 10 s), so a scrape every 15 s costs
 * the API server two reviews per minute per scraper, not per scrape.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import path from 'node:path';
import type { V1SubjectAccessReview, V1TokenReview } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { RestClient } from './rest.js';
import { bulkhead } from '../util/bulkhead.js';

/** Whether the bearer token's user may read /metrics. */
export interface MetricsAccessReview {
  review(token: string): Promise<{ authenticated: boolean; allowed: boolean; user?: string; reason?: string }>;
}

export interface MetricsServerOptions {
  host?: string;
  port: number;
  /** HTTPS with authentication and authorization (see the module comment). */
  secure: boolean;
  /** Directory with tls.crt and tls.key; a self-signed certificate when undefined. */
  certDir?: string;
  /** The check behind /metrics in secure mode; undefined = no check. */
  access?: MetricsAccessReview;
  /** Body of /metrics. */
  metrics(): Promise<{ contentType: string; body: string }>;
  /** /readyz. */
  ready(): boolean;
  log: Logger;
  /** Milliseconds of elapsed time, for the decision cache (tests). @default performance.now */
  now?: () => number;
  /** How long an allowed decision is kept (tests). @default 60 s */
  allowedTtlMs?: number;
}

/** Allowed decisions are kept a minute; refusals only 10 s, so a new RoleBinding takes effect soon. */
const CacheTtlMs = 60_000;
const DenyCacheTtlMs = 10_000;
const CacheMax = 1000;
/** TokenReview/SubjectAccessReview pairs at once and waiting (a scraper needs one a minute). */
const ReviewBounds = { inFlight: 4, queued: 16 };

class ReviewsBusyError extends Error {
  override readonly name = 'ReviewsBusyError';
}

/** Starts listening; resolves with the server once it does. */
export async function startMetricsServer(opts: MetricsServerOptions): Promise<Server> {
  const handler = metricsHandler(opts);
  let server: Server;
  if (opts.secure) {
    const { cert, key } = opts.certDir
      ? { cert: readFileSync(path.join(opts.certDir, 'tls.crt'), 'utf8'), key: readFileSync(path.join(opts.certDir, 'tls.key'), 'utf8') }
      : await selfSignedCertificate();
    server = createHttpsServer({ cert, key, minVersion: 'TLSv1.2' }, handler);
  } else {
    server = createHttpServer(handler);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return server;
}

/** The request handler alone (unit-tested without sockets). */
export function metricsHandler(opts: MetricsServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  // Elapsed time: a wall clock stepped back must not extend a cached allow (design.md §1.2).
  const now = opts.now ?? (() => performance.now());
  const allowedTtlMs = opts.allowedTtlMs ?? CacheTtlMs;
  const cache = new Map<string, { until: number; status: number; text: string }>();
  // Each token the cache has not seen costs two requests to kube-apiserver at the controller's API
  // priority, and anyone who reaches the port can send tokens: bounded, the rest answered 503.
  const review = opts.access ? bulkhead((token: string) => opts.access!.review(token), ReviewBounds, () => new ReviewsBusyError()) : undefined;

  const decide = async (req: IncomingMessage): Promise<{ status: number; text: string }> => {
    if (!opts.secure || !review) return { status: 200, text: '' };
    const header = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!token) return { status: 401, text: 'Unauthorized: a bearer token is required' };
    const digest = createHash('sha256').update(token).digest('hex');
    const hit = cache.get(digest);
    if (hit && hit.until > now()) return hit;
    let decision: { status: number; text: string };
    try {
      const r = await review(token);
      decision = !r.authenticated
        ? { status: 401, text: 'Unauthorized' }
        : r.allowed
          ? { status: 200, text: '' }
          : { status: 403, text: `Forbidden: user "${r.user ?? ''}" may not get /metrics${r.reason ? `: ${r.reason}` : ''}` };
    } catch (err) {
      if (err instanceof ReviewsBusyError) return { status: 503, text: 'authentication or authorization busy: too many tokens under review' }; // not cached
      opts.log.warn({ err }, 'metrics: TokenReview/SubjectAccessReview failed');
      return { status: 503, text: 'authentication or authorization unavailable' }; // not cached
    }
    if (cache.size >= CacheMax) cache.delete(cache.keys().next().value as string);
    cache.set(digest, { ...decision, until: now() + (decision.status === 200 ? allowedTtlMs : DenyCacheTtlMs) });
    return decision;
  };

  return (req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/healthz') || url.startsWith('/livez')) { res.writeHead(200).end('ok'); return; }
    if (url.startsWith('/readyz')) {
      const ok = opts.ready();
      res.writeHead(ok ? 200 : 503).end(ok ? 'ok' : 'caches not synced');
      return;
    }
    if (url.startsWith('/metrics')) {
      decide(req)
        .then(async (d) => {
          if (d.status !== 200) { res.writeHead(d.status, { 'Content-Type': 'text/plain' }).end(`${d.text}\n`); return; }
          const { contentType, body } = await opts.metrics();
          res.writeHead(200, { 'Content-Type': contentType }).end(body);
        })
        .catch((err: unknown) => res.writeHead(500).end(String(err)));
      return;
    }
    res.writeHead(404).end();
  };
}

/** The two reviews the check creates; each rejects with an ApiError. */
export interface AccessReviewApi {
  createTokenReview(body: V1TokenReview): Promise<V1TokenReview>;
  createSubjectAccessReview(body: V1SubjectAccessReview): Promise<V1SubjectAccessReview>;
}

/** The reviews on the small JSON client. */
export function restAccessReviewApi(rest: RestClient): AccessReviewApi {
  return {
    createTokenReview: (body) => rest.request<V1TokenReview>('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body }),
    createSubjectAccessReview: (body) => rest.request<V1SubjectAccessReview>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { body }),
  };
}

/** TokenReview + SubjectAccessReview (get /metrics) with the controller's own credentials. */
export class KubeMetricsAccessReview implements MetricsAccessReview {
  constructor(private readonly api: AccessReviewApi) {}

  async review(token: string): Promise<{ authenticated: boolean; allowed: boolean; user?: string; reason?: string }> {
    const tr = await this.api.createTokenReview({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
    const user = tr.status?.user;
    if (!tr.status?.authenticated || !user) return { authenticated: false, allowed: false };
    const sar = await this.api.createSubjectAccessReview({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: user.username, groups: user.groups, uid: user.uid, extra: user.extra,
        nonResourceAttributes: { path: '/metrics', verb: 'get' },
      },
    });
    return { authenticated: true, allowed: sar.status?.allowed === true, user: user.username, reason: sar.status?.reason };
  }
}

/** A fresh self-signed certificate (Prometheus then scrapes with insecure_skip_verify). */
async function selfSignedCertificate(): Promise<{ cert: string; key: string }> {
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'deploymentconfig-controller-metrics' }], {
    keyType: 'ec', curve: 'P-256', algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 365 * 24 * 3600 * 1000),
    extensions: [{ name: 'subjectAltName', altNames: [
      { type: 2, value: 'localhost' },
      { type: 2, value: 'deploymentconfig-controller-metrics.deploymentconfig-controller.svc' },
      { type: 7, ip: '127.0.0.1' },
    ] }],
  });
  return { cert: pems.cert, key: pems.private };
}
