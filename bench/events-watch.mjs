#!/usr/bin/env node
// What a watch of a namespace's events costs kube-apiserver and etcd by the revision it starts
// from (docs/design.md §6.2: the deployer's watch of RC Warning events). kube-apiserver keeps no
// watch cache for events, so a watch from an older revision has etcd replay every change since
// and kube-apiserver decode every event of the namespace among them. Writes --writes objects
// (half events in the watched namespace, half ConfigMaps elsewhere), then opens --watches
// watches at once, from the revision before the writes and from the current one, alternately,
// and prints the CPU etcd and kube-apiserver used for each round. Runs on the local plane
// (hack/local-cluster.sh up) in two namespaces of its own, which it deletes afterwards.
//
//   node bench/events-watch.mjs [--writes 10000] [--watches 16] [--rounds 2]
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuTimes, integerOptions, localPlane } from './lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const usage = 'Usage: node bench/events-watch.mjs [--writes 10000] [--watches 16] [--rounds 2]   (needs the local plane: hack/local-cluster.sh up)';
const { writes, watches, rounds } = integerOptions('events-watch.mjs', usage, { writes: 10000, watches: 16, rounds: 2 });
const { runDir, server, tls } = await localPlane(repo);
const pidOf = (name) => Number(readFileSync(path.join(runDir, `${name}.pid`), 'utf8'));
const etcdPid = pidOf('etcd');
const apiserverPid = pidOf('kube-apiserver');

function call(method, p, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers = { accept: 'application/json', ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}) };
    const req = request({ ...tls, hostname: server.hostname, port: server.port, method, path: p, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode >= 300) reject(new Error(`${method} ${p}: ${res.statusCode} ${text.slice(0, 200)}`));
        else resolve(text ? JSON.parse(text) : undefined);
      });
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

/** `count` watches at once from `resourceVersion`, each ended by the server after 3 s. */
function watchRound(ns, resourceVersion, count) {
  const query = new URLSearchParams({ watch: 'true', fieldSelector: 'involvedObject.kind=ReplicationController,type=Warning', resourceVersion, timeoutSeconds: '3' });
  return Promise.all(Array.from({ length: count }, () => new Promise((resolve, reject) => {
    const req = request({ ...tls, hostname: server.hostname, port: server.port, method: 'GET', path: `/api/v1/namespaces/${ns}/events?${query}` }, (res) => {
      res.on('data', () => {});
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  })));
}

const suffix = Date.now().toString(36);
const watched = `bench-evw-${suffix}`;
const other = `bench-evw-other-${suffix}`;
try {
  for (const name of [watched, other]) await call('POST', '/api/v1/namespaces', { metadata: { name } });
  const before = (await call('POST', `/api/v1/namespaces/${watched}/configmaps`, { metadata: { name: 'before' } })).metadata.resourceVersion;
  let next = 0;
  const filler = 'x'.repeat(2000);
  const writer = async () => {
    while (next < writes) {
      const i = next++;
      if (i % 2) {
        await call('POST', `/api/v1/namespaces/${watched}/events`, {
          metadata: { name: `e${i}` }, involvedObject: { kind: 'Pod', name: `p${i}`, namespace: watched }, reason: 'Scheduled', message: 'scheduled', type: 'Normal',
        });
      } else {
        await call('POST', `/api/v1/namespaces/${other}/configmaps`, { metadata: { name: `c${i}` }, data: { filler } });
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 16 }, writer));
  const now = (await call('POST', `/api/v1/namespaces/${watched}/configmaps`, { metadata: { name: 'after' } })).metadata.resourceVersion;
  console.log(`${writes} writes in ${((performance.now() - t0) / 1000).toFixed(1)} s (${Math.ceil(writes / 2)} events in ${watched}); revisions ${before} → ${now}`);
  for (let r = 0; r < rounds; r++) {
    for (const [label, rv] of [['from the current revision', now], [`from ${Number(now) - Number(before)} revisions back`, before]]) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const e0 = cpuTimes(etcdPid).self;
      const a0 = cpuTimes(apiserverPid).self;
      await watchRound(watched, rv, watches);
      console.log(`${watches} watches ${label}: kube-apiserver ${(cpuTimes(apiserverPid).self - a0).toFixed(2)} s, etcd ${(cpuTimes(etcdPid).self - e0).toFixed(2)} s of CPU`);
    }
  }
} finally {
  for (const name of [watched, other]) await call('DELETE', `/api/v1/namespaces/${name}`).catch(() => undefined);
}
