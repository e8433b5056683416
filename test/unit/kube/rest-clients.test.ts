/**
 * The controller's ports on the small JSON client (src/kube/rest-clients.ts), against a local
 * HTTP server that records what arrives: the same requests client-node sent (paths, verbs,
 * fieldManager, patch Content-Types, the DC storage group) and the same error contract.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiVersion } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { isAlreadyExists, isConflict } from '../../../src/controller/errors.js';
import { RestClient } from '../../../src/kube/rest.js';
import { restControllerClients } from '../../../src/kube/rest-clients.js';

interface Seen { method: string; path: string; query: Record<string, string>; contentType?: string; userAgent?: string; body?: unknown }

let server: http.Server;
let url = '';
const seen: Seen[] = [];
/** The next answers, in order: [status, body]; by default 200 with the request's body echoed. */
const answers: Array<[number, unknown]> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '', 'http://x');
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text === '' ? undefined : JSON.parse(text) as unknown;
      seen.push({
        method: req.method ?? '', path: u.pathname, query: Object.fromEntries(u.searchParams),
        contentType: req.headers['content-type'], userAgent: req.headers['user-agent'], body,
      });
      const [status, answer] = answers.shift() ?? [200, body ?? { items: [] }];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const clients = (dcGroup?: string) =>
  restControllerClients(new RestClient({ server: url }, 'deploymentconfig-controller'), { fieldManager: 'deploymentconfig-controller', dcGroup });

describe('restControllerClients', () => {
  it('writes DC status in the storage group and returns the object as apps.openshift.io/v1', async () => {
    seen.length = 0;
    const dc = { apiVersion: ApiVersion, kind: 'DeploymentConfig', metadata: { name: 'web', namespace: 'ns', resourceVersion: '7' }, spec: {}, status: { latestVersion: 2 } } as DeploymentConfig;
    const written = await clients('apps.dcctl.io').deploymentConfigs.updateStatus(dc);
    expect(seen[0]).toMatchObject({
      method: 'PUT', path: '/apis/apps.dcctl.io/v1/namespaces/ns/deploymentconfigs/web/status',
      query: { fieldManager: 'deploymentconfig-controller' }, contentType: 'application/json', userAgent: 'deploymentconfig-controller',
      body: { apiVersion: 'apps.dcctl.io/v1', status: { latestVersion: 2 } },
    });
    expect(written.apiVersion).toBe(ApiVersion);
  });

  it('patches RCs with the patch type\'s Content-Type and creates, lists and deletes them by path', async () => {
    seen.length = 0;
    const rcs = clients().replicationControllers;
    await rcs.patch('ns', 'web-2', { spec: { replicas: 1 } }, 'merge');
    await rcs.create('ns', { metadata: { name: 'web-3' } });
    answers.push([200, { items: [{ metadata: { name: 'web-1' } }] }]);
    expect(await rcs.list('ns', 'a=b')).toEqual([{ metadata: { name: 'web-1' } }]);
    answers.push([200, { kind: 'Status', status: 'Success' }]);
    await rcs.delete('ns', 'web-1', 'Background');
    expect(seen.map((s) => `${s.method} ${s.path} ${JSON.stringify(s.query)} ${s.contentType ?? ''}`)).toEqual([
      'PATCH /api/v1/namespaces/ns/replicationcontrollers/web-2 {"fieldManager":"deploymentconfig-controller"} application/merge-patch+json',
      'POST /api/v1/namespaces/ns/replicationcontrollers {"fieldManager":"deploymentconfig-controller"} application/json',
      'GET /api/v1/namespaces/ns/replicationcontrollers {"labelSelector":"a=b"} ',
      'DELETE /api/v1/namespaces/ns/replicationcontrollers/web-1 {"propagationPolicy":"Background"} ',
    ]);
  });

  it('lists an informer\'s collection path with its selector, and creates events', async () => {
    seen.length = 0;
    const c = clients();
    answers.push([200, { metadata: { resourceVersion: '42' }, items: [] }]);
    expect(await c.list('/api/v1/pods', 'openshift.io/deployer-pod-for.name')).toEqual({ metadata: { resourceVersion: '42' }, items: [] });
    await c.events.create('ns', { metadata: { name: 'e1', namespace: 'ns' }, involvedObject: {}, reason: 'R', message: 'm', firstTimestamp: new Date('2024-01-02T03:04:05Z') });
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/api/v1/pods', query: { labelSelector: 'openshift.io/deployer-pod-for.name' } });
    expect(seen[1]).toMatchObject({ method: 'POST', path: '/api/v1/namespaces/ns/events', body: { reason: 'R', firstTimestamp: '2024-01-02T03:04:05.000Z' } });
  });

  it('lists with an informer\'s field selector too (the deployer access caches: one name per namespace)', async () => {
    seen.length = 0;
    answers.push([200, { metadata: { resourceVersion: '7' }, items: [] }]);
    await clients().list('/api/v1/serviceaccounts', undefined, 'metadata.name=deployer');
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/api/v1/serviceaccounts', query: { fieldSelector: 'metadata.name=deployer' } });
    expect(seen[0]?.query).not.toHaveProperty('labelSelector');
  });

  it('answers with ApiErrors the controllers tell apart by code and reason', async () => {
    const rcs = clients().replicationControllers;
    answers.push([409, { kind: 'Status', reason: 'AlreadyExists', message: 'replicationcontrollers "web-3" already exists', code: 409 }]);
    const exists = await rcs.create('ns', { metadata: { name: 'web-3' } }).catch((e: unknown) => e);
    expect(isAlreadyExists(exists)).toBe(true);
    answers.push([409, { kind: 'Status', reason: 'Conflict', message: 'the object has been modified', code: 409 }]);
    const conflict = await rcs.update({ metadata: { name: 'web-3', namespace: 'ns' } }).catch((e: unknown) => e);
    expect(isConflict(conflict)).toBe(true);
    expect((conflict as Error).message).toBe('the object has been modified');
  });
});
