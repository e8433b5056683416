#!/usr/bin/env node
// API mode figures (docs/apiserver.md "Measured"): request latency through the aggregated API
// server versus the CRD path (the storage CRD, which is what CRD mode serves), and the API
// server's RSS with N DCs. Runs on the local plane in API mode (hack/aggregated.sh up) in a
// namespace of its own, which it deletes afterwards. Prints the figures; nothing fails on them.
//
//   node bench/apiserver.mjs [--dcs 1000] [--samples 200]
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { integerOptions, localPlane, percentile, rssBytes } from './lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const usage = 'Usage: node bench/apiserver.mjs [--dcs 1000] [--samples 200]   (needs the local plane in API mode: hack/aggregated.sh up)';
const { dcs: N, samples } = integerOptions('apiserver.mjs', usage, { dcs: 1000, samples: 200 });
const { runDir, server, tls } = await localPlane(repo);
const frontPid = Number(readFileSync(path.join(runDir, 'dcctl-apiserver.pid'), 'utf8'));

function call(method, p, body, contentType = 'application/json', accept = 'application/json') {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers = { accept, ...(data ? { 'content-type': contentType, 'content-length': Buffer.byteLength(data) } : {}) };
    const t0 = performance.now();
    const req = request({ ...tls, hostname: server.hostname, port: server.port, method, path: p, headers, agent: undefined }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - t0;
        if (res.statusCode >= 300) reject(new Error(`${method} ${p}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`));
        else resolve({ ms, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

const ns = `bench-apisrv-${Date.now().toString(36)}`;
const front = `/apis/apps.openshift.io/v1/namespaces/${ns}/deploymentconfigs`;
const crd = `/apis/apps.dcctl.io/v1/namespaces/${ns}/deploymentconfigs`;
const dc = (name) => ({
  apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', metadata: { name },
  spec: { replicas: 1, selector: { app: name }, triggers: [], strategy: { type: 'Recreate' },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'registry.local/web:1', env: [{ name: 'A', value: '1' }] }] } } },
});

async function timed(label, n, fn) {
  const ms = [];
  for (let i = 0; i < n; i++) ms.push((await fn(i)).ms);
  return { label, p50: percentile(ms, 50), p90: percentile(ms, 90), p99: percentile(ms, 99) };
}

await call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
try {
  const rssIdle = rssBytes(frontPid);
  const t0 = performance.now();
  for (let i = 0; i < N; i += 20) {
    await Promise.all(Array.from({ length: Math.min(20, N - i) }, (_, j) => call('POST', front, dc(`dc-${i + j}`))));
  }
  const createS = (performance.now() - t0) / 1000;
  const rows = [];
  rows.push(await timed('get (front)', samples, (i) => call('GET', `${front}/dc-${i % N}`)));
  rows.push(await timed('get (CRD path)', samples, (i) => call('GET', `${crd}/dc-${i % N}`)));
  rows.push(await timed(`list ${N} (front)`, 10, () => call('GET', front)));
  rows.push(await timed(`list ${N} (CRD path)`, 10, () => call('GET', crd)));
  rows.push(await timed(`list ${N} as Table (front)`, 10, () => call('GET', front, undefined, 'application/json', 'application/json;as=Table;v=v1;g=meta.k8s.io')));
  rows.push(await timed('merge patch (front)', samples, (i) => call('PATCH', `${front}/dc-${i % N}`, { metadata: { annotations: { n: `f${i}` } } }, 'application/merge-patch+json')));
  rows.push(await timed('merge patch (CRD path)', samples, (i) => call('PATCH', `${crd}/dc-${i % N}`, { metadata: { annotations: { n: `c${i}` } } }, 'application/merge-patch+json')));
  rows.push(await timed('strategic patch env (front)', samples, (i) => call('PATCH', `${front}/dc-${i % N}`, { spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: `${i}` }] }] } } } }, 'application/strategic-merge-patch+json')));
  const rssLoaded = rssBytes(frontPid);
  console.log(`created ${N} DCs through the front in ${createS.toFixed(1)} s (20 in parallel)`);
  console.log('request                         p50 ms   p90 ms   p99 ms');
  for (const r of rows) console.log(`${r.label.padEnd(30)} ${r.p50.toFixed(1).padStart(7)}  ${r.p90.toFixed(1).padStart(7)}  ${r.p99.toFixed(1).padStart(7)}`);
  console.log(`API server RSS: ${(rssIdle / 2 ** 20).toFixed(0)} MiB before, ${(rssLoaded / 2 ** 20).toFixed(0)} MiB with ${N} DCs after the runs above`);
} finally {
  await call('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
}
