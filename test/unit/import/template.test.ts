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

  // bcgov TransAction's Template: an ImageStream labelled `shared: true` under template labels.
  // OpenShift's processor reads an object's labels as a map of strings (Unstructured.GetLabels),
  // which one that is not a string makes no map at all: the Template's labels replaced them.
  it('replaces all the labels of an object that has one that is not a string by the template labels, as oc process did, and says so', () => {
    const t = tpl({
      labels: { template: 'api-deploy' },
      objects: [cm({}, { name: 'a', labels: { shared: true, app: 'api' } }), cm({}, { name: 'b', labels: { app: 'api', empty: null } }), cm({}, { name: 'c', labels: 'api' })],
    });
    const r = processTemplate(t, origin, new Map(), zeros);
    expect(r.problems).toEqual([]);
    expect(r.objects.map((o) => (o.object.metadata as Record<string, unknown>)['labels'])).toEqual([
      { template: 'api-deploy' },
      { app: 'api', empty: null, template: 'api-deploy' },
      { template: 'api-deploy' },
    ]);
    expect(r.objects.map((o) => o.changes)).toEqual([
      ['metadata.labels: shared: true is not a string: as oc process did, the Template\'s labels replaced all the object\'s own labels, so it is created without app, shared'],
      undefined,
      ['metadata.labels: "api" is not a map: as oc process did, the Template\'s labels replaced it'],
    ]);
  });

  it('leaves labels that are not strings to be refused when the template has no labels', () => {
    const r = processTemplate(tpl({ objects: [cm({}, { name: 'a', labels: { shared: true } })] }), origin, new Map(), zeros);
    expect((r.objects[0]?.object.metadata as Record<string, unknown>)['labels']).toEqual({ shared: true });
    expect(r.objects[0]?.changes).toBeUndefined();
  });

  // keelson/openshift-stuff's omd template: NAME's value is `omd-${FLAVOR}`, and names read
  // `${NAME}-${FLAVOR}`. The processor (library-go EvaluateParameterSubstitution) finds the
  // references of the original string, then replaces each in turn at its first occurrence in the
  // string so far: FLAVOR's value lands where NAME's value brought a ${FLAVOR}, and the second
  // ${FLAVOR} stays. Parameter values themselves are never substituted.
  it('substitutes references one after the other at their first occurrence, as OpenShift\'s processor did, when a value holds a reference', () => {
    const t = tpl({
      parameters: [{ name: 'NAME', value: 'omd-${FLAVOR}' }, { name: 'FLAVOR', value: 'centos' }, { name: 'D', value: '$&$1' }],
      objects: [cm({ a: '${NAME}-${FLAVOR}', b: '${FLAVOR}-${NAME}', c: '${NAME}', d: 'x-${D}-${D}' })],
    });
    const r = processTemplate(t, origin, new Map(), zeros);
    expect(r.objects[0]?.object['data']).toEqual({ a: 'omd-centos-${FLAVOR}', b: 'centos-omd-${FLAVOR}', c: 'omd-${FLAVOR}', d: 'x-$&$1-$&$1' });
  });

  it('rejects invalid parameter names', () => {
    const r = processTemplate(tpl({ parameters: [{ name: 'A' }, { name: 'bad-name' }] }), origin, new Map(), zeros);
    expect(r.problems.map((p) => p.message)).toEqual(['Template "t": invalid parameter name "bad-name": use letters, digits and _']);
  });

  // OpenShift's template validation has no uniqueness rule, and real templates repeat a name
  // (openshift-ansible's gluster-s3 template declares CLUSTER_NAME twice): its processor puts the
  // declarations in a map, so the last one is substituted, while `oc process -p` sets the first.
  it('takes a parameter declared twice as oc process does: the last declaration is substituted, and says so', () => {
    const t = tpl({
      parameters: [{ name: 'USER', value: 'first', required: true }, { name: 'X', value: 'x' }, { name: 'USER', value: '' }],
      objects: [cm({ user: '${USER}', x: '${X}' })],
    });
    const r = processTemplate(t, origin, new Map(), zeros);
    expect(r.problems).toEqual([]);
    expect(r.objects[0]?.object['data']).toEqual({ user: '', x: 'x' });
    expect(r.notes).toEqual([
      't.yaml (document 1, parameters[2]): Template "t": parameter USER is declared 2 times (parameters[0], parameters[2]); as oc process did, ${USER} takes the value of the last declaration (empty)',
    ]);
  });

  // The note goes to a terminal and to CI logs: a repeated parameter is often a password, so
  // neither a generated value nor one given with --param may be printed in it.
  it('never prints the value of a repeated parameter in its note: generated or given with --param', () => {
    const t = tpl({
      parameters: [
        { name: 'DB_PASSWORD', generate: 'expression', from: '[a-z]{12}' },
        { name: 'DB_PASSWORD', generate: 'expression', from: '[A-Z]{12}' },
        { name: 'TOKEN', value: 'literal' },
        { name: 'TOKEN', value: 'template-default' },
      ],
      objects: [cm({ password: '${DB_PASSWORD}', token: '${TOKEN}' })],
    });
    const r = processTemplate(t, origin, new Map([['TOKEN', 's3cr3t-given']]), zeros);
    const generated = String((r.objects[0]?.object['data'] as Record<string, unknown>)['password']);
    expect(generated).toMatch(/^[A-Z]{12}$/);
    const notes = r.notes.join('\n');
    expect(notes).not.toContain(generated);
    expect(notes).not.toContain('s3cr3t-given');
    expect(r.notes).toEqual([
      't.yaml (document 1, parameters[1]): Template "t": parameter DB_PASSWORD is declared 2 times (parameters[0], parameters[1]); as oc process did, ${DB_PASSWORD} takes the value of the last declaration (generated from its expression, not shown)',
      't.yaml (document 1, parameters[3]): Template "t": parameter TOKEN is declared 2 times (parameters[2], parameters[3]); as oc process did, ${TOKEN} takes the value of the last declaration (its value field, not shown); the value --param TOKEN gave set only the first declaration and is not substituted',
    ]);
  });

  it('sets only the first declaration of a repeated parameter from --param, as oc process does, and names the value lost', () => {
    const t = tpl({ parameters: [{ name: 'USER', value: 'first' }, { name: 'USER', value: 'last' }], objects: [cm({ user: '${USER}' })] });
    const r = processTemplate(t, origin, new Map([['USER', 'given']]), zeros);
    expect(r.objects[0]?.object['data']).toEqual({ user: 'last' });
    expect(r.notes).toEqual([
      't.yaml (document 1, parameters[1]): Template "t": parameter USER is declared 2 times (parameters[0], parameters[1]); as oc process did, ${USER} takes the value of the last declaration (its value field, not shown); the value --param USER gave set only the first declaration and is not substituted',
    ]);
    // A later declaration that is required and empty fails, though --param named it.
    const required = tpl({ parameters: [{ name: 'USER' }, { name: 'USER', required: true }], objects: [cm({ user: '${USER}' })] });
    expect(processTemplate(required, origin, new Map([['USER', 'given']]), zeros).problems.map((p) => p.message)).toEqual([
      'Template "t": parameter USER is required and must be specified (use --param USER=VALUE; parameters[0] declares it too, and --param sets only the first declaration, as oc process does: remove the repeated declaration)',
    ]);
  });
});
