import { describe, it, expect } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { rolloutUndo } from '../../../src/cli/rollout/undo.js';
import { applyMergePatch } from '../../../src/util/merge-patch.js';
import { ApiError } from '../../../src/controller/errors.js';
import { NS, makeDc, makeRc, template, testContext } from './fixtures.js';

const opts = { name: 'web', toRevision: 0, dryRun: false, timeoutMs: 5000 };

function setup(latest = 3): ReturnType<typeof testContext> {
  const t = testContext();
  const dc = makeDc('web', { latestVersion: latest, image: `nginx:${latest}` });
  dc.spec.template = template(`nginx:${latest}`, { app: 'web', tier: 'front' });
  t.addDc(dc);
  for (let v = 1; v <= latest; v++) t.f.rcs.put(makeRc(dc, v, 'Complete'));
  t.onDcPatch((stored) => {
    const req = JSON.parse(stored.metadata.annotations?.[Annotations.InstantiateRequest] ?? '{}') as { id: string };
    stored.status = { ...stored.status, lastInstantiateRequest: { id: req.id, outcome: 'Triggered', latestVersion: latest + 1, time: 't' } };
  });
  t.ticks.push(() => undefined);
  return t;
}

describe('rollout undo', () => {
  it('rolls back to latestVersion-1 with one merge patch: template diff, resourceVersion, forced request', async () => {
    const t = setup(3);
    const before = t.f.dcs.get(NS, 'web')!;
    expect(await rolloutUndo(t.ctx, opts)).toBe(0);
    expect(t.writes('deploymentconfigs')).toHaveLength(1);
    const action = t.writes('deploymentconfigs')[0];
    expect(action?.patchType).toBe('merge');
    expect(action?.body).toEqual({
      metadata: { annotations: { [Annotations.InstantiateRequest]: '{"id":"req-1","latest":false,"force":true}' }, resourceVersion: '7' },
      spec: { template: { metadata: { labels: { tier: null } }, spec: { containers: [{ name: 'web', image: 'nginx:2', ports: [{ containerPort: 8080, protocol: 'TCP' }] }] } } },
    });
    // Applying the patch yields exactly revision 2's template (the extra label is removed, not merged).
    const after = applyMergePatch(before, action?.body) as DeploymentConfig;
    expect(after.spec.template).toEqual(template('nginx:2'));
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rolled back\n');
  });

  it('rolls back to --to-revision', async () => {
    const t = setup(3);
    await rolloutUndo(t.ctx, { ...opts, toRevision: 1 });
    expect(t.f.dcs.get(NS, 'web')?.spec.template?.spec?.containers[0]?.image).toBe('nginx:1');
  });

  it('switches automatic image triggers off and prints oc\'s warning', async () => {
    const t = setup(2);
    t.f.dcs.mutate(NS, 'web', (stored) => {
      stored.spec.triggers = [{ type: 'ConfigChange' }, { type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['web'], from: { kind: 'ImageStreamTag', name: 'web:latest' } } }];
    });
    await rolloutUndo(t.ctx, opts);
    const triggers = t.f.dcs.get(NS, 'web')?.spec.triggers;
    expect(triggers?.[1]?.imageChangeParams?.automatic).toBe(false);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web rolled back\n'
      + 'Warning: the following images triggers were disabled: web:latest\n'
      + '  You can re-enable them with: oc set triggers dc/web --auto\n');
  });

  it('keeps strategy, replicas and triggers of the current DC (undo defaults)', async () => {
    const t = setup(2);
    t.f.dcs.mutate(NS, 'web', (stored) => {
      stored.spec.replicas = 9;
      stored.spec.strategy = { type: 'Recreate' };
    });
    await rolloutUndo(t.ctx, opts);
    const body = t.writes('deploymentconfigs')[0]?.body as { spec: Record<string, unknown> };
    expect(Object.keys(body.spec)).toEqual(['template']);
  });

  it.each([
    [0, 0, 'cannot rollback an undeployed config'],
    [1, 0, 'no previous deployment exists for "ns1/web"'],
    [3, 3, 'version 3 is already the latest'],
  ])('latestVersion %i, --to-revision %i is refused: %s', async (latest, to, reason) => {
    const t = testContext();
    t.addDc(makeDc('web', { latestVersion: latest }));
    await expect(rolloutUndo(t.ctx, { ...opts, toRevision: to })).rejects.toThrow(
      `The DeploymentConfigRollback "web" is invalid: name: Invalid value: "web": ${reason}`);
    expect(t.writes('deploymentconfigs')).toEqual([]);
  });

  it('refuses when the target RC was pruned', async () => {
    const t = setup(3);
    t.f.rcs.remove(NS, 'web-2');
    await expect(rolloutUndo(t.ctx, opts)).rejects.toThrow('name: Invalid value: "web": replicationcontrollers "web-2" not found');
  });

  it('refuses when the target RC has no encoded config', async () => {
    const t = setup(3);
    t.f.rcs.mutate(NS, 'web-2', (rc) => { delete rc.metadata!.annotations![Annotations.EncodedConfig]; });
    await expect(rolloutUndo(t.ctx, opts)).rejects.toThrow('couldn\'t decode deployment config from deployment: object ns1/web-2 does not have encoded deployment config annotation');
  });

  it('refuses a paused DC', async () => {
    const t = setup(3);
    t.f.dcs.mutate(NS, 'web', (dc) => { dc.spec.paused = true; });
    await expect(rolloutUndo(t.ctx, opts)).rejects.toThrow("cannot rollback a paused config; resume it first with 'rollout resume dc/web' and try again");
  });

  it('--dry-run prints the rolled-back pod template and writes nothing', async () => {
    const t = setup(3);
    await rolloutUndo(t.ctx, { ...opts, dryRun: true });
    expect(t.writes('deploymentconfigs')).toEqual([]);
    expect(t.out.text).toBe('deploymentconfig.apps.openshift.io/web\nPod Template:\n'
      + '  Labels:\tapp=web\n  Containers:\n   web:\n    Image:\tnginx:2\n    Port:\t8080/TCP\n    Host Port:\t0/TCP\n'
      + '    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n');
  });

  it('--dry-run -o yaml prints the generated DC with latestVersion+1', async () => {
    const t = setup(3);
    await rolloutUndo(t.ctx, { ...opts, dryRun: true, output: 'yaml' });
    expect(t.out.text).toContain('kind: DeploymentConfig\n');
    expect(t.out.text).toContain('image: nginx:2\n');
    expect(t.out.text).toContain('  latestVersion: 4\n');
  });

  it('recomputes from a fresh read when the patch conflicts, then gives up after 5 attempts', async () => {
    const t = setup(3);
    let raced = '';
    t.f.api.onAction((a) => { // another writer gets in before our first patch lands
      if (!raced && a.resource === 'deploymentconfigs' && a.verb === 'patch') raced = t.f.dcs.mutate(NS, 'web', () => undefined).metadata.resourceVersion!;
    });
    expect(await rolloutUndo(t.ctx, opts)).toBe(0);
    expect(t.writes('deploymentconfigs').map((a) => (a.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion)).toEqual(['7', raced]);

    const t2 = setup(3);
    t2.f.api.failOn({ verb: 'patch', resource: 'deploymentconfigs' }, new ApiError('the object has been modified', 409, 'Conflict'));
    await expect(rolloutUndo(t2.ctx, opts)).rejects.toThrow('the object has been modified');
    expect(t2.writes('deploymentconfigs')).toHaveLength(5);
  });

  it('fails when the controller rejects the rollout request', async () => {
    const t = setup(3);
    t.onDcPatch((stored) => {
      stored.status = { ...stored.status, lastInstantiateRequest: { id: 'req-1', outcome: 'Rejected', message: 'cannot deploy a paused deployment config', latestVersion: 3, time: 't' } };
    });
    await expect(rolloutUndo(t.ctx, opts)).rejects.toThrow('cannot deploy a paused deployment config');
  });
});
