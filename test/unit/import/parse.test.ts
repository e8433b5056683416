import { describe, it, expect } from '@jest/globals';
import { decodeDocuments } from '../../../src/import/parse.js';

describe('decodeDocuments', () => {
  it('expands typed lists, filling the kind and apiVersion the API leaves out of items', () => {
    const d = decodeDocuments('apiVersion: apps.openshift.io/v1\nkind: DeploymentConfigList\nitems:\n- metadata: {name: a}\n', 'l.yaml');
    expect(d.objects).toEqual([{ object: { apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', metadata: { name: 'a' } }, origin: { source: 'l.yaml', document: 1, path: 'items[0]' } }]);
  });

  // A List of nothing as some tools write it (`items: null`, or no items at all): Go decodes
  // either as an empty list; it was refused here as an object without a name.
  it('reads a List whose items are null or absent as an empty list', () => {
    for (const text of ['apiVersion: v1\nkind: List\nitems: null\n', 'apiVersion: v1\nkind: List\nmetadata: {}\n', '{"apiVersion":"apps.openshift.io/v1","kind":"DeploymentConfigList","items":null}']) {
      expect(decodeDocuments(text, 'l.yaml')).toMatchObject({ objects: [], problems: [] });
    }
    // A list that is not one is still refused, naming it.
    expect(decodeDocuments('apiVersion: v1\nkind: List\nitems: {a: 1}\n', 'l.yaml').problems.map((p) => p.message)).toEqual(['List: items must be a list']);
  });

  it('keeps timestamps as strings and honours merge keys', () => {
    const d = decodeDocuments('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, creationTimestamp: 2024-01-01T00:00:00Z}\nbase: &b {x: "1"}\ndata:\n  <<: *b\n  z: "2"\n', 's');
    expect(d.objects[0]?.object).toMatchObject({ metadata: { creationTimestamp: '2024-01-01T00:00:00Z' }, data: { x: '1', z: '2' } });
  });

  it('reads plain scalars as OpenShift\'s and kubectl\'s YAML reader (YAML 1.1) did: a leading zero is octal, underscores are dropped, yes/no/on/off are booleans', () => {
    const d = decodeDocuments([
      'kind: ConfigMap',
      'modes: {secret: 0400, script: 0755, plain: 420, octal: 0o644, hex: 0x1F, zero: 0, negative: -010, big: 1_000}',
      'flags: [yes, No, on, OFF, y, n, true, False]',
      'strings: ["0400", \'yes\', 08.5, 1.5e3, .inf, ~, 2024-01-01T00:00:00Z]',
      '',
    ].join('\n'), 'y.yaml');
    expect(d.objects[0]?.object).toEqual({
      kind: 'ConfigMap',
      modes: { secret: 256, script: 493, plain: 420, octal: 420, hex: 31, zero: 0, negative: -8, big: 1000 },
      flags: [true, false, true, false, true, false, true, false],
      strings: ['0400', 'yes', 8.5, 1500, Infinity, null, '2024-01-01T00:00:00Z'],
    });
  });

  it('refuses a YAML alias bomb and JSON nested past 100 levels as input problems, not an out-of-memory crash of dcctl', () => {
    let bomb = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 9; i++) bomb += `a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
    expect(decodeDocuments(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: "1"}\n---\n${bomb}`, 'b.yaml')).toEqual({
      objects: [], problems: [{ origin: { source: 'b.yaml' }, message: 'input refused: with its aliases expanded it is larger than 16777216 bytes' }], duplicateKeys: [],
    });
    // The same bomb behind a duplicate key is refused as well, before the search for duplicates
    // walks its expansion (387 million strings: 15 s, past this test's timeout).
    expect(decodeDocuments(`apiVersion: v1\nkind: ConfigMap\nkind: ConfigMap\n${bomb}`, 'b.yaml').problems).toEqual([
      { origin: { source: 'b.yaml' }, message: 'input refused: with its aliases expanded it is larger than 16777216 bytes' },
    ]);
    const deep = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}\n{"x":${'['.repeat(200)}${']'.repeat(200)}}`;
    expect(decodeDocuments(deep, 'd.json').problems).toEqual([{ origin: { source: 'd.json' }, message: 'input refused: the object starting at line 2, column 1 is nested deeper than 100 levels' }]);
  });

  it('reports JSON and YAML syntax errors with their position', () => {
    expect(decodeDocuments('{"a": 1}\n{"b": }', 'x.json').problems[0]?.message).toMatch(/^cannot parse JSON: invalid JSON (at|in the object starting at) line 2, column \d+/);
    expect(decodeDocuments('{"a": 1', 'x.json').problems[0]?.message).toMatch(/unbalanced/);
    expect(decodeDocuments('a: 1\nb: [\n', 'x.yaml').problems[0]?.message).toMatch(/^cannot parse YAML at line 3, column 1: /);
  });

  it('keeps the later value of a key written twice in one mapping, as OpenShift\'s YAML reader did, and locates every such key', () => {
    const text = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- kind: ConfigMap',
      '  metadata: {name: a, name: b}',
      '  data:',
      '    x: "1"',
      '    "x": "2"',
      '- kind: ConfigMap',
      '  metadata: {name: c}',
      '---',
      'kind: Secret',
      'metadata:',
      '  name: s',
      '  labels: {"a/b": "1", "a/b": "2"}',
      'kind: Secret',
      '',
    ].join('\n');
    const d = decodeDocuments(text, 'd.yaml');
    expect(d.problems).toEqual([]);
    expect(d.objects.map((o) => o.object)).toEqual([
      { kind: 'ConfigMap', metadata: { name: 'b' }, data: { x: '2' } },
      { kind: 'ConfigMap', metadata: { name: 'c' } },
      { kind: 'Secret', metadata: { name: 's', labels: { 'a/b': '2' } } },
    ]);
    expect(d.duplicateKeys).toEqual([
      { document: 1, path: 'items[0].metadata.name', key: 'name', line: 5, column: 23, format: 'yaml' },
      { document: 1, path: 'items[0].data.x', key: 'x', line: 8, column: 5, format: 'yaml' },
      { document: 2, path: 'metadata.labels["a/b"]', key: 'a/b', line: 15, column: 24, format: 'yaml' },
      { document: 2, path: 'kind', key: 'kind', line: 16, column: 1, format: 'yaml' },
    ]);
  });

  it('in JSON (Go\'s decoder and JSON.parse keep the later value silently), concatenated objects and lists included: each located', () => {
    const text = [
      '{"apiVersion": "v1", "kind": "List", "items": [',
      '  {"kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"x": "1", "y": "[\\"}\\"]", "x": "2"}},',
      '  {"kind": "ConfigMap", "metadata": {"name": "b", "labels": {"a/b": "1", "a/b": "2"}}, "data": {}}',
      ']}',
      '{"kind": "Secret", "metadata": {"name": "s"}, "type": "Opaque", "stringData": {"k": ["v", {"n": 1, "n": 2}]}, "type": "kubernetes.io/tls"}',
    ].join('\n');
    const d = decodeDocuments(text, 'd.json');
    expect(d.problems).toEqual([]);
    expect(d.objects.map((o) => o.object)).toEqual([
      { kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '2', y: '["}"]' } },
      { kind: 'ConfigMap', metadata: { name: 'b', labels: { 'a/b': '2' } }, data: {} },
      { kind: 'Secret', metadata: { name: 's' }, type: 'kubernetes.io/tls', stringData: { k: ['v', { n: 2 }] } },
    ]);
    expect(d.duplicateKeys).toEqual([
      { document: 1, path: 'items[0].data.x', fieldPath: 'items[0].data.x', key: 'x', line: 2, column: 87, format: 'json' },
      { document: 1, path: 'items[1].metadata.labels["a/b"]', fieldPath: 'items[1].metadata.labels.a/b', key: 'a/b', line: 3, column: 74, format: 'json' },
      { document: 2, path: 'stringData.k[1].n', fieldPath: 'stringData.k[1].n', key: 'n', line: 5, column: 100, format: 'json' },
      { document: 2, path: 'type', fieldPath: 'type', key: 'type', line: 5, column: 111, format: 'json' },
    ]);
    expect(decodeDocuments('{"kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"x": "1"}}', 'ok.json').duplicateKeys).toEqual([]);
  });

  it('refuses JSON with more than 200 duplicate keys, across its objects, instead of reporting each (a 2 MB object of one key repeated)', () => {
    const object = (n: number) => `{"kind": "ConfigMap", "metadata": {"name": "m"}, "data": {${Array.from({ length: n }, () => '"k": "v"').join(', ')}}}`;
    expect(decodeDocuments(object(201), 'm.json').duplicateKeys).toHaveLength(200);
    expect(decodeDocuments(`${object(101)}\n${object(101)}`, 'm.json').duplicateKeys).toHaveLength(200);
    expect(decodeDocuments(`${object(101)}\n${object(102)}`, 'm.json').problems[0]?.message).toMatch(/^cannot parse JSON: more than 200 keys written twice in one object \(the last at line 2, column \d+\)$/);
    const bomb = decodeDocuments(object(200_000), 'bomb.json');
    expect([bomb.objects.length, bomb.problems[0]?.message]).toEqual([0, expect.stringMatching(/^cannot parse JSON: more than 200 keys written twice/)]);
  });

  it('refuses a text with more than 200 duplicate keys instead of searching on', () => {
    const text = `kind: ConfigMap\ndata:\n${Array.from({ length: 202 }, () => '  k: v').join('\n')}\n`;
    expect(decodeDocuments(text, 'm.yaml').problems[0]?.message).toMatch(/^cannot parse YAML at line \d+, column 3: duplicated mapping key/);
    expect(decodeDocuments(`kind: ConfigMap\ndata:\n${Array.from({ length: 201 }, () => '  k: v').join('\n')}\n`, 'm.yaml').duplicateKeys).toHaveLength(200);
  });
});

describe('top-level sequences', () => {
  it('are read like the items of a List, each with its index', () => {
    const d = decodeDocuments('- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: List, items: [{apiVersion: v1, kind: Secret, metadata: {name: b}}]}\n', 'seq.yaml');
    expect(d.problems).toEqual([]);
    expect(d.objects.map((o) => [o.object.kind, o.origin.path])).toEqual([['ConfigMap', '[0]'], ['Secret', '[1].items[0]']]);
    const json = decodeDocuments('[{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}]', 'seq.json');
    expect(json.objects.map((o) => [o.object.kind, o.origin.document, o.origin.path])).toEqual([['ConfigMap', 1, '[0]']]);
  });
});
