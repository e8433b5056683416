/**
 * Issue 14 item 4e: /metrics was plain HTTP on every interface without authentication. In secure
 * mode it is HTTPS and only a token whose user may `get /metrics` reads it (the review is faked
 * here; test/integration/metrics.test.ts runs the real TokenReview/SubjectAccessReview).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { steppableWallClock } from '../../support/wall-clock.js';
import type { Server } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { startMetricsServer, type MetricsAccessReview } from '../../../src/kube/metrics-server.js';

const log = pino({ level: 'silent' });
let server: Server | undefined;
afterEach(async () => { await new Promise<void>((r) => (server ? server.close(() => r()) : r())); server = undefined; });

function get(port: number, path: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, rejectUnauthorized: false, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Tokens: "reader" may read, "stranger" is authenticated but not allowed, anything else is invalid. */
class FakeReview implements MetricsAccessReview {
  calls = 0;
  async review(token: string) {
    this.calls += 1;
    if (token === 'reader') return { authenticated: true, allowed: true, user: 'system:serviceaccount:monitoring:prometheus' };
    if (token === 'stranger') return { authenticated: true, allowed: false, user: 'bob', reason: 'no RBAC policy matched' };
    return { authenticated: false, allowed: false };
  }
}

async function start(access: MetricsAccessReview | undefined, now = () => Date.now()): Promise<number> {
  server = await startMetricsServer({
    host: '127.0.0.1', port: 0, secure: true, access, log, now,
    metrics: async () => ({ contentType: 'text/plain', body: 'dcctl_leader 1\n' }),
    ready: () => true,
  });
  return (server.address() as AddressInfo).port;
}

describe('metrics server, secure mode', () => {
  it('serves HTTPS (self-signed) and lets only an authorized token read /metrics; probes stay open', async () => {
    const review = new FakeReview();
    const port = await start(review);
    expect(await get(port, '/metrics')).toEqual({ status: 401, body: 'Unauthorized: a bearer token is required\n' });
    expect(await get(port, '/metrics', 'forged')).toEqual({ status: 401, body: 'Unauthorized\n' });
    expect(await get(port, '/metrics', 'stranger')).toEqual({ status: 403, body: 'Forbidden: user "bob" may not get /metrics: no RBAC policy matched\n' });
    expect(await get(port, '/metrics', 'reader')).toEqual({ status: 200, body: 'dcctl_leader 1\n' });
    expect(await get(port, '/healthz')).toEqual({ status: 200, body: 'ok' });
    expect(await get(port, '/readyz')).toEqual({ status: 200, body: 'ok' });
  });

  it('caches a decision per token for a minute', async () => {
    const review = new FakeReview();
    let t = 0;
    const port = await start(review, () => t);
    await get(port, '/metrics', 'reader');
    await get(port, '/metrics', 'reader');
    expect(review.calls).toBe(1);
    t = 61_000;
    await get(port, '/metrics', 'reader');
    expect(review.calls).toBe(2);
  });

  it('keeps an allowed token for its TTL of elapsed time: a wall clock stepped back does not extend it', async () => {
    // A scraper's permission is revoked after its allow was cached; one hour of wall clock stepped
    // back (NTP, a resumed VM) must not keep serving it /metrics for an hour.
    const wallClock = steppableWallClock();
    try {
      let allowed = true;
      server = await startMetricsServer({
        host: '127.0.0.1', port: 0, secure: true, log, allowedTtlMs: 50,
        access: { review: async () => ({ authenticated: true, allowed, user: 'p' }) },
        metrics: async () => ({ contentType: 'text/plain', body: 'dcctl_leader 1\n' }),
        ready: () => true,
      });
      const port = (server.address() as AddressInfo).port;
      expect((await get(port, '/metrics', 'reader')).status).toBe(200);
      allowed = false;
      wallClock.step(-3600_000);
      await new Promise((r) => setTimeout(r, 80));
      expect((await get(port, '/metrics', 'reader')).status).toBe(403);
    } finally {
      wallClock.restore();
    }
  });

  it('answers 503 (not cached) when the review itself fails', async () => {
    let fail = true;
    const port = await start({ review: async () => { if (fail) throw new Error('apiserver down'); return { authenticated: true, allowed: true, user: 'p' }; } });
    expect((await get(port, '/metrics', 'reader')).status).toBe(503);
    fail = false;
    expect((await get(port, '/metrics', 'reader')).status).toBe(200);
  });

  it('--metrics-auth=false: HTTPS without the token check', async () => {
    const port = await start(undefined);
    expect(await get(port, '/metrics')).toEqual({ status: 200, body: 'dcctl_leader 1\n' });
  });
});

describe('metrics server, secure mode, under a flood of forged tokens', () => {
  it('makes at most a few reviews at once and answers the rest 503 without one, instead of a TokenReview per request', async () => {
    // Each distinct token misses the decision cache, and each review is two requests to
    // kube-apiserver at the controller's API priority: anyone who reaches the port could turn
    // requests into API load that starves the controllers.
    let running = 0;
    let peak = 0;
    let calls = 0;
    const releases: Array<() => void> = [];
    const port = await start({
      review: async () => {
        calls++;
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((r) => releases.push(r));
        running--;
        return { authenticated: false, allowed: false };
      },
    });
    const replies = Array.from({ length: 200 }, (_, i) => get(port, '/metrics', `forged-${i}`));
    let settled = false;
    const all = Promise.all(replies).finally(() => { settled = true; });
    while (!settled) {
      releases.shift()?.();
      await new Promise((r) => setTimeout(r, 2));
    }
    const statuses = (await all).map((r) => r.status);
    expect(peak).toBeLessThanOrEqual(4);
    expect(calls).toBeLessThan(200);
    expect(statuses.filter((s) => s === 503).length).toBe(200 - calls);
    expect(statuses.filter((s) => s === 401).length).toBe(calls);
    expect(await get(port, '/healthz')).toEqual({ status: 200, body: 'ok' });
  }, 30_000);
});
