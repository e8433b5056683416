// Brings up one real local control plane (hack/local-cluster.sh) for the integration and e2e
// suites, or reuses one that already runs in LOCAL_CLUSTER_DIR. Installs the CRDs. The teardown
// stops only what this setup started.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default async function globalSetup() {
  const runDir = process.env.LOCAL_CLUSTER_DIR ?? path.join(repo, '.local-cluster');
  process.env.LOCAL_CLUSTER_DIR = runDir;
  const script = path.join(repo, 'hack/local-cluster.sh');
  let running = false;
  try {
    execFileSync('bash', [script, 'status'], { stdio: 'ignore', env: process.env });
    running = true;
  } catch {
    running = false;
  }
  if (!running) {
    execFileSync('bash', [script, 'up'], { stdio: ['ignore', 'ignore', 'inherit'], env: process.env });
    globalThis.__LOCAL_CLUSTER_STARTED__ = true;
  }
  const kubeconfig = path.join(runDir, 'admin.kubeconfig');
  if (!existsSync(kubeconfig)) throw new Error(`no kubeconfig at ${kubeconfig} after hack/local-cluster.sh up`);
  process.env.KUBECONFIG = kubeconfig;
  const crdDir = path.join(repo, 'crds');
  if (existsSync(crdDir) && process.env.DCCTL_TEST_SKIP_CRDS !== '1') {
    try {
      execFileSync('kubectl', ['apply', '--server-side', '--force-conflicts',
        '-f', path.join(crdDir, 'deploymentconfig.yaml'), '-f', path.join(crdDir, 'deploymentconfig-policy.yaml'), '-f', path.join(crdDir, 'imagestream.yaml'),
        '-f', path.join(repo, 'deploy/base/rbac-deployer.yaml'), '-f', path.join(repo, 'deploy/base/image-policy.yaml'),
        // Kubernetes 1.36+ (the plane's version): fractional Quantities are stored as strings.
        '-f', path.join(crdDir, 'optional/deploymentconfig-quantities-policy.yaml')], { stdio: ['ignore', 'ignore', 'inherit'] });
      await waitForEstablished(['deploymentconfigs.apps.openshift.io', 'imagestreams.image.openshift.io']);
      await waitForPolicyInForce();
      await waitForQuantityPolicyInForce();
    } catch (err) {
      // Setup failures skip the teardown: stop what this setup started before giving up.
      if (globalThis.__LOCAL_CLUSTER_STARTED__) execFileSync('bash', [script, 'down'], { stdio: 'inherit', env: process.env });
      throw err;
    }
  }
}

/**
 * Polls until kube-apiserver enforces crds/deploymentconfig-policy.yaml (its admission plugin loads
 * policies from a watch, a moment after they are created): a server-side dry run of a DC whose
 * selector does not match its template labels must be refused by the policy.
 */
async function waitForPolicyInForce(timeoutMs = 60_000) {
  const probe = JSON.stringify({
    apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', metadata: { name: 'policy-probe', namespace: 'default' },
    spec: { selector: { app: 'a' }, template: { metadata: { labels: { app: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let refused = '';
    try {
      execFileSync('kubectl', ['create', '--dry-run=server', '-o', 'name', '-f', '-'], { input: probe, stdio: ['pipe', 'ignore', 'pipe'] });
    } catch (err) {
      refused = String(err.stderr ?? '');
    }
    if (refused.includes('ValidatingAdmissionPolicy')) return;
    if (Date.now() > deadline) throw new Error(`the DeploymentConfig admission policy is not in force after ${timeoutMs} ms${refused ? `: ${refused.trim()}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Polls until kube-apiserver applies crds/optional/deploymentconfig-quantities-policy.yaml (loaded
 * from a watch as well): a server-side dry run of a DC with `cpu: 0.5` must be accepted.
 */
async function waitForQuantityPolicyInForce(timeoutMs = 60_000) {
  const probe = JSON.stringify({
    apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', metadata: { name: 'quantity-probe', namespace: 'default' },
    spec: { selector: { app: 'a' }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: 0.5 } } }] } } },
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let refused = '';
    try {
      execFileSync('kubectl', ['create', '--dry-run=server', '-o', 'name', '-f', '-'], { input: probe, stdio: ['pipe', 'ignore', 'pipe'] });
      return;
    } catch (err) {
      refused = String(err.stderr ?? '');
    }
    if (Date.now() > deadline) throw new Error(`the DeploymentConfig Quantity policy is not in force after ${timeoutMs} ms: ${refused.trim()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Polls until every CRD reports Established. (`kubectl wait` fails at once on a CRD whose
 * status has no conditions yet, which is the state right after it is created.)
 */
async function waitForEstablished(names, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (const name of names) {
    for (;;) {
      let status = '';
      try {
        status = execFileSync('kubectl', ['get', 'crd', name, '-o', 'jsonpath={.status.conditions[?(@.type=="Established")].status}'], { encoding: 'utf8' });
      } catch { /* not visible yet */ }
      if (status.trim() === 'True') break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} not Established after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
