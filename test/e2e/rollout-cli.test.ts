import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../../src/apis/deploymentconfig.js';
import { apis, createNamespace, dcctl, deleteNamespace, kubectl, startController, waitFor, type ControllerProcess } from '../support/kube.js';

// The CLI end to end against the real local control plane with the real controllers: create →
// roll out → change → latest → history → undo --to-revision 1 → cancel a slow rollout → retry →
// pause → resume. Needs `npm run build` (bin/dcctl.js runs dist/) and the global setup's cluster.

const group = 'apps.openshift.io';
const version = 'v1';
const plural = 'deploymentconfigs';
const { core, custom } = apis();

let ns = '';
let controller: ControllerProcess | undefined;

const getDc = async (): Promise<DeploymentConfig> =>
  (await custom.getNamespacedCustomObject({ group, version, namespace: ns, plural, name: 'web' })) as DeploymentConfig;
const getRc = (name: string): Promise<V1ReplicationController> => core.readNamespacedReplicationController({ name, namespace: ns });
const phase = async (name: string): Promise<string | undefined> =>
  (await getRc(name).catch(() => undefined))?.metadata?.annotations?.['openshift.io/deployment.phase'];
const run = (...args: string[]) => dcctl([...args, '-n', ns]);

/** `rollout status` until the rollout of `<web>-<version>` succeeds. */
async function expectRolledOut(ver: number): Promise<void> {
  const r = await run('rollout', 'status', 'dc/web', '--timeout', '150s');
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  expect(r.stdout).toContain(`replication controller "web-${ver}" successfully rolled out`);
  expect(await phase(`web-${ver}`)).toBe('Complete');
}

const dcManifest = (image: string) => `
apiVersion: apps.openshift.io/v1
kind: DeploymentConfig
metadata: {name: web}
spec:
  replicas: 2
  selector: {app: web}
  strategy: {type: Rolling, rollingParams: {intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 120}}
  triggers: [{type: ConfigChange}]
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "${image}", ports: [{containerPort: 8080}]}]
`;

// The deployer pods run as the `deployer` service account (design.md §3.3) with its own RBAC.
const deployerRbac = `
apiVersion: v1
kind: ServiceAccount
metadata: {name: deployer}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: dcctl-deployer}
rules:
- apiGroups: [""]
  resources: [replicationcontrollers, replicationcontrollers/scale]
  verbs: [get, list, watch, update, patch]
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list, watch, create, delete, patch, update]
- apiGroups: [""]
  resources: [pods/log, events]
  verbs: [get, create, patch]
- apiGroups: [apps.openshift.io]
  resources: [deploymentconfigs]
  verbs: [get, list, watch]
- apiGroups: [image.openshift.io]
  resources: [imagestreamtags]
  verbs: [get, create, update]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: dcctl-deployer}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: dcctl-deployer}
subjects: [{kind: ServiceAccount, name: deployer}]
`;

beforeAll(async () => {
  ns = await createNamespace('cli-e2e');
  kubectl(['apply', '-n', ns, '-f', '-'], deployerRbac);
  controller = startController(ns);
});

afterAll(async () => {
  await controller?.stop();
  if (ns) await deleteNamespace(ns);
});

describe('dcctl rollout (e2e)', () => {
  it('runs the full rollout cycle', async () => {
    // Create → first rollout.
    kubectl(['apply', '-n', ns, '-f', '-'], dcManifest('registry.local/web:1'));
    await expectRolledOut(1);

    // Change the template → config-change rollout.
    kubectl(['patch', '-n', ns, 'dc/web', '--type', 'merge', '-p', JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'web', image: 'registry.local/web:2', ports: [{ containerPort: 8080 }] }] } } } })]);
    await waitFor('web-2', async () => (await getDc()).status?.latestVersion === 2);
    await expectRolledOut(2);

    // rollout latest → manual rollout, acknowledged by the controller.
    const latest = await run('rollout', 'latest', 'dc/web');
    expect(latest).toMatchObject({ code: 0, stdout: 'deploymentconfig.apps.openshift.io/web rolled out\n' });
    expect((await getDc()).status?.lastInstantiateRequest?.outcome).toBe('Triggered');
    await expectRolledOut(3);

    // history.
    const history = await run('rollout', 'history', 'dc/web');
    expect(history.code).toBe(0);
    const rows = history.stdout.split('\n').slice(2).filter(Boolean).map((l) => l.split(/\t+/));
    expect(rows).toEqual([['1', 'Complete', 'config change'], ['2', 'Complete', 'config change'], ['3', 'Complete', 'manual change']]);
    const rev1 = await run('rollout', 'history', 'dc/web', '--revision', '1');
    expect(rev1.stdout).toContain('Image:\tregistry.local/web:1');

    // undo --to-revision 1 → a new rollout with revision 1's template.
    const undo = await run('rollout', 'undo', 'dc/web', '--to-revision', '1');
    expect(undo).toMatchObject({ code: 0, stdout: 'deploymentconfig.apps.openshift.io/web rolled back\n' });
    const afterUndo = await getDc();
    expect(afterUndo.spec.template?.spec?.containers[0]?.image).toBe('registry.local/web:1');
    const undoVersion = afterUndo.status?.latestVersion ?? 0;
    expect(undoVersion).toBeGreaterThanOrEqual(4);
    await expectRolledOut(undoVersion);

    // A slow rollout (pre hook sleeps) → cancel while it runs.
    kubectl(['patch', '-n', ns, 'dc/web', '--type', 'merge', '-p', JSON.stringify({ spec: {
      strategy: { type: 'Rolling', rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 120,
        pre: { failurePolicy: 'Abort', execNewPod: { containerName: 'web', command: ['/bin/sh', '-c', 'sleep 20'] } } } },
      template: { spec: { containers: [{ name: 'web', image: 'registry.local/web:3', ports: [{ containerPort: 8080 }] }] } },
    } })]);
    const slow = undoVersion + 1;
    await waitFor(`web-${slow} running`, async () => (await phase(`web-${slow}`)) === 'Running', { timeoutMs: 90_000 });
    const cancel = await run('rollout', 'cancel', 'dc/web');
    expect(cancel).toMatchObject({ code: 0, stdout: 'deploymentconfig.apps.openshift.io/web cancelling\n' });
    await waitFor(`web-${slow} failed`, async () => (await phase(`web-${slow}`)) === 'Failed', { timeoutMs: 90_000 });
    const cancelled = await getRc(`web-${slow}`);
    expect(cancelled.metadata?.annotations?.['openshift.io/deployment.status-reason']).toBe('cancelled by the user');
    const again = await run('rollout', 'cancel', 'dc/web');
    expect(again.stdout).toMatch(new RegExp(`^No rollout is in progress \\(latest rollout #${slow} failed .* ago\\)\\n$`));
    const failedStatus = await run('rollout', 'status', 'dc/web', '--timeout', '60s');
    expect(failedStatus.code).toBe(1);
    expect(failedStatus.stderr).toContain(`rollout of replication controller "web-${slow}" was cancelled`);

    // retry → the same RC starts over and completes.
    const retry = await run('rollout', 'retry', 'dc/web');
    expect(retry).toMatchObject({ code: 0, stdout: `deploymentconfig.apps.openshift.io/web retried rollout #${slow}\n` });
    const retried = await getRc(`web-${slow}`);
    expect(retried.metadata?.annotations?.['openshift.io/deployment.cancelled']).toBeUndefined();
    await expectRolledOut(slow);

    // pause / resume and the refusals around them.
    expect(await run('rollout', 'pause', 'dc/web')).toMatchObject({ code: 0, stdout: 'deploymentconfig.apps.openshift.io/web paused\n' });
    expect(await run('rollout', 'pause', 'dc/web')).toMatchObject({ code: 1, stderr: 'error: deploymentconfigs.apps.openshift.io "web" is already paused\n' });
    expect(await run('rollout', 'latest', 'dc/web')).toMatchObject({ code: 1, stderr: 'error: cannot deploy a paused deployment config\n' });
    expect(await run('rollout', 'undo', 'dc/web')).toMatchObject({ code: 1 });
    expect(await run('rollout', 'resume', 'dc/web')).toMatchObject({ code: 0, stdout: 'deploymentconfig.apps.openshift.io/web resumed\n' });
    expect((await getDc()).spec.paused).toBe(false);
    expect((await getDc()).status?.latestVersion).toBe(slow);

    // Errors users see for a missing DC.
    expect(await run('rollout', 'history', 'dc/missing')).toMatchObject({
      code: 1, stderr: 'Error from server (NotFound): deploymentconfigs.apps.openshift.io "missing" not found\n',
    });
  }, 900_000);
});

/** A small Recreate DC named `name` (one replica), as YAML for kubectl. */
const namedDc = (name: string, image = 'registry.local/web:1') => `
apiVersion: apps.openshift.io/v1
kind: DeploymentConfig
metadata: {name: ${name}}
spec:
  replicas: 1
  selector: {app: ${name.slice(0, 60)}}
  strategy: {type: Recreate, recreateParams: {timeoutSeconds: 60}}
  triggers: [{type: ConfigChange}]
  template:
    metadata: {labels: {app: ${name.slice(0, 60)}}}
    spec:
      containers: [{name: web, image: "${image}"}]
`;

describe('weak spots found by adversarial testing (issue 14 item 4, e2e)', () => {
  it('20 parallel `rollout latest`: none reports a request recorded that was lost', async () => {
    kubectl(['apply', '-n', ns, '-f', '-'], namedDc('race'));
    await waitFor('race-1 Complete', async () => (await phase('race-1')) === 'Complete', { timeoutMs: 120_000 });
    const results = await Promise.all(Array.from({ length: 20 }, () => run('rollout', 'latest', 'dc/race', '--timeout', '90s')));
    const rolledOut = results.filter((r) => r.code === 0);
    const refused = results.filter((r) => r.code !== 0);
    const race = (await custom.getNamespacedCustomObject({ group, version, namespace: ns, plural, name: 'race' })) as DeploymentConfig;
    const bumps = (race.status?.latestVersion ?? 0) - 1;
    console.log(`20 parallel rollout latest: ${rolledOut.length} rolled out, ${refused.length} refused, latestVersion moved by ${bumps}; `
      + `refusals: ${JSON.stringify([...new Set(refused.map((r) => r.stderr.replace(/[0-9a-f-]{36}/g, '<id>').trim()))])}`);
    // Every "rolled out" is the controller's acknowledgement of that very request (one version
    // each); nothing was reported as merely recorded; every refusal says why.
    for (const r of rolledOut) expect(r.stdout).toBe('deploymentconfig.apps.openshift.io/race rolled out\n');
    expect(results.some((r) => r.stdout.includes('rollout requested') || r.stderr.includes('will be handled'))).toBe(false);
    expect(rolledOut.length).toBeGreaterThanOrEqual(1);
    expect(rolledOut.length).toBeLessThanOrEqual(bumps);
    for (const r of refused) expect(r.stderr).toMatch(/is already in progress|request not recorded|NOT recorded/);
  }, 300_000);

  it('`rollout status` fails at once with the RC creation error (admission refuses the RC)', async () => {
    // A cluster policy refusing this namespace's RCs named blocked-*: any admission refusal
    // (quota, policy engines) looks the same to the controller.
    const policy = `dcctl-test-deny-rc-${ns}`;
    kubectl(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'List', items: [
        {
          apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: policy },
          spec: {
            failurePolicy: 'Fail',
            matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['replicationcontrollers'] }] },
            validations: [{ expression: "!object.metadata.name.startsWith('blocked-')", message: 'replication controllers named blocked-* are not allowed here' }],
          },
        },
        {
          apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: policy },
          spec: { policyName: policy, validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } } } },
        },
      ],
    }));
    try {
      await new Promise((r) => setTimeout(r, 3000)); // the API server loads new policies asynchronously
      kubectl(['apply', '-n', ns, '-f', '-'], namedDc('blocked'));
      const started = Date.now();
      const status = await run('rollout', 'status', 'dc/blocked', '--timeout', '120s');
      expect(status.code).toBe(1);
      expect(status.stderr).toContain('rollout #1 of deployment config "blocked" cannot start: ReplicationControllerCreateError:');
      expect(status.stderr).toContain('replication controllers named blocked-* are not allowed here');
      expect(Date.now() - started).toBeLessThan(60_000);
    } finally {
      kubectl(['delete', 'validatingadmissionpolicybinding,validatingadmissionpolicy', policy, '--ignore-not-found']);
    }
  }, 180_000);

  it('an unknown phase annotation: condition + event, `rollout status` fails, `rollout cancel` unblocks the DC', async () => {
    kubectl(['apply', '-n', ns, '-f', '-'], namedDc('odd'));
    await waitFor('odd-1 Complete', async () => (await phase('odd-1')) === 'Complete', { timeoutMs: 120_000 });
    kubectl(['-n', ns, 'annotate', '--overwrite', 'rc/odd-1', 'openshift.io/deployment.phase=Exploded']);
    const cond = await waitFor('ReplicaFailure', async () => {
      const d = (await custom.getNamespacedCustomObject({ group, version, namespace: ns, plural, name: 'odd' })) as DeploymentConfig;
      return d.status?.conditions?.find((c) => c.type === 'ReplicaFailure' && c.status === 'True');
    });
    expect(cond.message).toContain('replication controller "odd-1" has unknown phase "Exploded"');
    const events = (await core.listNamespacedEvent({ namespace: ns, fieldSelector: 'involvedObject.name=odd' })).items;
    expect(events.some((e) => e.reason === 'InvalidReplicationController' && e.type === 'Warning')).toBe(true);
    const status = await run('rollout', 'status', 'dc/odd', '--timeout', '30s');
    expect(status.code).toBe(1);
    expect(status.stderr).toContain('has unknown phase "Exploded"');

    expect(await run('rollout', 'cancel', 'dc/odd')).toMatchObject({ code: 0, stdout: 'deploymentconfig.apps.openshift.io/odd cancelling\n' });
    await waitFor('odd-1 Failed', async () => (await phase('odd-1')) === 'Failed', { timeoutMs: 60_000 });
    kubectl(['apply', '-n', ns, '-f', '-'], namedDc('odd', 'registry.local/web:2'));
    await waitFor('odd-2 Complete', async () => (await phase('odd-2')) === 'Complete', { timeoutMs: 120_000 });
  }, 300_000);
});
