/**
 * The front over real HTTPS with real certificates (openssl), against an in-memory storage
 * transport: authentication, authorization before any storage access, impersonated writes, and
 * the patch/update paths. The real-plane proof is test/e2e/apiserver.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { pino } from 'pino';
import type { RawRequest, RawTransport } from '../../../src/kube/raw.js';
import { startFront, type Front } from '../../../src/apiserver/server.js';

const dir = mkdtempSync(path.join(tmpdir(), 'front-http-'));
const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
function makeCerts(): void {
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=ca');
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'proxy-ca.key', '-out', 'proxy-ca.crt', '-days', '2', '-subj', '/CN=proxy-ca');
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'rogue-ca.key', '-out', 'rogue-ca.crt', '-days', '2', '-subj', '/CN=rogue');
  writeFileSync(path.join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  const leaf = (name: string, cn: string, ca: string) => {
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
    ssl('x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', '-extfile', 'client.ext');
  };
  leaf('server', 'localhost', 'ca');
  leaf('proxy', 'front-proxy-client', 'proxy-ca');
  leaf('rogue', 'front-proxy-client', 'rogue-ca');
  leaf('other-proxy', 'someone-else', 'proxy-ca');
}
const file = (n: string) => readFileSync(path.join(dir, n), 'utf8');

interface Stored { body: Record<string, any>; rv: number } // eslint-disable-line @typescript-eslint/no-explicit-any
const calls: RawRequest[] = [];
let stored: Stored;
const dcPath = '/apis/apps.dcctl.io/v1/namespaces/a/deploymentconfigs/web';

function reply(status: number, body: unknown): IncomingMessage {
  const r = Readable.from([Buffer.from(JSON.stringify(body))]) as unknown as IncomingMessage;
  Object.assign(r, { statusCode: status, headers: { 'content-type': 'application/json' } });
  return r;
}

const transport: RawTransport = {
  async request(req) {
    calls.push(req);
    const url = req.path.split('?')[0];
    if (url === '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication') {
      return reply(200, { data: {
        'client-ca-file': file('ca.crt'), 'requestheader-client-ca-file': file('proxy-ca.crt'),
        'requestheader-allowed-names': '["front-proxy-client"]', 'requestheader-username-headers': '["X-Remote-User"]',
        'requestheader-group-headers': '["X-Remote-Group"]', 'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
      } });
    }
    if (url === '/apis/authorization.k8s.io/v1/subjectaccessreviews') {
      const spec = JSON.parse(String(req.body)).spec;
      const allowed = spec.user === 'alice' || (spec.user === 'reader' && spec.resourceAttributes?.verb === 'get' && !spec.resourceAttributes?.subresource);
      return reply(201, { status: { allowed } });
    }
    if (url === dcPath && req.method === 'GET') return reply(200, { ...stored.body, metadata: { ...stored.body.metadata, resourceVersion: String(stored.rv) } });
    if (url === dcPath && req.method === 'PUT') {
      const body = JSON.parse(String(req.body));
      if (body.metadata.resourceVersion !== String(stored.rv)) return reply(409, { kind: 'Status', code: 409, reason: 'Conflict', message: 'deploymentconfigs.apps.dcctl.io "web": the object has been modified' });
      stored = { body: { ...body, status: stored.body.status }, rv: stored.rv + 1 };
      return reply(200, { ...stored.body, metadata: { ...stored.body.metadata, resourceVersion: String(stored.rv) } });
    }
    return reply(404, { kind: 'Status', code: 404, reason: 'NotFound', message: 'not found' });
  },
};

let front: Front;
let port = 0;

function call(method: string, p: string, o: { cert?: string; user?: string; groups?: string[]; body?: unknown; raw?: string; contentType?: string; accept?: string } = {}): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = { accept: o.accept ?? 'application/json' };
    if (o.user) headers['x-remote-user'] = o.user;
    if (o.groups) headers['x-remote-group'] = o.groups;
    const data = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
    if (data) { headers['content-type'] = o.contentType ?? 'application/json'; headers['content-length'] = String(Buffer.byteLength(data)); }
    const req = request({
      hostname: '127.0.0.1', port, method, path: p, headers, rejectUnauthorized: false,
      ...(o.cert ? { cert: file(`${o.cert}.crt`), key: file(`${o.cert}.key`) } : {}),
    }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

const P = '/apis/apps.openshift.io/v1/namespaces/a/deploymentconfigs/web';

describe('the front over HTTPS', () => {
  beforeAll(async () => {
    makeCerts();
    stored = { rv: 1, body: {
      apiVersion: 'apps.dcctl.io/v1', kind: 'DeploymentConfig', metadata: { name: 'web', namespace: 'a', uid: 'u1' },
      spec: { replicas: 1, selector: { app: 'web' }, triggers: [{ type: 'ConfigChange' }], strategy: { type: 'Recreate' },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'x:1', env: [{ name: 'A', value: '1' }] }] } } },
      status: { latestVersion: 2 },
    } };
    front = await startFront({ cert: file('server.crt'), key: file('server.key'), storageGroup: 'apps.dcctl.io', transport, log: pino({ level: 'silent' }) }, { port: 0, host: '127.0.0.1' });
    port = (front.server.address() as { port: number }).port;
  });
  afterAll(async () => { await front?.close(); });

  it('answers 401 without a client certificate, with a certificate of an unknown CA, or a proxy CN not allowed', async () => {
    for (const cert of [undefined, 'rogue', 'other-proxy']) {
      calls.length = 0;
      const res = await call('GET', P, { ...(cert ? { cert } : {}), user: 'alice' });
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized' });
      expect(calls.filter((c) => c.path.includes('deploymentconfigs'))).toEqual([]);
    }
  });

  it('serves the DC as apps.openshift.io/v1 to a user the front proxy vouches for', async () => {
    const res = await call('GET', P, { cert: 'proxy', user: 'alice', groups: ['dev'] });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ apiVersion: 'apps.openshift.io/v1', metadata: { uid: 'u1' } });
  });

  it('refuses a user RBAC does not allow with 403 before touching the storage', async () => {
    calls.length = 0;
    const res = await call('PATCH', P, { cert: 'proxy', user: 'reader', body: { spec: { paused: true } }, contentType: 'application/merge-patch+json' });
    expect(res.status).toBe(403);
    expect(res.json.message).toContain('User "reader" cannot patch resource "deploymentconfigs"');
    expect(calls.filter((c) => c.path.includes('deploymentconfigs'))).toEqual([]);
  });

  it('applies a strategic merge patch and writes as the impersonated user', async () => {
    calls.length = 0;
    const res = await call('PATCH', P, {
      cert: 'proxy', user: 'alice', groups: ['dev', 'system:authenticated'], contentType: 'application/strategic-merge-patch+json',
      body: { spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: '2' }] }] } } } },
    });
    expect(res.status).toBe(200);
    expect(res.json.spec.template.spec.containers[0].env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.headers).toMatchObject({ 'impersonate-user': 'alice', 'impersonate-group': ['dev', 'system:dcctl:apiserver-proxied'] });
    expect(JSON.parse(String(put.body)).apiVersion).toBe('apps.dcctl.io/v1');
  });

  it('answers an unknown patch type with 415 and kubectl\'s Table when asked', async () => {
    expect((await call('PATCH', P, { cert: 'proxy', user: 'alice', body: {}, contentType: 'application/xml' })).status).toBe(415);
    const t = await call('GET', P, { cert: 'proxy', user: 'alice', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
    expect(t.json).toMatchObject({ kind: 'Table', rows: [{ cells: ['web', 2, '1', 0, 'config'] }] });
  });

  // The front serves every user from one Node.js thread and heap: a body that makes it work or
  // allocate without bound takes the API down for everyone, so each is refused before the work.
  describe('hostile bodies from a user allowed to patch: refused with 4xx, nothing stored, the front keeps serving', () => {
    const alice = { cert: 'proxy', user: 'alice' };
    let storedBefore: string;
    beforeAll(() => { storedBefore = JSON.stringify(stored); });
    const expectUnharmed = async () => {
      expect(calls.filter((c) => c.method === 'PUT' || c.method === 'PATCH')).toEqual([]);
      expect(JSON.stringify(stored)).toBe(storedBefore);
      expect((await call('GET', P, alice)).status).toBe(200);
    };

    it('a 442-byte YAML apply body whose nine nested anchors expand to 387 million strings is a 400 naming the expansion (it ran the front out of memory)', async () => {
      let bomb = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
      for (let i = 1; i < 9; i++) bomb += `a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
      bomb += 'apiVersion: apps.openshift.io/v1\nkind: DeploymentConfig\nmetadata: {name: web}\nspec: {template: *a8}\n';
      calls.length = 0;
      const res = await call('PATCH', `${P}?fieldManager=m`, { ...alice, raw: bomb, contentType: 'application/apply-patch+yaml' });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ reason: 'BadRequest', message: expect.stringMatching(/could not be decoded: with its aliases expanded it is larger than 16777216 bytes/) });
      await expectUnharmed();
    });

    it('a JSON patch whose copies double the DC 30 times is a 422 before the copies are made (kube-apiserver bounds copies to 3 MiB)', async () => {
      const ops = Array.from({ length: 30 }, (_, i) => ({ op: 'copy', from: '/spec', path: `/spec/c${i}` }));
      calls.length = 0;
      const res = await call('PATCH', P, { ...alice, body: ops, contentType: 'application/json-patch+json' });
      expect(res.status).toBe(422);
      expect(res.json.message).toMatch(/copy operations add more than 3145728 bytes \(operation 1[0-9]\)/);
      await expectUnharmed();
    });

    it('a JSON patch of 10001 operations is a 413 with kube-apiserver\'s message', async () => {
      const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/spec/replicas', value: 1 }));
      calls.length = 0;
      const res = await call('PATCH', P, { ...alice, body: ops, contentType: 'application/json-patch+json' });
      expect(res.status).toBe(413);
      expect(res.json).toMatchObject({ reason: 'RequestEntityTooLarge', message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001' });
      await expectUnharmed();
    });

    it('a body nested 100000 levels deep is a 400 for every patch type, create and update, never a 500 from a stack overflow', async () => {
      const deep = `{"spec":{"template":${'{"a":'.repeat(100000)}1${'}'.repeat(100000)}}}`;
      const cases: [string, string, string][] = [
        ['PATCH', P, 'application/strategic-merge-patch+json'],
        ['PATCH', P, 'application/merge-patch+json'],
        ['PATCH', P, 'application/json-patch+json'],
        ['PATCH', P, 'application/apply-patch+yaml'],
        ['PUT', P, 'application/json'],
        ['POST', '/apis/apps.openshift.io/v1/namespaces/a/deploymentconfigs', 'application/json'],
      ];
      for (const [method, path, contentType] of cases) {
        calls.length = 0;
        const res = await call(method, path, { ...alice, raw: deep, contentType });
        // YAML bodies stop in js-yaml's parser, at the same depth, with its words.
        const message = contentType.endsWith('yaml') ? expect.stringMatching(/^the request body could not be decoded: nesting exceeded maxDepth \(100\)/) : 'the request body could not be decoded: nested deeper than 100 levels';
        expect([contentType, res.status, res.json.message]).toEqual([contentType, 400, message]);
        await expectUnharmed();
      }
    });

    it('a body over 3 MiB is a 413 as kube-apiserver answers it', async () => {
      calls.length = 0;
      const res = await call('PATCH', P, { ...alice, raw: JSON.stringify({ metadata: { annotations: { a: 'x'.repeat(3 << 20) } } }), contentType: 'application/merge-patch+json' });
      expect(res.status).toBe(413);
      expect(res.json).toMatchObject({ reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' });
      await expectUnharmed();
    });
  });

  it('authorizes discovery by SubjectAccessReview as well (non-resource path)', async () => {
    const res = await call('GET', '/apis/apps.openshift.io/v1', { cert: 'proxy', user: 'mallory' });
    expect(res.status).toBe(403);
    const ok = await call('GET', '/apis/apps.openshift.io/v1', { cert: 'proxy', user: 'alice' });
    expect(ok.json.resources[0]).toMatchObject({ name: 'deploymentconfigs', shortNames: ['dc'] });
  });
});
