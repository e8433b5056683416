/**
 * API Priority and Fairness: deploy/base/flowcontrol.yaml gives the controller's service account
 * the priority level kube-controller-manager's Deployment work has (`workload-high`) and its lease
 * `leader-election`. Without it, kube-apiserver's default `service-accounts` FlowSchema puts the
 * controller in `workload-low`, with every other pod's API traffic.
 *
 * The shared test plane runs with APF off (less CPU on 2 cores), so this file brings up a second
 * local plane of its own with APF on, installs the CRDs and the controller's RBAC there, and checks
 * the classification kube-apiserver reports (the X-Kubernetes-PF-* response headers) and the
 * dispatch counts of the controller's real traffic. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Group, Version } from '../../src/apis/constants.js';
import { loadRestConfig } from '../../src/kube/rest.js';
import { dcManifest } from '../support/dc.js';
import { repoDir, startController, waitFor, writeTokenKubeconfig, type ControllerProcess } from '../support/kube.js';

const InstallNamespace = 'deploymentconfig-controller';
const ControllerSA = 'deploymentconfig-controller';
const AppNamespace = 'apf-app';
const WorkloadSchema = 'deploymentconfig-controller';
const LeaseSchema = 'deploymentconfig-controller-leader-election';

const runDir = mkdtempSync(path.join(tmpdir(), 'dcctl-apf-'));
const planeEnv = {
  ...process.env,
  LOCAL_CLUSTER_DIR: runDir,
  // kube-apiserver's defaults for APF (the plane's own flags turn it off; the last flag wins).
  KUBE_APISERVER_EXTRA_ARGS: '--enable-priority-and-fairness=true --max-requests-inflight=400 --max-mutating-requests-inflight=200',
  KUBECONFIG: path.join(runDir, 'admin.kubeconfig'),
};
const script = path.join(repoDir, 'hack/local-cluster.sh');
let planeUp = false;
let tokenKubeconfig = '';
let controller: ControllerProcess | undefined;

const kubectl = (args: string[], input?: string): string =>
  execFileSync('kubectl', args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], env: planeEnv, maxBuffer: 64 << 20 });
const apply = (...files: string[]): string =>
  kubectl(['apply', '--server-side', '--force-conflicts', ...files.flatMap((f) => ['-f', path.join(repoDir, f)])]);

/** The names of the FlowSchema and priority level kube-apiserver classified a GET with the controller's token into. */
async function classify(apiPath: string): Promise<{ flowSchema: string; priorityLevel: string }> {
  const config = loadRestConfig({ kubeconfig: tokenKubeconfig })!;
  const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
    const req = httpsRequest(new URL(apiPath, config.server), { ca: config.ca, headers: { Authorization: `Bearer ${config.token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers));
    });
    req.on('error', reject);
    req.end();
  });
  const nameOf = (resource: string, uid: unknown): string => {
    const items = (JSON.parse(kubectl(['get', resource, '-o', 'json'])) as { items: Array<{ metadata: { name: string; uid: string } }> }).items;
    return items.find((i) => i.metadata.uid === uid)?.metadata.name ?? `no ${resource} has uid ${String(uid)}`;
  };
  return {
    flowSchema: nameOf('flowschemas.flowcontrol.apiserver.k8s.io', headers['x-kubernetes-pf-flowschema-uid']),
    priorityLevel: nameOf('prioritylevelconfigurations.flowcontrol.apiserver.k8s.io', headers['x-kubernetes-pf-prioritylevel-uid']),
  };
}

/** kube-apiserver's count of requests it dispatched for `flowSchema` at `level`. */
function dispatched(flowSchema: string, level: string): number {
  return kubectl(['get', '--raw', '/metrics']).split('\n')
    .filter((l) => l.startsWith('apiserver_flowcontrol_dispatched_requests_total{')
      && l.includes(`flow_schema="${flowSchema}"`) && l.includes(`priority_level="${level}"`))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

beforeAll(async () => {
  planeUp = true;
  execFileSync('bash', [script, 'up'], { stdio: ['ignore', 'ignore', 'inherit'], env: planeEnv });
  kubectl(['create', 'namespace', InstallNamespace]);
  kubectl(['create', 'namespace', AppNamespace]);
  apply('crds/deploymentconfig.yaml', 'crds/imagestream.yaml', 'deploy/base/rbac-controller.yaml', 'deploy/base/rbac-deployer.yaml');
  await waitFor('the DC CRD to be established', () => kubectl(['get', 'crd', 'deploymentconfigs.apps.openshift.io',
    '-o', 'jsonpath={.status.conditions[?(@.type=="Established")].status}']) === 'True');
  const token = kubectl(['create', 'token', ControllerSA, '-n', InstallNamespace, '--duration=1h']).trim();
  tokenKubeconfig = writeTokenKubeconfig(path.join(runDir, 'controller.kubeconfig'), token, planeEnv.KUBECONFIG);
}, 180_000);

afterAll(async () => {
  await controller?.stop();
  if (planeUp) execFileSync('bash', [script, 'down'], { stdio: 'ignore', env: planeEnv });
  rmSync(runDir, { recursive: true, force: true });
}, 60_000);

describe('API Priority and Fairness (e2e, a plane with APF on)', () => {
  it('the install manifest\'s FlowSchemas move the controller from workload-low to workload-high, and its lease to leader-election', async () => {
    const rcs = `/api/v1/namespaces/${AppNamespace}/replicationcontrollers`;
    const lease = `/apis/coordination.k8s.io/v1/namespaces/${InstallNamespace}/leases/deploymentconfig-controller`;
    expect(await classify(rcs)).toEqual({ flowSchema: 'service-accounts', priorityLevel: 'workload-low' });

    apply('deploy/base/flowcontrol.yaml');
    await waitFor('the FlowSchemas to take effect', async () => (await classify(rcs)).flowSchema === WorkloadSchema);
    expect(await classify(rcs)).toEqual({ flowSchema: WorkloadSchema, priorityLevel: 'workload-high' });
    expect(await classify(`/apis/${Group}/${Version}/namespaces/${AppNamespace}/deploymentconfigs`)).toEqual({ flowSchema: WorkloadSchema, priorityLevel: 'workload-high' });
    expect(await classify(lease)).toEqual({ flowSchema: LeaseSchema, priorityLevel: 'leader-election' });
    // Only the leases of its own namespace: elsewhere a lease is ordinary work.
    expect(await classify(`/apis/coordination.k8s.io/v1/namespaces/${AppNamespace}/leases/x`)).toEqual({ flowSchema: WorkloadSchema, priorityLevel: 'workload-high' });
  }, 120_000);

  it('the controller\'s own traffic during a rollout is dispatched there', async () => {
    const before = dispatched(WorkloadSchema, 'workload-high');
    const lowBefore = dispatched('service-accounts', 'workload-low');
    controller = startController(AppNamespace, ['--kubeconfig', tokenKubeconfig, '--leader-elect=true',
      '--leader-election-namespace', InstallNamespace, '--default-deployer=inline'], planeEnv);
    await waitFor('the controller to lead and sync its caches', () => controller!.output().includes('Caches synced'), { timeoutMs: 60_000 });

    kubectl(['apply', '-n', AppNamespace, '-f', '-'], JSON.stringify(dcManifest({ replicas: 1 })));
    await waitFor('web-1 to complete', () => kubectl(['get', 'rc', 'web-1', '-n', AppNamespace, '--ignore-not-found',
      '-o', 'jsonpath={.metadata.annotations.openshift\\.io/deployment\\.phase}']) === 'Complete', { timeoutMs: 90_000 });

    // Its lists and watches, the RC, the scales, the phases and the DC status: all in workload-high.
    expect(dispatched(WorkloadSchema, 'workload-high') - before).toBeGreaterThanOrEqual(5);
    expect(dispatched(LeaseSchema, 'leader-election')).toBeGreaterThan(0);
    expect(dispatched('service-accounts', 'workload-low')).toBe(lowBefore);
  }, 180_000);
});
