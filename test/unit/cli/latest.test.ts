import { describe, it, expect } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import { ApiError } from '../../../src/controller/errors.js';
import { rolloutLatest } from '../../../src/cli/rollout/latest.js';
import { formatError } from '../../../src/cli/errors.js';
import { NS, makeDc, makeRc, testContext } from './fixtures.js';

const opts = { name: 'web', again: false, dryRun: false, timeoutMs: 5000 };

function ackOnPatch(t: ReturnType<typeof testContext>, outcome: 'Triggered' | 'NotTriggered' | 'Rejected', message?: string): void {
  t.onDcPatch((dc) => {
    const req = JSON.parse(dc.metadata.annotations?.[Annotations.InstantiateRequest] ?? '{}') as { id: string };
    const latest = (dc.status?.latestVersion ?? 0) + (outcome === 'Triggered' ? 1 : 0);
    dc.status = { ...dc.status, latestVersion: latest, lastInstantiateRequest: { id: req.id, outcome, message, latestVersion: latest, time: 'now' } };
  });
}

describe('rollout latest', () => {
  it('files a forced instantiate request by merge patch and reports "rolled out" on the ack', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 1 });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 1, 'Complete'));
    ackOnPatch(t, 'Triggered');
    t.ticks.push(() => undefined);

    expect(await rolloutLatest(t.ctx, opts)).toBe(0);
    expect(t.writes('deploymentconfigs')).toEqual([{
      verb: 'patch', resource: 'deploymentconfigs', namespace: NS, name: 'web', patchType: 'merge',
      body: { metadata: { annotations: { 'deploy.dcctl.io/instantiate': '{"id":"req-1","latest":true,"force":true}' }, resourceVersion: '7' } },
    }]);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rolled out\n');
  });

  it('sends latest=false with --again', async () => {
    const t = testContext();
    t.addDc(makeDc('web'));
    ackOnPatch(t, 'Triggered');
    t.ticks.push(() => undefined);
    await rolloutLatest(t.ctx, { ...opts, again: true });
    expect(t.writes('deploymentconfigs')[0]?.body).toEqual({ metadata: { annotations: { [Annotations.InstantiateRequest]: '{"id":"req-1","latest":false,"force":true}' }, resourceVersion: '7' } });
  });

  it('waits across ticks until the ack carries its own id', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 1 });
    dc.status = { ...dc.status, lastInstantiateRequest: { id: 'older', outcome: 'Rejected', message: 'old', latestVersion: 1, time: 't' } };
    t.addDc(dc);
    t.ticks.push(() => undefined, () => undefined, () => {
      t.f.dcs.mutate(NS, 'web', (stored) => { stored.status = { ...stored.status, latestVersion: 2, lastInstantiateRequest: { id: 'req-1', outcome: 'Triggered', latestVersion: 2, time: 't' } }; });
    });
    expect(await rolloutLatest(t.ctx, opts)).toBe(0);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rolled out\n');
  });

  it.each(['NotTriggered', 'Rejected'] as const)('fails with the controller message on %s', async (outcome) => {
    const t = testContext();
    t.addDc(makeDc('web'));
    ackOnPatch(t, outcome, 'cannot trigger a deployment for "web" because it contains unresolved images');
    t.ticks.push(() => undefined);
    await expect(rolloutLatest(t.ctx, opts)).rejects.toThrow('cannot trigger a deployment for "web" because it contains unresolved images');
  });

  it('exits 0 with a warning when the controller does not answer in time', async () => {
    const t = testContext();
    t.addDc(makeDc('web'));
    t.ticks.push(() => undefined, () => undefined);
    expect(await rolloutLatest(t.ctx, opts)).toBe(0);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rollout requested\n');
    expect(t.err.text).toContain('has not acknowledged request req-1 within 5s');
    expect(t.err.text).toContain('will be handled when the controller runs');
    expect(t.f.dcs.get(NS, 'web')?.metadata.annotations?.[Annotations.InstantiateRequest]).toContain('req-1');
  });

  it('does not wait with --timeout 0', async () => {
    const t = testContext();
    t.addDc(makeDc('web'));
    expect(await rolloutLatest(t.ctx, { ...opts, timeoutMs: 0 })).toBe(0);
    expect(t.err.text).toBe('');
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rollout requested\n');
  });

  it('refuses a paused DC without writing', async () => {
    const t = testContext();
    t.addDc(makeDc('web', { paused: true }));
    await expect(rolloutLatest(t.ctx, opts)).rejects.toThrow('cannot deploy a paused deployment config');
    expect(t.writes('deploymentconfigs')).toEqual([]);
  });

  it('refuses while the latest rollout is in progress', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 3 });
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 3, 'Running'));
    await expect(rolloutLatest(t.ctx, opts)).rejects.toThrow('#3 is already in progress (Running).');
    expect(t.writes('deploymentconfigs')).toEqual([]);
  });

  it('proceeds when the latest RC is missing (NotFound is not an error)', async () => {
    const t = testContext();
    t.addDc(makeDc('web', { latestVersion: 2 }));
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
    t.addDc(makeDc('web'));
    t.f.api.failOn({ verb: 'patch', resource: 'deploymentconfigs' }, new ApiError('deploymentconfigs.apps.openshift.io "web" is forbidden: User "bob" cannot patch resource', 403, 'Forbidden'));
    const err = await rolloutLatest(t.ctx, opts).catch((e: unknown) => e);
    expect(formatError(err)).toBe('Error from server (Forbidden): deploymentconfigs.apps.openshift.io "web" is forbidden: User "bob" cannot patch resource');
  });

  it('prints without writing on --dry-run, and the DC with -o json', async () => {
    const t = testContext();
    t.addDc(makeDc('web', { latestVersion: 1 }));
    await rolloutLatest(t.ctx, { ...opts, dryRun: true });
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rolled out (dry run)\n');
    t.out.text = '';
    await rolloutLatest(t.ctx, { ...opts, dryRun: true, output: 'json' });
    expect(JSON.parse(t.out.text)).toMatchObject({ kind: 'DeploymentConfig', metadata: { name: 'web' }, status: { latestVersion: 1 } });
    expect(t.writes('deploymentconfigs')).toEqual([]);
  });
});

/**
 * Issue 14 item 4a: parallel `rollout latest` calls overwrote each other's request in the one
 * annotation and still exited 0 ("recorded and will be handled"). A request is now never written
 * over an unacknowledged one, is written with a resourceVersion precondition, and is never
 * reported as recorded once it left the annotation unacknowledged.
 */
describe('rollout latest racing other writers', () => {
  const pendingFrom = (id: string) => JSON.stringify({ id, latest: true, force: true });

  it('waits for another client\'s pending request to be acknowledged before writing its own', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 1 });
    dc.metadata.annotations = { [Annotations.InstantiateRequest]: pendingFrom('other') };
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 1, 'Complete'));
    let acked = '';
    t.ticks.push(
      () => undefined,
      () => { // the controller acknowledges "other"; its rollout #2 completes
        const stored = t.f.dcs.mutate(NS, 'web', (d) => {
          d.status = { ...d.status, latestVersion: 2, lastInstantiateRequest: { id: 'other', outcome: 'Triggered', latestVersion: 2, time: 't' } };
        });
        acked ||= stored.metadata.resourceVersion!; // the first ack (each watch replays the ticks)
        t.f.rcs.put(makeRc(stored, 2, 'Complete'));
      },
      () => { // then ours
        t.f.dcs.mutate(NS, 'web', (d) => { d.status = { ...d.status, latestVersion: 3, lastInstantiateRequest: { id: 'req-1', outcome: 'Triggered', latestVersion: 3, time: 't' } }; });
      },
    );
    expect(await rolloutLatest(t.ctx, opts)).toBe(0);
    expect(t.writes('deploymentconfigs')).toHaveLength(1);
    expect(t.writes('deploymentconfigs')[0]?.body).toMatchObject({ metadata: { resourceVersion: acked } });
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rolled out\n');
  });

  it('reports "already in progress" when the request it waited for started a rollout that is still running', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 1 });
    dc.metadata.annotations = { [Annotations.InstantiateRequest]: pendingFrom('other') };
    t.addDc(dc);
    t.f.rcs.put(makeRc(dc, 1, 'Complete'));
    t.ticks.push(() => {
      t.f.dcs.mutate(NS, 'web', (d) => { d.status = { ...d.status, latestVersion: 2, lastInstantiateRequest: { id: 'other', outcome: 'Triggered', latestVersion: 2, time: 't' } }; });
    });
    await expect(rolloutLatest(t.ctx, opts)).rejects.toThrow('#2 is already in progress (New).');
    expect(t.writes('deploymentconfigs')).toEqual([]);
  });

  it('does not write over a pending request that is never acknowledged, and says so', async () => {
    const t = testContext();
    const dc = makeDc('web', { latestVersion: 1 });
    dc.metadata.annotations = { [Annotations.InstantiateRequest]: pendingFrom('other') };
    t.addDc(dc);
    t.ticks.push(() => undefined, () => undefined);
    await expect(rolloutLatest(t.ctx, opts)).rejects.toThrow(/request not recorded: request other \(from another client\) .* has not been handled by the controller within 5s/);
    expect(t.writes('deploymentconfigs')).toEqual([]);
  });

  it('re-reads and writes again when the DC changed between its read and its write (409)', async () => {
    const t = testContext();
    t.addDc(makeDc('web', { latestVersion: 1 }));
    let raced = '';
    t.f.api.onAction((a) => { // another writer gets in before our first patch lands
      if (!raced && a.resource === 'deploymentconfigs' && a.verb === 'patch') raced = t.f.dcs.mutate(NS, 'web', () => undefined).metadata.resourceVersion!;
    });
    ackOnPatch(t, 'Triggered');
    t.ticks.push(() => undefined);
    expect(await rolloutLatest(t.ctx, opts)).toBe(0);
    expect(t.writes('deploymentconfigs').map((a) => (a.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion)).toEqual(['7', raced]);
  });

  it('never reports a request as recorded once another writer replaced it unacknowledged', async () => {
    const t = testContext();
    t.addDc(makeDc('web', { latestVersion: 1 }));
    t.ticks.push(() => undefined, () => {
      // kubectl annotate --overwrite, which does not wait for the pending request
      t.f.dcs.mutate(NS, 'web', (d) => { d.metadata.annotations = { [Annotations.InstantiateRequest]: pendingFrom('kubectl') }; });
    }, () => undefined);
    await expect(rolloutLatest(t.ctx, opts)).rejects.toThrow(
      /request req-1 is no longer in the deploy.dcctl.io\/instantiate annotation of deploymentconfig\/web \(it now holds request kubectl\) .* NOT recorded/);
    expect(t.out.text).toBe('');
  });
});
