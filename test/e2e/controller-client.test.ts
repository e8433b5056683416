/**
 * The controller talks through the small JSON client (src/kube/rest.ts) and loads client-node only
 * for a kubeconfig that needs it (src/kube/controller-kube.ts): client-node was most of an idle
 * controller's memory. Both kinds roll a DC out on the real plane; the files each process loaded
 * say whether client-node's code was among them.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DcClient, dcManifest, scratchDir } from '../support/dc.js';
import { createNamespace, deleteNamespace, repoDir, startController } from '../support/kube.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => { for (const c of cleanups.reverse()) await c().catch(() => undefined); });

/** Rolls one DC out with a pod-less controller run with `kubeconfigEnv`; the files it loaded. */
async function rollOutRecordingFiles(prefix: string, kubeconfigEnv: string): Promise<string[]> {
  const ns = await createNamespace(prefix);
  cleanups.push(() => deleteNamespace(ns));
  const loaded = path.join(scratchDir('loaded-'), 'files');
  writeFileSync(loaded, '');
  const controller = startController(ns, ['--default-deployer=inline'], {
    ...process.env,
    KUBECONFIG: kubeconfigEnv,
    NODE_OPTIONS: `--import ${path.join(repoDir, 'test/support/loaded-files.mjs')}`,
    DCCTL_TEST_LOADED_FILES: loaded,
  });
  cleanups.push(() => controller.stop());
  const dc = new DcClient(ns);
  await dc.create(dcManifest({ name: 'web', replicas: 1 }));
  const rc = await dc.waitForPhase('web-1', ['Complete', 'Failed']);
  expect(rc.metadata?.annotations?.['openshift.io/deployment.phase']).toBe('Complete');
  expect(await controller.stop()).toBe(0);
  return readFileSync(loaded, 'utf8').split('\n').filter(Boolean).map((url) => fileURLToPath(url));
}

/** The message of client-node's ApiException: in its chunk of the CLI bundle, and in no file of ours. */
const hasClientNode = (files: string[]): boolean => files.some((f) => readFileSync(f, 'utf8').includes('"HTTP-Code: "'));

describe('the controller loads client-node only for kubeconfigs that need it', () => {
  it('with a kubeconfig the small JSON client handles, it rolls out without loading client-node', async () => {
    const files = await rollOutRecordingFiles('lean-client', process.env.KUBECONFIG!);
    expect(files.some((f) => f.endsWith(path.join('dist', 'dcctl.mjs')))).toBe(true);
    expect(hasClientNode(files)).toBe(false);
  }, 120_000);

  it('with a merged KUBECONFIG (client-node merges it), it rolls out on client-node', async () => {
    const other = path.join(scratchDir('kubeconfig-'), 'other.json');
    writeFileSync(other, JSON.stringify({
      apiVersion: 'v1', kind: 'Config',
      clusters: [{ name: 'other', cluster: { server: 'https://127.0.0.1:1' } }],
      contexts: [{ name: 'other', context: { cluster: 'other', user: 'other' } }],
      users: [{ name: 'other', user: {} }],
    }));
    const files = await rollOutRecordingFiles('client-node', `${process.env.KUBECONFIG!}:${other}`);
    expect(hasClientNode(files)).toBe(true);
  }, 120_000);
});
