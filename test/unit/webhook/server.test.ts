/**
 * The webhook's HTTPS endpoint (src/webhook/server.ts) with real certificates (openssl) and an
 * injected dry-run: what kube-apiserver gets back, bodies it must not read whole, and a rotated
 * certificate taken without a restart. The real-plane proof is test/e2e/webhook.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { localServingCert } from '../../support/certs.js';
import { ApiError } from '../../../src/controller/errors.js';
import { MaxReviewBytes, startWebhookServer, ValidatePath, type WebhookServer } from '../../../src/webhook/server.js';

const dir = mkdtempSync(path.join(tmpdir(), 'webhook-server-'));
const certDir = path.join(dir, 'serving');
const serve = (prefix: string) => {
  copyFileSync(path.join(dir, `${prefix}.crt`), path.join(certDir, 'tls.crt'));
  copyFileSync(path.join(dir, `${prefix}.key`), path.join(certDir, 'tls.key'));
};

interface Reply { status: number; body: any } // eslint-disable-line @typescript-eslint/no-explicit-any
function call(port: number, ca: string, method: string, urlPath: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ agent: false, hostname: '127.0.0.1', port, method, path: urlPath, ca: readFileSync(path.join(dir, `${ca}-ca.crt`)), headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: res.headers['content-type'] === 'application/json' ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const review = (containerName: string) => JSON.stringify({
  apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
  request: {
    uid: `uid-${containerName}`, operation: 'CREATE', namespace: 'a', resource: { group: 'apps.openshift.io', version: 'v1', resource: 'deploymentconfigs' },
    object: { metadata: { name: 'web', namespace: 'a' }, spec: { selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: containerName, image: 'x' }] } } } },
  },
});

describe('the webhook server', () => {
  let server: WebhookServer;
  const outcomes: string[] = [];
  beforeAll(async () => {
    localServingCert(dir, { ca: 'first-ca', leaf: 'first' });
    localServingCert(dir, { ca: 'second-ca', leaf: 'second' });
    mkdirSync(certDir);
    serve('first');
    server = await startWebhookServer({
      host: '127.0.0.1', port: 0, certDir, certCheckMs: 50, log: pino({ level: 'silent' }),
      onReview: (o) => outcomes.push(o),
      dryRunRc: async (_ns, rc) => {
        const name = (rc as any).spec.template.spec.containers[0].name; // eslint-disable-line @typescript-eslint/no-explicit-any
        if (name !== 'web') throw new ApiError('invalid', 422, 'Invalid', { causes: [{ field: 'spec.template.spec.containers[0].name', message: `Invalid value: "${name}"` }] });
      },
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers an AdmissionReview with the review\'s response and its uid', async () => {
    const ok = await call(server.port, 'first', 'POST', ValidatePath, review('web'));
    expect(ok).toEqual({ status: 200, body: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'uid-web', allowed: true } } });
    const denied = await call(server.port, 'first', 'POST', ValidatePath, review('Web_1'));
    expect(denied.status).toBe(200);
    expect(denied.body.response).toMatchObject({ uid: 'uid-Web_1', allowed: false, status: { code: 422, reason: 'Invalid', message: 'DeploymentConfig.apps.openshift.io "web" is invalid: spec.template.spec.containers[0].name: Invalid value: "Web_1"' } });
    expect(outcomes.slice(-2)).toEqual(['allowed', 'denied']);
  });

  it.each([
    ['not JSON', '{"apiVersion":', /^the body is not JSON: /],
    ['nested past 100 levels', `${'['.repeat(101)}${']'.repeat(101)}`, /^the body nests deeper than 100 levels$/],
    ['not an AdmissionReview', '{"kind":"Pod"}', /^want apiVersion admission\.k8s\.io\/v1 and kind AdmissionReview/],
  ])('refuses a body that is %s with a 400 naming why', async (_what, body, message) => {
    const r = await call(server.port, 'first', 'POST', ValidatePath, body);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(message);
  });

  it('stops reading a body larger than any review kube-apiserver sends (413)', async () => {
    const r = await call(server.port, 'first', 'POST', ValidatePath, `"${'x'.repeat(MaxReviewBytes)}"`);
    expect(r.status).toBe(413);
  });

  it('serves /healthz, and only POST on the review path', async () => {
    expect(await call(server.port, 'first', 'GET', '/healthz')).toEqual({ status: 200, body: 'ok' });
    expect((await call(server.port, 'first', 'GET', ValidatePath)).status).toBe(405);
    expect((await call(server.port, 'first', 'POST', '/mutate')).status).toBe(404);
  });

  it('answers a review beyond its bounds at once with a 429, without reading its body or asking the server', async () => {
    // Anyone who reaches the port can send reviews of up to MaxReviewBytes: read and parsed all at
    // once they would be the controller's memory, and each a dry-run request at its API priority.
    let release = () => {};
    let calls = 0;
    const busy = await startWebhookServer({
      host: '127.0.0.1', port: 0, certDir, log: pino({ level: 'silent' }), bounds: { inFlight: 1, queued: 1 },
      dryRunRc: () => { calls++; return new Promise<void>((r) => { release = r; }); },
    });
    const open: Array<{ destroy(): void }> = [];
    try {
      const first = call(busy.port, 'first', 'POST', ValidatePath, review('web'));
      while (calls === 0) await new Promise((r) => setTimeout(r, 5));
      const second = call(busy.port, 'first', 'POST', ValidatePath, review('web'));
      // A third whose body never ends: answered all the same, so it was not waited for.
      const third = await new Promise<Reply>((resolve, reject) => {
        const req = request({ agent: false, hostname: '127.0.0.1', port: busy.port, method: 'POST', path: ValidatePath, ca: readFileSync(path.join(dir, 'first-ca.crt')),
          headers: { 'content-type': 'application/json', 'content-length': String(MaxReviewBytes) } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => { text += c; });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.write('{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"x","object":{"x":"');
        open.push(req);
      });
      expect(third).toEqual({ status: 429, body: { message: 'the webhook has 1 reviews in progress and 1 waiting; try again' } });
      expect(calls).toBe(1);
      release();
      expect((await first).body.response).toEqual({ uid: 'uid-web', allowed: true });
      while (calls === 1) await new Promise((r) => setTimeout(r, 5));
      release();
      expect((await second).body.response).toEqual({ uid: 'uid-web', allowed: true });
      expect(calls).toBe(2);
    } finally {
      for (const r of open) r.destroy();
      await busy.close();
    }
  });

  it('frees the slot of a review whose client went away before sending its body', async () => {
    const lone = await startWebhookServer({
      host: '127.0.0.1', port: 0, certDir, log: pino({ level: 'silent' }), bounds: { inFlight: 1, queued: 0 }, dryRunRc: async () => {},
    });
    try {
      await new Promise<void>((resolve) => {
        const req = request({ agent: false, hostname: '127.0.0.1', port: lone.port, method: 'POST', path: ValidatePath, ca: readFileSync(path.join(dir, 'first-ca.crt')),
          headers: { 'content-type': 'application/json', 'content-length': '1000' } });
        req.on('error', () => {});
        req.write('{"apiVersion":', () => setTimeout(() => { req.destroy(); resolve(); }, 50));
      });
      let reply: Reply | undefined;
      for (let i = 0; i < 50 && reply?.status !== 200; i++) {
        reply = await call(lone.port, 'first', 'POST', ValidatePath, review('web'));
        if (reply.status !== 200) await new Promise((r) => setTimeout(r, 20));
      }
      expect(reply?.body.response).toEqual({ uid: 'uid-web', allowed: true });
    } finally {
      await lone.close();
    }
  });

  it('serves a rotated certificate once its files change, without a restart', async () => {
    serve('second');
    let reply: Reply | undefined;
    for (let i = 0; i < 100 && !reply; i++) {
      await new Promise((r) => setTimeout(r, 20));
      reply = await call(server.port, 'second', 'GET', '/healthz').catch(() => undefined);
    }
    expect(reply).toEqual({ status: 200, body: 'ok' });
    await expect(call(server.port, 'first', 'GET', '/healthz')).rejects.toThrow();
  });
});
