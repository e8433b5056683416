import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfigError, loadKubeConfig } from '../../../src/kube/client.js';

const kubeconfig = (ctx: string, server: string) => `apiVersion: v1
kind: Config
clusters:
- name: c-${ctx}
  cluster: { server: "${server}", insecure-skip-tls-verify: true }
users:
- name: u-${ctx}
  user: { token: abc }
contexts:
- name: ${ctx}
  context: { cluster: c-${ctx}, user: u-${ctx}, namespace: ns-${ctx} }
current-context: ${ctx}
`;

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kc-'));
  writeFileSync(join(dir, 'one'), kubeconfig('one', 'https://one.example:6443'));
  writeFileSync(join(dir, 'two'), kubeconfig('two', 'https://two.example:6443'));
  mkdirSync(join(dir, 'home', '.kube'), { recursive: true });
  writeFileSync(join(dir, 'home', '.kube', 'config'), kubeconfig('home', 'https://home.example:6443'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadKubeConfig', () => {
  it('fails loudly instead of falling back to localhost:8080', () => {
    expect(() => loadKubeConfig({ env: {}, home: join(dir, 'nowhere') })).toThrow(KubeConfigError);
  });

  it('prefers an explicit file, then KUBECONFIG, then ~/.kube/config', () => {
    const env = { KUBECONFIG: join(dir, 'two') };
    const home = join(dir, 'home');
    expect(loadKubeConfig({ kubeconfig: join(dir, 'one'), env, home }).getCurrentCluster()?.server).toBe('https://one.example:6443');
    expect(loadKubeConfig({ env, home }).getCurrentCluster()?.server).toBe('https://two.example:6443');
    expect(loadKubeConfig({ env: {}, home }).getCurrentCluster()?.server).toBe('https://home.example:6443');
  });

  it('merges a KUBECONFIG list, keeping the first current-context, and switches context on request', () => {
    const env = { KUBECONFIG: `${join(dir, 'missing')}:${join(dir, 'one')}:${join(dir, 'two')}` };
    expect(loadKubeConfig({ env }).getCurrentContext()).toBe('one');
    expect(loadKubeConfig({ env, context: 'two' }).getCurrentCluster()?.server).toBe('https://two.example:6443');
  });

  it('rejects an unknown context and a missing file', () => {
    expect(() => loadKubeConfig({ kubeconfig: join(dir, 'one'), context: 'nope' })).toThrow(/context "nope" not found/);
    expect(() => loadKubeConfig({ kubeconfig: join(dir, 'absent') })).toThrow(KubeConfigError);
  });

  it('inCluster without a service account fails loudly', () => {
    expect(() => loadKubeConfig({ inCluster: true, env: {} })).toThrow(/not running in a cluster/);
  });
});
