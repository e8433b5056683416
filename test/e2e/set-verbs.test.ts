/**
 * `dcctl set image|env|triggers` against the real API server and CRD (merge patches with the
 * resourceVersion precondition), with the real controllers rolling out what they change.
 * Needs `npm run build`.
 */
import { describe, expect, it } from '@jest/globals';
import { dcManifest, useDeployerTestEnv } from '../support/dc.js';
import { dcctl, kubectl, waitFor } from '../support/kube.js';

const env = useDeployerTestEnv('set-verbs');

describe('dcctl set (e2e)', () => {
  it('set image rolls out; set env sets, removes, lists and imports a Secret; dry runs change nothing', async () => {
    const { dc, ns } = env;
    const run = (...args: string[]) => dcctl([...args, '-n', ns]);
    await dc.create(dcManifest({ replicas: 1 }));
    await dc.waitForPhase('web-1', 'Complete');

    const img = await run('set', 'image', 'dc/web', 'web=registry.local/web:2');
    expect(img).toEqual({ code: 0, stdout: 'deploymentconfig.apps.openshift.io/web image updated\n', stderr: '' });
    await dc.waitForPhase('web-2', 'Complete');
    expect((await dc.rc('web-2'))?.spec?.template?.spec?.containers[0]?.image).toBe('registry.local/web:2');
    // Unchanged: nothing written, nothing printed (as oc).
    expect(await run('set', 'image', 'dc/web', 'web=registry.local/web:2')).toEqual({ code: 0, stdout: '', stderr: '' });

    // Server dry run: the API server validates and answers with the changed object; nothing is stored.
    const dry = await run('set', 'env', 'dc/web', 'MODE=dry', '--dry-run=server', '-o', 'yaml');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('name: MODE');
    expect(dry.stdout).toContain('value: dry');
    const client = await run('set', 'env', 'dc/web', 'MODE=dry', '--dry-run');
    expect(client.stdout).toBe('deploymentconfig.apps.openshift.io/web updated (dry run)\n');
    expect((await dc.get()).spec.template?.spec?.containers[0]?.env ?? []).toEqual([]);

    kubectl(['create', 'secret', 'generic', 'db', '-n', ns, '--from-literal=password=s3cret', '--from-literal=user-name=app']);
    expect((await run('set', 'env', 'dc/web', 'A=1', 'B=2')).stdout).toBe('deploymentconfig.apps.openshift.io/web updated\n');
    expect((await run('set', 'env', 'dc/web', 'B-', '--from=secret/db', '--prefix=DB_')).code).toBe(0);
    expect((await dc.get()).spec.template?.spec?.containers[0]?.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
      { name: 'DB_USER_NAME', valueFrom: { secretKeyRef: { name: 'db', key: 'user-name' } } },
    ]);
    expect((await run('set', 'env', 'dc/web', '--list')).stdout).toBe('# deploymentconfigs/web, container web\nA=1\n'
      + '# DB_PASSWORD from secret db, key password\n# DB_USER_NAME from secret db, key user-name\n');
    const missing = await run('set', 'env', 'dc/web', '--from=configmap/nope');
    expect(missing).toMatchObject({ code: 1, stderr: 'error: configmaps "nope" not found\n' });
    // Every env change is a config change: a rollout follows with the final environment.
    await waitFor('a complete rollout with the imported Secret keys', async () => {
      const latest = (await dc.rcs()).at(-1);
      return latest?.metadata?.annotations?.['openshift.io/deployment.phase'] === 'Complete'
        && latest.spec?.template?.spec?.containers[0]?.env?.some((e) => e.name === 'DB_PASSWORD');
    }, { timeoutMs: 120_000 });
  });

  it('set triggers prints, switches to manual and back, adds and removes an image trigger', async () => {
    const { dc, ns } = env;
    const run = (...args: string[]) => dcctl([...args, '-n', ns]);
    await dc.create(dcManifest({ replicas: 1 }));
    await dc.waitForPhase('web-1', 'Complete');

    expect((await run('set', 'triggers', 'dc/web')).stdout).toBe('NAME                   TYPE    VALUE  AUTO\ndeploymentconfigs/web  config         true\n');
    expect((await run('set', 'triggers', 'dc/web', '--manual')).stdout).toBe('deploymentconfig.apps.openshift.io/web triggers updated\n');
    expect((await dc.get()).spec.triggers).toEqual([]);
    // Manual: a template change no longer rolls out.
    expect((await run('set', 'image', 'dc/web', 'web=registry.local/web:3')).code).toBe(0);
    await new Promise((r) => setTimeout(r, 3000));
    expect((await dc.get()).status?.latestVersion).toBe(1);

    expect((await run('set', 'triggers', 'dc/web', '--from-image=web:stable', '-c', 'web', '--manual')).code).toBe(0);
    expect((await run('set', 'triggers', 'dc/web', '--from-config')).code).toBe(0);
    expect((await dc.get()).spec.triggers).toEqual([
      { type: 'ConfigChange' },
      { type: 'ImageChange', imageChangeParams: { automatic: false, containerNames: ['web'], from: { kind: 'ImageStreamTag', name: 'web:stable' } } },
    ]);
    expect((await run('set', 'triggers', 'dc/web', '--from-image=web:stable', '--remove')).code).toBe(0);
    expect((await dc.get()).spec.triggers).toEqual([{ type: 'ConfigChange' }]);
    // Back on a config change trigger, the pending template change rolls out.
    await dc.waitForPhase('web-2', 'Complete');

    const bad = await run('set', 'triggers', 'dc/web', '--from-image=web:stable', '-c', 'nope');
    expect(bad).toMatchObject({ code: 1, stderr: 'error: not all container names exist: nope (accepts: web)\n' });
  });

  it('the API server refuses a merge patch whose resourceVersion is stale (what set relies on)', async () => {
    const { dc, ns } = env;
    await dc.create(dcManifest({ replicas: 1 }));
    const rv = (await dc.get()).metadata.resourceVersion;
    dc.patch({ metadata: { labels: { touched: 'yes' } } });
    expect(() => kubectl(['patch', '-n', ns, 'deploymentconfig.apps.openshift.io/web', '--type', 'merge', '-p',
      JSON.stringify({ metadata: { resourceVersion: rv }, spec: { replicas: 5 } })])).toThrow(/Conflict|the object has been modified/);
    await dc.waitForPhase('web-1', 'Complete');
  });
});
