import { describe, expect, it } from '@jest/globals';
import type { CoreV1Event } from '@kubernetes/client-node';
import { pino } from 'pino';
import { ApiError } from '../../../src/controller/errors.js';
import type { EventClient } from '../../../src/controller/ports.js';
import { KubeEventRecorder } from '../../../src/kube/events.js';

class RecordingEvents implements EventClient {
  created: Array<{ namespace: string; event: CoreV1Event }> = [];
  patched: Array<{ namespace: string; name: string; patch: unknown }> = [];
  failCreate: unknown;
  failPatch: unknown;
  async create(namespace: string, event: CoreV1Event) {
    if (this.failCreate) throw this.failCreate;
    this.created.push({ namespace, event });
  }
  async list() { return []; }
  async patch(namespace: string, name: string, patch: unknown) {
    if (this.failPatch) throw this.failPatch;
    this.patched.push({ namespace, name, patch });
  }
}

const dc = { apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: 'web', namespace: 'ns', uid: 'u1' };

function setup() {
  const client = new RecordingEvents();
  let now = new Date('2024-01-01T00:00:00Z');
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  const rec = new KubeEventRecorder({ client, component: 'deploymentconfig-controller', host: 'pod-1', log, clock: { now: () => now } });
  return { client, rec, lines, setNow: (d: string) => { now = new Date(d); } };
}

describe('KubeEventRecorder', () => {
  it('creates a core/v1 Event attached to the object', async () => {
    const { client, rec } = setup();
    rec.event(dc, 'Normal', 'DeploymentCreated', 'Created new replication controller "web-1" for version 1');
    await rec.flush();
    expect(client.created).toHaveLength(1);
    const { namespace, event } = client.created[0]!;
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

  it('aggregates an identical event within 10 minutes into a count/lastTimestamp patch', async () => {
    const { client, rec, setNow } = setup();
    rec.event(dc, 'Warning', 'FailedCreate', 'quota exceeded');
    setNow('2024-01-01T00:05:00Z');
    rec.event(dc, 'Warning', 'FailedCreate', 'quota exceeded');
    rec.event(dc, 'Warning', 'FailedCreate', 'another message');
    setNow('2024-01-01T00:16:00Z');
    rec.event(dc, 'Warning', 'FailedCreate', 'quota exceeded');
    await rec.flush();
    expect(client.created.map((c) => c.event.message)).toEqual(['quota exceeded', 'another message', 'quota exceeded']);
    expect(client.patched).toEqual([
      { namespace: 'ns', name: client.created[0]!.event.metadata?.name, patch: { count: 2, lastTimestamp: '2024-01-01T00:05:00Z' } },
    ]);
    expect(new Set(client.created.map((c) => c.event.metadata?.name)).size).toBe(3);
  });

  it('starts a new event when the aggregated one is gone', async () => {
    const { client, rec } = setup();
    rec.event(dc, 'Normal', 'R', 'm');
    await rec.flush();
    client.failPatch = new ApiError('not found', 404, 'NotFound');
    rec.event(dc, 'Normal', 'R', 'm');
    await rec.flush();
    expect(client.created).toHaveLength(2);
  });

  it('never throws: API failures are logged', async () => {
    const { client, rec, lines } = setup();
    client.failCreate = new ApiError('forbidden', 403, 'Forbidden');
    expect(() => rec.event(dc, 'Warning', 'R', 'm')).not.toThrow();
    await rec.flush();
    expect(lines.some((l) => l['msg'] === 'Failed to record event')).toBe(true);
  });
});
