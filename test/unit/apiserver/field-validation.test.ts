import { describe, it, expect } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { addWarning, decodeBody, fieldValidationOf, judgeDuplicates, MaxLocatedDuplicates } from '../../../src/apiserver/field-validation.js';
import { ApiStatusError } from '../../../src/apiserver/status.js';

/** The part of a ServerResponse the warnings use. */
function fakeResponse(headersSent = false): ServerResponse & { warnings(): string[] } {
  const headers = new Map<string, string[]>();
  return {
    headersSent,
    getHeader: (n: string) => headers.get(n),
    setHeader: (n: string, v: string[]) => { headers.set(n, v); },
    warnings: () => headers.get('warning') ?? [],
  } as unknown as ServerResponse & { warnings(): string[] };
}

const refusal = (f: () => void): { code: number; message: string } => {
  try {
    f();
  } catch (err) {
    if (err instanceof ApiStatusError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('not refused');
};

describe('a key written twice in a request body, under each field validation directive', () => {
  const json = '{"spec":{"replicas":1,"template":{"metadata":{"labels":{"a":"x","a":"y"}}},"replicas":2}}';
  const yaml = 'spec:\n  replicas: 1\n  template:\n    metadata:\n      labels: {a: x, a: z}\n  replicas: 2\n';

  it('keeps the later value, as kube-apiserver and OpenShift\'s decoders did', () => {
    expect(decodeBody(json, 'json').value).toEqual({ spec: { replicas: 2, template: { metadata: { labels: { a: 'y' } } } } });
    expect(decodeBody(yaml, 'yaml').value).toEqual({ spec: { replicas: 2, template: { metadata: { labels: { a: 'z' } } } } });
  });

  it('Warn (the default): one Warning header per key, in kube-apiserver\'s words', () => {
    const res = fakeResponse();
    judgeDuplicates(decodeBody(json, 'json'), 'object', fieldValidationOf(new URLSearchParams()), res);
    expect(res.warnings()).toEqual(['299 - "duplicate field \\"spec.template.metadata.labels.a\\""', '299 - "duplicate field \\"spec.replicas\\""']);
    const yamlRes = fakeResponse();
    judgeDuplicates(decodeBody(yaml, 'yaml'), 'apply', 'Warn', yamlRes);
    expect(yamlRes.warnings()).toEqual(['299 - "line 5: key \\"a\\" already set in map"', '299 - "line 6: key \\"replicas\\" already set in map"']);
  });

  it('Strict: refused, naming every key, with the status kube-apiserver answers for the body\'s role', () => {
    expect(refusal(() => judgeDuplicates(decodeBody(json, 'json'), 'object', 'Strict', fakeResponse()))).toEqual({
      code: 400, message: 'DeploymentConfig in version "v1" cannot be handled as a DeploymentConfig: strict decoding error: duplicate field "spec.template.metadata.labels.a", duplicate field "spec.replicas"',
    });
    expect(refusal(() => judgeDuplicates(decodeBody(yaml, 'yaml'), 'apply', 'Strict', fakeResponse()))).toEqual({
      code: 400, message: 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 5: key "a" already set in map\n  line 6: key "replicas" already set in map',
    });
    // A subresource's body is named as its own kind.
    expect(refusal(() => judgeDuplicates(decodeBody('{"latest":true,"latest":false}', 'json'), 'object', 'Strict', fakeResponse(), 'web', 'DeploymentRequest'))).toEqual({
      code: 400, message: 'DeploymentRequest in version "v1" cannot be handled as a DeploymentRequest: strict decoding error: duplicate field "latest"',
    });
    expect(refusal(() => judgeDuplicates(decodeBody(json, 'json'), 'patch', 'Strict', fakeResponse(), 'web'))).toEqual({
      code: 422, message: 'DeploymentConfig "web" is invalid: patch: Invalid value: the patched object: strict decoding error: duplicate field "spec.template.metadata.labels.a", duplicate field "spec.replicas"',
    });
  });

  it('names a JSON path as kube-apiserver does (every key after a dot, list items by index), and a path written three times once', () => {
    const body = decodeBody('{"metadata":{"labels":{"app.kubernetes.io/name":"a","app.kubernetes.io/name":"b","app.kubernetes.io/name":"c"}},"spec":{"triggers":[{"type":"x","type":"y"}]}}', 'json');
    expect(refusal(() => judgeDuplicates(body, 'object', 'Strict', fakeResponse())).message).toBe(
      'DeploymentConfig in version "v1" cannot be handled as a DeploymentConfig: strict decoding error: duplicate field "metadata.labels.app.kubernetes.io/name", duplicate field "spec.triggers[0].type"');
  });

  it('Ignore: nothing said; a body without duplicates is never judged', () => {
    const res = fakeResponse();
    judgeDuplicates(decodeBody(json, 'json'), 'object', fieldValidationOf(new URLSearchParams('fieldValidation=Ignore')), res);
    judgeDuplicates(decodeBody('{"spec":{}}', 'json'), 'object', 'Strict', res);
    expect(res.warnings()).toEqual([]);
  });

  it('locates at most a bounded number (each costs a YAML parse): a body with more is refused as undecodable, not held for seconds', () => {
    const many = (n: number) => `spec:\n${Array.from({ length: n }, (_, i) => `  k: ${i}\n`).join('')}`;
    expect(decodeBody(many(MaxLocatedDuplicates + 1), 'yaml').duplicates).toHaveLength(MaxLocatedDuplicates);
    expect(() => decodeBody(many(MaxLocatedDuplicates + 2), 'yaml')).toThrow(`more than ${MaxLocatedDuplicates} keys written twice in one mapping`);
    const manyJson = (n: number) => `{"spec":{${Array.from({ length: n }, (_, i) => `"k":${i}`).join(',')}}}`;
    expect(decodeBody(manyJson(MaxLocatedDuplicates + 1), 'json').duplicates).toHaveLength(MaxLocatedDuplicates);
    expect(() => decodeBody(manyJson(MaxLocatedDuplicates + 2), 'json')).toThrow(`more than ${MaxLocatedDuplicates} keys written twice`);
  });
});

describe('addWarning', () => {
  it('adds each distinct warning once, and none once the answer has begun', () => {
    const res = fakeResponse();
    addWarning(res, '299 - "a"');
    addWarning(res, '299 - "b"');
    addWarning(res, '299 - "a"');
    expect(res.warnings()).toEqual(['299 - "a"', '299 - "b"']);
    const sent = fakeResponse(true);
    addWarning(sent, '299 - "a"');
    expect(sent.warnings()).toEqual([]);
  });
});
