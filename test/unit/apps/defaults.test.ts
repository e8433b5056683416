import { describe, expect, it } from '@jest/globals';
import type { DeploymentConfig, DeploymentStrategy, IntOrString } from '../../../src/apis/deploymentconfig.js';
import { applyDefaults } from '../../../src/apps/defaults.js';
import { makeDc } from '../deploymentconfig/fixtures.js';

const withStrategy = (strategy: DeploymentStrategy | undefined): DeploymentConfig => {
  const dc = makeDc();
  if (strategy) dc.spec.strategy = strategy;
  else delete dc.spec.strategy;
  return dc;
};

describe('applyDefaults', () => {
  it('returns a copy and leaves the input untouched', () => {
    const dc = makeDc();
    const before = JSON.stringify(dc);
    const out = applyDefaults(dc);
    expect(JSON.stringify(dc)).toBe(before);
    expect(out).not.toBe(dc);
    expect(out.spec.strategy?.type).toBe('Rolling');
  });

  it.each([
    ['absent', undefined, [{ type: 'ConfigChange' }]],
    ['null', null, [{ type: 'ConfigChange' }]],
    ['explicit []', [], []],
  ] as const)('triggers %s', (_label, triggers, expected) => {
    const dc = makeDc();
    if (triggers === undefined) delete dc.spec.triggers;
    else dc.spec.triggers = triggers === null ? null : [...triggers];
    expect(applyDefaults(dc).spec.triggers).toEqual(expected);
  });

  it('reads a null field as absent and defaults it (what OpenShift stored for a server-side apply of `rollingParams:`)', () => {
    const dc = makeDc();
    const nulls = { ...dc, spec: { ...dc.spec, selector: null, strategy: { type: 'Rolling', rollingParams: null, resources: null } } } as unknown as DeploymentConfig;
    const out = applyDefaults(nulls);
    expect(out.spec.selector).toEqual(dc.spec.template?.metadata?.labels);
    expect(out.spec.strategy).toEqual({ type: 'Rolling', activeDeadlineSeconds: 21600, rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 600, maxSurge: '25%', maxUnavailable: '25%' } });
  });

  it('defaults imageChangeParams.from kind and namespace', () => {
    const dc = makeDc({ triggers: [{ type: 'ImageChange', imageChangeParams: { containerNames: ['web'], from: { name: 'is:1' } } }] });
    expect(applyDefaults(dc).spec.triggers?.[0]?.imageChangeParams?.from).toEqual({ name: 'is:1', kind: 'ImageStreamTag', namespace: 'ns' });
  });

  it('keeps an explicit from namespace and kind', () => {
    const dc = makeDc({ triggers: [{ type: 'ImageChange', imageChangeParams: { containerNames: ['web'], from: { kind: 'ImageStreamTag', name: 'is:1', namespace: 'other' } } }] });
    expect(applyDefaults(dc).spec.triggers?.[0]?.imageChangeParams?.from.namespace).toBe('other');
  });

  it.each([
    ['empty selector copies template labels', {}, { app: 'app' }],
    ['absent selector copies template labels', undefined, { app: 'app' }],
    ['explicit selector kept', { tier: 'x' }, { tier: 'x' }],
  ])('%s', (_l, selector, expected) => {
    const dc = makeDc();
    if (selector === undefined) delete dc.spec.selector;
    else dc.spec.selector = selector;
    expect(applyDefaults(dc).spec.selector).toEqual(expected);
  });

  it('fills hook containerName only when the template has exactly one container', () => {
    const dc = withStrategy({
      type: 'Recreate',
      recreateParams: {
        pre: { failurePolicy: 'Abort', execNewPod: { command: ['x'], containerName: '' } },
        mid: { failurePolicy: 'Abort', tagImages: [{ containerName: '', to: { kind: 'ImageStreamTag', name: 'a:b' } }] },
        post: { failurePolicy: 'Abort', execNewPod: { command: ['x'], containerName: 'other' } },
      },
    });
    const out = applyDefaults(dc).spec.strategy!.recreateParams!;
    expect(out.pre?.execNewPod?.containerName).toBe('web');
    expect(out.mid?.tagImages?.[0]?.containerName).toBe('web');
    expect(out.post?.execNewPod?.containerName).toBe('other');

    dc.spec.template!.spec!.containers.push({ name: 'side', image: 'busybox' });
    expect(applyDefaults(dc).spec.strategy!.recreateParams!.pre?.execNewPod?.containerName).toBe('');
  });

  it.each<[string, DeploymentStrategy | undefined, DeploymentStrategy]>([
    ['no strategy → Rolling with full params', undefined, {
      type: 'Rolling', activeDeadlineSeconds: 21600,
      rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 600, maxSurge: '25%', maxUnavailable: '25%' },
    }],
    ['Recreate without params', { type: 'Recreate' }, { type: 'Recreate', activeDeadlineSeconds: 21600, recreateParams: { timeoutSeconds: 600 } }],
    ['Recreate keeps timeout', { type: 'Recreate', recreateParams: { timeoutSeconds: 30 } }, { type: 'Recreate', activeDeadlineSeconds: 21600, recreateParams: { timeoutSeconds: 30 } }],
    ['Custom gets only the deadline', { type: 'Custom', customParams: { image: 'x' } }, { type: 'Custom', activeDeadlineSeconds: 21600, customParams: { image: 'x' } }],
    ['explicit deadline kept', { type: 'Recreate', activeDeadlineSeconds: 60 }, { type: 'Recreate', activeDeadlineSeconds: 60, recreateParams: { timeoutSeconds: 600 } }],
  ])('%s', (_l, strategy, expected) => {
    expect(applyDefaults(withStrategy(strategy)).spec.strategy).toEqual(expected);
  });

  it.each<[IntOrString | undefined, IntOrString | undefined, IntOrString, IntOrString]>([
    [undefined, undefined, '25%', '25%'],
    [0, undefined, 0, '25%'],
    ['0%', undefined, '0%', '25%'],
    [undefined, 0, '25%', 0],
    [undefined, '0%', '25%', '0%'],
    [2, undefined, 2, 0],
    [undefined, 3, 0, 3],
    ['50%', '10%', '50%', '10%'],
  ])('maxSurge %p / maxUnavailable %p → %p / %p', (surge, unavailable, eSurge, eUnavailable) => {
    const params: Record<string, unknown> = { intervalSeconds: 5 };
    if (surge !== undefined) params.maxSurge = surge;
    if (unavailable !== undefined) params.maxUnavailable = unavailable;
    const out = applyDefaults(withStrategy({ type: 'Rolling', rollingParams: params })).spec.strategy!.rollingParams!;
    expect([out.maxSurge, out.maxUnavailable]).toEqual([eSurge, eUnavailable]);
    expect(out).toMatchObject({ intervalSeconds: 5, updatePeriodSeconds: 1, timeoutSeconds: 600 });
  });
});
