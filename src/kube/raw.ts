/**
 * Raw HTTPS requests to the cluster's API server with the kubeconfig's credentials, for the
 * aggregated API server (src/apiserver/), which proxies bodies and watch streams byte for byte
 * and chooses content types and impersonation headers itself: client-node's typed APIs can do
 * neither. Only this file touches client-node here (house rule: runtime imports in src/kube/).
 */
import { request as httpsRequest, Agent, type RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';

export interface RawRequest {
  readonly method: string;
  /** Path with query, e.g. `/apis/apps.dcctl.io/v1/namespaces/a/deploymentconfigs?watch=1`. */
  readonly path: string;
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string | Buffer;
  readonly signal?: AbortSignal;
}

/** Sends requests to the kubeconfig's cluster; the response is returned unread (streamable). */
export interface RawTransport {
  request(req: RawRequest): Promise<IncomingMessage>;
}

/** A transport with keep-alive connections and the kubeconfig's TLS and credentials. */
export async function makeRawTransport(kc: KubeConfig, opts: { maxSockets?: number } = {}): Promise<RawTransport> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const base = new URL(cluster.server);
  const tls: RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  const agent = new Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 64, ca: tls.ca, cert: tls.cert, key: tls.key, rejectUnauthorized: tls.rejectUnauthorized });
  const authHeaders = (tls.headers ?? {}) as Record<string, string>;
  return {
    async request(req: RawRequest): Promise<IncomingMessage> {
      // Bearer tokens from exec plugins or a rotated service-account file are re-read per request.
      const fresh: RequestOptions = {};
      await kc.applyToHTTPSOptions(fresh);
      const headers: Record<string, string | string[]> = { ...authHeaders, ...((fresh.headers ?? {}) as Record<string, string>), ...(req.headers ?? {}) };
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      return new Promise((resolve, reject) => {
        const r = httpsRequest({
          protocol: 'https:', hostname: base.hostname, port: base.port || 443, method: req.method,
          path: `${base.pathname.replace(/\/$/, '')}${req.path}`, headers, agent, signal: req.signal,
        }, resolve);
        r.on('error', reject);
        if (req.body !== undefined) r.write(req.body);
        r.end();
      });
    },
  };
}
