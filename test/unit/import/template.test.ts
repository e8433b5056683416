import { describe, it, expect } from '@jest/globals';
import { processTemplate } from '../../../src/import/template.js';
import type { KubeObject } from '../../../src/import/types.js';

const origin = { source: 't.yaml', document: 1, path: '' };
const zeros = () => 0;
const tpl = (extra: Partial<KubeObject>): KubeObject => ({ apiVersion: 'template.openshift.io/v1', kind: 'Template', metadata: { name: 't' }, ...extra });
const cm = (data: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'cm' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data });

describe('processTemplate (oc process semantics)', () => {
  it('uses value, then the user value (which also disables the generator), then the generator', () => {
    const t = tpl({
      parameters: [
        { name: 'A', value: 'default' },
        { name: 'B', value: 'default' },
        { name: 'C', generate: 'expression', from: '[a-c]{3}' },
        { name: 'D', generate: 'expression', from: '[a-c]{3}' },
      ],
      objects: [cm({ a: '${A}', b: '${B}', c: '${C}', d: '${D}' })],
    });
    const r = processTemplate(t, origin, new Map([['B', 'user'], ['D', 'given']]), zeros);
    expect(r.problems).toEqual([]);
    expect(r.objects[0]?.object['data']).toEqual({ a: 'default', b: 'user', c: 'aaa', d: 'given' });
  });

  it('reports a required parameter without a value, naming it', () => {
    const r = processTemplate(tpl({ parameters: [{ name: 'DOMAIN', required: true }], objects: [cm({ d: '${DOMAIN}' })] }), origin, new Map(), zeros);
    expect(r.objects).toEqual([]);
    expect(r.problems).toEqual([{ origin: { ...origin, path: 'parameters[0]' }, message: 'Template "t": parameter DOMAIN is required and must be specified (use --param DOMAIN=VALUE)' }]);
    // An empty user value does not satisfy `required` either.
    expect(processTemplate(tpl({ parameters: [{ name: 'DOMAIN', required: true }] }), origin, new Map([['DOMAIN', '']]), zeros).problems).toHaveLength(1);
  });

  it('reports unknown generators and bad expressions', () => {
    const r = processTemplate(tpl({ parameters: [{ name: 'X', generate: 'uuid' }, { name: 'Y', generate: 'expression', from: '[z-a]{2}' }] }), origin, new Map(), zeros);
    expect(r.problems.map((p) => p.message)).toEqual([
      'Template "t": unknown generator name \'uuid\' for parameter X (only "expression" exists)',
      'Template "t": cannot generate a value for parameter Y from "[z-a]{2}": invalid range specified: z-a',
    ]);
  });

  it('${{NAME}} as the whole string becomes the JSON value; elsewhere it is left alone', () => {
    const t = tpl({
      parameters: [{ name: 'N', value: '3' }, { name: 'B', value: 'true' }, { name: 'O', value: '{"cpu":"1"}' }, { name: 'W', value: 'word' }],
      objects: [{ apiVersion: 'v1', kind: 'X', metadata: { name: 'x' }, spec: { n: '${{N}}', b: '${{B}}', o: '${{O}}', w: '${{W}}', mixed: 'a-${{N}}', s: '${N}' } }],
    });
    const spec = processTemplate(t, origin, new Map(), zeros).objects[0]?.object['spec'];
    expect(spec).toEqual({ n: 3, b: true, o: { cpu: '1' }, w: 'word', mixed: 'a-${{N}}', s: '3' });
  });

  it('substitutes several references per string and map keys, and keeps unknown references', () => {
    const t = tpl({ parameters: [{ name: 'A', value: 'x' }, { name: 'B', value: 'y' }], objects: [cm({ 'key-${A}': '${A}.${B}.${UNKNOWN}' })] });
    expect(processTemplate(t, origin, new Map(), zeros).objects[0]?.object['data']).toEqual({ 'key-x': 'x.y.${UNKNOWN}' });
  });

  it('removes hard-coded namespaces but keeps (and substitutes) parameterised ones', () => {
    const t = tpl({
      parameters: [{ name: 'NS', value: 'team-a' }],
      objects: [cm({}, { name: 'one', namespace: 'myproject' }), cm({}, { name: 'two', namespace: '${NS}' })],
    });
    const r = processTemplate(t, origin, new Map(), zeros);
    expect(r.objects.map((o) => [o.object.metadata, o.keepNamespace])).toEqual([
      [{ name: 'one' }, false],
      [{ name: 'two', namespace: 'team-a' }, true],
    ]);
  });

  it('adds the substituted template labels to every object, overwriting, and substitutes message', () => {
    const t = tpl({
      message: 'Created ${NAME}.',
      labels: { app: '${NAME}', 'tmpl-${NAME}': 'yes' },
      parameters: [{ name: 'NAME', value: 'shop' }],
      objects: [cm({}, { name: 'a', labels: { app: 'old', keep: 'me' } }), cm({}, { name: 'b' })],
    });
    const r = processTemplate(t, origin, new Map(), zeros);
    expect(r.message).toBe('Created shop.');
    expect(r.objects.map((o) => (o.object.metadata as Record<string, unknown>)['labels'])).toEqual([
      { app: 'shop', keep: 'me', 'tmpl-shop': 'yes' },
      { app: 'shop', 'tmpl-shop': 'yes' },
    ]);
    expect(r.objects[1]?.origin).toEqual({ ...origin, path: 'objects[1]' });
  });

  it('rejects duplicate and invalid parameter names', () => {
    const r = processTemplate(tpl({ parameters: [{ name: 'A' }, { name: 'A' }, { name: 'bad-name' }] }), origin, new Map(), zeros);
    expect(r.problems.map((p) => p.message)).toEqual([
      'Template "t": parameter A is declared more than once',
      'Template "t": invalid parameter name "bad-name": use letters, digits and _',
    ]);
  });
});
