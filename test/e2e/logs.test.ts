/**
 * `dcctl logs dc/NAME` on the real plane: the deployer and hook pods are real processes (process
 * kubelet) and their logs come back through the real pods/log API (kube-apiserver → the
 * kubelet endpoint the process kubelet serves). Needs `npm run build`.
 */
import { describe, expect, it } from '@jest/globals';
import type { DeploymentStrategy } from '../../src/apis/deploymentconfig.js';
import { dcManifest, shHook, useDeployerTestEnv } from '../support/dc.js';
import { dcctl, kubectl, waitFor } from '../support/kube.js';

const env = useDeployerTestEnv('logs');

const withHooks = (preScript: string): DeploymentStrategy => ({
  type: 'Recreate',
  recreateParams: { timeoutSeconds: 60, pre: shHook(preScript, 'Abort'), post: shHook('echo post-hook says bye', 'Ignore') },
});

describe('dcctl logs (e2e, real pods/log)', () => {
  it('prints the deployer log (with the hook output it streamed), then each hook pod log in order', async () => {
    const { dc, ns } = env;
    await dc.create(dcManifest({ replicas: 1, strategy: withHooks('echo pre-hook line 1; echo pre-hook line 2') }));
    await dc.waitForPhase('web-1', 'Complete', 90_000);

    const r = await dcctl(['logs', 'dc/web', '-n', ns]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const [deployer, ...hooks] = r.stdout.split('\n==> ');
    // The deployer read its hook's log through pods/log while the hook ran.
    expect(deployer).toContain('--> pre: Running hook pod ...');
    expect(deployer).toContain('pre-hook line 1\npre-hook line 2\n');
    expect(deployer).toContain('--> pre: Success');
    expect(hooks).toEqual([
      'web-1-hook-pre (lifecycle hook pod, Succeeded) <==\npre-hook line 1\npre-hook line 2\n',
      'web-1-hook-post (lifecycle hook pod, Succeeded) <==\npost-hook says bye\n',
    ]);

    // --tail and --timestamps apply to each log, as kubectl's do.
    const tail = await dcctl(['logs', 'dc/web', '-n', ns, '--tail', '1', '--timestamps']);
    expect(tail.code).toBe(0);
    const lines = tail.stdout.split('\n').filter((l) => l !== '' && !l.startsWith('==> '));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z /);

    // The plane serves pods/log to any client, as a real kubelet would.
    expect(kubectl(['logs', '-n', ns, 'web-1-hook-pre'])).toBe('pre-hook line 1\npre-hook line 2\n');
  });

  it('-f follows a running rollout to its end; --version picks an older one; a deleted deployer pod is explained', async () => {
    const { dc, ns } = env;
    await dc.create(dcManifest({ replicas: 1, strategy: withHooks('echo first') }));
    await dc.waitForPhase('web-1', 'Complete', 90_000);

    // A strategy change alone is no config change (§7.1): change the image with it.
    dc.patch({ spec: { strategy: withHooks('echo second-start; sleep 4; echo second-end') } });
    dc.setImage('registry.local/web:2');
    await dc.waitForLatestVersion(2);
    const followed = await dcctl(['logs', 'dc/web', '-n', ns, '-f']);
    expect({ code: followed.code, stderr: followed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(followed.stdout).toContain('second-start\nsecond-end\n');
    expect(followed.stdout).toContain('--> post: Success');
    expect((await dc.rc('web-2'))?.metadata?.annotations?.['openshift.io/deployment.phase']).toBe('Complete');

    const v1 = await dcctl(['logs', 'dc/web', '-n', ns, '--version', '1']);
    expect(v1.code).toBe(0);
    expect(v1.stdout).toContain('web-1-hook-pre (lifecycle hook pod, Succeeded) <==\nfirst\n');
    const previous = await dcctl(['logs', 'dc/web', '-n', ns, '--previous']);
    expect(previous.stdout).toBe(v1.stdout);

    await dc.deletePod('web-1-deploy', 0);
    await waitFor('web-1-deploy gone', async () => !(await dc.pods('openshift.io/deployer-pod-for.name=web-1')).some((p) => p.metadata?.name === 'web-1-deploy'));
    const gone = await dcctl(['logs', 'dc/web', '-n', ns, '--version', '1']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe('error: the deployer pod web-1-deploy of rollout #1 is gone (deleted after the rollout, by `rollout retry` or by hand); its log cannot be read\n');
    expect(gone.stdout).toContain('Rollout web-1:\n  phase: Complete\n');
    expect(gone.stdout).toMatch(/Events:\n.*REASON/);

    const none = await dcctl(['logs', 'dc/web', '-n', ns, '--version', '7']);
    expect(none.stderr).toBe('error: deploymentconfig "web" has no rollout #7 (latest is #2)\n');
  });
});
