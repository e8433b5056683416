import { describe, expect, it } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { MutationCache } from '../../../src/controller/mutation-cache.js';
import { claimCandidate, indexedRcsForDc, rcIndexers } from '../../../src/deploymentconfig/rc-index.js';

const dc = { metadata: { name: 'web', namespace: 'ns', uid: 'dc-uid' }, spec: {} } as unknown as DeploymentConfig;
const rc = (name: string, rv: string, opts: { label?: string; owner?: string; namespace?: string } = {}): V1ReplicationController => ({
  metadata: {
    name, namespace: opts.namespace ?? 'ns', resourceVersion: rv,
    labels: opts.label ? { 'openshift.io/deployment-config.name': opts.label } : {},
    ownerReferences: opts.owner ? [{ apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: 'x', uid: opts.owner, controller: true }] : [],
  },
});

describe('RC index for DC claims', () => {
  it('a claim concerns RCs labelled for the DC or controlled by it, in its namespace only', () => {
    expect(claimCandidate(dc, rc('web-1', '1', { label: 'web' }))).toBe(true);
    expect(claimCandidate(dc, rc('old', '1', { label: 'other', owner: 'dc-uid' }))).toBe(true);
    expect(claimCandidate(dc, rc('x', '1', { label: 'other', owner: 'other-uid' }))).toBe(false);
    expect(claimCandidate(dc, rc('web-1', '1', { label: 'web', namespace: 'elsewhere' }))).toBe(false);
    expect(rcIndexers.dcLabel(rc('web-1', '1', { label: 'web' }))).toEqual(['ns/web']);
  });

  it('serves the union of both indexes, with our newer writes and our fresh creates', () => {
    const items = [rc('web-1', '5', { label: 'web', owner: 'dc-uid' }), rc('released', '6', { label: 'gone', owner: 'dc-uid' })];
    const informer = {
      byIndex: (index: string, value: string) => items.filter((i) => (rcIndexers as Record<string, (r: V1ReplicationController) => string[]>)[index]!(i).includes(value)),
    };
    const cache = new MutationCache<V1ReplicationController>({ get: () => undefined, list: () => [] }, { now: () => new Date(0), monotonicMs: () => 0 });
    const rcsForDc = indexedRcsForDc(informer, cache);
    expect(rcsForDc(dc).map((r) => r.metadata?.name)).toEqual(['web-1', 'released']);
    cache.mutated(rc('web-2', '9', { label: 'web' }), true);
    cache.mutated(rc('other-1', '9', { label: 'other' }), true);
    expect(rcsForDc(dc).map((r) => r.metadata?.name)).toEqual(['web-1', 'released', 'web-2']);
  });
});
