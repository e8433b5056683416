import { describe, it, expect } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import { ApiError } from '../../../src/controller/errors.js';
import { rolloutLatest } from '../../../src/cli/rollout/latest.js';
import { formatError } from '../../../src/cli/errors.js';
import { makeDc, makeRc, testContext } from './fakes.js';

const opts = { name: 'web', again: false, dryRun: false, timeoutMs: 5000 };

function ackOnPatch(t: ReturnType<typeof testContext>, outcome: 'Triggered' | 'NotTriggered' | 'Rejected', message?: string): void {
  t.dcs.onPatch = (dc) => {
    const req = JSON.parse(dc.metadata.annotations?.[Annotations.InstantiateRequest] ?? '{}') as { id: string };
    const latest = (dc.status?.latestVersion ?? 0) + (outcome === 'Triggered' ? 1 : 0);
    dc.status = { ...dc.status, latestVersion: latest, lastInstantiateRequest: { id: req.id, outcome, message, latestVersion: latest, time: 'now' } };
  };
}

describe('rollout latest', () => {
  it('files a forced instantiate request by merge patch and reports "rolled out" on the ack', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 1 });
    t.dcs.add(dc);
    t.rcs.add(makeRc(dc, 1, 'Complete'));
    ackOnPatch(t, 'Triggered');
    t.ticks.push(() => undefined);

    expect(await rolloutLatest(t.ctx, opts)).toBe(0);
    expect(t.dcs.actions).toEqual([{
      verb: 'patch', resource: 'deploymentconfigs', name: 'web', patchType: 'merge',
      body: { metadata: { annotations: { 'deploy.dcctl.io/instantiate': '{"id":"req-1","latest":true,"force":true}' } } },
    }]);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rolled out\n');
  });

  it('sends latest=false with --again', async () => {
    const t = testContext();
    t.dcs.add(makeDc('web'));
    ackOnPatch(t, 'Triggered');
    t.ticks.push(() => undefined);
    await rolloutLatest(t.ctx, { ...opts, again: true });
    expect(t.dcs.actions[0]?.body).toEqual({ metadata: { annotations: { [Annotations.InstantiateRequest]: '{"id":"req-1","latest":false,"force":true}' } } });
  });

  it('waits across ticks until the ack carries its own id', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 1 });
    dc.status = { ...dc.status, lastInstantiateRequest: { id: 'older', outcome: 'Rejected', message: 'old', latestVersion: 1, time: 't' } };
    t.dcs.add(dc);
    t.ticks.push(() => undefined, () => undefined, () => {
      const stored = t.dcs.store.get('web');
      if (stored) stored.status = { ...stored.status, latestVersion: 2, lastInstantiateRequest: { id: 'req-1', outcome: 'Triggered', latestVersion: 2, time: 't' } };
    });
    expect(await rolloutLatest(t.ctx, opts)).toBe(0);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rolled out\n');
  });

  it.each(['NotTriggered', 'Rejected'] as const)('fails with the controller message on %s', async (outcome) => {
    const t = testContext();
    t.dcs.add(makeDc('web'));
    ackOnPatch(t, outcome, 'cannot trigger a deployment for "web" because it contains unresolved images');
    t.ticks.push(() => undefined);
    await expect(rolloutLatest(t.ctx, opts)).rejects.toThrow('cannot trigger a deployment for "web" because it contains unresolved images');
  });

  it('exits 0 with a warning when the controller does not answer in time', async () => {
    const t = testContext();
    t.dcs.add(makeDc('web'));
    t.ticks.push(() => undefined, () => undefined);
    expect(await rolloutLatest(t.ctx, opts)).toBe(0);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rollout requested\n');
    expect(t.err.text).toContain('has not acknowledged request req-1 within 5s');
    expect(t.err.text).toContain('will be handled when the controller runs');
    expect(t.dcs.store.get('web')?.metadata.annotations?.[Annotations.InstantiateRequest]).toContain('req-1');
  });

  it('does not wait with --timeout 0', async () => {
    const t = testContext();
    t.dcs.add(makeDc('web'));
    expect(await rolloutLatest(t.ctx, { ...opts, timeoutMs: 0 })).toBe(0);
    expect(t.err.text).toBe('');
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rollout requested\n');
  });

  it('refuses a paused DC without writing', async () => {
    const t = testContext();
    t.dcs.add(makeDc('web', { paused: true }));
    await expect(rolloutLatest(t.ctx, opts)).rejects.toThrow('cannot deploy a paused deployment config');
    expect(t.dcs.actions).toEqual([]);
  });

  it('refuses while the latest rollout is in progress', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 3 });
    t.dcs.add(dc);
    t.rcs.add(makeRc(dc, 3, 'Running'));
    await expect(rolloutLatest(t.ctx, opts)).rejects.toThrow('#3 is already in progress (Running).');
    expect(t.dcs.actions).toEqual([]);
  });

  it('proceeds when the latest RC is missing (NotFound is not an error)', async () => {
    const t = testContext();
    t.dcs.add(makeDc('web', { latestVersion: 2 }));
    ackOnPatch(t, 'Triggered');
    t.ticks.push(() => undefined);
    expect(await rolloutLatest(t.ctx, opts)).toBe(0);
  });

  it('reports a missing DC with the API server text', async () => {
    const t = testContext();
    const err = await rolloutLatest(t.ctx, opts).catch((e: unknown) => e);
    expect(formatError(err)).toBe('Error from server (NotFound): deploymentconfigs.apps.openshift.io "web" not found');
  });

  it('surfaces Forbidden from the patch', async () => {
    const t = testContext();
    t.dcs.add(makeDc('web'));
    t.dcs.failWith = new ApiError('deploymentconfigs.apps.openshift.io "web" is forbidden: User "bob" cannot patch resource', 403, 'Forbidden');
    const err = await rolloutLatest(t.ctx, opts).catch((e: unknown) => e);
    expect(formatError(err)).toBe('Error from server (Forbidden): deploymentconfigs.apps.openshift.io "web" is forbidden: User "bob" cannot patch resource');
  });

  it('prints without writing on --dry-run, and the DC with -o json', async () => {
    const t = testContext();
    t.dcs.add(makeDc('web', { latestVersion: 1 }));
    await rolloutLatest(t.ctx, { ...opts, dryRun: true });
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rolled out (dry run)\n');
    t.out.text = '';
    await rolloutLatest(t.ctx, { ...opts, dryRun: true, output: 'json' });
    expect(JSON.parse(t.out.text)).toMatchObject({ kind: 'DeploymentConfig', metadata: { name: 'web' }, status: { latestVersion: 1 } });
    expect(t.dcs.actions).toEqual([]);
  });
});
