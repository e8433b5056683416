/**
 * The admission webhook's HTTPS endpoint (docs/webhook.md): `POST /validate-deploymentconfigs`
 * answers kube-apiserver's AdmissionReviews with reviewDeploymentConfig; `GET /healthz`. Served by
 * every controller replica, leader or not, from `--webhook-bind-address` with the certificate in
 * `--webhook-cert-dir`, which is read again when its files change (a rotated Secret).
 */
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import path from 'node:path';
import type { Logger } from 'pino';
import { errorMessage } from '../util/error-message.js';
import { jsonNestingDepth, MaxNestingDepth } from '../util/json-depth.js';
import { bulkhead, type Bounds } from '../util/bulkhead.js';
import { admissionRequestOf, admissionReviewOf, BadReviewError, reviewDeploymentConfig, type AdmissionResponse, type RcDryRun } from './review.js';

export const ValidatePath = '/validate-deploymentconfigs';

/**
 * etcd stores objects of up to 1.5 MiB (kube-apiserver's default); a review carries the object and,
 * for an update, the old one, both as JSON. Larger bodies are refused before they are read whole.
 */
export const MaxReviewBytes = 4 * 1024 * 1024;

/**
 * Reviews at once (each reads its body, parses it and makes one dry-run request) and waiting
 * unread: the port answers whoever reaches it (kube-apiserver presents no client certificate by
 * default), each body may be MaxReviewBytes, and each review is a request at the controller's API
 * priority. A dry run takes tens of milliseconds and kube-apiserver waits 5 s: a burst of applies fits.
 */
export const DefaultBounds: Bounds = { inFlight: 2, queued: 64 };

/** A review beyond DefaultBounds: answered 429 unread; the DC is admitted unjudged, as when no webhook answers. */
export class WebhookBusyError extends Error {
  override readonly name = 'WebhookBusyError';
}

/** How often the certificate files are looked at for a rotation, by default. */
const CertCheckMs = 60_000;

export interface WebhookServerOptions {
  readonly host?: string;
  readonly port: number;
  /** Holds tls.crt and tls.key. */
  readonly certDir: string;
  readonly dryRunRc: RcDryRun;
  readonly log: Logger;
  /** Reviews at once and waiting (util/bulkhead.ts). @default DefaultBounds */
  readonly bounds?: Bounds;
  /** How often tls.crt and tls.key are looked at for a rotation. @default 60 s */
  readonly certCheckMs?: number;
  /** Told the outcome of every review (metrics). */
  readonly onReview?: (outcome: 'allowed' | 'denied' | 'unchecked') => void;
}

export interface WebhookServer {
  readonly port: number;
  close(): Promise<void>;
}

interface CertFiles { cert: Buffer; key: Buffer; stamp: string }

function readCert(dir: string): CertFiles {
  const certFile = path.join(dir, 'tls.crt');
  const keyFile = path.join(dir, 'tls.key');
  const stamp = [certFile, keyFile].map((f) => { const s = statSync(f); return `${s.mtimeMs}:${s.size}`; }).join('|');
  return { cert: readFileSync(certFile), key: readFileSync(keyFile), stamp };
}

export async function startWebhookServer(opts: WebhookServerOptions): Promise<WebhookServer> {
  const log = opts.log.child({ component: 'webhook' });
  const bounds = opts.bounds ?? DefaultBounds;
  // The whole review is bounded, body included: a review waiting for its turn is not read, so a
  // flood of large bodies holds sockets, not memory, and never more than `inFlight` dry runs go.
  const review = bulkhead((req: IncomingMessage, res: ServerResponse) => handleReview(req, res, opts, log), bounds,
    () => new WebhookBusyError(`the webhook has ${bounds.inFlight} reviews in progress and ${bounds.queued} waiting; try again`));
  let current = readCert(opts.certDir);
  const server: Server = createServer({ cert: current.cert, key: current.key }, (req, res) => {
    route(req, res, review).catch((err: unknown) => {
      if (err instanceof WebhookBusyError) {
        // Not read: kube-apiserver takes a non-200 as the webhook failing, and admits the DC (Ignore).
        if (!res.headersSent) send(res, 429, { message: err.message }, true);
        return;
      }
      log.error({ err }, 'webhook request failed');
      if (!res.headersSent) send(res, 500, { message: errorMessage(err) });
      else res.destroy();
    });
  });
  // kube-apiserver sends a review at once and waits at most 30 s (timeoutSeconds, 5 here): a client
  // that trickles its request holds a review slot no longer than this.
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  const rotation = setInterval(() => {
    try {
      const next = readCert(opts.certDir);
      if (next.stamp === current.stamp) return;
      server.setSecureContext({ cert: next.cert, key: next.key });
      current = next;
      log.info({ certDir: opts.certDir }, 'webhook serving certificate reloaded');
    } catch (err) {
      // Mid-rotation the pair may not match yet: keep serving the previous one.
      log.warn({ err: errorMessage(err) }, 'webhook serving certificate not reloaded');
    }
  }, opts.certCheckMs ?? CertCheckMs);
  rotation.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    close: () => new Promise<void>((resolve) => {
      clearInterval(rotation);
      server.close(() => resolve());
      server.closeIdleConnections();
    }),
  };
}

async function route(req: IncomingMessage, res: ServerResponse, review: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<void> {
  const url = new URL(req.url ?? '/', 'https://webhook');
  if (url.pathname === '/healthz') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  if (url.pathname !== ValidatePath) {
    send(res, 404, { message: `no such path: ${url.pathname}` });
    return;
  }
  if (req.method !== 'POST') {
    send(res, 405, { message: `${req.method ?? ''} ${ValidatePath}: want POST` });
    return;
  }
  await review(req, res);
}

async function handleReview(req: IncomingMessage, res: ServerResponse, opts: WebhookServerOptions, log: Logger): Promise<void> {
  const text = await readBody(req);
  if (text === undefined) {
    send(res, 413, { message: `the body is larger than ${MaxReviewBytes} bytes` });
    return;
  }
  let response: AdmissionResponse;
  try {
    if (jsonNestingDepth(text) > MaxNestingDepth) throw new BadReviewError(`the body nests deeper than ${MaxNestingDepth} levels`);
    let review: unknown;
    try {
      review = JSON.parse(text);
    } catch (err) {
      throw new BadReviewError(`the body is not JSON: ${errorMessage(err)}`);
    }
    response = await reviewDeploymentConfig(admissionRequestOf(review), opts.dryRunRc);
  } catch (err) {
    if (!(err instanceof BadReviewError)) throw err;
    send(res, 400, { message: err.message });
    return;
  }
  const outcome = !response.allowed ? 'denied' : response.warnings ? 'unchecked' : 'allowed';
  opts.onReview?.(outcome);
  if (outcome !== 'allowed') log.info({ uid: response.uid, outcome, reason: response.status?.message ?? response.warnings?.[0] }, 'DeploymentConfig review');
  send(res, 200, admissionReviewOf(response));
}

/** The body as text, or undefined once it passes MaxReviewBytes (the rest is not read). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MaxReviewBytes) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, code: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(close ? { connection: 'close' } : {}) }).end(text);
}
