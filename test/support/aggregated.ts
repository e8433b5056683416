/**
 * API mode on the test plane (hack/aggregated.sh) and raw requests through kube-apiserver, so
 * tests send exactly the methods, paths, content types and bodies `oc` sends.
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:https';
import path from 'node:path';
import type { RequestOptions } from 'node:https';
import { kubeConfig, repoDir } from './kube.js';

export function aggregated(cmd: 'up' | 'down'): void {
  execFileSync('bash', [path.join(repoDir, 'hack/aggregated.sh'), cmd], { stdio: ['ignore', 'ignore', 'inherit'], env: process.env, timeout: 300_000 });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One request to the cluster as the admin, or as `as` (impersonated user, with optional groups). */
export async function raw(method: string, urlPath: string, opts: { body?: unknown; contentType?: string; accept?: string; as?: string; asGroups?: string[] } = {}): Promise<RawResponse> {
  const kc = kubeConfig();
  const server = new URL(kc.getCurrentCluster()!.server);
  const tls: RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  const body = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string | string[]> = { accept: opts.accept ?? 'application/json', 'user-agent': 'oc/4.20.0 (linux/amd64) kubernetes/e2e' };
  if (body !== undefined) {
    headers['content-type'] = opts.contentType ?? 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  if (opts.as) headers['impersonate-user'] = opts.as;
  if (opts.asGroups) headers['impersonate-group'] = opts.asGroups;
  return new Promise((resolve, reject) => {
    const req = request({ ...tls, hostname: server.hostname, port: server.port, method, path: urlPath, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
