import { describe, it, expect } from '@jest/globals';
import { quantitiesAsOpenShiftStoredThem } from '../../../src/apis/quantities.js';

describe('quantitiesAsOpenShiftStoredThem (a DC\'s Quantities the CRD refuses and OpenShift took)', () => {
  it('rewrites each fractional number at a Quantity as its digits and names its path', () => {
    const dc = {
      spec: {
        replicas: 1.5,
        template: { spec: { containers: [
          { name: 'a', resources: { limits: { cpu: 0.5, 'example.com/gpu': 0.25 }, requests: { cpu: 1, memory: '1Gi' } } },
          { name: 'b', env: [{ name: 'X', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: 0.001 } } }] },
        ] } },
      },
    };
    expect(quantitiesAsOpenShiftStoredThem(dc)).toEqual([
      { path: 'spec.template.spec.containers[0].resources.limits["cpu"]', text: '0.5', sent: 0.5 },
      { path: 'spec.template.spec.containers[0].resources.limits["example.com/gpu"]', text: '0.25', sent: 0.25 },
      { path: 'spec.template.spec.containers[1].env[0].valueFrom.resourceFieldRef.divisor', text: '0.001', sent: 0.001 },
    ]);
    expect(dc.spec.template.spec.containers[0]!.resources).toEqual({ limits: { cpu: '0.5', 'example.com/gpu': '0.25' }, requests: { cpu: 1, memory: '1Gi' } });
    // Not a Quantity: left for the server to judge.
    expect(dc.spec.replicas).toBe(1.5);
  });

  it('leaves integers, strings, non-finite numbers and values of the wrong shape alone', () => {
    const limits = { cpu: Infinity, memory: 512, x: '0.5', y: { z: 0.5 }, w: [0.5] };
    const dc = { spec: { template: { spec: { containers: [{ resources: { limits } }, null, 'x'], volumes: { not: 'a list' } } }, strategy: 7 } };
    expect(quantitiesAsOpenShiftStoredThem(dc)).toEqual([]);
    expect(limits).toEqual({ cpu: Infinity, memory: 512, x: '0.5', y: { z: 0.5 }, w: [0.5] });
    expect(quantitiesAsOpenShiftStoredThem(null)).toEqual([]);
    expect(quantitiesAsOpenShiftStoredThem([0.5])).toEqual([]);
  });

  it('writes a null value in a map of Quantities as "0", which OpenShift stored; a null single Quantity is left to the null-field rules', () => {
    const dc = { spec: { strategy: { resources: { limits: { cpu: null } } }, template: { spec: {
      containers: [{ name: 'a', resources: { requests: { cpu: null, memory: '1Gi' } }, env: [{ name: 'X', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: null } } }] }],
      volumes: [{ name: 'v', emptyDir: { sizeLimit: null } }],
    } } } };
    expect(quantitiesAsOpenShiftStoredThem(dc)).toEqual([
      { path: 'spec.strategy.resources.limits["cpu"]', text: '0', sent: null },
      { path: 'spec.template.spec.containers[0].resources.requests["cpu"]', text: '0', sent: null },
    ]);
    expect(dc.spec.template.spec.containers[0]!.resources.requests).toEqual({ cpu: '0', memory: '1Gi' });
    expect(dc.spec.template.spec.containers[0]!.env[0]!.valueFrom.resourceFieldRef.divisor).toBeNull();
    expect(dc.spec.template.spec.volumes[0]!.emptyDir.sizeLimit).toBeNull();
  });
});
