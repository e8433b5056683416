import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../../src/controller/errors.js';
import { KubeConfigError } from '../../../src/kube/config-errors.js';
import { fromKubeconfig, loadRestConfig, RestClient, statusError } from '../../../src/kube/rest.js';

const kubeconfig = (user: Record<string, unknown>, cluster: Record<string, unknown> = {}) => ({
  'current-context': 'c',
  contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
  clusters: [{ name: 'k', cluster: { server: 'https://10.0.0.1:6443/', 'certificate-authority-data': Buffer.from('CA').toString('base64'), ...cluster } }],
  users: [{ name: 'u', user }],
});

describe('fromKubeconfig (the deployer client\'s kubeconfig reading)', () => {
  it('takes a token and the CA of the current context', () => {
    const c = fromKubeconfig(kubeconfig({ token: 't0k' }), '/dir')!;
    expect(c.server).toBe('https://10.0.0.1:6443');
    expect(c.token).toBe('t0k');
    expect(c.ca?.toString()).toBe('CA');
    expect(c.insecure).toBe(false);
  });

  it('reads client certificate files relative to the kubeconfig\'s directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rest-'));
    writeFileSync(join(dir, 'cert.pem'), 'CERT');
    writeFileSync(join(dir, 'key.pem'), 'KEY');
    const c = fromKubeconfig(kubeconfig({ 'client-certificate': 'cert.pem', 'client-key': 'key.pem' }), dir)!;
    expect(c.cert?.toString()).toBe('CERT');
    expect(c.key?.toString()).toBe('KEY');
  });

  it('answers undefined for what only client-node handles (exec plugins, proxies)', () => {
    expect(fromKubeconfig(kubeconfig({ exec: { command: 'aws' } }), '/dir')).toBeUndefined();
    expect(fromKubeconfig(kubeconfig({ 'auth-provider': { name: 'oidc' } }), '/dir')).toBeUndefined();
    expect(fromKubeconfig(kubeconfig({ token: 't' }, { 'proxy-url': 'http://proxy:3128' }), '/dir')).toBeUndefined();
  });

  it('fails as loadKubeConfig does for an unknown context or a cluster without a server', () => {
    expect(() => fromKubeconfig(kubeconfig({ token: 't' }), '/dir', 'other')).toThrow(new KubeConfigError('context "other" not found in kubeconfig'));
    expect(() => fromKubeconfig(kubeconfig({ token: 't' }, { server: '' }), '/dir')).toThrow(new KubeConfigError('context "c" has no cluster with a server URL'));
  });
});

describe('loadRestConfig', () => {
  it('names a missing kubeconfig file', () => {
    expect(() => loadRestConfig({ kubeconfig: '/nonexistent/kubeconfig' })).toThrow(new KubeConfigError('kubeconfig file /nonexistent/kubeconfig does not exist'));
  });

  it('leaves several KUBECONFIG files (merged by client-node) to client-node', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rest-'));
    for (const f of ['a', 'b']) writeFileSync(join(dir, f), JSON.stringify(kubeconfig({ token: f })));
    expect(loadRestConfig({ env: { KUBECONFIG: `${join(dir, 'a')}:${join(dir, 'b')}` } })).toBeUndefined();
    expect(loadRestConfig({ env: { KUBECONFIG: join(dir, 'a') } })?.token).toBe('a');
  });
});

describe('loadRestConfig file formats', () => {
  it('reads YAML and JSON kubeconfigs alike', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rest-'));
    writeFileSync(join(dir, 'yaml'), 'current-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: u}\nclusters:\n- name: k\n  cluster: {server: "https://h:6443"}\nusers:\n- name: u\n  user: {token: y}\n');
    writeFileSync(join(dir, 'json'), JSON.stringify(kubeconfig({ token: 'j' })));
    expect(loadRestConfig({ kubeconfig: join(dir, 'yaml') })).toMatchObject({ server: 'https://h:6443', token: 'y' });
    expect(loadRestConfig({ kubeconfig: join(dir, 'json') })).toMatchObject({ server: 'https://10.0.0.1:6443', token: 'j' });
  });
});

describe('statusError', () => {
  it('keeps the Status message and reason, and the code', () => {
    const err = statusError(404, JSON.stringify({ kind: 'Status', reason: 'NotFound', message: 'replicationcontrollers "x" not found', code: 404 }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 404, reason: 'NotFound', message: 'replicationcontrollers "x" not found' });
  });

  it('words a non-Status answer by its text', () => {
    expect(statusError(502, 'bad gateway\n')).toMatchObject({ code: 502, message: 'bad gateway', reason: undefined, causes: [] });
  });

  it('keeps the fields an Invalid Status names, and drops causes that are not objects', () => {
    const err = statusError(422, JSON.stringify({
      kind: 'Status', reason: 'Invalid', code: 422, message: 'ReplicationController "x" is invalid: [a: Required value, b: Not found: "v"]',
      details: { causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'a' }, 'junk', null, { message: 'Not found: "v"', field: 'b', extra: 1 }] },
    }));
    expect(err.causes).toEqual([
      { field: 'a', message: 'Required value', reason: 'FieldValueRequired' },
      { field: 'b', message: 'Not found: "v"', reason: undefined },
    ]);
  });
});

describe('RestClient', () => {
  it('names the TLS material it cannot use when it is made, not at its first request', () => {
    const make = () => new RestClient({ server: 'https://h:6443', cert: Buffer.from('not a certificate'), key: Buffer.from('not a key') }, 'test');
    expect(make).toThrow(KubeConfigError);
    expect(make).toThrow(/certificate authority, client certificate or client key of https:\/\/h:6443 cannot be used/);
  });

  async function server(handler: http.RequestListener) {
    const s = http.createServer(handler);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { port } = s.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { s.closeAllConnections(); s.close(r); }) };
  }

  it('sends JSON with the token, user agent and content type, and parses the answer', async () => {
    const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
    const s = await server((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ metadata: { name: 'web-1' } }));
      });
    });
    try {
      const rest = new RestClient({ server: s.url, token: 'secret' }, 'dcctl-deployer');
      const got = await rest.request('PATCH', '/api/v1/namespaces/ns/replicationcontrollers/web-1', { body: { spec: { replicas: 2 } }, contentType: 'application/merge-patch+json', query: { fieldManager: 'm', dryRun: undefined } });
      expect(got).toEqual({ metadata: { name: 'web-1' } });
      expect(seen[0]).toMatchObject({ method: 'PATCH', url: '/api/v1/namespaces/ns/replicationcontrollers/web-1?fieldManager=m', body: '{"spec":{"replicas":2}}' });
      expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer secret', 'user-agent': 'dcctl-deployer', 'content-type': 'application/merge-patch+json' });
    } finally {
      await s.close();
    }
  });

  it('impersonates only through the client made for it, with the same token', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const s = await server((req, res) => { seen.push(req.headers); res.end('{}'); });
    try {
      const rest = new RestClient({ server: s.url, token: 'secret' }, 'dcctl');
      const deployer = rest.impersonating('system:serviceaccount:team:deployer');
      await deployer.request('GET', '/a');
      await rest.request('GET', '/b');
      expect(seen.map((h) => [h.authorization, h['impersonate-user']])).toEqual([
        ['Bearer secret', 'system:serviceaccount:team:deployer'],
        ['Bearer secret', undefined],
      ]);
    } finally {
      await s.close();
    }
  });

  it('turns an error answer into an ApiError', async () => {
    const s = await server((_req, res) => {
      res.statusCode = 409;
      res.end(JSON.stringify({ kind: 'Status', reason: 'Conflict', message: 'the object has been modified' }));
    });
    try {
      const err = await new RestClient({ server: s.url }, 'ua').request('GET', '/x').catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 409, reason: 'Conflict', message: 'the object has been modified' });
    } finally {
      await s.close();
    }
  });

  it('delivers watch events line by line, across chunk boundaries, and the end of the stream', async () => {
    const s = await server((req, res) => {
      expect(req.url).toBe('/api/v1/pods?labelSelector=a%3Db&watch=true');
      res.write('{"type":"ADDED","object":{"metadata":{"name":"p1"}}}\n{"type":"MODI');
      setTimeout(() => res.end('FIED","object":{"metadata":{"name":"p1"}}}\n'), 20);
    });
    try {
      const events: string[] = [];
      const done = new Promise<unknown>((resolve) => {
        void new RestClient({ server: s.url }, 'ua').watch('/api/v1/pods', { labelSelector: 'a=b' }, (type, obj) => {
          events.push(`${type} ${(obj as { metadata: { name: string } }).metadata.name}`);
        }, resolve);
      });
      expect(await done).toBeUndefined();
      expect(events).toEqual(['ADDED p1', 'MODIFIED p1']);
    } finally {
      await s.close();
    }
  });
});
