/**
 * Issue 16, item 1: the controllers make no request a Deployment controller would not need.
 * Several DCs roll out and are updated at once on the real plane; the controller's own metrics
 * must then show no 409 Conflict (a write decided on a state older than our own last write, or
 * an update racing the deployer and the RC manager).
 * Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DcClient, dcManifest } from '../support/dc.js';
import { createNamespace, deleteNamespace, freePort, kubectl, startController, type ControllerProcess } from '../support/kube.js';

/** Sum of the samples of `name` whose labels include `labels`. */
function sum(body: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of body.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(m[3]);
  }
  return total;
}

const names = ['a', 'b', 'c', 'd', 'e', 'f'];
let ns = '';
let port = 0;
let controller: ControllerProcess | undefined;

beforeAll(async () => {
  ns = await createNamespace('efficiency');
  port = await freePort();
  controller = startController(ns, [`--metrics-bind-address=127.0.0.1:${port}`]);
});

afterAll(async () => {
  await controller?.stop();
  await deleteNamespace(ns);
});

describe('controller efficiency during concurrent rollouts (real plane)', () => {
  it('rolls out and updates six DCs without a single 409 Conflict from the controller', async () => {
    const dc = new DcClient(ns);
    await Promise.all(names.map((name) => dc.create(dcManifest({ name, replicas: 2 }))));
    await Promise.all(names.map((name) => dc.waitForPhase(`${name}-1`, 'Complete', 120_000)));
    for (const name of names) {
      kubectl(['-n', ns, 'patch', 'deploymentconfigs.apps.openshift.io', name, '--type=merge', '-p',
        JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'web', image: 'registry.local/web:2' }] } } } })]);
    }
    await Promise.all(names.map((name) => dc.waitForPhase(`${name}-2`, 'Complete', 120_000)));
    await Promise.all(names.map((name) => dc.waitForOnlyActive(2, 2, name, 60_000)));

    const body = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    // The writes happened (the test would pass vacuously otherwise)...
    expect(sum(body, 'dcctl_api_requests_total', { verb: 'create', resource: 'replicationcontrollers' })).toBe(12);
    expect(sum(body, 'dcctl_api_requests_total', { resource: 'deploymentconfigs' })).toBeGreaterThan(12);
    // ...and none of them conflicted.
    expect(sum(body, 'dcctl_api_errors_total', { code: '409' })).toBe(0);
  });
});
