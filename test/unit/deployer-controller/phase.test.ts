import { describe, expect, it } from '@jest/globals';
import type { V1Pod } from '@kubernetes/client-node';
import { canTransitionPhase, nextStatus, nextStatusComp } from '../../../src/deployer-controller/phase.js';

const phases = ['New', 'Pending', 'Running', 'Complete', 'Failed'] as const;
const allowed: Record<string, string[]> = {
  New: ['Pending', 'Running', 'Failed', 'Complete'],
  Pending: ['Running', 'Failed', 'Complete'],
  Running: ['Failed', 'Complete'],
  Complete: [],
  Failed: [],
};

describe('canTransitionPhase', () => {
  const table = phases.flatMap((current) => phases.map((next) => [current, next, allowed[current]!.includes(next)] as const));
  it.each(table)('%s -> %s is %s', (current, next, expected) => {
    expect(canTransitionPhase(current, next)).toBe(expected);
  });

  it.each([
    [undefined, 'Pending'],
    ['', 'Pending'],
    ['Bogus', 'Complete'],
    ['new', 'Pending'],
    ['New', 'Bogus'],
    ['New', undefined],
  ])('refuses unknown phases: %p -> %p', (current, next) => {
    expect(canTransitionPhase(current, next)).toBe(false);
  });
});

describe('nextStatus', () => {
  it.each([
    ['Pending', 'Pending'],
    ['Running', 'Running'],
    ['Succeeded', 'Complete'],
    ['Failed', 'Failed'],
    ['Unknown', 'New'],
    [undefined, 'New'],
  ])('pod phase %p maps to %s', (podPhase, expected) => {
    const pod: V1Pod = podPhase === undefined ? {} : { status: { phase: podPhase } };
    expect(nextStatus(pod)).toBe(expected);
  });
});

describe('nextStatusComp', () => {
  it.each([
    ['Running', 'Running'],
    ['Complete', 'Complete'],
    ['Failed', 'Failed'],
    ['Pending', 'Pending'],
    ['New', 'Pending'],
  ])('adopting a pod in %s from Pending gives %s', (fromDeployer, expected) => {
    expect(nextStatusComp(fromDeployer, 'Pending')).toBe(expected);
  });
});
