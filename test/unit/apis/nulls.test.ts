import { describe, expect, it } from '@jest/globals';
import { specWithoutNulls, withoutNullFields } from '../../../src/apis/nulls.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';

describe('withoutNullFields', () => {
  it('drops null fields at any depth, in objects inside lists too, and keeps null list items', () => {
    const input = {
      replicas: 1,
      strategy: { type: 'Rolling', rollingParams: null, resources: { limits: null } },
      template: { spec: { containers: [{ name: 'c', env: null, args: ['a', null], resources: {} }], volumes: null } },
    };
    expect(withoutNullFields(input)).toEqual({
      replicas: 1,
      strategy: { type: 'Rolling', resources: {} },
      template: { spec: { containers: [{ name: 'c', args: ['a', null], resources: {} }] } },
    });
  });

  it('does not touch its input, and returns the same reference when there is no null field', () => {
    const input = { a: { b: null, c: [{ d: null }] } };
    const copy = structuredClone(input);
    expect(withoutNullFields(input)).toEqual({ a: { c: [{}] } });
    expect(input).toEqual(copy);
    const clean = { a: { b: 1, c: [{ d: 'x' }, null] } };
    expect(withoutNullFields(clean)).toBe(clean);
  });

  it('leaves scalars and null itself alone', () => {
    expect(withoutNullFields(null)).toBeNull();
    expect(withoutNullFields('x')).toBe('x');
    expect(withoutNullFields([null])).toEqual([null]);
  });
});

describe('specWithoutNulls', () => {
  it('drops the null fields of the spec only, and keeps the object when there are none', () => {
    const dc = { metadata: { name: 'a', labels: null }, spec: { selector: null, replicas: 2 }, status: { details: null } } as unknown as DeploymentConfig;
    expect(specWithoutNulls(dc)).toEqual({ metadata: { name: 'a', labels: null }, spec: { replicas: 2 }, status: { details: null } });
    const clean = { metadata: { name: 'a' }, spec: { replicas: 2 } } as unknown as DeploymentConfig;
    expect(specWithoutNulls(clean)).toBe(clean);
  });
});

describe('null values in maps of strings (`labels: {tier: }`, Helm\'s `key: {{ .Values.x }}` unset)', () => {
  it('read as "", as OpenShift\'s decoder read them, wherever the DC holds a map of strings; other nulls are dropped', () => {
    const dc = {
      metadata: { name: 'a' },
      spec: {
        selector: { app: 'a', tier: null },
        strategy: { labels: { x: null }, annotations: { y: null }, rollingParams: null },
        template: {
          metadata: { labels: { app: 'a', tier: null }, annotations: { note: null } },
          spec: {
            nodeSelector: { disk: null },
            containers: [{ name: 'c', env: null, resources: { limits: { cpu: null } } }],
            volumes: [{ name: 'v', csi: { driver: 'd', volumeAttributes: { k: null } } }],
            affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 't', labelSelector: { matchLabels: { a: null } } }] } },
          },
        },
      },
    } as unknown as DeploymentConfig;
    const copy = structuredClone(dc);
    expect(specWithoutNulls(dc).spec).toEqual({
      selector: { app: 'a', tier: '' },
      strategy: { labels: { x: '' }, annotations: { y: '' } },
      template: {
        metadata: { labels: { app: 'a', tier: '' }, annotations: { note: '' } },
        spec: {
          nodeSelector: { disk: '' },
          // A null value in a map of Quantities is the zero Quantity OpenShift stored.
          containers: [{ name: 'c', resources: { limits: { cpu: '0' } } }],
          volumes: [{ name: 'v', csi: { driver: 'd', volumeAttributes: { k: '' } } }],
          affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 't', labelSelector: { matchLabels: { a: '' } } }] } },
        },
      },
    });
    expect(dc).toEqual(copy);
    const clean = { metadata: { name: 'a' }, spec: { selector: { app: 'a' }, template: { metadata: { labels: { app: 'a' } } } } } as unknown as DeploymentConfig;
    expect(specWithoutNulls(clean)).toBe(clean);
  });
});

describe('null values in maps of Quantities (`limits: {cpu: }`, Helm\'s `cpu: {{ .Values.cpu }}` unset)', () => {
  it('read as "0", as OpenShift\'s decoder read them (the zero Quantity), wherever the DC holds a map of Quantities; a null single Quantity is dropped', () => {
    const limits = () => ({ cpu: null, memory: '64Mi' });
    const dc = {
      spec: {
        strategy: { type: 'Recreate', resources: { requests: { cpu: null } } },
        template: {
          spec: {
            overhead: { memory: null },
            resources: { limits: limits() },
            initContainers: [{ name: 'i', resources: { requests: { 'example.com/gpu': null } } }],
            containers: [{ name: 'c', resources: { limits: limits(), requests: { cpu: null } } }],
            volumes: [
              { name: 'e', emptyDir: { sizeLimit: null } },
              { name: 'p', ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: null } } } } } },
            ],
          },
        },
      },
    } as unknown as DeploymentConfig;
    const copy = structuredClone(dc);
    expect(specWithoutNulls(dc).spec).toEqual({
      strategy: { type: 'Recreate', resources: { requests: { cpu: '0' } } },
      template: {
        spec: {
          overhead: { memory: '0' },
          resources: { limits: { cpu: '0', memory: '64Mi' } },
          initContainers: [{ name: 'i', resources: { requests: { 'example.com/gpu': '0' } } }],
          containers: [{ name: 'c', resources: { limits: { cpu: '0', memory: '64Mi' }, requests: { cpu: '0' } } }],
          // `sizeLimit` is a pointer in OpenShift's API: a null one is absent.
          volumes: [{ name: 'e', emptyDir: {} }, { name: 'p', ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '0' } } } } } }],
        },
      },
    });
    expect(dc).toEqual(copy);
  });
});
