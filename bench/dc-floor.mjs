#!/usr/bin/env node
// A floor under pod-less DC rollouts (issue 16 part 4; docs/benchmarks.md, "the floor"), run
// several times: what the plane (kube-apiserver, etcd, kube-controller-manager, the scheduler,
// kwok) spends on N DCs rolled out by the least a DC controller can ask of it
// (bench/floor-controller.mjs), against N Deployments on the same plane, alternating. npm run
// bench measures the same once per N, next to its other kinds.
//
// Its own CPU (and the driver's, which creates and updates the objects and watches for them, as
// bench.mjs does) is reported but not counted in the plane's: the floor assumes a free controller.
//
//   npm run build && node bench/dc-floor.mjs [--n 100] [--warmup 30] [--repeat 2] [--cluster-dir DIR]
//
// It starts a plane like bench.mjs's (audit log on, 1000 ms readiness delay, 3 kwok nodes of 2000
// pods, no process kubelet) in --cluster-dir unless one already runs there, and stops what it started.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcSampler, fmt, machineJiffies } from './lib.mjs';
import { dcDone, dcManifest, deploymentDone, deploymentManifest, podTemplate } from './objects.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const usage = 'Usage: node bench/dc-floor.mjs [--n 100] [--warmup 30] [--repeat 2] [--cluster-dir DIR]   (npm run build first)';
const opts = { n: 100, warmup: 30, repeat: 2, 'cluster-dir': '/tmp/dcctl-floor-cluster' };
for (let i = 2; i < process.argv.length; i += 2) {
  const name = process.argv[i].replace(/^--/, '');
  const value = process.argv[i + 1];
  if (name === 'help') {
    console.log(usage);
    process.exit(0);
  }
  if (!(name in opts) || value === undefined || (name !== 'cluster-dir' && !/^[0-9]+$/.test(value))) {
    console.error(`bench/dc-floor.mjs: unexpected ${JSON.stringify(process.argv.slice(i, i + 2).join(' '))}\n${usage}`);
    process.exit(2);
  }
  opts[name] = name === 'cluster-dir' ? path.resolve(value) : Number(value);
}
const { n: N, warmup: warmupN, repeat } = opts;
// After the options: it imports the built controller code (dist/), which --help does not need.
const { FloorController, dcsPath, mergePatch, planeClient, rcsPath } = await import('./floor-controller.mjs');
const clusterDir = opts['cluster-dir'];
const log = (msg) => process.stderr.write(`[dc-floor ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ plane
const cluster = (cmd, env = {}) => execFileSync('bash', [path.join(repo, 'hack/local-cluster.sh'), cmd], {
  env: { ...process.env, LOCAL_CLUSTER_DIR: clusterDir, ...env }, stdio: ['ignore', 'ignore', 'inherit'],
});
let startedPlane = false;
const kubeconfig = path.join(clusterDir, 'admin.kubeconfig');
const running = () => {
  try {
    execFileSync('kubectl', ['--kubeconfig', kubeconfig, 'get', '--raw', '/readyz'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
if (!existsSync(kubeconfig) || !running()) {
  log(`starting a plane in ${clusterDir}`);
  cluster('up', {
    POD_READY_DELAY_MS: '1000', KWOK_NODE_PODS: '2000', PROCESS_KUBELET: '0',
    KUBE_APISERVER_EXTRA_ARGS: [`--audit-policy-file=${path.join(repo, 'bench/audit-policy.yaml')}`,
      `--audit-log-path=${path.join(clusterDir, 'audit.log')}`, '--audit-log-mode=batch', '--audit-log-maxsize=0'].join(' '),
  });
  startedPlane = true;
}
for (const f of ['crds/deploymentconfig.yaml', 'crds/deploymentconfig-policy.yaml', 'crds/imagestream.yaml']) {
  execFileSync('kubectl', ['--kubeconfig', kubeconfig, 'apply', '--server-side', '--force-conflicts', '-f', path.join(repo, f)], { stdio: 'ignore' });
}
execFileSync('kubectl', ['--kubeconfig', kubeconfig, 'wait', '--for=condition=Established', '--timeout=60s', 'crd', '--all'], { stdio: 'ignore' });
const pidOf = (name) => Number(readFileSync(path.join(clusterDir, `${name}.pid`), 'utf8').trim());
const plane = ['kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler', 'kwok'];
const { call, watch } = planeClient(kubeconfig, 'dc-floor');

// ------------------------------------------------------------------ the runs
async function pool(items, limit, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

const kinds = {
  floor: {
    path: dcsPath,
    create: (ns, name) => call('POST', dcsPath(ns), dcManifest(name)),
    update: (ns, name) => call('PATCH', dcsPath(ns, name), { spec: { template: podTemplate(name, 2) } }, mergePatch),
    done: dcDone,
    owned: rcsPath,
  },
  deploy: {
    path: (ns, name) => `/apis/apps/v1/namespaces/${ns}/deployments${name ? `/${name}` : ''}`,
    create: (ns, name) => call('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, deploymentManifest(name)),
    update: (ns, name) => call('PATCH', `/apis/apps/v1/namespaces/${ns}/deployments/${name}`, { spec: { template: podTemplate(name, 2) } }, mergePatch),
    done: deploymentDone,
    owned: (ns) => `/apis/apps/v1/namespaces/${ns}/replicasets`,
  },
};

/** Rolls `names` out (create, then update), waiting for each phase; returns each phase's figures. */
async function rollOut(kind, ns, names, measure) {
  const k = kinds[kind];
  const latest = new Map();
  const dcWatch = watch(k.path(ns), (type, o) => latest.set(o.metadata.name, o));
  await dcWatch.ready;
  const phases = {};
  for (const [phase, version] of [['create', 1], ['update', 2]]) {
    const sampler = measure ? new ProcSampler([...plane.map((name) => ({ name, pid: pidOf(name) })), { name: 'driver', pid: process.pid }]) : undefined;
    const m0 = machineJiffies();
    const t0 = Date.now();
    await pool(names, 20, (name) => k[phase](ns, name));
    const deadline = Date.now() + 120_000 + names.length * 4_000;
    while (!names.every((x) => latest.has(x) && k.done(latest.get(x), version))) {
      if (Date.now() > deadline) throw new Error(`${kind}: ${phase} did not finish`);
      await sleep(100);
    }
    const seconds = (Date.now() - t0) / 1000;
    const m1 = machineJiffies();
    if (sampler) {
      const proc = sampler.stop();
      const cpu = Object.fromEntries(Object.entries(proc).map(([name, p]) => [name, p.cpuSeconds]));
      phases[phase] = { seconds, cpu, plane: plane.reduce((a, name) => a + cpu[name], 0), coresBusy: ((m1.busy - m0.busy) / (m1.total - m0.total)) * os.cpus().length };
    }
  }
  dcWatch.stop();
  return phases;
}

async function gone(kind, ns) {
  for (const p of [kinds[kind].owned(ns), `/api/v1/namespaces/${ns}/pods`]) {
    if ((await call('GET', p)).items.length > 0) return false;
  }
  return true;
}

async function runOne(kind, rep) {
  const ns = `floor-${kind}-${N}-${randomBytes(2).toString('hex')}`;
  await call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  while (!(await call('GET', `/api/v1/namespaces/${ns}/serviceaccounts`)).items.some((sa) => sa.metadata.name === 'default')) await sleep(200);
  const controller = kind === 'floor' ? new FloorController({ call, watch }, ns) : undefined;
  await controller?.ready();
  if (warmupN > 0) {
    const warm = Array.from({ length: warmupN }, (_, i) => `warm-${String(i).padStart(4, '0')}`);
    await rollOut(kind, ns, warm, false);
    await pool(warm, 20, (name) => call('DELETE', kinds[kind].path(ns, name)));
    while (!await gone(kind, ns)) await sleep(500);
    await sleep(2000);
  }
  const names = Array.from({ length: N }, (_, i) => `obj-${String(i).padStart(4, '0')}`);
  const phases = await rollOut(kind, ns, names, true);
  controller?.stop();
  if (controller?.errors.length) throw controller.errors[0];
  await call('DELETE', `/api/v1/namespaces/${ns}`);
  while (await call('GET', `/api/v1/namespaces/${ns}`).then(() => true, (err) => err.code !== 404)) await sleep(1000);
  for (const [phase, r] of Object.entries(phases)) {
    log(`run ${rep} ${kind} ${phase}: ${fmt.s(r.seconds)}, plane ${fmt.n(r.plane, 2)} CPU s (${plane.map((p) => `${p} ${fmt.n(r.cpu[p], 2)}`).join(', ')}), driver${kind === 'floor' ? ' + floor controller' : ''} ${fmt.n(r.cpu.driver, 2)}, ${fmt.n(r.coresBusy, 2)} cores busy`);
  }
  return phases;
}

const results = { floor: [], deploy: [] };
try {
  for (let rep = 1; rep <= repeat; rep++) {
    for (const kind of rep % 2 ? ['floor', 'deploy'] : ['deploy', 'floor']) results[kind].push(await runOne(kind, rep));
  }
} finally {
  if (startedPlane) cluster('down');
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`N=${N}, ${repeat} run(s) of each kind, alternating, ${warmupN} warm-up objects per run; means of the runs. Plane: ${plane.join(', ')}.`);
console.log('| phase | floor time | Deployments time | time ratio | floor plane CPU | Deployments plane CPU | plane CPU ratio | floor kube-apiserver | Deployments kube-apiserver | cores busy (floor / Deployments) |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [phase, label] of [['create', 'first rollout'], ['update', 'template update']]) {
  const f = results.floor.map((r) => r[phase]);
  const d = results.deploy.map((r) => r[phase]);
  const m = (xs, fn) => mean(xs.map(fn));
  const ft = m(f, (r) => r.seconds), dt = m(d, (r) => r.seconds), fp = m(f, (r) => r.plane), dp = m(d, (r) => r.plane);
  console.log(`| ${label} | ${fmt.s(ft)} | ${fmt.s(dt)} | ${fmt.n(ft / dt, 2)}× | ${fmt.n(fp, 2)} s | ${fmt.n(dp, 2)} s | ${fmt.n(fp / dp, 2)}× | ${fmt.n(m(f, (r) => r.cpu['kube-apiserver']), 2)} s | ${fmt.n(m(d, (r) => r.cpu['kube-apiserver']), 2)} s | ${fmt.n(m(f, (r) => r.coresBusy), 2)} / ${fmt.n(m(d, (r) => r.coresBusy), 2)} |`);
}
