import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default async function globalTeardown() {
  if (!globalThis.__LOCAL_CLUSTER_STARTED__ || process.env.KEEP_LOCAL_CLUSTER === '1') return;
  execFileSync('bash', [path.join(repo, 'hack/local-cluster.sh'), 'down'], { stdio: 'inherit', env: process.env });
}
