import { describe, expect, it } from '@jest/globals';
import type { CoreV1Event } from '@kubernetes/client-node';
import { ApiError } from '../../../src/controller/errors.js';
import { KubeEventRecorder } from '../../../src/kube/events.js';
import { FakeClock } from '../../support/clock.js';
import { newFakeCluster } from '../../support/fakes.js';
import { memoryLog } from '../../support/wait.js';

const dc = { apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: 'web', namespace: 'ns', uid: 'u1' };

function setup() {
  const f = newFakeCluster();
  const client = f.eventClient;
  const clock = new FakeClock('2024-01-01T00:00:00Z');
  const { log, lines } = memoryLog();
  const rec = new KubeEventRecorder({ client, component: 'deploymentconfig-controller', host: 'pod-1', log, clock });
  /** The events created and the patches sent, as the API server accepted them. */
  const created = () => f.api.commits.filter((c) => c.action.verb === 'create').map((c) => ({ namespace: c.action.namespace, event: c.action.body as CoreV1Event }));
  const patched = () => f.api.commits.filter((c) => c.action.verb === 'patch').map(({ action: { namespace, name, body } }) => ({ namespace, name, patch: body }));
  /** Time passes until `d` (both the wall clock and elapsed time). */
  const setNow = (d: string): void => clock.advance(new Date(d).getTime() - clock.now().getTime());
  return { f, created, patched, rec, lines, setNow, clock };
}

describe('KubeEventRecorder', () => {
  it('creates a core/v1 Event attached to the object', async () => {
    const { created, rec } = setup();
    rec.event(dc, 'Normal', 'DeploymentCreated', 'Created new replication controller "web-1" for version 1');
    await rec.flush();
    expect(created()).toHaveLength(1);
    const { namespace, event } = created()[0]!;
    expect(namespace).toBe('ns');
    expect(event).toMatchObject({
      involvedObject: { kind: 'DeploymentConfig', name: 'web', namespace: 'ns', uid: 'u1', apiVersion: 'apps.openshift.io/v1' },
      reason: 'DeploymentCreated', type: 'Normal', count: 1,
      source: { component: 'deploymentconfig-controller', host: 'pod-1' },
      metadata: { namespace: 'ns' },
    });
    expect(event.metadata?.name).toMatch(/^web\.[0-9a-f]+$/);
    expect(event.firstTimestamp).toEqual(new Date('2024-01-01T00:00:00Z'));
  });

  it('gives events of two recorders for the same object in the same millisecond different names', async () => {
    const { f, created, rec, lines } = setup();
    const other = new KubeEventRecorder({ client: f.eventClient, component: 'deployer-controller', log: memoryLog().log, clock: { now: () => new Date('2024-01-01T00:00:00Z'), monotonicMs: () => 0 } });
    rec.event(dc, 'Normal', 'DeploymentCreated', 'Created new replication controller "web-1" for version 1');
    other.event(dc, 'Normal', 'ScalingReplicationController', 'Scaling web-1 to 3');
    await Promise.all([rec.flush(), other.flush()]);
    expect(created().map((c) => c.event.reason)).toEqual(['DeploymentCreated', 'ScalingReplicationController']);
    expect(lines.filter((l) => l.msg === 'Failed to record event')).toEqual([]);
  });

  it('aggregates an identical event within 10 minutes into a count/lastTimestamp patch', async () => {
    const { created, patched, rec, setNow } = setup();
    rec.event(dc, 'Warning', 'FailedCreate', 'quota exceeded');
    setNow('2024-01-01T00:05:00Z');
    rec.event(dc, 'Warning', 'FailedCreate', 'quota exceeded');
    rec.event(dc, 'Warning', 'FailedCreate', 'another message');
    setNow('2024-01-01T00:16:00Z');
    rec.event(dc, 'Warning', 'FailedCreate', 'quota exceeded');
    await rec.flush();
    expect(created().map((c) => c.event.message)).toEqual(['quota exceeded', 'another message', 'quota exceeded']);
    expect(patched()).toEqual([
      { namespace: 'ns', name: created()[0]!.event.metadata?.name, patch: { count: 2, lastTimestamp: '2024-01-01T00:05:00Z' } },
    ]);
    expect(new Set(created().map((c) => c.event.metadata?.name)).size).toBe(3);
  });

  it('measures the 10 minutes in elapsed time: a wall clock stepped back does not stretch them', async () => {
    const { created, patched, rec, clock } = setup();
    rec.event(dc, 'Warning', 'FailedCreate', 'quota exceeded');
    clock.stepWallClock(-3600_000);
    clock.advance(11 * 60_000);
    rec.event(dc, 'Warning', 'FailedCreate', 'quota exceeded');
    await rec.flush();
    expect(created().map((c) => c.event.message)).toEqual(['quota exceeded', 'quota exceeded']);
    expect(patched()).toEqual([]);
  });

  it('starts a new event when the aggregated one is gone', async () => {
    const { f, created, rec } = setup();
    rec.event(dc, 'Normal', 'R', 'm');
    await rec.flush();
    f.events.remove('ns', created()[0]!.event.metadata!.name!);
    rec.event(dc, 'Normal', 'R', 'm');
    await rec.flush();
    expect(created()).toHaveLength(2);
  });

  it('never throws: API failures are logged', async () => {
    const { f, rec, lines } = setup();
    f.api.failOn({ verb: 'create', resource: 'events' }, new ApiError('forbidden', 403, 'Forbidden'));
    expect(() => rec.event(dc, 'Warning', 'R', 'm')).not.toThrow();
    await rec.flush();
    expect(lines.some((l) => l['msg'] === 'Failed to record event')).toBe(true);
  });
});
