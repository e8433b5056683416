import { describe, it, expect } from '@jest/globals';
import { rolloutPause, rolloutResume } from '../../../src/cli/rollout/pause.js';
import { rolloutHistory } from '../../../src/cli/rollout/history.js';
import { NS, makeDc, makeRc, testContext } from './fixtures.js';

describe('rollout pause / resume', () => {
  it('pauses with a merge patch of spec.paused', async () => {
    const t = testContext();
    t.addDc(makeDc('web'));
    expect(await rolloutPause(t.ctx, { name: 'web' })).toBe(0);
    expect(t.writes('deploymentconfigs')).toEqual([{ verb: 'patch', resource: 'deploymentconfigs', namespace: NS, name: 'web', patchType: 'merge', body: { spec: { paused: true } } }]);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web paused\n');
  });

  it('refuses to pause twice and to resume an unpaused DC', async () => {
    const t = testContext();
    t.addDc(makeDc('p', { paused: true }));
    t.addDc(makeDc('r'));
    await expect(rolloutPause(t.ctx, { name: 'p' })).rejects.toThrow('deploymentconfigs.apps.openshift.io "p" is already paused');
    await expect(rolloutResume(t.ctx, { name: 'r' })).rejects.toThrow('deploymentconfigs.apps.openshift.io "r" is not paused');
    expect(t.writes('deploymentconfigs')).toEqual([]);
  });

  it('resumes', async () => {
    const t = testContext();
    t.addDc(makeDc('web', { paused: true }));
    expect(await rolloutResume(t.ctx, { name: 'web' })).toBe(0);
    expect(t.writes('deploymentconfigs')[0]?.body).toEqual({ spec: { paused: false } });
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web resumed\n');
  });
});

describe('rollout history', () => {
  function setup(): ReturnType<typeof testContext> {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 3 });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 3, 'Running', { reason: 'manual change' }));
    t.f.rcs.put(makeRc(dc, 1, 'Complete', { reason: 'config change' }));
    t.f.rcs.put(makeRc(dc, 2, 'Failed', { reason: 'cancelled by the user' }));
    t.f.rcs.put({ ...makeRc(makeDc('other'), 1, 'Complete') });
    return t;
  }

  it('prints the REVISION STATUS CAUSE table in version order, tab-aligned like oc', async () => {
    const t = setup();
    expect(await rolloutHistory(t.ctx, { name: 'web', revision: 0 })).toBe(0);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web\n'
      + 'REVISION\tSTATUS\t\tCAUSE\n'
      + '1\t\tComplete\tconfig change\n'
      + '2\t\tFailed\t\tcancelled by the user\n'
      + '3\t\tRunning\t\tmanual change\n');
  });

  it('shows <unknown> for a missing cause and a message when there is no history', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 1 });
    t.addDc(dc);
    t.addDc(makeDc('empty'));
    t.f.rcs.put(makeRc(dc, 1, 'Complete'));
    await rolloutHistory(t.ctx, { name: 'web', revision: 0 });
    expect(t.out.text).toContain('1\t\tComplete\t<unknown>\n');
    t.out.text = '';
    await rolloutHistory(t.ctx, { name: 'empty', revision: 0 });
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/empty\nNo rollout history found.\n');
  });

  it('prints the pod template of one revision', async () => {
    const t = setup();
    await rolloutHistory(t.ctx, { name: 'web', revision: 2 });
    expect(t.out.text).toMatch(/^deploymentconfig\.apps\.openshift\.io\/web with revision #2\nPod Template:\n  Labels:\tapp=web\n\tdeployment=web-2\n\tdeploymentconfig=web\n  Annotations:\topenshift.io\/deployment-config.latest-version: 2\n\topenshift.io\/deployment-config.name: web\n\topenshift.io\/deployment.name: web-2\n  Containers:\n   web:\n    Image:\tnginx:2\n/);
  });

  it('fails for an unknown revision', async () => {
    const t = setup();
    await expect(rolloutHistory(t.ctx, { name: 'web', revision: 9 })).rejects.toThrow('unable to find the specified revision');
  });

  it('prints data with -o json', async () => {
    const t = setup();
    await rolloutHistory(t.ctx, { name: 'web', revision: 0, output: 'json' });
    expect(JSON.parse(t.out.text)).toEqual([
      { revision: 1, status: 'Complete', cause: 'config change', replicationController: 'web-1' },
      { revision: 2, status: 'Failed', cause: 'cancelled by the user', replicationController: 'web-2' },
      { revision: 3, status: 'Running', cause: 'manual change', replicationController: 'web-3' },
    ]);
  });

  it('fails with NotFound for a missing DC', async () => {
    const t = testContext();
    await expect(rolloutHistory(t.ctx, { name: 'web', revision: 0 })).rejects.toThrow('deploymentconfigs.apps.openshift.io "web" not found');
  });
});
