import { describe, expect, it } from '@jest/globals';
import type { V1Pod } from '@kubernetes/client-node';
import {
  computeFenceposts, scaleDownTarget, scaleUpTarget,
} from '../../../src/deployer/rolling-updater.js';

describe('computeFenceposts', () => {
  it.each([
    // maxSurge, maxUnavailable, desired, old → surge, unavailable, minAvailable
    ['25%', '25%', 3, 3, 1, 0, 3],
    ['25%', '25%', 10, 10, 3, 2, 8],
    [0, 1, 10, 10, 0, 1, 9],
    ['25%', '25%', 1, 1, 1, 0, 1],
    [undefined, undefined, 4, 4, 0, 1, 3],
    ['0%', '10%', 5, 5, 0, 1, 4],
    [2, '50%', 5, 5, 2, 2, 3],
  ] as const)('surge %p unavailable %p desired %p', (surge, unavailable, desired, old, eSurge, eUnavailable, eMin) => {
    expect(computeFenceposts(surge, unavailable, desired, old)).toEqual({
      desired, maxSurge: eSurge, maxUnavailable: eUnavailable, minAvailable: eMin,
    });
  });

  it('lets everything go when the new RC wants 0 replicas', () => {
    expect(computeFenceposts('25%', '25%', 0, 3)).toEqual({ desired: 0, maxSurge: 0, maxUnavailable: 3, minAvailable: 0 });
  });
});

describe('scaleUpTarget / scaleDownTarget', () => {
  const f = computeFenceposts('25%', '25%', 4, 4); // surge 1, unavailable 1, minAvailable 3

  it.each([
    // old, new → new target
    [4, 0, 1],
    [3, 1, 2],
    [4, 1, undefined], // at desired + surge already
    [0, 2, 4], // old gone: all the way
    [1, 4, undefined], // already at desired
  ])('scale up with old %p new %p', (old, neu, expected) => {
    expect(scaleUpTarget(f, old, neu)).toBe(expected);
  });

  it.each([
    // old, new, newAvailable → old target
    [4, 1, 0, 3], // unavailable budget of 1
    [4, 1, 1, 2],
    [3, 1, 0, undefined], // would drop below minAvailable
    [2, 4, 4, 0], // new fully available: old all the way down
    [0, 4, 4, undefined],
    [2, 3, 1, undefined], // new pods not ready yet
  ])('scale down with old %p new %p available %p', (old, neu, available, expected) => {
    expect(scaleDownTarget(f, old, neu, available)).toBe(expected);
  });
});
