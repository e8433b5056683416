/**
 * Issue 14 item 2: the deployer service account and the `system:deployers` RoleBinding used to be
 * provisioned once per controller process. A namespace deleted and re-created, or a RoleBinding
 * deleted, stayed broken (FailedCreate "serviceaccount deployer not found" until the retries ran
 * out; 403 inside the deployer) until the controller restarted. Real plane, real controller,
 * deployer pods run by the process kubelet with the deployer service account's token.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { DcClient, dcManifest } from '../support/dc.js';
import { apis, createNamespace, deleteNamespace, kubectl, startController, waitFor, type ControllerProcess } from '../support/kube.js';

const { core } = apis();
let accessNs = '';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => { for (const c of cleanups.reverse()) await c().catch(() => undefined); });

const smallDc = (name = 'web') => dcManifest({ name, replicas: 1, strategy: { type: 'Recreate', recreateParams: { timeoutSeconds: 60 } } });

describe('deployer access is re-created whenever it is missing', () => {
  let controller: ControllerProcess;

  it('namespace deleted and re-created under a running controller: the next DC there rolls out', async () => {
    const ns = await createNamespace('access');
    accessNs = ns;
    cleanups.push(() => deleteNamespace(ns));
    controller = startController(ns);
    cleanups.push(() => controller.stop());
    const dc = new DcClient(ns);
    await dc.create(smallDc());
    await dc.waitForPhase('web-1', 'Complete');

    await core.deleteNamespace({ name: ns });
    await waitFor(`namespace ${ns} gone`, async () => !(await core.readNamespace({ name: ns }).then(() => true, () => false)), { timeoutMs: 90_000 });
    await core.createNamespace({ body: { metadata: { name: ns, labels: { 'dcctl-test': 'true' } } } });
    await waitFor(`service account default in ${ns}`, async () => core.readNamespacedServiceAccount({ name: 'default', namespace: ns }));
    await dc.create(smallDc());
    await dc.waitForPhase('web-1', 'Complete');
    expect(await dc.eventTexts()).toEqual(expect.arrayContaining([
      expect.stringMatching(/^Normal DeployerAccessCreated: Created missing service account "deployer" and role binding "system:deployers"/),
    ]));
  }, 240_000);

  it('RoleBinding deleted: the next rollout re-creates it and completes (no 403 inside the deployer)', async () => {
    const ns = accessNs;
    const dc = new DcClient(ns);
    kubectl(['-n', ns, 'delete', 'rolebinding', 'system:deployers']);
    dc.setImage('registry.local/web:2');
    const rc = await dc.waitForPhase('web-2', ['Complete', 'Failed']);
    expect(rc.metadata?.annotations?.['openshift.io/deployment.phase']).toBe('Complete');
    expect(kubectl(['-n', ns, 'get', 'rolebinding', 'system:deployers', '-o', 'jsonpath={.roleRef.name}'])).toBe('system:deployer');
    expect(await dc.eventTexts()).toEqual(expect.arrayContaining([
      expect.stringMatching(/^Normal DeployerAccessCreated: Created missing role binding "system:deployers"/),
    ]));
  }, 180_000);
});

describe('--manage-deployer-access=false', () => {
  it('says what is missing in an event, and the rollout starts once an administrator creates it', async () => {
    const ns = await createNamespace('noaccess');
    cleanups.push(() => deleteNamespace(ns));
    const controller = startController(ns, ['--manage-deployer-access=false']);
    cleanups.push(() => controller.stop());
    const dc = new DcClient(ns);
    await dc.create(smallDc());
    const texts = await waitFor('FailedCreate naming the missing access', async () => {
      const t = await dc.eventTexts();
      return t.some((e) => e.startsWith('Warning FailedCreate')) ? t : undefined;
    });
    expect(texts.find((e) => e.startsWith('Warning FailedCreate'))).toBe(
      'Warning FailedCreate: Error creating deployer pod: service account "deployer" and role binding "system:deployers" missing in namespace '
      + `"${ns}" and --manage-deployer-access=false: create them (docs/operations.md, "Deployer access") for deployer pods to run`);
    expect((await dc.rc('web-1'))?.metadata?.annotations?.['openshift.io/deployment.phase']).toBe('New');

    kubectl(['-n', ns, 'create', 'serviceaccount', 'deployer']);
    kubectl(['-n', ns, 'create', 'rolebinding', 'system:deployers', '--clusterrole=system:deployer', `--serviceaccount=${ns}:deployer`]);
    await dc.waitForPhase('web-1', 'Complete', 120_000);
  }, 240_000);
});
