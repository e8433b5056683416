import { describe, expect, it } from '@jest/globals';
import type { V1Pod } from '@kubernetes/client-node';
import { parseDeploymentLogOptions, podForLogging, podLogQuery, targetVersion, type DeploymentLogOptions } from '../../../src/apiserver/deploylog.js';

const parse = (q: string) => parseDeploymentLogOptions(new URLSearchParams(q));
const ok = (q: string): DeploymentLogOptions => {
  const r = parse(q);
  if (r.kind !== 'ok') throw new Error(JSON.stringify(r));
  return r.options;
};

describe('deploymentconfigs/log options (OpenShift ValidateDeploymentLogOptions)', () => {
  it('decodes what `oc logs dc/x` sends', () => {
    expect(ok('')).toEqual({ follow: false, previous: false, timestamps: false, nowait: false });
    expect(ok('follow=true&version=2&tailLines=5&limitBytes=10&sinceSeconds=3&timestamps=true&container=c&nowait=true'))
      .toEqual({ follow: true, previous: false, timestamps: true, nowait: true, version: 2, tailLines: 5, limitBytes: 10, sinceSeconds: 3, container: 'c' });
  });

  it('refuses what OpenShift refuses, naming the field', () => {
    expect(parse('version=0')).toEqual({ kind: 'invalid', causes: [{ reason: 'FieldValueInvalid', field: 'version', message: 'Invalid value: 0: deployment version must be greater than 0' }] });
    expect(parse('version=1&previous=true')).toEqual({ kind: 'invalid', causes: [{ reason: 'FieldValueInvalid', field: 'previous', message: 'Invalid value: true: cannot use previous when a version is specified' }] });
    expect(parse('tailLines=-1')).toMatchObject({ kind: 'invalid', causes: [{ field: 'tailLines' }] });
    expect(parse('limitBytes=0')).toMatchObject({ kind: 'invalid', causes: [{ field: 'limitBytes' }] });
    expect(parse('sinceSeconds=0')).toMatchObject({ kind: 'invalid', causes: [{ field: 'sinceSeconds' }] });
    expect(parse('sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z')).toMatchObject({ kind: 'invalid', causes: [{ reason: 'FieldValueForbidden' }] });
    expect(parse('tailLines=x')).toEqual({ kind: 'badRequest', message: 'tailLines: invalid value "x": not an integer' });
  });

  it('picks the rollout: latest, previous, or a version within 1..latest', () => {
    const o = ok('');
    expect(targetVersion('web', 0, o)).toEqual({ error: 'no deployment exists for deploymentConfig "web"' });
    expect(targetVersion('web', 3, o)).toEqual({ version: 3 });
    expect(targetVersion('web', 3, ok('previous=true'))).toEqual({ version: 2 });
    expect(targetVersion('web', 1, ok('previous=true'))).toEqual({ error: 'no previous deployment exists for deploymentConfig "web"' });
    expect(targetVersion('web', 3, ok('version=1'))).toEqual({ version: 1 });
    expect(targetVersion('web', 3, ok('version=4'))).toEqual({ error: 'invalid version for deploymentConfig "web": 4' });
  });

  it('passes the pod-log options on, but never `previous` (it names the previous rollout here)', () => {
    expect(podLogQuery(ok('previous=true&follow=true&tailLines=2&timestamps=true&limitBytes=9&sinceSeconds=4')).toString())
      .toBe('follow=true&sinceSeconds=4&timestamps=true&tailLines=2&limitBytes=9');
  });

  it('reads the application pod kube\'s ByLogging puts first: assigned, running, ready, restarted, oldest', () => {
    const pod = (name: string, o: { node?: string; phase?: string; ready?: boolean; restarts?: number; created: string }): V1Pod => ({
      metadata: { name, creationTimestamp: new Date(o.created) },
      spec: { containers: [], ...(o.node ? { nodeName: o.node } : {}) },
      status: { phase: o.phase ?? 'Running', conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }], containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: true, restartCount: o.restarts ?? 0 }] },
    });
    const pods = [
      pod('unassigned', { created: '2026-01-01T00:00:00Z' }),
      pod('pending', { node: 'n', phase: 'Pending', created: '2026-01-01T00:00:00Z' }),
      pod('newer', { node: 'n', created: '2026-01-02T00:00:00Z' }),
      pod('older', { node: 'n', created: '2026-01-01T00:00:01Z' }),
      pod('notready', { node: 'n', ready: false, created: '2026-01-01T00:00:00Z' }),
    ];
    expect(podForLogging(pods)?.metadata?.name).toBe('older');
    expect(podForLogging([...pods, pod('restarted', { node: 'n', restarts: 2, created: '2026-01-03T00:00:00Z' })])?.metadata?.name).toBe('restarted');
    expect(podForLogging([])).toBeUndefined();
  });
});
