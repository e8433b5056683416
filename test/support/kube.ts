/**
 * Helpers for integration and e2e tests that run against the real local control plane
 * (KUBECONFIG is set by test/support/global-setup.js).
 */
import { afterAll, beforeAll } from '@jest/globals';
import { AppsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dump, load } from 'js-yaml';

export const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  if (!process.env.KUBECONFIG) throw new Error('KUBECONFIG is not set: run through jest (global setup) or export it');
  kc.loadFromFile(process.env.KUBECONFIG);
  return kc;
}

/**
 * Writes `file`: a kubeconfig with the cluster of `adminKubeconfig` and, as its only user, a
 * bearer `token` (a service account's, so a process runs with exactly that identity).
 */
export function writeTokenKubeconfig(file: string, token: string, adminKubeconfig = process.env.KUBECONFIG!): string {
  const admin = load(readFileSync(adminKubeconfig, 'utf8')) as { clusters: Array<{ cluster: Record<string, unknown> }> };
  writeFileSync(file, dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'local', cluster: admin.clusters[0]!.cluster }],
    users: [{ name: 'token', user: { token } }],
    contexts: [{ name: 'token', context: { cluster: 'local', user: 'token' } }],
    'current-context': 'token',
  }), { mode: 0o600 });
  return file;
}

export function apis(kc = kubeConfig()) {
  return {
    kc,
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
  };
}

/** Polls `probe` until it returns a value that is not undefined/false, or throws after the timeout. */
export async function waitFor<T>(
  description: string,
  probe: () => Promise<T | undefined | false | null> | T | undefined | false | null,
  { timeoutMs = 60_000, intervalMs = 200 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false && value !== null) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? `: last error ${lastError.message.slice(0, 300)}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Creates a uniquely named namespace and waits for its default service account. */
export async function createNamespace(prefix: string, kc = kubeConfig()): Promise<string> {
  const { core } = apis(kc);
  const name = `${prefix}-${randomBytes(3).toString('hex')}`;
  await core.createNamespace({ body: { metadata: { name, labels: { 'dcctl-test': 'true' } } } });
  await waitFor(`service account default in ${name}`, async () => core.readNamespacedServiceAccount({ name: 'default', namespace: name }));
  return name;
}

export async function deleteNamespace(name: string, kc = kubeConfig()): Promise<void> {
  const { core } = apis(kc);
  await core.deleteNamespace({ name }).catch(() => undefined);
}

/**
 * A namespace of its own for the calling test file: created before its tests (createNamespace),
 * deleted after them. Read `.name` inside tests, once it is set.
 */
export function useNamespace(prefix: string, kc = kubeConfig()): { readonly name: string } {
  const space = { name: '' };
  beforeAll(async () => {
    space.name = await createNamespace(prefix, kc);
  });
  afterAll(async () => {
    await deleteNamespace(space.name, kc);
  });
  return space;
}

/** Runs kubectl against the test cluster and returns stdout; throws with stderr on failure. */
/** A TCP port that was free a moment ago (the process under test binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export function kubectl(args: string[], input?: string): string {
  return execFileSync('kubectl', args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
}

/** Runs the built CLI (dist/) and returns its exit code and output. */
export function dcctl(args: string[], { input, timeoutMs = 120_000 }: { input?: string; timeoutMs?: number } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoDir, 'bin/dcctl.js'), ...args], { env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code: code ?? -1, stdout, stderr }); });
    if (input !== undefined) child.stdin.end(input); else child.stdin.end();
  });
}

/** Keeps the last `limit` characters a child writes to stdout and stderr; `exited` is its exit code. */
export function captureOutput(child: ChildProcess, limit: number): { output: () => string; exited: Promise<number | null> } {
  let out = '';
  const keep = (d: Buffer) => { out = (out + d.toString()).slice(-limit); };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { output: () => out, exited };
}

export interface ControllerProcess {
  readonly child: ChildProcess;
  output(): string;
  /** SIGTERM, wait for exit (SIGKILL after 15 s). */
  stop(): Promise<number | null>;
  kill(): Promise<void>;
}

/**
 * Starts `dcctl controller` (from dist/) scoped to one namespace, without leader election by
 * default; `env` for a plane other than the tests' own.
 */
export function startController(namespace: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = process.env): ControllerProcess {
  const args = [path.join(repoDir, 'bin/dcctl.js'), 'controller', '--namespace', namespace, '--leader-elect=false',
    '--metrics-bind-address=0', '--deployer-image=dcctl:local', ...extraArgs];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const { output, exited } = captureOutput(child, 500_000);
  return {
    child,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
