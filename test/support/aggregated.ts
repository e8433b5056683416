/**
 * API mode on the test plane (hack/aggregated.sh) and raw requests through kube-apiserver, so
 * tests send exactly the methods, paths, content types and bodies `oc` sends.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:https';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import type { RequestOptions } from 'node:https';
import { captureOutput, kubeConfig, repoDir } from './kube.js';

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
export async function raw(method: string, urlPath: string, opts: { body?: unknown; contentType?: string; accept?: string; as?: string; asGroups?: string[]; onData?: (textSoFar: string) => void } = {}): Promise<RawResponse> {
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
      res.on('data', (c: string) => { text += c; opts.onData?.(text); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** `DCCTL_API=aggregated npm start` as a user runs it on a machine with no kubeconfig. */
export interface NpmStart {
  readonly child: ChildProcess;
  output(): string;
  /** SIGTERM to the whole process group; resolves with the exit code once npm start is done cleaning up. */
  stop(timeoutMs?: number): Promise<number | null>;
}

export function npmStartAggregated(): NpmStart {
  // No KUBECONFIG and an empty HOME (no ~/.kube/config): npm start takes the local plane, which it
  // finds running in LOCAL_CLUSTER_DIR. The binary cache stays where it is.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DCCTL_API: 'aggregated',
    HOME: mkdtempSync(path.join(tmpdir(), 'npm-start-home-')),
    XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'),
    LOG_FORMAT: 'json',
  };
  delete env.KUBECONFIG;
  const child = spawn('npm', ['start', '--silent'], { cwd: repoDir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const { output, exited } = captureOutput(child, 1_000_000);
  return {
    child,
    output,
    async stop(timeoutMs = 180_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, timeoutMs);
      const code = await exited;
      // npm may exit before the script's cleanup is done: wait until the whole group is gone.
      const groupAlive = () => { try { process.kill(-child.pid!, 0); return true; } catch { return false; } };
      while (groupAlive()) await new Promise((r) => setTimeout(r, 200));
      clearTimeout(timer);
      return code;
    },
  };
}
