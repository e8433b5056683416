import { describe, expect, it } from '@jest/globals';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { DefaultsFieldManager, disownDefaults } from '../../../src/apiserver/resources.js';
import { ApiStatusError } from '../../../src/apiserver/status.js';

type Entry = { manager: string; operation: string; subresource?: string };

/** A storage holding one DC: JSON patches with a failing `test` op answer 422, as kube-apiserver does. */
function storageWith(dc: DeploymentConfig, between: Array<(dc: DeploymentConfig) => void> = []) {
  const calls: Array<{ method: string; ops?: Array<{ op: string; value?: unknown }> }> = [];
  let current = structuredClone(dc);
  const bump = () => { current.metadata.resourceVersion = String(Number(current.metadata.resourceVersion) + 1); };
  const json = async <T>(method: string, _path: string, opts: { rawBody?: { data: string | Buffer } } = {}) => {
    if (method === 'GET') {
      calls.push({ method });
      return { status: 200, body: structuredClone(current) as T };
    }
    const ops = JSON.parse(String(opts.rawBody!.data)) as Array<{ op: string; path: string; value?: unknown }>;
    calls.push({ method, ops });
    // Another writer gets in before each of our patches, as long as there are writers left.
    const writer = between.shift();
    if (writer) { writer(current); bump(); }
    const test = ops.find((op) => op.op === 'test');
    if (test && test.value !== current.metadata.resourceVersion) {
      throw new ApiStatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'test failed', reason: 'Invalid', code: 422 });
    }
    current = { ...current, metadata: { ...current.metadata, managedFields: ops.find((op) => op.op === 'replace')!.value as never } };
    bump();
    return { status: 200, body: structuredClone(current) as T };
  };
  return { storage: { json } as never, calls, current: () => current };
}

const applier: Entry = { manager: 'kubectl', operation: 'Apply' };
const defaults: Entry = { manager: DefaultsFieldManager, operation: 'Update' };
const controller: Entry = { manager: 'dcctl', operation: 'Update', subresource: 'status' };
const dc = (managedFields: Entry[], resourceVersion = '10'): DeploymentConfig =>
  ({ metadata: { name: 'web', namespace: 'a', resourceVersion, managedFields }, spec: {} }) as unknown as DeploymentConfig;

describe('server-side apply: the defaults end up with no owner', () => {
  it('puts back the applied managed fields when nobody wrote in between', async () => {
    const s = storageWith(dc([applier, defaults]));
    const out = await disownDefaults(s.storage, '/dc', s.current(), [applier]);
    expect(out.metadata.managedFields).toEqual([applier]);
    expect(s.calls.map((c) => c.method)).toEqual(['PATCH']);
  });

  it('when the controller writes status in between, keeps its entry and still drops the defaults manager', async () => {
    const s = storageWith(dc([applier, defaults]), [(current) => { current.metadata.managedFields = [...current.metadata.managedFields!, controller]; }]);
    const out = await disownDefaults(s.storage, '/dc', s.current(), [applier]);
    expect(out.metadata.managedFields).toEqual([applier, controller]);
    expect(out.metadata.managedFields!.some((e) => e.manager === DefaultsFieldManager)).toBe(false);
    expect(s.calls.map((c) => c.method)).toEqual(['PATCH', 'GET', 'PATCH']);
  });

  it('gives up after a bounded number of lost races, keeping the stored defaults', async () => {
    const writers = Array.from({ length: 20 }, () => (current: DeploymentConfig) => { current.metadata.labels = { n: String(Math.random()) }; });
    const s = storageWith(dc([applier, defaults]), writers);
    const out = await disownDefaults(s.storage, '/dc', s.current(), [applier]);
    expect(out.metadata.managedFields).toContainEqual(defaults);
    expect(s.calls.filter((c) => c.method === 'PATCH').length).toBe(5);
  });

  it('passes on errors other than a lost race', async () => {
    const json = async () => { throw new ApiStatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'forbidden', reason: 'Forbidden', code: 403 }); };
    await expect(disownDefaults({ json } as never, '/dc', dc([applier, defaults]), [applier])).rejects.toMatchObject({ code: 403 });
  });
});
