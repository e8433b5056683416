/**
 * Every manifest in examples/ works as written: each is applied with kubectl to a fresh
 * namespace with its own controller; its first rollout must reach Complete with the hooks it
 * declares run and logged, and a config change must roll out version 2 and retire version 1.
 * Needs `npm run build` and the process kubelet.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { loadAll } from 'js-yaml';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { DeploymentConfig } from '../../src/apis/deploymentconfig.js';
import { DcClient, podLog } from '../support/dc.js';
import { createNamespace, deleteNamespace, kubectl, repoDir, startController, type ControllerProcess } from '../support/kube.js';

const examplesDir = path.join(repoDir, 'examples');

interface Expectation {
  /** Replicas the first rollout ends with (test mode ends at 0). */
  finalReplicas: number;
  /** Pod name suffix → text its log must contain. */
  logs: Record<string, string>;
}

const expectations: Record<string, Expectation> = {
  'rolling-with-hooks.yaml': {
    finalReplicas: 3,
    logs: { 'hook-pre': 'pre: checking config of frontend-1 (greeting=hello)', 'hook-post': 'post: frontend-1 is live in ' },
  },
  'recreate.yaml': {
    finalReplicas: 1,
    logs: { 'hook-pre': 'pre: draining the queue before worker-1', 'hook-mid': 'mid: migrating schema to 42 (no worker is running)' },
  },
  'test-mode.yaml': {
    finalReplicas: 0,
    logs: { 'hook-post': 'post: collecting results of smoke-tests-1' },
  },
  'custom.yaml': {
    finalReplicas: 4,
    logs: { deploy: 'custom: half the replicas updated; checking the canary for 1s' },
  },
  'custom-strategy.yaml': {
    finalReplicas: 2,
    logs: { deploy: 'custom: batch-1 is ready' },
  },
};

let controller: ControllerProcess | undefined;
let ns = '';

afterEach(async () => {
  await controller?.stop();
  controller = undefined;
  if (ns) await deleteNamespace(ns);
  ns = '';
});

describe('examples/ (e2e)', () => {
  it('has an expectation for every example', () => {
    expect(readdirSync(examplesDir).filter((f) => f.endsWith('.yaml')).sort()).toEqual(Object.keys(expectations).sort());
  });

  it.each(Object.entries(expectations))('%s rolls out to Complete, then rolls out a config change', async (file, want) => {
    const manifest = path.join(examplesDir, file);
    const dcName = (loadAll(readFileSync(manifest, 'utf8')) as DeploymentConfig[])[0]!.metadata.name!;
    ns = await createNamespace(`ex-${file.replace(/\.yaml$/, '').slice(0, 12)}`);
    controller = startController(ns);
    kubectl(['apply', '-n', ns, '-f', manifest]);

    const dc = new DcClient(ns);
    const rcName = `${dcName}-1`;
    const rc = await dc.waitForPhase(rcName, ['Complete', 'Failed'], 75_000);
    const logs = Object.fromEntries(Object.keys(want.logs).map((suffix) => [suffix, podLog(ns, `${rcName}-${suffix}`)]));
    expect({ phase: rc.metadata?.annotations?.['openshift.io/deployment.phase'], logs })
      .toEqual({ phase: 'Complete', logs: Object.fromEntries(Object.entries(want.logs).map(([k, v]) => [k, expect.stringContaining(v)])) });

    await dc.waitForOnlyActive(1, want.finalReplicas, dcName);
    const d = await dc.waitForConditions({ Progressing: { status: 'True', reason: 'NewReplicationControllerAvailable' } }, dcName);
    expect(d.status?.latestVersion).toBe(1);
    if (file === 'test-mode.yaml') expect(d.spec.replicas).toBe(2); // the DC keeps its replicas; only the RC is at 0
    if (file !== 'custom-strategy.yaml') expect(podLog(ns, `${rcName}-deploy`)).toContain('--> Success');

    // A config change rolls out version 2 the same way and retires version 1.
    dc.setImage('registry.local/changed:2', dcName);
    const rc2 = await dc.waitForPhase(`${dcName}-2`, ['Complete', 'Failed'], 60_000);
    expect(rc2.metadata?.annotations?.['openshift.io/deployment.phase']).toBe('Complete');
    await dc.waitForOnlyActive(2, want.finalReplicas, dcName);
  }, 90_000);
});
