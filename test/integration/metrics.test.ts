/**
 * What an operator scrapes and reads: /metrics (work queues, syncs, API calls and OpenShift's
 * rollout metrics), /healthz and /readyz, and JSON log lines naming controller, namespace, name
 * and version — from a real `dcctl controller` after real rollouts. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DcClient, dcManifest, shHook } from '../support/dc.js';
import { createNamespace, deleteNamespace, freePort, kubectl, repoDir, startController, waitFor, type ControllerProcess } from '../support/kube.js';
import { request } from 'node:https';

/** Value of the first sample of `name` whose labels include `labels`; undefined if none. */
function sample(body: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of body.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

const version = (JSON.parse(readFileSync(path.join(repoDir, 'package.json'), 'utf8')) as { version: string }).version;
let ns = '';
let port = 0;
let controller: ControllerProcess | undefined;
const base = () => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  ns = await createNamespace('metrics');
  port = await freePort();
  controller = startController(ns, [`--metrics-bind-address=127.0.0.1:${port}`, '--log-level=debug']);
});

afterAll(async () => {
  await controller?.stop();
  await deleteNamespace(ns);
});

describe('metrics, health endpoints and logs (real controller)', () => {
  it('serves /healthz, and /readyz once the caches have synced', async () => {
    await waitFor('/healthz', async () => (await fetch(`${base()}/healthz`)).status === 200, { timeoutMs: 20_000 });
    await waitFor('caches synced', () => controller!.output().includes('Caches synced'), { timeoutMs: 20_000 });
    const ready = await fetch(`${base()}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toBe('ok');
    expect((await fetch(`${base()}/nope`)).status).toBe(404);
  });

  it('exports work-queue, sync, API and OpenShift rollout metrics after real rollouts', async () => {
    const dc = new DcClient(ns);
    await dc.create(dcManifest({ name: 'web', replicas: 2 }));
    await dc.create(dcManifest({ name: 'db', replicas: 1, strategy: { type: 'Recreate', recreateParams: { timeoutSeconds: 60 } } }));
    await dc.create(dcManifest({
      name: 'broken',
      replicas: 1,
      strategy: { type: 'Rolling', rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 60, pre: shHook('exit 1', 'Abort') } },
    }));
    await dc.waitForPhase('web-1', 'Complete', 60_000);
    await dc.waitForPhase('db-1', 'Complete', 60_000);
    await dc.waitForPhase('broken-1', 'Failed', 60_000);

    const res = await fetch(`${base()}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const body = await res.text();

    for (const q of ['deploymentconfig', 'deployer']) {
      expect(sample(body, 'workqueue_adds_total', { name: q })).toBeGreaterThan(0);
      expect(sample(body, 'workqueue_depth', { name: q })).toBeGreaterThanOrEqual(0);
      expect(sample(body, 'workqueue_queue_duration_seconds_count', { name: q })).toBeGreaterThan(0);
      expect(sample(body, 'workqueue_work_duration_seconds_count', { name: q })).toBeGreaterThan(0);
      expect(sample(body, 'dcctl_sync_duration_seconds_count', { controller: q, result: 'success' })).toBeGreaterThan(0);
    }
    expect(sample(body, 'dcctl_api_requests_total', { verb: 'create', resource: 'replicationcontrollers' })).toBe(3);
    expect(sample(body, 'dcctl_api_requests_total', { verb: 'create', resource: 'pods' })).toBeGreaterThanOrEqual(3);
    // --leader-elect=false: the single replica acts, so it leads (the NoLeader alert must not fire).
    expect(sample(body, 'dcctl_leader')).toBe(1);
    expect(sample(body, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    // OpenShift's names and labels (design.md §4.11).
    expect(sample(body, 'openshift_apps_deploymentconfigs_complete_rollouts_total', { phase: 'available' })).toBe(2);
    expect(sample(body, 'openshift_apps_deploymentconfigs_complete_rollouts_total', { phase: 'failed' })).toBe(1);
    expect(sample(body, 'openshift_apps_deploymentconfigs_complete_rollouts_total', { phase: 'cancelled' })).toBe(0);
    expect(sample(body, 'openshift_apps_deploymentconfigs_strategy_total', { type: 'rolling' })).toBe(2);
    expect(sample(body, 'openshift_apps_deploymentconfigs_strategy_total', { type: 'recreate' })).toBe(1);
    const failedAt = sample(body, 'openshift_apps_deploymentconfigs_last_failed_rollout_time', { namespace: ns, name: 'broken', latest_version: '1' });
    expect(failedAt).toBeGreaterThan(Date.now() / 1000 - 300);
    // Nothing is rolling out any more.
    expect(sample(body, 'openshift_apps_deploymentconfigs_active_rollouts_duration_seconds', { namespace: ns })).toBeUndefined();
  });

  it('logs JSON lines naming controller, namespace, name and version', () => {
    const lines = controller!.output().split('\n').filter(Boolean);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>); // throws on any non-JSON line
    expect(records.length).toBeGreaterThan(10);
    expect(records.every((r) => r.version === version && typeof r.level === 'number' && typeof r.time === 'number' && typeof r.msg === 'string')).toBe(true);
    const about = (controllerName: string, name: string) => records.filter((r) => r.controller === controllerName && r.namespace === ns && r.name === name);
    expect(about('deployer', 'web-1').map((r) => r.msg)).toEqual(expect.arrayContaining(['Created deployer pod', 'Updated rollout status']));
    // The DC controller's lines (debug) are bound to the DC they are about.
    expect(about('deploymentconfig', 'web').length).toBeGreaterThan(0);
  });
});

/**
 * Issue 14 item 4e: in-cluster mode (deploy/'s flags). HTTPS, and /metrics only for a bearer token
 * that the real kube-apiserver authenticates (TokenReview) and authorizes for `get /metrics`
 * (SubjectAccessReview). Only the metrics server runs here: every controller is disabled.
 */
describe('metrics in secure mode (--metrics-secure)', () => {
  let secureNs = '';
  let securePort = 0;
  let secure: ControllerProcess | undefined;
  const role = `dcctl-test-metrics-reader-${Math.random().toString(16).slice(2, 8)}`;

  function get(path: string, token?: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: securePort, path, rejectUnauthorized: false, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => { body += d.toString(); });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  beforeAll(async () => {
    secureNs = await createNamespace('metrics-tls');
    securePort = await freePort();
    secure = startController(secureNs, [`--metrics-bind-address=127.0.0.1:${securePort}`, '--metrics-secure',
      '--enable-dc-controller=false', '--enable-deployer-controller=false', '--enable-image-trigger-controller=false']);
    kubectl(['-n', secureNs, 'create', 'serviceaccount', 'prometheus']);
    kubectl(['-n', secureNs, 'create', 'serviceaccount', 'stranger']);
    kubectl(['create', 'clusterrole', role, '--verb=get', '--non-resource-url=/metrics']);
    kubectl(['create', 'clusterrolebinding', role, `--clusterrole=${role}`, `--serviceaccount=${secureNs}:prometheus`]);
  });
  afterAll(async () => {
    await secure?.stop();
    try { kubectl(['delete', 'clusterrolebinding,clusterrole', role, '--ignore-not-found']); } catch { /* best effort */ }
    await deleteNamespace(secureNs);
  });

  it('serves HTTPS; /metrics needs a token allowed to get /metrics; probes need none', async () => {
    await waitFor('HTTPS /healthz', async () => (await get('/healthz')).status === 200, { timeoutMs: 30_000 });
    expect((await get('/metrics')).status).toBe(401);
    expect((await get('/metrics', 'not-a-token')).status).toBe(401);
    const stranger = kubectl(['-n', secureNs, 'create', 'token', 'stranger']).trim();
    const denied = await get('/metrics', stranger);
    expect(denied.status).toBe(403);
    expect(denied.body).toContain(`user "system:serviceaccount:${secureNs}:stranger" may not get /metrics`);
    const prometheus = kubectl(['-n', secureNs, 'create', 'token', 'prometheus']).trim();
    const allowed = await waitFor('RBAC for the reader', async () => {
      const r = await get('/metrics', prometheus);
      return r.status === 200 ? r : undefined;
    }, { timeoutMs: 30_000, intervalMs: 1000 });
    expect(sample(allowed.body, 'dcctl_leader')).toBe(1);
  });
});
