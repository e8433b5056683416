import { describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deployMain } from '../../../src/deployer/main.js';
import type { RestConfig } from '../../../src/kube/rest.js';
import { writeUnreachableKubeconfig } from '../../support/kubeconfig.js';

const noPreparation = (_config: RestConfig): void => {};

describe('deployMain (the deployer process entry point)', () => {
  it('declines what is not a plain deploy invocation, so the full CLI prints help and usage errors', async () => {
    const prepare = jest.fn(noPreparation);
    expect(await deployMain(['--help'], {}, prepare)).toBeUndefined();
    expect(await deployMain(['--deployment', 'web-1', '--bogus'], { OPENSHIFT_DEPLOYMENT_NAMESPACE: 'ns' }, prepare)).toBeUndefined();
    expect(await deployMain(['extra'], { OPENSHIFT_DEPLOYMENT_NAME: 'web-1', OPENSHIFT_DEPLOYMENT_NAMESPACE: 'ns' }, prepare)).toBeUndefined();
    expect(await deployMain([], {}, prepare)).toBeUndefined();
    // The full CLI runs in the same process then: it keeps V8's compilers.
    expect(prepare).not.toHaveBeenCalled();
  });

  it('runs the deployer for flags or the deployer pod variables, failing with exit code 1 without a cluster', async () => {
    const code = await deployMain(['-n', 'ns', '--deployment', 'web-1', '--kubeconfig', '/nonexistent/kubeconfig'], {}, noPreparation);
    expect(code).toBe(1);
  });

  it('prepares the process with its connection settings once it takes the invocation', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deploy-main-'));
    try {
      const prepare = jest.fn(noPreparation);
      const code = await deployMain([], { KUBECONFIG: writeUnreachableKubeconfig(dir), OPENSHIFT_DEPLOYMENT_NAME: 'web-1', OPENSHIFT_DEPLOYMENT_NAMESPACE: 'ns' }, prepare);
      expect(code).toBe(1);
      expect(prepare).toHaveBeenCalledTimes(1);
      // The settings its requests use: the server's CA becomes the process's default trust store.
      expect(prepare).toHaveBeenCalledWith(expect.objectContaining({ server: 'http://127.0.0.1:1', token: 't' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
