/**
 * A small JSON client of the Kubernetes API on Node's own http/https, for the deployer process
 * alone (design.md §6.1). Why not client-node there: a deployer process lives for one rollout and
 * makes a handful of calls (RCs, pods, events, two watches, a log), but loading client-node (its
 * generated API, models and serializer: ~1.5 MB of the deployer bundle, and the fetch, WebSocket
 * and auth-plugin stacks it imports) cost about half of the process's start-up CPU and ~20 MiB of
 * its RSS, on every rollout. What client-node adds beyond plain requests is kubeconfig handling:
 * `loadRestConfig` takes only the kubeconfigs a deployer pod has (the in-cluster service account,
 * or a file with a token or client certificate) and answers `undefined` for anything else (exec
 * and auth-provider plugins, proxies, merged files), which the caller then runs with client-node.
 */
import { existsSync, readFileSync } from 'node:fs';
import type * as HttpModule from 'node:http';
import type * as HttpsModule from 'node:https';
import type * as TlsModule from 'node:tls';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type * as Yaml from 'js-yaml';
import { ApiError, statusCausesOf } from '../controller/errors.js';
import { KubeConfigError, type LoadKubeConfigOptions } from './config-errors.js';

// require(), not import: Node 26 builds node:http's ES module facade by reading every export,
// and one of them loads undici (Node's fetch) on first read: ~100 ms of CPU and ~10 MiB per
// deployer process, measured on `dcctl deploy` start-up. require() skips the facade.
const requireCjs = createRequire(import.meta.url);
const http = requireCjs('node:http') as typeof HttpModule;
const https = requireCjs('node:https') as typeof HttpsModule;
const tls = requireCjs('node:tls') as typeof TlsModule;

/** Where and how to connect: everything a request needs. */
export interface RestConfig {
  /** e.g. `https://10.0.0.1:443`; no trailing slash. */
  readonly server: string;
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly insecure?: boolean;
  /** A bearer token, fixed... */
  readonly token?: string;
  /** ...or read from this file at each request (bound service-account tokens are rotated). */
  readonly tokenFile?: string;
}

const SaDir = '/var/run/secrets/kubernetes.io/serviceaccount';

type Named<T> = { name?: string } & T;
interface KubeconfigFile {
  'current-context'?: string;
  contexts?: Named<{ context?: { cluster?: string; user?: string } }>[];
  clusters?: Named<{ cluster?: Record<string, unknown> }>[];
  users?: Named<{ user?: Record<string, unknown> }>[];
}

/** Cluster and user fields this client handles; a kubeconfig using any other goes to client-node. */
const clusterFields = new Set(['server', 'certificate-authority', 'certificate-authority-data', 'insecure-skip-tls-verify', 'extensions']);
const userFields = new Set(['token', 'tokenFile', 'client-certificate', 'client-certificate-data', 'client-key', 'client-key-data', 'extensions']);

/**
 * The connection settings, found in loadKubeConfig's order (src/kube/client.ts): `kubeconfig`,
 * `$KUBECONFIG`, `~/.kube/config`, then the in-cluster service account; with its errors
 * (KubeConfigError) for a missing file, an unknown context or a cluster without a server.
 * Undefined: the kubeconfig needs what only client-node does (see the file comment).
 */
export function loadRestConfig(opts: LoadKubeConfigOptions = {}): RestConfig | undefined {
  const env = opts.env ?? process.env;
  if (opts.inCluster) return inCluster(env);
  let file: string;
  if (opts.kubeconfig) {
    if (!existsSync(opts.kubeconfig)) throw new KubeConfigError(`kubeconfig file ${opts.kubeconfig} does not exist`);
    file = opts.kubeconfig;
  } else if (env['KUBECONFIG']) {
    const files = env['KUBECONFIG'].split(':').filter((f) => f !== '' && existsSync(f));
    if (files.length === 0) throw new KubeConfigError(`no file of KUBECONFIG=${env['KUBECONFIG']} exists`);
    if (files.length > 1) return undefined;
    file = files[0]!;
  } else {
    const defaultPath = join(opts.home ?? homedir(), '.kube', 'config');
    if (existsSync(defaultPath)) file = defaultPath;
    else if (env['KUBERNETES_SERVICE_HOST']) return inCluster(env);
    else throw new KubeConfigError(`no cluster configuration found: pass --kubeconfig, set KUBECONFIG, create ${defaultPath}, or run in a pod`);
  }
  let config: KubeconfigFile;
  try {
    config = parseKubeconfig(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new KubeConfigError(`cannot load kubeconfig: ${(err as Error).message}`, { cause: err });
  }
  return fromKubeconfig(config, dirname(file), opts.context);
}

/** A kubeconfig's text: JSON (what a kubelet-made file usually is) parses without the YAML parser. */
function parseKubeconfig(text: string): KubeconfigFile {
  if (text.trimStart().startsWith('{')) {
    try {
      return JSON.parse(text) as KubeconfigFile;
    } catch {
      // YAML that happens to start with a flow mapping
    }
  }
  return (loadYaml().load(text) ?? {}) as KubeconfigFile;
}

/**
 * js-yaml, loaded the first time a kubeconfig is YAML. A deployer pod reads no kubeconfig (it runs
 * on its service account), and evaluating the parser when the bundle loaded was about 2 ms of each
 * deployer process's start-up CPU (design.md §6.1). Through require, resolved at run time from the
 * package's dependencies, so the bundles do not evaluate it up front.
 */
function loadYaml(): typeof Yaml {
  return requireCjs('js-yaml') as typeof Yaml;
}

/** The settings of `config`'s current (or the named) context; paths are relative to `dir`. */
export function fromKubeconfig(config: KubeconfigFile, dir: string, contextName?: string): RestConfig | undefined {
  const name = contextName ?? config['current-context'] ?? '';
  const context = config.contexts?.find((c) => c.name === name)?.context;
  if (!context) {
    if (contextName) throw new KubeConfigError(`context "${contextName}" not found in kubeconfig`);
    throw new KubeConfigError(`context "${name}" has no cluster with a server URL`);
  }
  const cluster = config.clusters?.find((c) => c.name === context.cluster)?.cluster ?? {};
  const user = config.users?.find((u) => u.name === context.user)?.user ?? {};
  if (typeof cluster['server'] !== 'string' || cluster['server'] === '') {
    throw new KubeConfigError(`context "${name}" has no cluster with a server URL`);
  }
  if (Object.keys(cluster).some((k) => !clusterFields.has(k)) || Object.keys(user).some((k) => !userFields.has(k))) return undefined;
  const file = (key: string): Buffer | undefined => {
    const data = cluster[`${key}-data`] ?? user[`${key}-data`];
    if (typeof data === 'string') return Buffer.from(data, 'base64');
    const path = cluster[key] ?? user[key];
    if (typeof path !== 'string') return undefined;
    try {
      return readFileSync(isAbsolute(path) ? path : join(dir, path));
    } catch (err) {
      throw new KubeConfigError(`cannot load kubeconfig: ${(err as Error).message}`, { cause: err });
    }
  };
  const tokenFile = typeof user['tokenFile'] === 'string' ? user['tokenFile'] : undefined;
  return {
    server: cluster['server'].replace(/\/+$/, ''),
    ca: file('certificate-authority'),
    cert: file('client-certificate'),
    key: file('client-key'),
    insecure: cluster['insecure-skip-tls-verify'] === true,
    token: typeof user['token'] === 'string' ? user['token'] : undefined,
    tokenFile: tokenFile && !isAbsolute(tokenFile) ? join(dir, tokenFile) : tokenFile,
  };
}

function inCluster(env: NodeJS.ProcessEnv): RestConfig {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const tokenFile = `${SaDir}/token`;
  if (!host || !existsSync(tokenFile)) {
    throw new KubeConfigError('not running in a cluster: KUBERNETES_SERVICE_HOST or the service account token is missing');
  }
  const port = env['KUBERNETES_SERVICE_PORT'] ?? '443';
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    ca: existsSync(`${SaDir}/ca.crt`) ? readFileSync(`${SaDir}/ca.crt`) : undefined,
    tokenFile,
  };
}

/** Query parameters; undefined values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  readonly query?: Query;
  readonly body?: unknown;
  /** Content-Type of `body`. @default application/json */
  readonly contentType?: string;
}

/** The part of a watch the deployer's feeds use (client-node's Watch has the same shape). */
export type WatchCallback = (type: string, object: unknown) => void;

/** The TLS context of `config`'s CA, client certificate and key; a clear error when they cannot be used. */
function secureContextOf(config: RestConfig): TlsModule.SecureContext {
  try {
    return tls.createSecureContext({ ca: config.ca, cert: config.cert, key: config.key });
  } catch (err) {
    throw new KubeConfigError(`the certificate authority, client certificate or client key of ${config.server} cannot be used: ${(err as Error).message}`);
  }
}

/**
 * Makes `config`'s CA the process's default trust store, for a process that talks to that one
 * server and nothing else (a deployer). Whether or not a connection names a CA of its own, Node.js
 * builds its default store once, with the first TLS context: the bundled roots, or with
 * `--use-openssl-ca` OpenSSL's system file where there is one (SSL_CERT_FILE, Alpine's
 * /etc/ssl/cert.pem), which it parses whole (Debian's 146 roots: ~12 ms of CPU per process,
 * docs/design.md §6.1). Set to the one CA first, that store costs nothing to build; the
 * connections, which name the CA themselves, trust exactly what they did.
 * Returns whether it was set: not without a CA, nor on a Node.js without
 * `tls.setDefaultCACertificates` (before 22.19 and 24.5), nor for a CA it cannot parse (the
 * connection then reports that itself).
 */
export function trustOnlyServerCa(config: RestConfig): boolean {
  // Not in the Node.js 20 types this project compiles against.
  const setDefault = (tls as { setDefaultCACertificates?: (certs: string[]) => void }).setDefaultCACertificates;
  if (!config.ca || typeof setDefault !== 'function') return false;
  const certificates = config.ca.toString('latin1').match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g);
  if (!certificates) return false;
  try {
    setDefault.call(tls, certificates);
    return true;
  } catch {
    return false;
  }
}

/**
 * JSON requests, watches and streamed GETs over one keep-alive connection pool. Errors: an
 * ApiError with the Status's message and reason for any HTTP error answer; network errors as Node
 * raised them.
 */
export class RestClient {
  private readonly agent: HttpModule.Agent;
  private readonly base: URL;

  /**
   * `impersonate`: the user every request acts as (the Impersonate-User header; the API server
   * adds a service account's groups itself). `agent`: a pool to share (see `impersonating`).
   */
  constructor(
    private readonly config: RestConfig,
    private readonly userAgent: string,
    private readonly impersonate?: string,
    agent?: HttpModule.Agent,
  ) {
    this.base = new URL(config.server);
    this.agent = agent ?? (this.base.protocol === 'http:'
      ? new http.Agent({ keepAlive: true })
      // One TLS context for the pool: given only ca/cert/key, Node builds a new one (parsing the
      // CA bundle, certificate and private key) for every connection it opens, and a burst of
      // syncs opens several; in a CPU profile of the controller during 10 concurrent rollouts
      // those builds were about 12 % of its busy time.
      : new https.Agent({ keepAlive: true, rejectUnauthorized: !config.insecure, secureContext: secureContextOf(config) }));
  }

  /** The same connection settings and pool, acting as `user` (which this client's user must be allowed to impersonate). */
  impersonating(user: string): RestClient {
    return new RestClient(this.config, this.userAgent, user, this.agent);
  }

  /** Sends one request; resolves with the parsed JSON answer. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const res = await this.send(method, path, options);
    const text = await readAll(res);
    if ((res.statusCode ?? 0) >= 400) throw statusError(res.statusCode ?? 0, text);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /**
   * Watches `path` (`watch=true` is added): `callback` gets each event's type and object, `done`
   * the end of the stream (an error when it broke). Resolves once the server accepted the watch
   * with the AbortController that ends it; rejects with an ApiError when the server refused it.
   */
  async watch(path: string, query: Query, callback: WatchCallback, done: (err?: unknown) => void): Promise<AbortController> {
    const controller = new AbortController();
    const res = await this.send('GET', path, { query: { ...query, watch: true } }, controller.signal);
    if ((res.statusCode ?? 0) >= 400) throw statusError(res.statusCode ?? 0, await readAll(res));
    let buffered = '';
    let ended = false;
    const end = (err?: unknown): void => {
      if (ended) return;
      ended = true;
      done(err);
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (line === '') continue;
        try {
          const event = JSON.parse(line) as { type: string; object: unknown };
          callback(event.type, event.object);
        } catch (err) {
          res.destroy(err as Error);
          return;
        }
      }
    });
    res.on('end', () => end());
    res.on('error', (err) => end(controller.signal.aborted ? undefined : err));
    res.on('close', () => end());
    return controller;
  }

  /** GETs `path` and copies the body into `out` until it ends (pod logs); `out` is never ended. */
  async stream(path: string, query: Query, out: NodeJS.WritableStream): Promise<void> {
    const res = await this.send('GET', path, { query });
    if ((res.statusCode ?? 0) >= 400) throw statusError(res.statusCode ?? 0, await readAll(res));
    await new Promise<void>((resolve, reject) => {
      res.on('data', (chunk: Buffer) => out.write(chunk));
      res.on('end', resolve);
      res.on('error', reject);
    });
  }

  private headers(contentType?: string): HttpModule.OutgoingHttpHeaders {
    const headers: HttpModule.OutgoingHttpHeaders = { Accept: 'application/json', 'User-Agent': this.userAgent };
    const token = this.config.tokenFile ? readFileSync(this.config.tokenFile, 'utf8').trim() : this.config.token;
    if (token) headers['Authorization'] = `Bearer ${token}`;
    if (this.impersonate !== undefined) headers['Impersonate-User'] = this.impersonate;
    if (contentType) headers['Content-Type'] = contentType;
    return headers;
  }

  private send(method: string, path: string, options: RequestOptions, signal?: AbortSignal): Promise<HttpModule.IncomingMessage> {
    const url = new URL(this.base.pathname.replace(/\/$/, '') + path, this.base);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const body = options.body === undefined ? undefined
      : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const headers = this.headers(body === undefined ? undefined : options.contentType ?? 'application/json');
    if (body !== undefined) headers['Content-Length'] = Buffer.byteLength(body);
    const lib = url.protocol === 'http:' ? http : https;
    return new Promise((resolve, reject) => {
      const req = lib.request(url, { method, headers, agent: this.agent, signal }, resolve);
      req.on('error', reject);
      req.end(body);
    });
  }
}

function readAll(res: HttpModule.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

/** An ApiError from an error answer: the Status's message and reason when it is one. */
export function statusError(code: number, text: string): ApiError {
  let status: { message?: unknown; reason?: unknown } | undefined;
  try {
    status = JSON.parse(text) as typeof status;
  } catch {
    // not a Status (e.g. a proxy's "404 page not found")
  }
  const message = typeof status?.message === 'string' && status.message !== '' ? status.message : text.slice(0, 200).trim() || `HTTP ${code}`;
  const reason = typeof status?.reason === 'string' && status.reason !== '' ? status.reason : undefined;
  return new ApiError(message, code, reason, { causes: statusCausesOf(status) });
}
