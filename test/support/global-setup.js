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
    execFileSync('kubectl', ['apply', '--server-side', '--force-conflicts', '-f', path.join(crdDir, 'deploymentconfig.yaml'), '-f', path.join(crdDir, 'imagestream.yaml'), '-f', path.join(repo, 'deploy/rbac-deployer.yaml')], { stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('kubectl', ['wait', '--for=condition=Established', '--timeout=60s', 'crd', '--all'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
}
