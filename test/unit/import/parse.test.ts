import { describe, it, expect } from '@jest/globals';
import { decodeDocuments } from '../../../src/import/parse.js';

describe('decodeDocuments', () => {
  it('expands typed lists, filling the kind and apiVersion the API leaves out of items', () => {
    const d = decodeDocuments('apiVersion: apps.openshift.io/v1\nkind: DeploymentConfigList\nitems:\n- metadata: {name: a}\n', 'l.yaml');
    expect(d.objects).toEqual([{ object: { apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', metadata: { name: 'a' } }, origin: { source: 'l.yaml', document: 1, path: 'items[0]' } }]);
  });

  it('keeps timestamps as strings and honours merge keys', () => {
    const d = decodeDocuments('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, creationTimestamp: 2024-01-01T00:00:00Z}\nbase: &b {x: "1"}\ndata:\n  <<: *b\n  y: "2"\n', 's');
    expect(d.objects[0]?.object).toMatchObject({ metadata: { creationTimestamp: '2024-01-01T00:00:00Z' }, data: { x: '1', y: '2' } });
  });

  it('refuses a YAML alias bomb and JSON nested past 100 levels as input problems, not an out-of-memory crash of dcctl', () => {
    let bomb = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 9; i++) bomb += `a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
    expect(decodeDocuments(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: "1"}\n---\n${bomb}`, 'b.yaml')).toEqual({
      objects: [], problems: [{ origin: { source: 'b.yaml' }, message: 'input refused: with its aliases expanded it is larger than 16777216 bytes' }],
    });
    const deep = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}\n{"x":${'['.repeat(200)}${']'.repeat(200)}}`;
    expect(decodeDocuments(deep, 'd.json').problems).toEqual([{ origin: { source: 'd.json' }, message: 'input refused: the object starting at line 2, column 1 is nested deeper than 100 levels' }]);
  });

  it('reports JSON and YAML syntax errors with their position, and duplicate keys', () => {
    expect(decodeDocuments('{"a": 1}\n{"b": }', 'x.json').problems[0]?.message).toMatch(/^cannot parse JSON: invalid JSON (at|in the object starting at) line 2, column \d+/);
    expect(decodeDocuments('{"a": 1', 'x.json').problems[0]?.message).toMatch(/unbalanced/);
    expect(decodeDocuments('a: 1\na: 2\n', 'x.yaml').problems[0]?.message).toBe('cannot parse YAML at line 2, column 1: duplicated mapping key');
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
