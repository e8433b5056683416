import { describe, it, expect } from '@jest/globals';
import { componentFor, skeletonOf } from '../../../src/kube/openapi.js';

// The shape of GET /openapi/v3/api/v1, cut down to what import reads.
const doc = {
  components: {
    schemas: {
      'io.k8s.api.core.v1.Service': {
        'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Service' }],
        properties: {
          apiVersion: { type: 'string' },
          metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] },
          spec: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.ServiceSpec' }] },
        },
      },
      'io.k8s.api.core.v1.ServiceSpec': {
        properties: {
          clusterIP: { type: 'string' },
          selector: { type: 'object', additionalProperties: { type: 'string' } },
          ports: { type: 'array', items: { $ref: '#/components/schemas/io.k8s.api.core.v1.ServicePort' } },
        },
      },
      'io.k8s.api.core.v1.ServicePort': { properties: { port: { type: 'integer' }, targetPort: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString' } } },
      'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] },
      'io.k8s.apimachinery.pkg.util.intstr.IntOrStringV2': { type: 'string', format: 'int-or-string' },
      'io.k8s.apimachinery.pkg.api.resource.Quantity': { oneOf: [{ type: 'string' }, { type: 'number' }] },
      'io.k8s.api.core.v1.ResourceRequirements': { properties: { limits: { type: 'object', additionalProperties: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' } } } },
      'io.k8s.api.core.v1.Secret': { 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Secret' }], properties: { data: { type: 'object', additionalProperties: { type: 'string', format: 'byte' } }, stringData: { type: 'object', additionalProperties: { type: 'string' } } } },
      'io.k8s.example.Open': { properties: { policy: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { scheduled: { type: 'boolean' } } }, port: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrStringV2' } } },
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } },
      'io.k8s.apiextensions.Props': { properties: { properties: { type: 'object', additionalProperties: { $ref: '#/components/schemas/io.k8s.apiextensions.Props' } }, raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
    },
  },
};

describe('OpenAPI v3 skeletons', () => {
  it('finds the component of a kind', () => {
    expect(componentFor(doc, '', 'v1', 'Service')).toBe('io.k8s.api.core.v1.Service');
    expect(componentFor(doc, 'apps', 'v1', 'Service')).toBeUndefined();
  });

  it('follows $ref and allOf into properties, items and map values, and marks integers 1 and strings 4 (int-or-string stays 0)', () => {
    expect(skeletonOf(doc, 'io.k8s.api.core.v1.Service')).toEqual({
      p: {
        apiVersion: 4,
        metadata: { p: { name: 4, labels: { a: 4 } } },
        spec: { p: { clusterIP: 4, selector: { a: 4 }, ports: { i: { p: { port: 1, targetPort: 0 } } } } },
      },
    });
  });

  // A Quantity takes a JSON number (`cpu: 1`) as well as a string: it must not read as a string.
  it('leaves Quantities and int-or-string of either OpenAPI form 0, and keeps the typed properties of an open object', () => {
    expect(skeletonOf(doc, 'io.k8s.api.core.v1.ResourceRequirements')).toEqual({ p: { limits: { a: 0 } } });
    expect(skeletonOf(doc, 'io.k8s.example.Open')).toEqual({ p: { policy: { x: 1, p: { scheduled: 3 } }, port: 0 } });
    // A base64 field (format byte) is 5, not a plain string.
    expect(skeletonOf(doc, 'io.k8s.api.core.v1.Secret')).toEqual({ p: { data: { a: 5 }, stringData: { a: 4 } } });
  });

  it('ends recursive schemas and keeps preserve-unknown subtrees open', () => {
    const s = skeletonOf(doc, 'io.k8s.apiextensions.Props') as { p: { properties: { a: unknown }; raw: unknown } };
    expect(s.p.properties.a).toBe(s);
    expect(s.p.raw).toEqual({ x: 1 });
  });
});
