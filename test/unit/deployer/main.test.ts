import { describe, expect, it } from '@jest/globals';
import { deployMain } from '../../../src/deployer/main.js';

describe('deployMain (the deployer process entry point)', () => {
  it('declines what is not a plain deploy invocation, so the full CLI prints help and usage errors', async () => {
    expect(await deployMain(['--help'], {})).toBeUndefined();
    expect(await deployMain(['--deployment', 'web-1', '--bogus'], { OPENSHIFT_DEPLOYMENT_NAMESPACE: 'ns' })).toBeUndefined();
    expect(await deployMain(['extra'], { OPENSHIFT_DEPLOYMENT_NAME: 'web-1', OPENSHIFT_DEPLOYMENT_NAMESPACE: 'ns' })).toBeUndefined();
    expect(await deployMain([], {})).toBeUndefined();
  });

  it('runs the deployer for flags or the deployer pod variables, failing with exit code 1 without a cluster', async () => {
    const code = await deployMain(['-n', 'ns', '--deployment', 'web-1', '--kubeconfig', '/nonexistent/kubeconfig'], {});
    expect(code).toBe(1);
  });
});
