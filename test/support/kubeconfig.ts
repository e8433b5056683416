import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `<dir>/kubeconfig`, one the deployer's own client takes (a token, no plugin) for a server
 * nobody listens on, and returns its path: a run stops at its first request.
 */
export function writeUnreachableKubeconfig(dir: string): string {
  const file = path.join(dir, 'kubeconfig');
  writeFileSync(file, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'x',
    clusters: [{ name: 'c', cluster: { server: 'http://127.0.0.1:1' } }],
    users: [{ name: 'u', user: { token: 't' } }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
  }));
  return file;
}
