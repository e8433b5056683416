#!/usr/bin/env node
// Benchmark: DeploymentConfigs (this project) against Deployments (kube-controller-manager) on a
// real local control plane of their own. Prints the figures and writes docs/benchmarks.md,
// docs/benchmarks.svg and bench/last-results.json (--out NAME: docs/NAME.md, docs/NAME.svg and
// bench/last-results-<NAME less "benchmarks-">.json, e.g. --out benchmarks-n1000).
// Method: docs/benchmarks.md ("Method"). Not a test: nothing here fails on a slow figure.
//
//   npm run bench                        # N = 10, 100 (1000 if it fits in 15 min/side), idle 1000 DCs
//   node bench/bench.mjs --sizes 10,100,1000 --idle 1000 --keep-cluster
//   node bench/bench.mjs --sizes 100 --idle 0 --cpu-prof /tmp/prof   # + controller CPU profiles
//   node bench/bench.mjs --sizes 100,1000 --force-1000 dc-inline,deploy  # N=1000 for these kinds even over budget
//   node bench/bench.mjs --sizes 100 --repeat 3      # N=100 three times (pod-less and Deployments), for the spread
//   node bench/bench.mjs --pod-floor=false   # without the bare deployer pods measured after each N's `dc` run
//   node bench/bench.mjs --dc-floor=false    # without the DCs rolled out by the floor controller after each N's dc-inline and deploy runs
//   node bench/bench.mjs --node current      # controller and deployer pods on this Node.js, not the image's major
//
// Needs the built CLI (npm run build) and the control-plane binaries (hack/local-cluster.sh install).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AppsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, PatchStrategy, Watch, setHeaderOptions } from '@kubernetes/client-node';
import { LoadSampler, ProcSampler, clientOf, controllerQueueMetrics, countByClientVerb, describeLoad, fileSize, fmt, metricsSince, parseMetrics, percentile, readAudit, rssBytes, sumMetric } from './lib.mjs';
import { renderChart } from './chart.mjs';
import { dcDone, dcManifest, deploymentDone, deploymentManifest, podTemplate, replicas } from './objects.mjs';
import { Categories as ApiserverCategories, Other as ApiserverOther, summarizeProfiles } from './apiserver-profile.mjs';
import { loadAll } from 'js-yaml';
import * as processKubelet from '../hack/process-kubelet/lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Every option the bench reads. An option it does not know is an error, not a default run: a
// mistyped flag (or --help) used to start a full run that replaced the committed report.
const usage = `Usage: node bench/bench.mjs [options]   (npm run bench builds first)
Rolls out N DeploymentConfigs and N Deployments on a local control plane of its own and writes
docs/benchmarks.md, docs/benchmarks.svg and bench/last-results.json (method: docs/benchmarks.md).

  --sizes 10,100,1000       the N of each phase (default 10,100,1000; 1000 only if it fits in 15 min a side)
  --kinds dc,dc-inline,deploy   the result kinds to run (default all three)
  --force-1000 KINDS|true   run N=1000 for these kinds even over the time budget
  --repeat K                run each N K times for the kinds of --repeat-kinds (default dc-inline,deploy)
  --repeat-kinds KINDS      the kinds --repeat repeats
  --warmup K                objects each run rolls out (create and update) and deletes before it measures (default 30)
  --idle N                  DCs of the idle-resync phase (default 1000; 0 skips it and keeps the last run's figures)
  --pod-floor=false         skip the bare deployer pods measured after each N's dc run
  --dc-floor=false          skip the DCs rolled out by the floor controller after each N's dc-inline and deploy runs
  --max-pods K              deployer processes at once (default 16)
  --ready-delay-ms MS       kwok's delay before a pod is Ready (default 1000)
  --controller-args "..."   extra flags for every controller the bench starts
  --node auto|current|PATH  the Node.js of the controller and deployer pods (default auto: the image's major)
  --cpu-prof DIR            write the controllers' CPU profiles to DIR
  --apiserver-profile DIR   write kube-apiserver CPU profiles per phase to DIR
  --cluster-dir DIR         the local plane's directory (default /tmp/bench-cluster)
  --keep-cluster            leave the plane running at the end
  --out NAME                docs/NAME.md, docs/NAME.svg, bench/last-results-<suffix>.json (NAME: benchmarks-<suffix>)
  --report-only             re-render the report from the last results, run nothing
  --help                    this text`;
const knownOptions = new Set([...usage.matchAll(/^ {2}--([a-z0-9-]+)/gm)].map((m) => m[1]));
const args = parseArgs(process.argv.slice(2));
if (args.help === 'true') {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
// --out NAME: the report's files (the N=1000 run has its own: --out benchmarks-n1000).
const outName = args.out ?? 'benchmarks';
if (!/^benchmarks(-[a-z0-9]+)?$/.test(outName)) throw new Error(`--out ${outName}: want benchmarks or benchmarks-<suffix>`);
const resultsFile = path.join(repo, outName === 'benchmarks' ? 'bench/last-results.json' : `bench/last-results-${outName.slice('benchmarks-'.length)}.json`);
// The last run's results: --report-only re-renders them with what that run used; --idle 0 keeps
// its idle figures.
const previousRun = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : undefined;
const recorded = args['report-only'] === 'true' ? previousRun : undefined;
const clusterDir = args['cluster-dir'] ?? recorded?.clusterDir ?? '/tmp/bench-cluster';
const sizes = (args.sizes ?? '10,100,1000').split(',').map(Number);
const idleN = Number(args.idle ?? 1000);
// --warmup K: each run first rolls out K objects of its kind (created, then updated) and deletes
// them, unmeasured. A fresh Node.js controller compiles and optimizes its code as it runs: its
// first 20 rollouts cost it ~1.5x the CPU of its 60th to 80th, where kube-controller-manager, a Go
// binary that has run since the plane started, has nothing to warm up. The measured phases compare
// the two warm; the warm-up's own figures (the cold cost) are reported beside them.
const warmupN = recorded ? (recorded.warmup ?? 0) : Number(args.warmup ?? 30);
if (!Number.isInteger(warmupN) || warmupN < 0) {
  process.stderr.write(`bench: --warmup ${args.warmup}: want a whole number >= 0\n`);
  process.exit(2);
}
// Result kinds: `dc` (deployer pods), `dc-inline` (pod-less rollouts, --default-deployer=inline),
// `deploy` (Deployments). --kinds dc: only that side (e.g. a before/after comparison of our code).
const kinds = (args.kinds ?? 'dc,dc-inline,deploy').split(',');
const isDc = (kind) => kind === 'dc' || kind === 'dc-inline' || kind === 'dc-floor';
const dcKinds = ['dc', 'dc-inline'];
/** The DC kinds of one N's results, as [kind, result] pairs. */
const dcSides = (v) => dcKinds.filter((k) => v[k]).map((k) => [k, v[k]]);
const kindLabel = { dc: 'DC (deployer pod)', 'dc-inline': 'DC (pod-less)', deploy: 'Deployment' };
const readyDelayMs = Number(args['ready-delay-ms'] ?? 1000);
// 16 deployer processes at once: what this 2-core machine sustains next to its control plane
// (measured at N=100, see the Setup text of the report); --max-pods to compare.
const DefaultMaxPods = 16;
const maxPods = Number(args['max-pods'] ?? recorded?.maxPods ?? DefaultMaxPods);
// --controller-args "--flag=value ...": extra flags for every controller the bench starts (for a
// before/after comparison of a flag on one plane); recorded in last-results.json and the report.
const controllerArgs = recorded?.controllerArgs ?? (args['controller-args'] ?? '').split(/\s+/).filter(Boolean);
const auditLog = path.join(clusterDir, 'audit.log');
const started = new Date();
// --node auto|current|PATH: the Node.js that runs the controller and the deployer pods. `auto`
// (the default) is the image's major version (the Dockerfile's `FROM node:<major>`) from the npm
// registry's `node` package, as `npm run test:unit:lts` gets it: what those processes run in a
// cluster. Their CPU depends on it: Node.js 20 parses its ~140 bundled root certificates for the
// first TLS context with a custom CA (~30 ms per deployer process), Node.js 26 does not.
// Results of runs before --node have none: they ran everything on the bench's Node.js.
const podNode = recorded ? (recorded.podNode ?? { path: process.execPath, version: process.version }) : resolvePodNode(args.node ?? 'auto');

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m || !knownOptions.has(m[1])) {
      process.stderr.write(`bench: ${m ? `unknown option --${m[1]}` : `unexpected argument ${JSON.stringify(argv[i])}`}\n\n${usage}\n`);
      process.exit(2);
    }
    if (m[2] !== undefined) out[m[1]] = m[2];
    else if (argv[i + 1] && !argv[i + 1].startsWith('--')) out[m[1]] = argv[++i];
    else out[m[1]] = 'true';
  }
  return out;
}

const log = (msg) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

/** `{ path, version }` of the Node.js for --node (see podNode); `auto` falls back to this process's. */
function resolvePodNode(choice) {
  const current = { path: process.execPath, version: process.version };
  if (choice === 'current') return current;
  let binary = choice;
  if (choice === 'auto') {
    const major = /^FROM node:(\d+)/m.exec(readFileSync(path.join(repo, 'Dockerfile'), 'utf8'))?.[1];
    const r = major ? spawnSync('npx', ['-y', `node@${major}`, '-p', 'process.execPath'], { encoding: 'utf8', timeout: 300_000 }) : undefined;
    binary = r?.status === 0 ? r.stdout.trim().split('\n').at(-1) : '';
    if (!binary || !existsSync(binary)) {
      log(`--node auto: no Node.js ${major ?? '(no FROM node:<major> in the Dockerfile)'} from the npm registry; the controller and deployer pods run ${process.version}`);
      return current;
    }
  }
  const v = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (v.status !== 0) throw new Error(`--node ${choice}: ${binary} does not run`);
  return { path: binary, version: v.stdout.trim() };
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

// ------------------------------------------------------------------ cluster
function clusterScript(cmd, extraEnv = {}) {
  return execFileSync('bash', [path.join(repo, 'hack/local-cluster.sh'), cmd], {
    env: { ...process.env, LOCAL_CLUSTER_DIR: clusterDir, ...extraEnv },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
}

let startedCluster = false;
// Interrupted (Ctrl-C, kill): stop the controllers and the cluster this run started (a controller
// outlived the bench before), and write no report: a run cut short must not replace the last
// complete one's figures.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping what this run started; no report written`);
    for (const child of liveControllers) child.kill('SIGKILL');
    try {
      if (startedCluster && args['keep-cluster'] !== 'true') clusterScript('down');
    } finally {
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
  });
}
function ensureCluster() {
  try {
    clusterScript('status');
    if (!existsSync(auditLog)) throw new Error(`the cluster in ${clusterDir} runs without the audit log; run: LOCAL_CLUSTER_DIR=${clusterDir} hack/local-cluster.sh down`);
    log(`reusing the cluster in ${clusterDir}`);
    const kubeletLog = path.join(clusterDir, 'process-kubelet.log');
    const kubeletNode = existsSync(kubeletLog) ? [...readFileSync(kubeletLog, 'utf8').matchAll(/pods run (\S+)/g)].at(-1)?.[1] : undefined;
    if (kubeletNode !== podNode.path) log(`its process kubelet runs pods with ${kubeletNode ?? 'an unknown Node.js'}, not ${podNode.path}: deployer figures are that Node.js's`);
    return;
  } catch (err) {
    if (err.message?.includes('audit')) throw err;
  }
  log(`starting a benchmark cluster in ${clusterDir} (audit log on, readiness delay ${readyDelayMs} ms, at most ${maxPods} deployer processes)`);
  clusterScript('up', {
    POD_READY_DELAY_MS: String(readyDelayMs),
    PROCESS_KUBELET_MAX_PODS: String(maxPods),
    PROCESS_KUBELET_NODE: podNode.path,
    // N=1000 with 3 replicas is 3000 app pods plus deployer pods: more than 3 × 250 slots.
    KWOK_NODE_PODS: '2000',
    KUBE_APISERVER_EXTRA_ARGS: [
      `--audit-policy-file=${path.join(repo, 'bench/audit-policy.yaml')}`,
      `--audit-log-path=${auditLog}`,
      '--audit-log-mode=batch',
      '--audit-log-maxsize=0',
      // --apiserver-profile DIR: /debug/pprof on kube-apiserver (the plane has profiling off
      // otherwise), see ApiserverProfiler.
      ...(args['apiserver-profile'] ? ['--profiling=true'] : []),
    ].join(' '),
  });
  startedCluster = true;
}

const pidOf = (name) => Number(readFileSync(path.join(clusterDir, `${name}.pid`), 'utf8').trim());
const planeComponents = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok', 'process-kubelet'];
/** Every process of the bench: itself, its control plane, and (when given) the controller. */
const benchPids = (controller) => () => [
  { name: 'bench', pid: process.pid },
  ...planeComponents.map((c) => { try { return { name: c, pid: pidOf(c), childrenAs: c === 'process-kubelet' ? 'deployers' : undefined }; } catch { return undefined; } })
    .filter((e) => e && e.pid > 0),
  ...(controller?.child.pid ? [{ name: 'controller', pid: controller.child.pid }] : []),
];
// The machine a run measured on: --report-only re-renders a run's results with the machine that
// ran it, not with the one re-rendering them (results recorded before this field: the current one).
const machine = recorded?.machine ?? { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '?', memGiB: Math.round(os.totalmem() / 2 ** 30), benchNode: process.version };
const cores = machine.cpus;

const kubeconfig = path.join(clusterDir, 'admin.kubeconfig');
let kc;
let core;
let appsApi;
let custom;
async function setupCluster() {
  ensureCluster();
  process.env.KUBECONFIG = kubeconfig;
  // Every CRD the controller watches (DeploymentConfig, ImageStream) and the DC's admission policy, as the install manifests do.
  for (const f of ['crds/deploymentconfig.yaml', 'crds/deploymentconfig-policy.yaml', 'crds/imagestream.yaml', 'deploy/base/rbac-deployer.yaml', 'deploy/base/image-policy.yaml']) {
    if (existsSync(path.join(repo, f))) execFileSync('kubectl', ['apply', '--server-side', '--force-conflicts', '-f', path.join(repo, f)], { stdio: 'ignore' });
  }
  for (let i = 0; ; i++) {
    try {
      execFileSync('kubectl', ['wait', '--for=condition=Established', '--timeout=60s', 'crd', '--all'], { stdio: 'ignore' });
      break;
    } catch (err) {
      if (i >= 10) throw err; // a CRD without status yet makes `kubectl wait` fail at once
      await sleep(500);
    }
  }
  kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  core = kc.makeApiClient(CoreV1Api);
  appsApi = kc.makeApiClient(AppsV1Api);
  custom = kc.makeApiClient(CustomObjectsApi);
}
const DC = { group: 'apps.openshift.io', version: 'v1', plural: 'deploymentconfigs' };

async function createNamespace(prefix) {
  const name = `${prefix}-${randomBytes(2).toString('hex')}`;
  await core.createNamespace({ body: { metadata: { name, labels: { bench: 'true' } } } });
  for (let i = 0; i < 100; i++) {
    try {
      await core.readNamespacedServiceAccount({ name: 'default', namespace: name });
      return name;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`no default service account in ${name}`);
}

/**
 * Deletes a run's namespace and waits until it is gone (at most 15 min), so that the next run's
 * measured phases do not share the plane with its garbage collection: at N=1000 the namespace
 * controller and the garbage collector delete thousands of pods and RCs for minutes, and the
 * deleted kind's pods still hold kwok's node capacity meanwhile (3 × 2000 pods: another kind's
 * 3000 plus a new run's 3000 and their surge do not fit, and the new pods wait unscheduled).
 * Returns the seconds it took.
 */
async function deleteNamespaceAndWait(name) {
  const t0 = Date.now();
  await core.deleteNamespace({ name }).catch(() => undefined);
  while (Date.now() - t0 < 900_000) {
    try {
      await core.readNamespace({ name });
    } catch (err) {
      if (err?.code === 404) break;
    }
    await sleep(1000);
  }
  const seconds = (Date.now() - t0) / 1000;
  log(`namespace ${name} deleted in ${fmt.s(seconds)}`);
  return seconds;
}

/** Runs `fn` over items with at most `limit` in flight. */
async function pool(items, limit, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  }));
}

// ------------------------------------------------------------------ controller process
/**
 * The Node.js options the install manifest gives the controller (deploy/base/controller.yaml:
 * NODE_OPTIONS, the heap sizes Node derives from the container's memory limit), so the bench
 * measures the controller's memory as it runs when installed, not with the heap Node sizes for
 * this whole machine (4 GiB here, which lets the heap grow to 4× its live size between GCs).
 */
function manifestNodeOptions() {
  const docs = loadAll(readFileSync(path.join(repo, 'deploy/base/controller.yaml'), 'utf8'));
  const deployment = docs.find((d) => d?.kind === 'Deployment');
  const container = deployment?.spec?.template?.spec?.containers?.find((c) => c.name === 'controller');
  const value = container?.env?.find((e) => e.name === 'NODE_OPTIONS')?.value;
  return value ? value.split(/\s+/).filter(Boolean) : [];
}
const controllerNodeOptions = manifestNodeOptions();
let metricsPort = 19000 + Math.floor(Math.random() * 1000);
/** The controllers this run started and that still run: an interrupted run stops them. */
const liveControllers = new Set();
function startController(namespace, extra = []) {
  const port = metricsPort++;
  const argv = [path.join(repo, 'bin/dcctl.js'), 'controller', '--leader-elect=false', `--metrics-bind-address=127.0.0.1:${port}`,
    '--deployer-image=dcctl:local', ...(namespace ? ['--namespace', namespace] : []), ...controllerArgs, ...extra];
  // --cpu-prof DIR: V8 CPU profiles of the controller (one .cpuprofile per run, written on exit).
  if (args['cpu-prof']) argv.unshift('--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`);
  argv.unshift(...controllerNodeOptions);
  const child = spawn(podNode.path, argv, { env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'ignore', 'pipe'] });
  liveControllers.add(child);
  child.once('exit', () => liveControllers.delete(child));
  let errTail = '';
  child.stderr.on('data', (d) => { errTail = (errTail + d).slice(-4000); });
  const exited = new Promise((r) => child.once('exit', r));
  return {
    child,
    port,
    errTail: () => errTail,
    async ready() {
      for (let i = 0; i < 300; i++) {
        try {
          const r = await fetch(`http://127.0.0.1:${port}/readyz`);
          if (r.ok) return;
        } catch {
          // not listening yet
        }
        await sleep(100);
      }
      throw new Error(`controller not ready: ${errTail}`);
    },
    async metrics() {
      return parseMetrics(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15000);
      await exited;
      clearTimeout(t);
    },
  };
}

// ------------------------------------------------------------------ objects: bench/objects.mjs

/** Watches a namespace's objects and resolves the time each first satisfies `done(obj)`. */
async function watchDone(pathName, listFn) {
  const latest = new Map();
  let target = () => false;
  const doneAt = new Map();
  let waiters = [];
  const check = (obj) => {
    const name = obj.metadata.name;
    latest.set(name, obj);
    if (!doneAt.has(name) && target(obj)) {
      doneAt.set(name, Date.now());
      for (const w of waiters) w();
    }
  };
  const list = await listFn();
  for (const o of list.items) check(o);
  let abort;
  const run = async (rv) => {
    abort = await new Watch(kc).watch(pathName, { resourceVersion: rv, allowWatchBookmarks: true }, (type, obj) => {
      if (type === 'ADDED' || type === 'MODIFIED') check(obj);
    }, () => { if (!stopped) listFn().then((l) => { for (const o of l.items) check(o); return run(l.metadata.resourceVersion); }).catch(() => undefined); });
  };
  let stopped = false;
  await run(list.metadata.resourceVersion);
  return {
    /** Starts a new phase: clears completion times and re-checks every known object. */
    phase(fn) {
      target = fn;
      doneAt.clear();
      for (const o of latest.values()) check(o);
    },
    doneAt,
    async waitAll(names, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (names.some((n) => !doneAt.has(n))) {
        if (Date.now() > deadline) return false;
        await new Promise((r) => { waiters.push(r); setTimeout(r, 1000); });
        waiters = [];
      }
      return true;
    },
    stop() { stopped = true; abort?.abort(); },
  };
}

// ------------------------------------------------------------------ deployer start-up alone
/**
 * CPU and peak RSS of the image's entry point `deploy` (bin/dcctl-entrypoint) for an RC that does not exist: the process
 * starts, loads its code and config, makes its first request (a 404) and exits. Median of 5,
 * through /usr/bin/time (rusage of the child).
 */
function deployerStartCost() {
  // The image's ENV, with the compile cache the process kubelet filled at its start.
  const image = processKubelet.imageEnv(processKubelet.imageDefaults(readFileSync(path.join(repo, 'Dockerfile'), 'utf8')), { compileCacheDir: path.join(clusterDir, 'compile-cache') });
  const runs = [];
  for (let i = 0; i < 5; i++) {
    // The environment the process kubelet gives a deployer pod, not this shell's: a
    // NODE_EXTRA_CA_CERTS bundle here would add its parsing (~40 ms).
    const env = {
      ...processKubelet.baseEnv({
        shimDir: path.join(clusterDir, 'process-kubelet-bin'), nodeDir: path.dirname(podNode.path), hostPath: process.env.PATH,
        home: os.tmpdir(), podName: 'bench-deployer-start', kubeconfig,
      }),
      ...image,
    };
    // What the process kubelet runs for a deployer pod: the image's entry point, whose `node` is
    // the process kubelet's link to podNode (first on the pod's PATH).
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S %M %e', path.join(repo, 'bin/dcctl-entrypoint'), 'deploy', '--deployment', 'bench-no-such-rc', '--namespace', 'default'], { env, encoding: 'utf8' });
    const last = (r.stderr ?? '').trim().split('\n').at(-1) ?? '';
    const [u, sys, kib, wall] = last.split(' ').map(Number);
    if (Number.isFinite(u)) runs.push({ cpu: u + sys, rss: kib * 1024, wall });
  }
  if (runs.length === 0) return undefined;
  const med = (f) => percentile(runs.map(f), 50);
  return { cpuSeconds: med((r) => r.cpu), rssBytes: med((r) => r.rss), wallSeconds: med((r) => r.wall), runs: runs.length };
}

// ------------------------------------------------------------------ one request's CPU to a Node.js client
/**
 * The CPU one API request costs a Node.js client like the controller (src/kube/rest.ts:
 * keep-alive HTTPS, JSON): a child process GETs the namespace `default` 300 times one after the
 * other, after 30 to warm up, and reports its own CPU time per request (process.cpuUsage). A GET
 * of a small object is the cheapest request there is, so this is a floor for the writes.
 */
function clientRequestCost() {
  const script = `import { loadRestConfig, RestClient } from ${JSON.stringify(pathToFileURL(path.join(repo, 'dist/kube/rest.js')).href)};
const rest = new RestClient(loadRestConfig(), 'dcctl-bench');
for (let i = 0; i < 30; i++) await rest.request('GET', '/api/v1/namespaces/default');
const n = 300;
const c0 = process.cpuUsage();
for (let i = 0; i < n; i++) await rest.request('GET', '/api/v1/namespaces/default');
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ cpuMs: (c.user + c.system) / 1000 / n, requests: n }));
process.exit(0);`;
  const r = spawnSync(podNode.path, ['--input-type=module', '-e', script], { env: { ...process.env, KUBECONFIG: kubeconfig }, encoding: 'utf8' });
  try {
    const cost = JSON.parse((r.stdout ?? '').trim().split('\n').at(-1) ?? '');
    return Number.isFinite(cost.cpuMs) ? cost : undefined;
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------------ waits a DC's parameters demand
/**
 * The time a DC's own parameters force a rollout to wait even if every pod were ready at once:
 * a first rollout (Recreate path, no hooks here) demands none; a rolling update sleeps
 * updatePeriodSeconds once per round of the rolling updater. The rounds are counted by running
 * the updater's own fencepost arithmetic (dist/deployer/rolling-updater.js) with pods that are
 * available as soon as they exist.
 */
async function demandedWaitMs(dc) {
  const { computeFenceposts, scaleUpTarget, scaleDownTarget } = await import(path.join(repo, 'dist/deployer/rolling-updater.js'));
  const p = dc.spec.strategy.rollingParams;
  const desired = dc.spec.replicas;
  const f = computeFenceposts(p.maxSurge, p.maxUnavailable, desired, desired);
  let oldR = desired;
  let newR = 0;
  let rounds = 0;
  let scales = 0;
  while ((newR !== desired || oldR !== 0) && rounds < 1000) {
    const up = scaleUpTarget(f, oldR, newR);
    if (up !== undefined && up !== newR) scales++;
    if (up !== undefined) newR = up;
    rounds++;
    if (oldR !== 0) {
      const down = scaleDownTarget(f, oldR, newR, newR);
      if (down !== undefined && down !== oldR) scales++;
      if (down !== undefined) oldR = down;
    }
  }
  // updateScales: the RC scale writes of the update, the least a rolling updater can make.
  return { create: 0, update: rounds * p.updatePeriodSeconds * 1000, updateRounds: rounds, updateScales: scales };
}

// ------------------------------------------------------------------ one comparison run
/**
 * A Deployment's counterpart of the DC write → RC latency: from the bench's create (first
 * rollout) or template patch (update) of each Deployment to kube-controller-manager's create of
 * the ReplicaSet for it (its first and second ReplicaSet, in order), in ms.
 */
function deploymentWriteToReplicaSet(namespace, events) {
  const writes = new Map(); // deployment → [create, patch] times
  const sets = new Map(); // deployment → ReplicaSet create times
  const add = (map, key, t) => { const list = map.get(key); if (list) list.push(t); else map.set(key, [t]); };
  for (const e of events) {
    const ref = e.objectRef ?? {};
    if (ref.namespace !== namespace || ref.subresource || (e.responseStatus?.code ?? 200) >= 300) continue;
    const t = Date.parse(e.requestReceivedTimestamp);
    if (ref.resource === 'deployments' && (e.verb === 'create' || e.verb === 'patch')) {
      const name = ref.name ?? e.requestURI?.split('?')[0].split('/').at(-1);
      if (name) add(writes, name, t);
    }
    if (ref.resource === 'replicasets' && e.verb === 'create' && e.userAgent?.includes('deployment-controller') && ref.name) {
      // A ReplicaSet is named <deployment>-<pod-template-hash>.
      const owner = ref.name.slice(0, ref.name.lastIndexOf('-'));
      add(sets, owner, t);
    }
  }
  const out = [];
  for (const [name, ws] of writes) {
    const cs = (sets.get(name) ?? []).sort((a, b) => a - b);
    ws.sort((a, b) => a - b).forEach((w, k) => { if (cs[k] !== undefined) out.push(cs[k] - w); });
  }
  return out;
}

/**
 * The Deployments' counterpart of the pod-less table's "first step → first new pod bound": from
 * the deployment controller's create of a new ReplicaSet (already scaled: its first step) to the
 * scheduler's binding of the ReplicaSet's first pod, by phase (a ReplicaSet created once the
 * template updates began belongs to the update).
 */
function deploymentRsToFirstBound(namespace, events, marks) {
  const rsCreated = new Map();
  const firstBound = new Map();
  for (const e of events) {
    const ref = e.objectRef ?? {};
    if (ref.namespace !== namespace || !ref.name || (e.responseStatus?.code ?? 200) >= 300) continue;
    const t = Date.parse(e.requestReceivedTimestamp);
    if (ref.resource === 'replicasets' && !ref.subresource && e.verb === 'create' && e.userAgent?.includes('deployment-controller')) rsCreated.set(ref.name, t);
    if (ref.resource === 'pods' && ref.subresource === 'binding') {
      const rs = ref.name.replace(/-[a-z0-9]{5}$/, '');
      if (!firstBound.has(rs) || t < firstBound.get(rs)) firstBound.set(rs, t);
    }
  }
  const updateFrom = marks.update ? Math.min(...marks.update.issued.values()) : Infinity;
  const out = { create: [], update: [] };
  for (const [rs, t] of rsCreated) if (firstBound.has(rs)) out[t >= updateFrom ? 'update' : 'create'].push(firstBound.get(rs) - t);
  return out;
}

/** Deployer-pod start costs of one DC run, from the process kubelet's log and the audit log. */
function deployerStartCosts(namespace, events, kubeletLogOffset) {
  const text = readFileSync(path.join(clusterDir, 'process-kubelet.log'), 'utf8').slice(kubeletLogOffset);
  const take = new Map();
  const slot = new Map();
  const start = new Map();
  const exit = new Map();
  for (const line of text.split('\n')) {
    const m = /^(\S+) ([^/\s]+)\/(\S+): (taking the pod|got a pod process slot|started pid|pid \d+ exited)/.exec(line);
    if (!m || m[2] !== namespace) continue;
    const t = Date.parse(m[1]);
    const map = { 'taking the pod': take, 'got a pod process slot': slot, 'started pid': start }[m[4]] ?? exit;
    if (!map.has(m[3])) map.set(m[3], t);
  }
  const created = new Map();
  const firstCall = new Map();
  const dcWritten = new Map(); // rc name → when the bench created (v1) or patched (v2) its DC
  const rcCreated = new Map();
  for (const e of events) {
    const ref = e.objectRef ?? {};
    if (ref.namespace !== namespace) continue;
    const t = Date.parse(e.requestReceivedTimestamp);
    if (ref.resource === 'deploymentconfigs' && !ref.subresource && (e.verb === 'create' || e.verb === 'patch')) {
      const name = ref.name ?? e.requestURI?.split('?')[0].split('/').at(-1);
      dcWritten.set(`${name}-${e.verb === 'create' ? 1 : 2}`, t);
    }
    if (e.verb === 'create' && ref.resource === 'replicationcontrollers' && e.userAgent?.startsWith('deploymentconfig-controller') && ref.name) {
      if (!rcCreated.has(ref.name)) rcCreated.set(ref.name, t);
    }
    if (e.verb === 'create' && ref.resource === 'pods' && !ref.subresource && e.userAgent?.startsWith('deploymentconfig-controller') && ref.name?.endsWith('-deploy')) {
      if (!created.has(ref.name)) created.set(ref.name, t);
    }
    if (e.userAgent?.startsWith('dcctl-deployer') && ref.resource === 'replicationcontrollers' && ref.name) {
      const pod = `${ref.name}-deploy`;
      if (!firstCall.has(pod) || firstCall.get(pod) > t) firstCall.set(pod, t);
    }
  }
  const d = { writeToRc: [], createToTake: [], slotWait: [], takeToStart: [], startToFirstCall: [], lifetime: [] };
  for (const [rc, t] of rcCreated) if (dcWritten.has(rc)) d.writeToRc.push(t - dcWritten.get(rc));
  for (const [pod, tc] of created) {
    if (take.has(pod)) d.createToTake.push(take.get(pod) - tc);
    // A pod that found a free slot has no "got a slot" line: it waited 0 ms.
    const granted = slot.get(pod) ?? take.get(pod);
    if (take.has(pod)) d.slotWait.push(granted - take.get(pod));
    if (take.has(pod) && start.has(pod)) d.takeToStart.push(start.get(pod) - granted);
    if (start.has(pod) && firstCall.has(pod)) d.startToFirstCall.push(firstCall.get(pod) - start.get(pod));
    if (start.has(pod) && exit.has(pod)) d.lifetime.push(exit.get(pod) - start.get(pod));
  }
  return d;
}

/**
 * Where a pod-less rollout's time goes, per rollout, from the audit log (request times) and the
 * bench's own marks (when it wrote each DC, when the watch saw it rolled out): DC write → RC
 * created (DC controller); RC created → the deployer controller's first write to it (its first
 * step, phase Running); first → last write of the deployer controller to the RC (the rollout's
 * steps: scaling, waiting for pods, updatePeriodSeconds); last write (phase Complete) → the DC
 * reported rolled out (the DC controller's status write and the watch).
 */
function inlineTimeline(namespace, events, marks) {
  const rcCreated = new Map();
  const rcWrites = new Map();
  for (const e of events) {
    const ref = e.objectRef ?? {};
    if (ref.namespace !== namespace || ref.resource !== 'replicationcontrollers' || !ref.name) continue;
    if (!e.userAgent?.startsWith('deploymentconfig-controller')) continue;
    const t = Date.parse(e.requestReceivedTimestamp);
    if (e.verb === 'create' && !ref.subresource) rcCreated.set(ref.name, t);
    if (e.verb === 'patch' && !ref.subresource) {
      if (!rcWrites.has(ref.name)) rcWrites.set(ref.name, []);
      rcWrites.get(ref.name).push(t);
    }
  }
  // When the scheduler bound each RC's first pod: the RC manager has seen the first scale.
  const firstBound = new Map();
  for (const e of events) {
    const ref = e.objectRef ?? {};
    if (ref.namespace !== namespace || ref.resource !== 'pods' || ref.subresource !== 'binding' || !ref.name) continue;
    const rc = ref.name.replace(/-[a-z0-9]{5}$/, '');
    const t = Date.parse(e.requestReceivedTimestamp);
    if (!firstBound.has(rc) || t < firstBound.get(rc)) firstBound.set(rc, t);
  }
  const series = () => ({ writeToRc: [], rcToFirstStep: [], firstStepToBound: [], steps: [], lastStepToDone: [], writesPerRc: [] });
  const d = { ...series(), byPhase: {} };
  for (const [phase, { issued, done, version }] of Object.entries(marks)) {
    const p = (d.byPhase[phase] = series());
    for (const [dc, at] of issued) {
      const rc = `${dc}-${version}`;
      const created = rcCreated.get(rc);
      // Patches of the new RC by our controller: the deployer controller's steps (the DC
      // controller updates RCs only to scale old ones after a rollout ended). Writes after the
      // next rollout of the DC began (this RC is then its `from`) are not this rollout's.
      const nextRollout = marks.update && version === 1 ? marks.update.issued.get(dc) : undefined;
      const writes = (rcWrites.get(rc) ?? [])
        .filter((t) => created !== undefined && t >= created && (nextRollout === undefined || t < nextRollout)).sort((a, b) => a - b);
      if (created === undefined || writes.length === 0 || !done.has(dc)) continue;
      for (const x of [d, p]) {
        x.writeToRc.push(created - at);
        x.rcToFirstStep.push(writes[0] - created);
        if (firstBound.has(rc)) x.firstStepToBound.push(firstBound.get(rc) - writes[0]);
        x.steps.push(writes.at(-1) - writes[0]);
        x.lastStepToDone.push(done.get(dc) - writes.at(-1));
        x.writesPerRc.push(writes.length);
      }
    }
  }
  return d;
}

/**
 * 409 Conflicts in `ns` per `client verb resource[/subresource]`, and for each, whose write it
 * lost to: the last successful write to the same object completed before the conflicting
 * request did. `own` means the client's own previous write (it decided on a cache that had not
 * seen that write yet); a client name means another client wrote in between.
 */
function classifyConflicts(events, ns) {
  const conflicts = {};
  const conflictCauses = {};
  const resourceOf = (e) => `${e.objectRef.resource}${e.objectRef.subresource ? `/${e.objectRef.subresource}` : ''}`;
  const writes = new Map();
  for (const e of events) {
    if (e.objectRef?.namespace !== ns || !['create', 'update', 'patch'].includes(e.verb) || !(e.responseStatus?.code < 300)) continue;
    const obj = `${e.objectRef.resource}/${e.objectRef.name}`;
    if (!writes.has(obj)) writes.set(obj, []);
    writes.get(obj).push(e);
  }
  for (const e of events) {
    if (e.responseStatus?.code !== 409 || e.objectRef?.namespace !== ns) continue;
    const client = clientOf(e.userAgent);
    const key = `${client} ${e.verb} ${resourceOf(e)}`;
    conflicts[key] = (conflicts[key] ?? 0) + 1;
    const done = Date.parse(e.stageTimestamp);
    let last;
    for (const w of writes.get(`${e.objectRef.resource}/${e.objectRef.name}`) ?? []) {
      const t = Date.parse(w.stageTimestamp);
      if (t <= done && (!last || t >= Date.parse(last.stageTimestamp))) last = w;
    }
    const cause = !last ? 'unknown' : clientOf(last.userAgent) === client ? 'own' : clientOf(last.userAgent);
    conflictCauses[key] ??= {};
    conflictCauses[key][cause] = (conflictCauses[key][cause] ?? 0) + 1;
  }
  return { conflicts, conflictCauses };
}

/** The create (phase `create`) or the template change (`update`) of one object of the kind. */
async function writeObject(kind, ns, name, phase) {
  if (phase === 'create') {
    if (isDc(kind)) await custom.createNamespacedCustomObject({ ...DC, namespace: ns, body: dcManifest(name) });
    else await appsApi.createNamespacedDeployment({ namespace: ns, body: deploymentManifest(name) });
    return;
  }
  const body = { spec: { template: podTemplate(name, 2) } };
  if (isDc(kind)) await custom.patchNamespacedCustomObject({ ...DC, namespace: ns, name, body }, mergePatch);
  else await appsApi.patchNamespacedDeployment({ name, namespace: ns, body }, mergePatch);
}

/** The watcher's phase predicate: one of `names` rolled out at `version`. */
function rolledOut(kind, names, version) {
  const wanted = new Set(names);
  return (o) => wanted.has(o.metadata.name) && (isDc(kind) ? dcDone(o, version) : deploymentDone(o, version));
}

/**
 * --warmup: rolls out warmupN objects of the kind (created, then updated), unmeasured, deletes them
 * and waits until their RCs or ReplicaSets and pods are gone, so that nothing of them is left to
 * the measured phases. Returns what the controller and kube-controller-manager used meanwhile.
 */
async function warmUp(kind, ns, watcher, controller) {
  const names = Array.from({ length: warmupN }, (_, i) => `warm-${String(i).padStart(4, '0')}`);
  const rollouts = 2 * warmupN;
  const sampler = new ProcSampler([
    { name: 'kcm', pid: pidOf('kube-controller-manager') },
    ...(controller ? [{ name: 'controller', pid: controller.child.pid }] : []),
  ]);
  const t0 = Date.now();
  for (const [phase, version] of [['create', 1], ['update', 2]]) {
    watcher.phase(rolledOut(kind, names, version));
    await pool(names, 20, (name) => writeObject(kind, ns, name, phase));
    if (!await watcher.waitAll(names, 120_000 + warmupN * 4_000)) throw new Error(`${kind}: the warm-up's ${warmupN} objects did not roll out`);
  }
  const seconds = (Date.now() - t0) / 1000;
  const proc = sampler.stop();
  await pool(names, 20, (name) => (isDc(kind)
    ? custom.deleteNamespacedCustomObject({ ...DC, namespace: ns, name })
    : appsApi.deleteNamespacedDeployment({ name, namespace: ns })));
  const gone = async () => {
    const [pods, owned] = await Promise.all([
      core.listNamespacedPod({ namespace: ns }),
      isDc(kind) ? core.listNamespacedReplicationController({ namespace: ns }) : appsApi.listNamespacedReplicaSet({ namespace: ns }),
    ]);
    return pods.items.length === 0 && owned.items.length === 0;
  };
  const deadline = Date.now() + 120_000;
  while (!await gone()) {
    if (Date.now() > deadline) throw new Error(`${kind}: the warm-up's objects were not deleted in 120 s`);
    await sleep(500);
  }
  // The controllers' last writes about them (events, status) settle before the measured window.
  await sleep(2000);
  log(`${kind}: warm-up of ${warmupN} objects (${rollouts} rollouts) in ${fmt.s(seconds)}; controller ${controller ? `${fmt.n((1000 * proc.controller.cpuSeconds) / rollouts, 0)} ms` : '-'}, KCM ${fmt.n((1000 * proc.kcm.cpuSeconds) / rollouts, 0)} ms CPU per rollout`);
  return { objects: warmupN, rollouts, seconds, cpu: { kcm: proc.kcm.cpuSeconds, ...(controller ? { controller: proc.controller.cpuSeconds } : {}) } };
}

async function runOne(kind, n) {
  const ns = await createNamespace(`bench-${kind}-${n}`);
  log(`${kind} N=${n}: namespace ${ns}`);
  const names = Array.from({ length: n }, (_, i) => `${isDc(kind) ? 'dc' : 'dep'}-${String(i).padStart(4, '0')}`);
  let controller;
  if (isDc(kind)) {
    controller = startController(ns, kind === 'dc-inline' ? ['--default-deployer=inline'] : []);
    await controller.ready();
  }
  const watcher = isDc(kind)
    ? await watchDone(`/apis/apps.openshift.io/v1/namespaces/${ns}/deploymentconfigs`, () => custom.listNamespacedCustomObject({ ...DC, namespace: ns }))
    : await watchDone(`/apis/apps/v1/namespaces/${ns}/deployments`, () => appsApi.listNamespacedDeployment({ namespace: ns }));
  const warmup = warmupN > 0 ? await warmUp(kind, ns, watcher, controller) : undefined;
  // The controller's counters so far (its start-up and the warm-up's rollouts and deletions): the
  // measured phases' figures are what they add.
  const metricsBefore = controller ? controllerQueueMetrics(await controller.metrics()) : undefined;
  const auditOffset = fileSize(auditLog);
  const kubeletLogOffset = fileSize(path.join(clusterDir, 'process-kubelet.log'));
  const sampler = new ProcSampler([
    { name: 'kcm', pid: pidOf('kube-controller-manager') },
    { name: 'kubelet', pid: pidOf('process-kubelet'), children: true },
    ...(controller ? [{ name: 'controller', pid: controller.child.pid }] : []),
  ]);
  const timeoutMs = 120_000 + n * 4_000;
  const phases = {};
  const marks = {};
  // The audit backend writes in batches: requests made before the measured phases (the
  // controller's start-up lists) can land after auditOffset. Only the phases' own requests count.
  const windowStart = Date.now();
  const profiler = args['apiserver-profile'] ? new ApiserverProfiler(path.resolve(args['apiserver-profile']), `${kind}-${n}`) : undefined;
  for (const [phase, version] of [['create', 1], ['update', 2]]) {
    watcher.phase(rolledOut(kind, names, version));
    const issued = new Map();
    const load = new LoadSampler(benchPids(controller), cores);
    const t0 = Date.now();
    await pool(names, 20, async (name) => {
      const at = Date.now();
      await writeObject(kind, ns, name, phase);
      issued.set(name, at);
    });
    const ok = await watcher.waitAll(names, timeoutMs);
    const lat = names.filter((x) => watcher.doneAt.has(x)).map((x) => watcher.doneAt.get(x) - issued.get(x));
    const end = Math.max(...watcher.doneAt.values());
    phases[phase] = { totalMs: end - t0, p50: percentile(lat, 50), p99: percentile(lat, 99), done: watcher.doneAt.size, ok, load: load.stop() };
    marks[phase] = { issued: new Map(issued), done: new Map(watcher.doneAt), version };
    log(`${kind} N=${n} ${phase}: ${watcher.doneAt.size}/${n} rolled out in ${fmt.s((end - t0) / 1000)} (p50 ${fmt.ms(phases[phase].p50)}, p99 ${fmt.ms(phases[phase].p99)})${ok ? '' : ' TIMED OUT'}; ${describeLoad(phases[phase].load, cores)}`);
  }
  const proc = sampler.stop();
  const profileFiles = await profiler?.stop();
  const profileEnd = Date.now();
  await sleep(1500); // the audit backend writes in batches
  const events = readAudit(auditLog, auditOffset).filter((e) => Date.parse(e.requestReceivedTimestamp) >= windowStart);
  const apiserverProfile = profileFiles ? apiserverProfileOf(profileFiles, events.filter((e) => Date.parse(e.requestReceivedTimestamp) <= profileEnd)) : undefined;
  watcher.stop();
  const counts = countByClientVerb(events);
  const { conflicts, conflictCauses } = classifyConflicts(events, ns);
  const ourClients = isDc(kind) ? ['dc-controller', 'deployer', 'kcm/replication-controller'] : ['kcm/deployment-controller', 'kcm/replicaset-controller'];
  const perVerb = {};
  for (const c of ourClients) for (const [verb, k] of Object.entries(counts[c] ?? {})) perVerb[verb] = (perVerb[verb] ?? 0) + k;
  const rollouts = 2 * n;
  let controllerMetrics;
  if (controller) {
    // Where the controller's time goes in the measured phases: syncs, their total duration, time
    // keys waited in the queue, requeues.
    controllerMetrics = metricsSince(controllerQueueMetrics(await controller.metrics()), metricsBefore);
    await controller.stop();
  }
  const startCosts = isDc(kind) ? deployerStartCosts(ns, events, kubeletLogOffset) : undefined;
  const inlineSteps = kind === 'dc-inline' ? inlineTimeline(ns, events, marks) : undefined;
  const writeToReplicaSet = kind === 'deploy' ? deploymentWriteToReplicaSet(ns, events) : undefined;
  const rsToFirstBound = kind === 'deploy' ? deploymentRsToFirstBound(ns, events, marks) : undefined;
  const namespaceDeleteSeconds = await deleteNamespaceAndWait(ns);
  const cpu = isDc(kind)
    ? { controller: proc.controller.cpuSeconds, deployers: proc.kubelet.childCpuSeconds, kcm: proc.kcm.cpuSeconds }
    : { kcm: proc.kcm.cpuSeconds };
  return {
    kind, n, ns, phases, counts, conflicts, conflictCauses, perVerb, rollouts, cpu,
    cpuTotal: Object.values(cpu).reduce((a, b) => a + b, 0),
    rss: isDc(kind)
      ? { controller: proc.controller.peakRss, deployersPeakSum: proc.kubelet.peakChildrenRss, deployerPeakOne: proc.kubelet.peakChildRss, deployersPeakSumPrivate: proc.kubelet.peakChildrenAnon, deployerPeakOnePrivate: proc.kubelet.peakChildAnon, maxDeployers: proc.kubelet.maxChildren, kcm: proc.kcm.peakRss }
      : { kcm: proc.kcm.peakRss },
    controllerMetrics, startCosts, inlineSteps, apiserverProfile, namespaceDeleteSeconds, writeToReplicaSet, rsToFirstBound, warmup,
    demandedWaitMs: isDc(kind) ? await demandedWaitMs(dcManifest(names[0])) : undefined,
  };
}

// ------------------------------------------------------------------ repeatability
/** What the Repeatability section needs of one run: each phase's total time and whether it finished. */
function repeatSummary(r, rep) {
  const phase = (ph) => ({ totalMs: r.phases[ph].totalMs, ok: r.phases[ph].ok });
  return { kind: r.kind, n: r.n, rep, create: phase('create'), update: phase('update') };
}

/**
 * The runs of each N again (--repeat): every run's totals, and per pair of a DC kind and the
 * Deployments run next to it, the ratio; then the least, median and largest ratio. One run's ratio
 * moves with the plane's state and the machine (tens of percent on this one), so a target is
 * judged on the spread, not on one run.
 */
function repeatabilitySection() {
  const L = [];
  const ns = [...new Set(repeats.map((r) => r.n))].filter((n) => new Set(repeats.filter((r) => r.n === n).map((r) => r.rep)).size > 1);
  if (!ns.length) return L;
  L.push('', '## Repeatability', '');
  L.push('Each N below 1000 ran more than once (`--repeat`): the first run is the one the tables above show; the others ran the kinds listed, in reversed order every other time, on the same plane, each after the previous run\'s namespace was gone. Total time of each phase, and the DC kind\'s ratio to the Deployments of the same repetition:', '');
  const present = [...dcKinds, 'deploy'].filter((k) => repeats.some((r) => r.kind === k && ns.includes(r.n)));
  const dcPresent = present.filter(isDc);
  L.push('| N | repetition | phase | ' + present.join(' | ') + ' | ' + dcPresent.map((k) => `${k} / deploy`).join(' | ') + ' |');
  L.push('|---|---|---|' + present.map(() => '---|').join('') + dcPresent.map(() => '---|').join(''));
  const ratios = {};
  for (const n of ns) {
    const reps = [...new Set(repeats.filter((r) => r.n === n).map((r) => r.rep))].sort((a, b) => a - b);
    for (const rep of reps) for (const ph of ['create', 'update']) {
      const of = (k) => repeats.find((r) => r.n === n && r.rep === rep && r.kind === k)?.[ph];
      const d = of('deploy');
      const cells = present.map((k) => (of(k) ? `${fmt.s(of(k).totalMs / 1000)}${of(k).ok ? '' : ' (timed out)'}` : ''));
      const rs = dcPresent.map((k) => {
        if (!of(k) || !d) return '';
        const key = `${n} ${ph} ${k}`;
        (ratios[key] ??= []).push(of(k).totalMs / d.totalMs);
        return fmt.ratio(of(k).totalMs, d.totalMs);
      });
      L.push(`| ${n} | ${rep + 1} | ${ph === 'create' ? 'first rollout' : 'template update'} | ${cells.join(' | ')} | ${rs.join(' | ')} |`);
    }
  }
  L.push('');
  for (const [key, xs] of Object.entries(ratios)) {
    if (xs.length < 2) continue;
    const [n, ph, kind] = key.split(' ');
    const sorted = [...xs].sort((a, b) => a - b);
    L.push(`- N=${n} ${kind} ${ph === 'create' ? 'first rollout' : 'template update'}: ${xs.length} runs, ratio ${sorted[0].toFixed(2)}× / ${percentile(sorted, 50).toFixed(2)}× / ${sorted.at(-1).toFixed(2)}× (least / median / largest)${sorted.at(-1) <= 1 ? ': ≤ 1.0× in every run' : sorted[0] <= 1 ? ': ≤ 1.0× in some runs, not in others' : ': over 1.0× in every run'}.`);
  }
  return L;
}

// ------------------------------------------------------------------ a deployer pod's floor
/** The processes a bare pod's life touches (kube-controller-manager, kwok and the bench driver left out). */
const PodFloorProcesses = ['kube-apiserver', 'etcd', 'kube-scheduler', 'process-kubelet', 'deployers'];

/**
 * What N deployer pods cost the plane when each has nothing to do: pods shaped like the
 * controller's deployer pods (the deployer-pod label, so the process kubelet runs them under the
 * same slot limit; a service account of their own, restartPolicy Never, grace 10 s) whose
 * container runs `node -e 0`, the start of any deployer written in Node.js and nothing more. They
 * are created 20 at a time, as the DC runs create their DCs. The CPU of the processes a pod's life
 * touches (PodFloorProcesses), less what the same processes use on the idle plane over as long
 * (sampled for 10 s before), is what no deployer pod in Node.js can cost less than on this plane
 * (podFloorLines).
 */
async function runPodFloor(n) {
  const ns = await createNamespace(`bench-podfloor-${n}`);
  await core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: 'deployer' } } });
  log(`pod floor N=${n}: namespace ${ns}`);
  const idle = new LoadSampler(benchPids(undefined), cores);
  await sleep(10_000);
  const idleLoad = idle.stop();
  const names = Array.from({ length: n }, (_, i) => `floor-${String(i).padStart(4, '0')}-deploy`);
  const watcher = await watchDone(`/api/v1/namespaces/${ns}/pods`, () => core.listNamespacedPod({ namespace: ns }));
  watcher.phase((pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed');
  const load = new LoadSampler(benchPids(undefined), cores);
  const t0 = Date.now();
  await pool(names, 20, async (name) => {
    await core.createNamespacedPod({
      namespace: ns,
      body: {
        metadata: { name, labels: { [processKubelet.DeployerPodLabel]: name.replace(/-deploy$/, '') } },
        spec: {
          containers: [{ name: 'deployment', image: 'dcctl:local', command: ['node', '-e', '0'], terminationMessagePolicy: 'FallbackToLogsOnError', imagePullPolicy: 'IfNotPresent' }],
          restartPolicy: 'Never', serviceAccountName: 'deployer', terminationGracePeriodSeconds: 10, activeDeadlineSeconds: 21600,
        },
      },
    });
  });
  const ok = await watcher.waitAll(names, 120_000 + n * 2_000);
  const end = Math.max(t0, ...watcher.doneAt.values());
  const phase = load.stop();
  watcher.stop();
  const failed = (await core.listNamespacedPod({ namespace: ns })).items.filter((p) => p.status?.phase !== 'Succeeded').length;
  await deleteNamespaceAndWait(ns);
  const idlePerSecond = Object.fromEntries(Object.entries(idleLoad.cpuByProcess).map(([k, v]) => [k, v / idleLoad.seconds]));
  const net = Object.fromEntries(PodFloorProcesses.map((k) => [k, Math.max(0, (phase.cpuByProcess[k] ?? 0) - (idlePerSecond[k] ?? 0) * phase.seconds)]));
  const result = { n, ns, totalMs: end - t0, done: watcher.doneAt.size, ok, failed, load: phase, idlePerSecond, cpuByProcess: net, cpu: Object.values(net).reduce((a, b) => a + b, 0) };
  log(`pod floor N=${n}: ${result.done}/${n} pods ended in ${fmt.s(result.totalMs / 1000)} (${failed} not Succeeded); ${fmt.n((1000 * result.cpu) / n, 0)} ms CPU per pod over the idle plane (${PodFloorProcesses.map((k) => `${k} ${fmt.n((1000 * net[k]) / n, 1)}`).join(', ')})`);
  return result;
}

/**
 * --dc-floor (default on): after the kinds of an N, N DCs rolled out by the floor controller
 * (bench/floor-controller.mjs, in this process), with the same warm-up and phases as the other
 * kinds: the writes the RC contract cannot do without, one DC status write per rollout, no events,
 * and no CPU of its own counted (it is the bench driver's). What the plane spends on them is the
 * part of a pod-less rollout that no DC controller avoids (dcFloorOf).
 */
async function runDcFloor(n) {
  const ns = await createNamespace(`bench-dcfloor-${n}`);
  log(`DC floor N=${n}: namespace ${ns}`);
  // Loaded here: it imports the built controller code (dist/), which --help and --report-only do not need.
  const { FloorController, planeClient } = await import('./floor-controller.mjs');
  const client = planeClient(kubeconfig, 'dc-floor');
  const floor = new FloorController(client, ns);
  await floor.ready();
  const watcher = await watchDone(`/apis/apps.openshift.io/v1/namespaces/${ns}/deploymentconfigs`, () => custom.listNamespacedCustomObject({ ...DC, namespace: ns }));
  const phases = {};
  try {
    if (warmupN > 0) await warmUp('dc-floor', ns, watcher, undefined);
    const names = Array.from({ length: n }, (_, i) => `dc-${String(i).padStart(4, '0')}`);
    for (const [phase, version] of [['create', 1], ['update', 2]]) {
      watcher.phase(rolledOut('dc-floor', names, version));
      const load = new LoadSampler(benchPids(undefined), cores);
      const t0 = Date.now();
      await pool(names, 20, (name) => writeObject('dc-floor', ns, name, phase));
      const ok = await watcher.waitAll(names, 120_000 + n * 4_000);
      phases[phase] = { totalMs: Math.max(t0, ...watcher.doneAt.values()) - t0, done: watcher.doneAt.size, ok, load: load.stop() };
      log(`DC floor N=${n} ${phase}: ${watcher.doneAt.size}/${n} rolled out in ${fmt.s(phases[phase].totalMs / 1000)}${ok ? '' : ' TIMED OUT'}; ${describeLoad(phases[phase].load, cores)}`);
    }
  } finally {
    watcher.stop();
    floor.stop();
  }
  if (floor.errors.length) throw floor.errors[0];
  await deleteNamespaceAndWait(ns);
  return { n, ns, phases };
}

/**
 * What the floor (runDcFloor) says of the pod-less time target in phase `ph`: the plane's CPU for
 * the floor's DCs (every process but the bench driver, which runs the floor controller) against
 * the Deployments' (every process but the bench driver: their controllers are kube-controller-
 * manager's), and against the pod-less run's (our controller included). In a phase bound by the
 * CPU, time follows CPU: a floor above the Deployments' CPU means that no DC controller, however
 * cheap, makes the phase as short; below it, the difference is what a controller may cost (its
 * own CPU and the plane's for what it writes beyond the floor's writes).
 */
function dcFloorOf(n, v, ph) {
  const floor = dcFloors.find((f) => f.n === n);
  const inline = v['dc-inline'];
  const { deploy } = v;
  const f = floor?.phases[ph]?.load;
  const d = deploy?.phases[ph]?.load;
  const i = inline?.phases[ph]?.load;
  if (!f?.cpuByProcess || !d?.cpuByProcess || !i?.cpuByProcess) return undefined;
  const sum = (l, skip) => Object.entries(l.cpuByProcess).filter(([k]) => !skip.includes(k)).reduce((a, [, x]) => a + x, 0);
  const per = (x) => (1000 * x) / n;
  const floorCpu = sum(f, ['bench']);
  const deployCpu = sum(d, ['bench']);
  const ours = i.cpuByProcess.controller ?? 0;
  const inlinePlane = sum(i, ['bench', 'controller']);
  // The client CPU of the floor's own writes, for a controller in Node.js (cpuBudgetOf's floor).
  const nodeMs = cpuBudgetOf(n, inline, deploy, ph)?.floor;
  const roomMs = per(deployCpu - floorCpu);
  return {
    reach: roomMs <= 0 ? 'any' : nodeMs !== undefined && roomMs < nodeMs ? 'node' : 'open',
    nodeMs,
    cpuBound: Math.min(f.machineBusyCores, d.machineBusyCores) >= 0.9 * cores,
    busy: [f.machineBusyCores, d.machineBusyCores],
    time: floor.phases[ph].totalMs / deploy.phases[ph].totalMs,
    ratio: floorCpu / deployCpu,
    floorCpu, deployCpu,
    apiserver: [f.cpuByProcess['kube-apiserver'] ?? 0, d.cpuByProcess['kube-apiserver'] ?? 0],
    roomMs,
    oursMs: per(ours),
    beyondMs: per(inlinePlane - floorCpu),
  };
}

function dcFloorLines(n, v) {
  const out = [];
  for (const ph of ['create', 'update']) {
    const b = dcFloorOf(n, v, ph);
    if (!b) continue;
    const label = ph === 'create' ? 'first rollout' : 'template update';
    const head = `N=${n} pod-less ${label}, the floor (DCs rolled out by a controller that writes only what the RC contract needs and whose CPU is not counted, Setup): ${fmt.s(b.floorCpu)} of the plane's CPU (kube-apiserver ${fmt.s(b.apiserver[0])}) against the Deployments' ${fmt.s(b.deployCpu)} (kube-apiserver ${fmt.s(b.apiserver[1])}), ${fmt.n(b.ratio, 2)}×, and ${fmt.n(b.time, 2)}× their time`;
    if (!b.cpuBound) {
      out.push(`${head}; the phases were not bound by the CPU (${fmt.n(b.busy[0], 2)} and ${fmt.n(b.busy[1], 2)} of ${cores} cores busy), so the floor's time is what the fewest writes and a free controller reach on this plane.`);
    } else if (b.reach === 'any') {
      out.push(`${head}. The phases were bound by the CPU: **≤ 1.0× is out of reach here for any DC controller**, even one that costs nothing; our controller used ${fmt.n(b.oursMs, 1)} ms per rollout, and the plane ${fmt.n(b.beyondMs, 1)} ms more for what it writes beyond the floor (the latestVersion and progress status writes, the events).`);
    } else if (b.reach === 'node') {
      out.push(`${head}. The phases were bound by the CPU: the floor leaves ${fmt.n(b.roomMs, 1)} ms of CPU per rollout for a controller, less than a controller in Node.js spends on the floor's own writes (${fmt.n(b.nodeMs, 1)} ms, CPU budget below): **≤ 1.0× is out of reach here for a controller in Node.js**; ours used ${fmt.n(b.oursMs, 1)} ms, and the plane ${fmt.n(b.beyondMs, 1)} ms more for what it writes beyond the floor (the latestVersion and progress status writes, the events).`);
    } else {
      out.push(`${head}. The phases were bound by the CPU: the floor leaves ${fmt.n(b.roomMs, 1)} ms of CPU per rollout for a controller (its own CPU and what the plane spends on its writes beyond the floor's); ours used ${fmt.n(b.oursMs, 1)} ms, and the plane ${fmt.n(b.beyondMs, 1)} ms more for what it writes beyond the floor (the latestVersion and progress status writes, the events): ≤ 1.0× is not ruled out by the floor.`);
    }
  }
  return out;
}

/**
 * Whether deployer pods could roll out N DCs in at most 3× the Deployments' time (issue #16's
 * target for the pod mode). At 3× the Deployments' first rollout time the plane's cores offer
 * 3 × T × cores CPU seconds. A lower bound for the pod mode's CPU: the pod-less phase's CPU
 * without our controller (the RCs, their pods, the DC writes, which the pod mode needs as well)
 * plus N bare deployer pods (runPodFloor). A bound above the offer rules the target out for any
 * controller whose deployer pods run Node.js on this plane, whatever the deployer does.
 */
/** The figures of podFloorLines: the CPU that 3× offers, the lower bound, what the run spent. */
function podFloorOf(v, floor) {
  const { dc, deploy } = v;
  const inline = v['dc-inline'];
  const ph = 'create';
  const sum = (o, skip = []) => Object.entries(o ?? {}).filter(([k]) => !skip.includes(k)).reduce((a, [, x]) => a + x, 0);
  const offer = 3 * (deploy.phases[ph].totalMs / 1000) * cores;
  const podless = sum(inline.phases[ph].load?.cpuByProcess, ['controller']);
  const bound = podless + floor.cpu;
  return { offer, podless, bound, measured: sum(dc.phases[ph].load?.cpuByProcess) };
}

function podFloorLines(n, v, floor) {
  const { dc, deploy } = v;
  const inline = v['dc-inline'];
  if (!floor || !dc || !deploy || !inline) return [];
  const out = [];
  const ph = 'create';
  const { offer, podless, bound, measured } = podFloorOf(v, floor);
  const per = (x) => `${fmt.n((1000 * x) / n, 0)} ms`;
  const byProc = PodFloorProcesses.map((k) => `${k === 'deployers' ? '`node -e 0`' : k} ${per(floor.cpuByProcess[k] ?? 0)}`).join(', ');
  const verdict = bound > offer
    ? `**more than the offer: ≤ 3× is out of reach here for deployer pods that run Node.js**, whatever the controller and the deployer do (a deployer needs at least its process's start; the pods need the plane's work for each).`
    : `within the offer by ${fmt.s(offer - bound)}: ≤ 3× is not ruled out; the deployer-pod run spent ${fmt.s(measured)} (${fmt.s(measured - bound)} over the bound).`;
  out.push(`N=${n} deployer pods, first rollout, ≤ 3× the Deployments' time: at 3 × ${fmt.s(deploy.phases[ph].totalMs / 1000)} the ${cores} cores offer ${fmt.s(offer)} of CPU. Lower bound: the pod-less phase without our controller ${fmt.s(podless)} (the RCs, their pods and the DC writes, which deployer pods need as well) + ${n} bare deployer pods ${fmt.s(floor.cpu)} (measured in this run: pods shaped like deployer pods running \`node -e 0\`, ${per(floor.cpu)} each over the idle plane: ${byProc}${floor.failed ? `; ${floor.failed} did not succeed` : ''}) = ${fmt.s(bound)}: ${verdict}`);
  return out;
}

/**
 * The whole plane's CPU in each measured phase, by process: whether a phase was bound by the
 * machine's cores, and where a DC side's extra CPU went (kube-apiserver and etcd included,
 * which the per-side CPU table leaves out).
 */
function planeCpuSection(byN) {
  const procs = [['kube-apiserver', 'kube-apiserver'], ['etcd', 'etcd'], ['kube-controller-manager', 'KCM'], ['controller', 'our controller'],
    ['deployers', 'deployer processes'], ['kube-scheduler', 'scheduler'], ['kwok', 'kwok'], ['process-kubelet', 'process kubelet'], ['bench', 'bench driver']];
  const rows = [];
  const sums = [];
  for (const [n, v] of byN) for (const kind of [...dcKinds, 'deploy', 'dc-floor']) {
    // The floor's controller runs in the bench driver (runDcFloor).
    const r = kind === 'dc-floor' ? dcFloors.find((f) => f.n === n) : v[kind];
    if (!r) continue;
    for (const ph of ['create', 'update']) {
      const l = r.phases[ph]?.load;
      if (!l?.cpuByProcess) continue;
      const total = Object.values(l.cpuByProcess).reduce((a, b) => a + b, 0);
      rows.push(`| ${n} | ${ph === 'create' ? 'first rollout' : 'template update'} | ${kind} | ${fmt.s(l.seconds)} | ${procs.map(([k]) => fmt.n(l.cpuByProcess[k] ?? 0, 2)).join(' | ')} | ${fmt.n(total, 2)} | ${fmt.n((1000 * (l.cpuByProcess['kube-apiserver'] ?? 0)) / n, 0)} ms | ${fmt.n(l.machineBusyCores, 2)} of ${cores} |`);
      sums.push({ n, kind, ph, seconds: l.seconds, total, busy: l.machineBusyCores, by: l.cpuByProcess });
    }
  }
  if (!rows.length) return [];
  const L = ['', '### The whole plane\'s CPU in each phase', ''];
  L.push(`CPU seconds used during each measured phase (from its first request to its last object rolled out, so slightly longer than the "total" above) by every process of the bench, read from /proc/<pid>/stat; "cores busy" is the whole machine's from /proc/stat. A phase whose cores busy is close to ${cores} was bound by the CPU: its time is its CPU demand divided by the cores, and a side that needs more CPU (in any process, kube-apiserver and etcd included) takes longer in proportion.${dcFloors.length ? ' The kind dc-floor is the floor (Setup): its controller runs in the bench driver.' : ''}`, '');
  L.push(`| N | phase | kind | phase time | ${procs.map(([, label]) => label).join(' | ')} | sum | kube-apiserver per object | cores busy |`);
  L.push(`|${'---|'.repeat(procs.length + 7)}`);
  L.push(...rows);
  L.push('');
  for (const s of sums.filter((x) => x.kind !== 'deploy')) {
    const d = sums.find((x) => x.kind === 'deploy' && x.n === s.n && x.ph === s.ph);
    if (!d) continue;
    const diff = (k) => (s.by[k] ?? 0) - (d.by[k] ?? 0);
    const parts = procs.map(([k, label]) => [label, diff(k)]).filter(([, x]) => Math.abs(x) >= 0.05).sort((a, b) => b[1] - a[1]);
    L.push(`- N=${s.n} ${s.kind} ${s.ph === 'create' ? 'first rollout' : 'template update'}: ${fmt.n(s.total, 1)} CPU s in ${fmt.s(s.seconds)} (${fmt.n(s.busy, 2)} cores busy) against the Deployments' ${fmt.n(d.total, 1)} CPU s in ${fmt.s(d.seconds)} (${fmt.n(d.busy, 2)} busy): ${fmt.ratio(s.total, d.total)} the CPU, ${fmt.ratio(s.seconds, d.seconds)} the time. The difference by process: ${parts.map(([label, x]) => `${label} ${x >= 0 ? '+' : ''}${fmt.n(x, 2)} s`).join(', ') || 'none'}.`);
  }
  return L;
}

/**
 * --apiserver-profile DIR: kube-apiserver CPU profiles (`/debug/pprof/profile`, 5 s each, one
 * after the other) for the measured phases of one result kind, saved as DIR/<kind>-<n>-<i>.pb.gz.
 * The last one ends up to 5 s after the phases; the requests counted with them use the same span.
 */
class ApiserverProfiler {
  constructor(dir, prefix) {
    mkdirSync(dir, { recursive: true });
    this.files = [];
    this.stopped = false;
    this.loop = (async () => {
      for (let i = 0; !this.stopped; i++) {
        const file = path.join(dir, `${prefix}-${String(i).padStart(3, '0')}.pb.gz`);
        const ok = await new Promise((resolve) => {
          const child = spawn('kubectl', ['--kubeconfig', kubeconfig, 'get', '--raw', '/debug/pprof/profile?seconds=5'], { stdio: ['ignore', 'pipe', 'ignore'] });
          const chunks = [];
          child.stdout.on('data', (c) => chunks.push(c));
          child.on('close', (code) => {
            if (code === 0 && chunks.length) writeFileSync(file, Buffer.concat(chunks));
            resolve(code === 0 && chunks.length > 0);
          });
        });
        if (ok) this.files.push(file);
        else await sleep(500);
      }
    })();
  }

  async stop() {
    this.stopped = true;
    await this.loop;
    return this.files;
  }
}

/** The profiles' CPU by category (apiserver-profile.mjs) and the requests of the same span, by kind. */
function apiserverProfileOf(files, events) {
  const summary = summarizeProfiles(files);
  if (!summary) return undefined;
  const requests = { dcStatusWrites: 0, otherDcRequests: 0, nativeWrites: 0, reads: 0 };
  for (const e of events) {
    const o = e.objectRef ?? {};
    if (e.verb === 'watch') continue;
    const write = ['create', 'update', 'patch', 'delete', 'deletecollection'].includes(e.verb);
    if (o.resource === 'deploymentconfigs') {
      if (o.subresource === 'status' && write) requests.dcStatusWrites++;
      else requests.otherDcRequests++;
    } else if (write) requests.nativeWrites++;
    else requests.reads++;
  }
  return { ...summary, requests, files: files.length };
}

const DcStatusWrites = 'DeploymentConfig status writes';
const NativeWrites = ApiserverCategories.map(([name]) => name).find((c) => c.startsWith('native writes'));

/** kube-apiserver's CPU per DC status write and per native write in a profile (ms); undefined without such writes. */
function msPerWrite(p) {
  const per = (cat, count) => (count ? (1000 * (p?.byCategory[cat] ?? 0)) / count : undefined);
  return { dcStatus: per(DcStatusWrites, p?.requests?.dcStatusWrites), native: per(NativeWrites, p?.requests?.nativeWrites) };
}

/** kube-apiserver's CPU by kind of work, each result kind against the Deployments of its N. */
function apiserverProfileSection(byN) {
  const L = [];
  for (const [n, v] of byN) {
    const kinds = [...dcKinds, 'deploy'].filter((k) => v[k]?.apiserverProfile);
    if (!kinds.length) continue;
    if (!L.length) {
      L.push('', '### Where kube-apiserver\'s CPU goes', '');
      L.push('From CPU profiles of kube-apiserver (`npm run bench -- --apiserver-profile DIR`: `/debug/pprof/profile`, 5 s at a time through both measured phases of each kind; bench/apiserver-profile.mjs puts each sampled stack in the first category it matches). CPU seconds (per rollout); the request counts are those of the same span, from the audit log.', '');
    }
    L.push(`| N=${n} | ${kinds.map((k) => k).join(' | ')} |`);
    L.push(`|---|${kinds.map(() => '---|').join('')}`);
    const cats = [...ApiserverCategories.map(([name]) => name), ApiserverOther];
    const cell = (r, x) => `${fmt.n(x, 2)} s (${fmt.n((1000 * x) / r.rollouts, 1)} ms)`;
    for (const c of cats) L.push(`| ${c} | ${kinds.map((k) => cell(v[k], v[k].apiserverProfile.byCategory[c] ?? 0)).join(' | ')} |`);
    L.push(`| total sampled | ${kinds.map((k) => cell(v[k], v[k].apiserverProfile.total)).join(' | ')} |`);
    L.push('');
    for (const k of kinds) {
      const p = v[k].apiserverProfile;
      const ms = msPerWrite(p);
      const each = (x) => (x === undefined ? 'none' : `${fmt.n(x, 2)} ms each`);
      L.push(`- N=${n} ${k}: ${p.requests.dcStatusWrites} DeploymentConfig status writes (${each(ms.dcStatus)}), ${p.requests.nativeWrites} native writes (${each(ms.native)}), ${p.requests.otherDcRequests} other DeploymentConfig requests, ${p.requests.reads} reads; ${p.files} profile${p.files === 1 ? '' : 's'}.`);
    }
    L.push('');
  }
  return L;
}

// ------------------------------------------------------------------ idle figures
/**
 * 1000 DCs with 3 RCs each, made cheaply: one DC is rolled out 3 times by the real controller
 * (replicas 0, so the deployer processes have nothing to wait for), then its DC, status and
 * RCs are cloned under other names. The controller is then restarted on them: its initial
 * sync of every DC and RC is a full resync of an idle system; then a periodic resync (every
 * 30 s here) is observed too. Writes must be zero throughout.
 */
async function idleRun(count) {
  const ns = await createNamespace('bench-idle');
  log(`idle: namespace ${ns}; making DC 0000 with 3 RCs`);
  const proto = 'idle-0000';
  let controller = startController(ns);
  await controller.ready();
  const m0 = dcManifest(proto);
  m0.spec.replicas = 0;
  await custom.createNamespacedCustomObject({ ...DC, namespace: ns, body: m0 });
  const waitVersion = async (v) => {
    for (let i = 0; i < 600; i++) {
      const dc = await custom.getNamespacedCustomObject({ ...DC, namespace: ns, name: proto });
      const p = (dc.status?.conditions ?? []).find((c) => c.type === 'Progressing');
      if (dc.status?.latestVersion === v && p?.reason === 'NewReplicationControllerAvailable' && p.message?.includes(`-${v}"`)) return dc;
      await sleep(250);
    }
    throw new Error(`idle prototype did not reach version ${v}`);
  };
  await waitVersion(1);
  for (const v of [2, 3]) {
    await custom.patchNamespacedCustomObject({ ...DC, namespace: ns, name: proto, body: { spec: { template: podTemplate(proto, v) } } }, mergePatch);
    await waitVersion(v);
  }
  await sleep(2000);
  await controller.stop();
  const dc = await custom.getNamespacedCustomObject({ ...DC, namespace: ns, name: proto });
  const rcs = (await core.listNamespacedReplicationController({ namespace: ns })).items.map((r) => JSON.parse(JSON.stringify(r)));
  if (rcs.length !== 3) throw new Error(`prototype has ${rcs.length} RCs, want 3`);
  log(`idle: cloning to ${count} DCs and ${count * 3} RCs`);
  const strip = (o) => {
    delete o.metadata.uid; delete o.metadata.resourceVersion; delete o.metadata.creationTimestamp;
    delete o.metadata.managedFields; delete o.metadata.generation; delete o.status;
    return o;
  };
  const clone = (obj, name) => JSON.parse(JSON.stringify(obj).split(proto).join(name));
  await pool(Array.from({ length: count - 1 }, (_, i) => `idle-${String(i + 1).padStart(4, '0')}`), 16, async (name) => {
    const body = strip(clone({ apiVersion: dc.apiVersion, kind: dc.kind, metadata: { name, labels: dc.metadata.labels, annotations: dc.metadata.annotations }, spec: dc.spec }, name));
    const created = await custom.createNamespacedCustomObject({ ...DC, namespace: ns, body });
    const status = clone(dc.status, name);
    status.observedGeneration = created.metadata.generation;
    await custom.replaceNamespacedCustomObjectStatus({ ...DC, namespace: ns, name, body: { ...created, status } });
    for (const rc of rcs) {
      const body2 = strip(clone(rc, name));
      body2.metadata.ownerReferences = (body2.metadata.ownerReferences ?? []).map((r) => ({ ...r, uid: created.metadata.uid }));
      await core.createNamespacedReplicationController({ namespace: ns, body: body2 });
    }
  });
  // Baseline: an idle controller watching an empty namespace.
  const emptyNs = await createNamespace('bench-empty');
  const empty = startController(emptyNs);
  await empty.ready();
  await sleep(5000);
  const baseRss = rssBytes(empty.child.pid);
  await empty.stop();
  await core.deleteNamespace({ name: emptyNs }).catch(() => undefined);

  const resyncSeconds = 30;
  controller = startController(ns, [`--resync-period=${resyncSeconds}`]);
  const t0 = Date.now();
  await controller.ready();
  const syncs = async () => {
    const m = await controller.metrics();
    return {
      syncs: sumMetric(m, 'dcctl_sync_duration_seconds_count'),
      dcSyncs: sumMetric(m, 'dcctl_sync_duration_seconds_count', (l) => l.controller === 'deploymentconfig'),
      writes: sumMetric(m, 'dcctl_api_requests_total', (l) => !['get', 'list', 'watch'].includes(l.verb)),
      writesBy: m.filter((s) => s.name === 'dcctl_api_requests_total' && !['get', 'list', 'watch'].includes(s.labels.verb) && s.value > 0)
        .map((s) => `${s.labels.verb} ${s.labels.resource}: ${s.value}`),
      depth: sumMetric(m, 'workqueue_depth'),
    };
  };
  // Initial sync = full resync of 4000 objects: wait until the queues are empty and syncs stop.
  let last = await syncs();
  const readyAt = Date.now();
  let stableSince = Date.now();
  let firstDrainedAt;
  while (Date.now() - stableSince < 3000) {
    await sleep(250);
    const s = await syncs();
    if (s.syncs !== last.syncs || s.depth > 0) stableSince = Date.now();
    else firstDrainedAt ??= Date.now();
    if (s.syncs !== last.syncs || s.depth > 0) firstDrainedAt = undefined;
    last = s;
  }
  const initial = { ...last, seconds: ((firstDrainedAt ?? Date.now()) - readyAt) / 1000, startToReady: (readyAt - t0) / 1000 };
  const rssAfterInitial = rssBytes(controller.child.pid);
  log(`idle: initial sync ${initial.syncs} syncs in ${fmt.s(initial.seconds)}, writes ${initial.writes}`);
  // Periodic resyncs: observe two resync periods.
  const p0 = await syncs();
  const sampler = new ProcSampler([{ name: 'controller', pid: controller.child.pid }]);
  const obsMs = resyncSeconds * 2 * 1000 + 2000;
  await sleep(obsMs);
  const p1 = await syncs();
  const proc = sampler.stop();
  const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${controller.child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  const resync = { syncs: p1.syncs - p0.syncs, writes: p1.writes - p0.writes, writesBy: p1.writesBy, cpuSeconds: proc.controller.cpuSeconds, seconds: obsMs / 1000 };
  log(`idle: periodic resyncs: ${resync.syncs} syncs, ${resync.writes} writes, ${fmt.n(resync.cpuSeconds, 2)} CPU s over ${resync.seconds} s`);
  const rss = rssBytes(controller.child.pid);
  await controller.stop();
  await core.deleteNamespace({ name: ns }).catch(() => undefined);
  return { count, ns, initial, resync, resyncSeconds, baseRss, rssAfterInitial, rss, hwm, peakDuringResync: proc.controller.peakRss };
}

// ------------------------------------------------------------------ report
function verbsLine(perVerb, rollouts) {
  return Object.entries(perVerb).sort((a, b) => b[1] - a[1]).map(([v, k]) => `${v} ${fmt.n(k / rollouts, 1)}`).join(', ');
}

/** Requests per rollout of a run: all its controllers', or one client's. */
const requestsPerRollout = (r) => Object.values(r.perVerb).reduce((a, b) => a + b, 0) / r.rollouts;
const clientRequestsPerRollout = (r, client) => Object.values(r.counts[client] ?? {}).reduce((a, b) => a + b, 0) / r.rollouts;
/** 409s of our controller and deployers in a run (all of its rollouts). */
const ourConflicts = (r) => Object.entries(r.conflicts ?? {}).filter(([k]) => k.startsWith('dc-controller ') || k.startsWith('deployer ')).reduce((a, [, c]) => a + c, 0);

/** The results by N, then by kind. */
function byNOf(results) {
  const byN = new Map();
  for (const r of results) {
    if (!byN.has(r.n)) byN.set(r.n, {});
    byN.get(r.n)[r.kind] = r;
  }
  return byN;
}

function report(results, idle, skipped) {
  const L = [];
  L.push('# Benchmarks', '');
  L.push(`Generated by \`npm run bench\` (bench/bench.mjs) on ${started.toISOString().slice(0, 16)}Z: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memGiB} GiB; the controller and the deployer pods ran Node.js ${podNode.version} (${podNode.version === machine.benchNode ? 'the bench\'s own' : 'the image\'s major, from the npm registry; the bench driver and the process kubelet ran ' + machine.benchNode}).`);
  L.push('Do not edit by hand: rerun the benchmark.', '');
  L.push(`![DC vs Deployment](${outName}.svg)`, '');
  L.push(...targetsSection(byNOf(results), idle));
  L.push('## Setup', '');
  L.push(`- A local control plane of its own (hack/local-cluster.sh with LOCAL_CLUSTER_DIR=${clusterDir}): etcd, kube-apiserver with an audit log, kube-controller-manager (deployment, replicaset and replicationcontroller controllers, 5 workers each), kube-scheduler, kwok with 3 nodes of 2000 pods each and a pod readiness delay of ${readyDelayMs} ms, and the process kubelet running each deployer pod as a local process, what the image runs (its entry point bin/dcctl-entrypoint: \`node --use-openssl-ca bin/dcctl.js deploy\`), at most ${maxPods} at once (PROCESS_KUBELET_MAX_PODS).`);
  L.push(`- Deployer process slots (the bench's default ${DefaultMaxPods}, \`--max-pods\`): the process kubelet is one node running every deployer pod on the same 2 cores as the control plane, so its limit is what those cores sustain, not a kubelet's default of 110 pods (a real node runs its deployers on cores of its own). Measured at N=100 with deployer pods, one run each: with 8 slots rollouts waited for a slot a median 16.7 s (p90 53 s), with 16 a median 7.2 s (p90 25 s); with either the first rollout phase kept both cores busy (1.96 of 2) and the template update left ~0.3 cores idle, so 16 shortens the queue without starving the plane. With 110 (a kubelet's default) all 100 deployers ran at once and each waited longer on the shared RC manager and API server: deployer CPU per rollout rose from 134 to 192 ms and both phases took longer (in a run where other processes took 0.6–1.0 cores). At N=1000 the slots bound the throughput: 8 slots and ~3.6 s per deployer pod allow at most ~2.2 rollouts/s, 16 about twice that.`);
  L.push(`- N objects of ${replicas} replicas each, Rolling/RollingUpdate with maxSurge 25% and maxUnavailable 25%, created 20 at a time; once all are rolled out, every template is changed once (second rollout). DCs use OpenShift's default intervalSeconds/updatePeriodSeconds of 1 s.`);
  L.push('- DC side, two result kinds: `dc` is `dcctl controller --namespace <ns>` (5 workers) + deployer processes (one deployer pod per rollout) + kube-controller-manager\'s RC controller (it creates the pods of RCs); `dc-inline` is the same controller with `--default-deployer=inline`: pod-less rollouts run by the deployer controller itself (docs/design.md §6.8), no deployer pods. Deployment side (`deploy`): kube-controller-manager\'s deployment and replicaset controllers. The three run one after the other on the same plane, in one run.');
  const deletes = results.filter((r) => r.namespaceDeleteSeconds !== undefined);
  const warmed = results.filter((r) => r.warmup);
  if (warmed.length) L.push(`- Before its measured phases each run rolls out ${warmed[0].warmup.objects} objects of its kind (created, then their templates changed: ${warmed[0].warmup.rollouts} rollouts), deletes them and waits until their pods and RCs or ReplicaSets are gone (\`--warmup\`). A controller the bench has just started is a fresh Node.js process, which compiles and optimizes its code while it runs its first rollouts, where kube-controller-manager, a Go binary, has run since the plane started: the measured phases compare the two warm, and the warm-up's figures, the cost of a cold start, are in "CPU and memory".`);
  if (deletes.length) L.push(`- Between runs the bench deletes the run's namespace and waits until it is gone, so that no run shares the plane with the previous one's garbage collection or its pods' node capacity (${deletes.map((r) => `${r.kind} N=${r.n} ${fmt.s(r.namespaceDeleteSeconds)}`).join(', ')}).`);
  if (dcFloors.length) L.push(`- The floor (for the pod-less mode's time target, Analysis; bench/floor-controller.mjs): after the pod-less and Deployment runs of an N, N DCs of the same manifest, created and updated the same way with the same warm-up, rolled out by a controller in the bench's own process that makes only the writes OpenShift's RC contract cannot do without: each version's RC (created at 0 replicas in phase New, with its encoded config), one merge patch per scaling step (the first also sets phase Running; the rolling update scales one pod up, waits until it is available, scales one old pod down, as the Deployments do, without updatePeriodSeconds), the Complete phase, and one DC status write per rollout, at its end; it watches DCs and RCs. No events, no latestVersion or progress status writes, no cleanup: less than a faithful controller writes. Its CPU is the bench driver's and is left out, as if the controller were free; what the plane spends on its DCs is the part of a pod-less rollout no DC controller avoids. Measured at N=${dcFloors.map((f) => `${f.n}: ${fmt.s(f.phases.create.totalMs / 1000)} (first rollout) and ${fmt.s(f.phases.update.totalMs / 1000)} (template update)`).join('; ')}.`);
  if (podFloors.length) L.push(`- Bare deployer pods (for the pod mode's lower bound, Analysis): after the three kinds of an N, N pods shaped like deployer pods (the deployer-pod label, so the process kubelet runs them under the same slot limit; a service account, restartPolicy Never) whose container runs \`node -e 0\`, created 20 at a time; their CPU is that of kube-apiserver, etcd, the scheduler, the process kubelet and the processes, less what those use on the idle plane over as long (10 s sampled before). Measured at N=${podFloors.map((f) => `${f.n}: ${f.done}/${f.n} ended in ${fmt.s(f.totalMs / 1000)}, ${fmt.n((1000 * f.cpu) / f.n, 0)} ms CPU per pod`).join('; ')}.`);
  if (controllerArgs.length > 0) L.push(`- Extra controller flags of this run (\`--controller-args\`): \`${controllerArgs.join(' ')}\`.`);
  const nodeOptions = recorded ? (recorded.controllerNodeOptions ?? []) : controllerNodeOptions;
  L.push(nodeOptions.length
    ? `- The controller runs with the Node.js options of the install manifest (deploy/base/controller.yaml, NODE_OPTIONS): \`${nodeOptions.join(' ')}\`, the heap Node.js sizes inside the manifest's 512Mi memory limit (docs/design.md §1.1).`
    : '- The controller runs with Node.js\'s default heap sizes for this machine (the install manifest sets no NODE_OPTIONS).');
  L.push('- "Rolled out" is what `oc rollout status` / `kubectl rollout status` report: for a DC, Progressing=NewReplicationControllerAvailable for the latest version with all replicas updated and available; for a Deployment, observedGeneration current, NewReplicaSetAvailable, all replicas updated and available, no old ones.', '');
  L.push('- Load during each measured phase (sampled every second: the 1-minute load average, mean (min–max), and the CPU left to the bench: the machine\'s cores minus what processes outside the bench used, from /proc/stat minus the CPU time of the bench, its control plane, the controller and the reaped deployer processes, and minus the steal time, when the hypervisor ran other guests on this VM\'s CPUs):', '');
  for (const r of results) {
    for (const ph of ['create', 'update']) {
      L.push(`  - ${kindLabel[r.kind] ?? r.kind} N=${r.n} ${ph === 'create' ? 'first rollout' : 'template update'}: ${describeLoad(r.phases[ph].load, cores)}`);
    }
  }
  L.push('');
  L.push('## Method', '');
  L.push('- Times: wall clock from the create (or template patch) request of an object to the watch event that shows it rolled out; "total" is from the first request of the phase to the last object done.');
  L.push('- API requests: kube-apiserver has no per-client request metric (apiserver_request_total has no user-agent label), so the bench cluster runs with an audit policy (bench/audit-policy.yaml, level Metadata, leases excluded) and the bench counts audit events per user agent and verb (each request once). Our controller sends `deploymentconfig-controller`, deployer processes `dcctl-deployer`; kube-controller-manager\'s client-go appends the controller name (`.../replication-controller`, `.../deployment-controller`, `.../replicaset-controller`). Watches count once when they start. Only requests received after the first measured phase began count (the audit log is written in batches, so the controller\'s start-up lists would otherwise land in the window). Figures are per rollout (2N rollouts: create + update).');
  L.push('- CPU: utime+stime from /proc/<pid>/stat over the run, for the controller, kube-controller-manager (whole process, all its controllers) and the deployer processes (the process kubelet\'s reaped-children time). RSS: peak of 250 ms samples of VmRSS. For deployer processes also their private memory (RssAnon): most of a Node.js process\'s RSS is file pages of the node binary (`node -e 0` on Node.js 26: 42 MiB RSS, 34 MiB of it file pages), which every deployer process on a node shares, so the sum of their RSS counts that part once per process.', '');
  L.push('## DeploymentConfig vs Deployment', '');
  L.push('"Demanded wait": the time the DC\'s own parameters make a rollout wait even with pods that are ready at once (updatePeriodSeconds between the rolling updater\'s rounds; computed with the updater\'s fencepost arithmetic). The last column compares the DC\'s p50 with the Deployment\'s p50 plus that wait.', '');
  L.push('| N | phase | DC mode | DC total | Deployment total | ratio | DC p50 / p99 per object | Deployment p50 / p99 | ratio p50 / p99 | demanded wait per DC | DC p50 − (Deployment p50 + demanded) |');
  L.push('|---|---|---|---|---|---|---|---|---|---|---|');
  const byN = byNOf(results);
  for (const [n, v] of byN) {
    const deploy = v.deploy;
    if (!deploy) continue;
    for (const ph of ['create', 'update']) for (const [kind, dc] of dcSides(v)) {
      const a = dc.phases[ph];
      const b = deploy.phases[ph];
      L.push(`| ${n} | ${ph === 'create' ? 'first rollout' : 'template update'} | ${kind} | ${fmt.s(a.totalMs / 1000)}${a.ok ? '' : ` (${a.done}/${n} done)`} | ${fmt.s(b.totalMs / 1000)}${b.ok ? '' : ` (${b.done}/${n})`} | ${fmt.ratio(a.totalMs, b.totalMs)} | ${fmt.s(a.p50 / 1000)} / ${fmt.s(a.p99 / 1000)} | ${fmt.s(b.p50 / 1000)} / ${fmt.s(b.p99 / 1000)} | ${fmt.ratio(a.p50, b.p50)} / ${fmt.ratio(a.p99, b.p99)} | ${dc.demandedWaitMs ? fmt.s(dc.demandedWaitMs[ph] / 1000) : 'n/a'} | ${dc.demandedWaitMs ? `${((a.p50 - b.p50 - dc.demandedWaitMs[ph]) / 1000).toFixed(2)} s` : 'n/a'} |`);
    }
  }
  L.push('', '### API requests per rollout (controllers only)', '');
  L.push('| N | DC mode | DC side total | by client | by verb | Deployment side total | by client | by verb | ratio |');
  L.push('|---|---|---|---|---|---|---|---|---|');
  for (const [n, v] of byN) for (const [kind, dc] of dcSides(v)) {
    const deploy = v.deploy;
    if (!deploy) continue;
    const tot = requestsPerRollout;
    const byClient = (r, clients) => clients.map((c) => `${c} ${fmt.n(clientRequestsPerRollout(r, c), 1)}`).join(', ');
    L.push(`| ${n} | ${kind} | ${fmt.n(tot(dc), 1)} | ${byClient(dc, ['dc-controller', 'deployer', 'kcm/replication-controller'])} | ${verbsLine(dc.perVerb, dc.rollouts)} | ${fmt.n(tot(deploy), 1)} | ${byClient(deploy, ['kcm/deployment-controller', 'kcm/replicaset-controller'])} | ${verbsLine(deploy.perVerb, deploy.rollouts)} | ${fmt.ratio(tot(dc), tot(deploy))} |`);
  }
  L.push('', 'Per-verb detail of the DC side by client (requests per rollout):', '');
  for (const [n, v] of byN) for (const [kind, dc] of dcSides(v)) {
    for (const c of ['dc-controller', 'deployer', 'kcm/replication-controller']) {
      L.push(`- N=${n} ${kind} ${c}: ${verbsLine(dc.counts[c] ?? {}, dc.rollouts) || 'none'}`);
    }
  }
  L.push('', 'Write conflicts (HTTP 409; each costs a retry), per rollout, with whose write each lost to (the last write to the object before it: "own" is the client\'s own previous write, which its cache had not seen yet):', '');
  const causesOf = (r, k) => {
    const causes = Object.entries(r.conflictCauses?.[k] ?? {}).sort((a, b) => b[1] - a[1]);
    return causes.length ? ` (${causes.map(([c, x]) => `${fmt.n(x / r.rollouts, 2)} after ${c === 'own' ? 'its own write' : c === 'unknown' ? 'no write seen' : `a ${c} write`}`).join(', ')})` : '';
  };
  for (const [n, v] of byN) {
    for (const r of [v.dc, v['dc-inline'], v.deploy]) {
      if (!r) continue;
      const items = Object.entries(r.conflicts).sort((a, b) => b[1] - a[1]).map(([k, x]) => `${k} ${fmt.n(x / r.rollouts, 2)}${causesOf(r, k)}`);
      L.push(`- N=${n} ${kindLabel[r.kind]}: ${items.join(', ') || 'none'}`);
    }
  }
  L.push('', '### CPU and memory', '');
  const privateMemory = results.some((r) => r.rss?.deployerPeakOnePrivate) ? ' (private memory: sum / one)' : '';
  L.push(`| N | DC mode | DC side CPU (controller + deployers + KCM) | Deployment side CPU (KCM) | ratio | DC controller peak RSS | deployer processes: peak concurrent / peak sum RSS / one${privateMemory} | KCM peak RSS (DC run / Deployment run) |`);
  L.push('|---|---|---|---|---|---|---|---|');
  for (const [n, v] of byN) for (const [kind, dc] of dcSides(v)) {
    const deploy = v.deploy;
    if (!deploy) continue;
    L.push(`| ${n} | ${kind} | ${fmt.s(dc.cpuTotal)} (${fmt.n(dc.cpu.controller, 1)} + ${fmt.n(dc.cpu.deployers, 1)} + ${fmt.n(dc.cpu.kcm, 1)}) | ${fmt.s(deploy.cpuTotal)} | ${fmt.ratio(dc.cpuTotal, deploy.cpuTotal)} | ${fmt.mib(dc.rss.controller)} | ${dc.rss.maxDeployers} / ${fmt.mib(dc.rss.deployersPeakSum)} / ${fmt.mib(dc.rss.deployerPeakOne)}${dc.rss.deployerPeakOnePrivate ? ` (${fmt.mib(dc.rss.deployersPeakSumPrivate)} / ${fmt.mib(dc.rss.deployerPeakOnePrivate)})` : ''} | ${fmt.mib(dc.rss.kcm)} / ${fmt.mib(deploy.rss.kcm)} |`);
  }
  L.push('', 'CPU per rollout: ' + [...byN].filter(([, v]) => v.deploy).flatMap(([n, v]) => dcSides(v).map(([kind, dc]) =>
    `N=${n} ${kind}: DC ${fmt.n((dc.cpuTotal / dc.rollouts) * 1000, 0)} ms (controller ${fmt.n((dc.cpu.controller / dc.rollouts) * 1000, 0)}, deployer ${fmt.n((dc.cpu.deployers / dc.rollouts) * 1000, 0)}, KCM ${fmt.n((dc.cpu.kcm / dc.rollouts) * 1000, 0)}), Deployment (KCM) ${fmt.n((v.deploy.cpuTotal / v.deploy.rollouts) * 1000, 0)} ms`)).join('; ') + '.');
  L.push(...warmupLines(byN));
  L.push(...planeCpuSection(byN));
  L.push(...apiserverProfileSection(byN));
  L.push('', '### Where the controller\'s time goes (its own metrics, per rollout)', '');
  L.push('| N | DC mode | controller | syncs | sync time | queue adds | time waiting in the queue | requeues (errors) |');
  L.push('|---|---|---|---|---|---|---|---|');
  for (const [n, byKind] of byN) for (const [kind, dc] of dcSides(byKind)) {
    const q = dc?.controllerMetrics?.queues;
    if (!q) continue;
    for (const [c, v] of Object.entries(q)) {
      L.push(`| ${n} | ${kind} | ${c} | ${fmt.n(v.syncs / dc.rollouts, 1)} | ${fmt.ms((v.syncSeconds / dc.rollouts) * 1000)} | ${fmt.n(v.adds / dc.rollouts, 1)} | ${fmt.ms((v.queueSeconds / dc.rollouts) * 1000)} | ${fmt.n(v.retries / dc.rollouts, 2)} (${fmt.n(v.errors / dc.rollouts, 2)}) |`);
    }
  }
  L.push('', '### Where a pod-less rollout\'s time goes (dc-inline)', '');
  L.push('From the audit log (when our controller created each RC and wrote to it, when the scheduler bound the RC\'s first pod) and the bench\'s own marks (when it wrote the DC, when the watch saw it rolled out). Medians (p90) per phase and over both phases\' rollouts; the first → last step span contains the first step → first pod bound one. For comparison, the Deployments of the same N: from the deployment controller\'s create of a new ReplicaSet, already scaled (its first step), to its first pod bound:', '');
  L.push('| N | phase | DC written → RC created (DC controller) | RC created → first step (deployer controller: phase Running, first scale) | first step → first new pod bound (RC manager, scheduler) | Deployments: new ReplicaSet → first pod bound (ReplicaSet controller, scheduler) | first → last step (scaling, waiting for pods, updatePeriodSeconds) | last step (Complete) → DC reported rolled out (DC controller status, watch) | deployer-controller writes per rollout | demanded wait |');
  L.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const [n, v] of byN) {
    const r = v['dc-inline'];
    const c = r?.inlineSteps;
    if (!c) continue;
    const cell = (xs) => (xs ? `${fmt.ms(percentile(xs, 50))} (${fmt.ms(percentile(xs, 90))})` : 'n/a');
    const rs = v.deploy?.rsToFirstBound;
    const rsCell = (xs) => (xs?.length ? cell(xs) : 'n/a');
    const rows = [...Object.entries(c.byPhase ?? {}).map(([phase, x]) => [phase === 'create' ? 'first rollout' : 'template update', x, r.demandedWaitMs?.[phase], rs?.[phase]]),
      ['both', c, undefined, rs ? [...rs.create, ...rs.update] : undefined]];
    for (const [phase, x, demanded, rsBound] of rows) {
      L.push(`| ${n} | ${phase} | ${cell(x.writeToRc)} | ${cell(x.rcToFirstStep)} | ${cell(x.firstStepToBound)} | ${rsCell(rsBound)} | ${cell(x.steps)} | ${cell(x.lastStepToDone)} | ${fmt.n(percentile(x.writesPerRc, 50), 0)} | ${demanded !== undefined ? fmt.s(demanded / 1000) : ''} |`);
    }
  }
  L.push('', '### What a deployer pod costs', '');
  L.push('A DC rollout runs in a deployer pod; here each one is a fresh Node.js process (in a real cluster: a container start, usually slower). Medians (p90) over all deployer pods of a run:', '');
  L.push('| N | DC written → RC and deployer pod created (DC controller) | pod created → bound and seen by the process kubelet | waiting for a free process slot (at most ' + maxPods + ') | slot → process started (SA token, env) | process start → first API call (Node.js + CLI start-up) | process lifetime (the rollout itself) |');
  L.push('|---|---|---|---|---|---|---|');
  for (const [n, { dc }] of byN) {
    if (!dc?.startCosts) continue;
    const c = dc.startCosts;
    const cell = (xs) => `${fmt.ms(percentile(xs, 50))} (${fmt.ms(percentile(xs, 90))})`;
    L.push(`| ${n} | ${cell(c.writeToRc ?? [])} | ${cell(c.createToTake)} | ${cell(c.slotWait)} | ${cell(c.takeToStart)} | ${cell(c.startToFirstCall)} | ${cell(c.lifetime)} |`);
  }
  L.push('', 'Analysis:', '');
  for (const line of analysis(byN)) L.push(`- ${line}`);
  L.push(...repeatabilitySection());
  if (idle) {
    const i = idle;
    L.push('', `## Idle: ${i.count} DCs with 3 RCs each`, '');
    if (i.measuredAt) L.push(`Not re-measured in this run (\`--idle 0\`): the figures of the run of ${String(i.measuredAt).slice(0, 16)}Z (deployer-pod mode; an idle DC does nothing mode-specific).`, '');
    L.push(`- Writes by the controllers during the full resync at start-up (every DC and RC synced once): **${i.initial.writes}**${i.initial.writes ? ` (${i.initial.writesBy.join('; ')})` : ''}; during ${i.resync.seconds} s of periodic resyncs (--resync-period=${i.resyncSeconds}): **${i.resync.writes}**. Goal: zero.`);
    const wall = i.initial.startToReady + i.initial.seconds;
    const perSync = i.resync.cpuSeconds / Math.max(i.resync.syncs, 1);
    L.push(`- No-op syncs: at start-up, ${i.initial.syncs} syncs (DC controller ${i.initial.dcSyncs}, deployer controller ${i.initial.syncs - i.initial.dcSyncs}) were done ${fmt.s(wall)} after the process started, listing included (caches synced after ${fmt.s(i.initial.startToReady)}, queues empty ${fmt.s(i.initial.seconds)} later at the 250 ms polling resolution): **≥ ${fmt.n(i.initial.syncs / Math.max(wall, 0.001), 0)} no-op syncs/s** end to end. Periodic resyncs: ${i.resync.syncs} syncs in ${i.resync.seconds} s used ${fmt.n(i.resync.cpuSeconds, 2)} CPU s = **${fmt.n(perSync * 1e6, 0)} µs CPU per no-op sync** (≈ ${fmt.n(1 / perSync, 0)} syncs/s per core).`);
    L.push(`- Controller RSS with ${i.count} DCs and ${i.count * 3} RCs cached: ${fmt.mib(i.rss)} (after the start-up sync ${fmt.mib(i.rssAfterInitial)}, peak ${fmt.mib(i.hwm)}); an idle controller with no objects: ${fmt.mib(i.baseRss)}; so **${fmt.mib(i.rss - i.baseRss)} per 1000 DCs with 3 RCs each**.`);
  }
  L.push('', '## Findings and fixes', '');
  L.push('- Fixed (hack/process-kubelet.mjs): the process kubelet started one Node.js process per deployer pod with no bound; 1000 concurrent rollouts would have forked 1000 processes of ~140 MiB. It now runs at most PROCESS_KUBELET_MAX_PODS (default 8; the bench sets its own, see Setup) and keeps the rest Pending, first come first served, as a full node would.');
  L.push('- Fixed (src/manager.ts): with `--leader-elect=false`, /readyz answered ok before the caches had synced, and forever when an informer could not list. Found when the first benchmark cluster lacked the ImageStream CRD: the controller looked ready while its DC queue held 10 keys and it had done 0 syncs. It now reports 503 until the caches synced.');
  L.push('- Found at N=1000: kwok nodes of 250 pods each (3 × 250) cannot hold 3000 application pods; the unscheduled pods never became available and those rollouts failed after their 600 s acceptance timeout, each restoring the previous RC as OpenShift does. The bench cluster now gets 2000 pods per node (KWOK_NODE_PODS).');
  L.push('- Added `dcctl controller --resync-period` (seconds, default 600 as before) to measure periodic resyncs, and KUBE_APISERVER_EXTRA_ARGS to hack/local-cluster.sh for the audit log.');
  L.push('- Fixed (hack/bundle.mjs): a deployer process loaded thousands of small modules (mostly @kubernetes/client-node\'s generated API) before its first request: ~0.9 s CPU and ~140 MiB per rollout in the first runs. `npm run build` now bundles the CLI into one file, dist/dcctl.mjs; measured alone, `dcctl deploy` start-up went from 1.0 s wall / 0.65 s CPU / 120 MiB to 0.24 s / 0.20 s / 81 MiB. The deployer process is still what makes DC rollouts CPU-expensive compared with Deployments (a Go deployer, as OpenShift\'s, starts faster still).');
  L.push('- Fixed (issue 16, controllers): the syncs read through a mutation cache holding our own latest writes until the watch delivers them (client-go\'s MutationCache), so no sync decides on the state before our own write; the deployer controller writes the phase as a JSON merge patch of the annotations it changed, which cannot conflict with the deployer\'s and the RC manager\'s writes; RC updates that change nothing a sync reads (the RC manager\'s observedGeneration/fullyLabeledReplicas bookkeeping, the deployer\'s own annotations) no longer enqueue the DC, nor the RC for the deployer controller; a DC sync claims from an RC index (labelled for the DC or controlled by it) instead of scanning every RC of the namespace; informer caches drop managedFields.');
  L.push('- Fixed (issue 16, deployer): every wait used to LIST and WATCH anew and re-LIST every intervalSeconds; now all waits on one RC (or one pod selector) share a single list+watch for the whole run, a feed is re-LISTed only after intervalSeconds without any event, the state after a scale comes from the watch instead of a GET, and the rolling updater counts available pods from the pod watch instead of a LIST per round. `deploy` starts from its own bundle (dist/deployer.mjs: no yargs, no other command).');
  L.push('- Fixed (issue 16 item 2, deployer requests): the deployer read the RC or its scale before every write (GET + UPDATE of the scale per step, GET + UPDATE for each annotation) and listed and watched each RC (and the new pods) separately. It now lists and watches the DC\'s RCs once for the whole run, writes by merge patches (scaling included), and reads the new RC\'s availableReplicas from that watch: 16 → ~8 requests per rollout plus one watch (its watches now carry its user agent, so the bench counts them; before they were node-fetch\'s).');
  L.push('- Fixed (issue 16 item 2, deployer start-up): dist/deployer.mjs held client-node (1.5 MB of its 2.3 MB: the generated API, models, fetch and WebSocket stacks), loaded by every deployer process. The deployer now talks through its own small JSON client (src/kube/rest.ts, 0.13 MB bundle); measured alone (`dcctl deploy` for a missing RC) 0.29 s CPU / 64 MiB → about 0.17 s / 52 MiB, of which a bare `node -e 0` is 0.10 s / 40 MiB.');
  L.push('- Fixed (issue 16, memory; docs/design.md §1.1): at N=1000 pod-less the controller peaked at 225 MiB RSS with a heap of up to 143 MiB around ~30 MiB live: Node sized the heap for this 24 GiB machine (4 GiB limit, 16 MiB semi-spaces), so V8 let garbage pile up to several times the live size, and 15 MiB of the heap was the source of the unminified bundle, stored as a two-byte string for one non-ASCII comment character. The bundle is now minified (ASCII, 3.8 MB), the pod cache keeps only the fields the controllers read, watch events are cached without a deep copy, and the controller runs with the heap of the install manifest (NODE_OPTIONS of deploy/base/controller.yaml: what Node sizes inside its 512Mi limit). Same plane, N=300 pod-less, one after the other: peak RSS 155.5 MiB before, 150.6 MiB with the bundle and cache changes, 116.0 MiB with the manifest\'s heap (heap total 90 → 79 → 49 MiB). N=1000 pod-less with all three: peak RSS 150 MiB (was 225 MiB), heap total at most 73 MiB; idle with 1000 DCs and 3000 RCs 134 MiB (was 157 MiB), start-up high-water mark 167 MiB (was 218 MiB). The cost is CPU: a smaller heap collects more often (controller CPU per pod-less rollout 100 ms against 77 ms, per no-op resync 338 µs against 231 µs, in runs with different load from other processes), the same cost the installed controller pays inside its 512Mi limit.');
  L.push('- Fixed (issue 16, memory; docs/design.md §1.1): the controller loaded all of client-node (its generated API and models, node-fetch and its URL stack; about half of the CLI bundle\'s source, resident as such) although every call on its busy path already went through the small JSON client; leader election, image streams, deployer access, the admission-policy reads and the metrics reviews still constructed client-node APIs. Every call is now a port of `ControllerKube` on the small client, client-node\'s implementation is imported only for kubeconfigs that need it, and the CLI bundle is split into chunks so its source is not even loaded. An idle controller without objects on the local plane, with the manifest\'s NODE_OPTIONS: 93 MiB RSS before, 81 MiB after.');
  L.push('- Fixed (issue 16 part 1, deployer controller; docs/design.md §5.1): the sync after our Pending write often ran before the pod informer had the new deployer pod and was retried with backoff ("not in the cache yet", OpenShift\'s own retry; pod adds enqueue nothing): 0.20 requeues per rollout at N=10 with deployer pods in the run of 2026-12-05T13:37Z. The deployer controller now reads the deployer and hook pods it created or patched from a mutation cache over the pod informer, as it reads RCs: 10 DCs on the local plane, 4 retries before, 0 after. The retry stays for pods another process created.');
  L.push('- Added (issue 16 item 3): pod-less rollouts, result kind `dc-inline` (docs/design.md §6.8). The deployer controller runs Rolling and Recreate rollouts itself, one level-triggered step per sync, with the deployer pod\'s stages (src/deployer/steps.ts): no deployer process to queue for, start and run, no watches of its own. What is left between a pod-less DC and a Deployment is in the "Where a pod-less rollout\'s time goes" table: the DC controller\'s share (DC write → RC, Complete → DC status) against the deployer controller\'s steps.');
  L.push('- Found (issue 16 part 4, pod-less requests at N=10): kube-controller-manager\'s RC manager writes an RC\'s status again right after its own previous write, from a cache that has not seen that write yet: 409, a GET and the PUT again. Since kube 1.36 the ReplicaSet controller, the same code, waits for its own writes before syncing a ReplicaSet again (feature gate StaleControllerConsistencyReplicaSet); the RC manager does not. Measured without any DC controller on a plane like this one: 10 plain RCs and 10 plain ReplicaSets of 3 replicas, created and scaled to 1 by kubectl, cost the RC manager 74 status writes, 13 conflicts and 13 GETs, the ReplicaSet controller 68 status writes and no conflict. The conflicts table above splits each client\'s 409s by whose write they lost to; the RC manager\'s own ones are most of the DC side\'s excess over Deployments at N=10. The rest is the DC contract: the RC is created at 0 replicas in phase New, so its first scale (with phase Running) and its Complete are two RC writes a Deployment\'s ReplicaSet (created scaled) does not need, the latestVersion bump is a DC status write of its own, and DeploymentCreated an event of its own.');
  L.push('- Fixed (issue 16 part 4): an RC the DC controller creates is handed to the deployer controller when the create returns (MutationCache.onCreated, docs/design.md §5.1), not one watch round trip later; in three alternating pairs of 10 pod-less rollouts on a loaded plane, RC created → first step went from 112/224/323 ms to 56/58/101 ms (medians). The first scale can still race the RC manager\'s first status write of the 0-replica RC (the conflicts "after a dc-controller write" above): waiting for that write would remove them but delay every first step by the RC manager\'s queue at scale.');
  L.push('- Fixed (issue 16 part 4): the controller\'s keep-alive connection pools build their TLS context once; Node built one (parsing the CA bundle, certificate and key) for every new connection, about 12 % of the controller\'s busy time in a burst of 10 rollouts. Events of two controllers for one DC in the same millisecond no longer get the same name (the second create failed with AlreadyExists and the event was lost: 0.05-0.14 per rollout).');
  L.push('- Fixed (issue 16 part 4, controller CPU per pod-less rollout): CPU profiles (`--cpu-prof`, bench/profile-top.mjs) of 100 pod-less rollouts and updates showed where the controller\'s CPU went: about a fifth in client-node\'s request machinery (its serializer, node-fetch, a new https.Agent per request, readline behind a PassThrough for watches), 18 % garbage collection (with 1 MiB semi-spaces a young-generation collection every ~1 MiB allocated: 230 of them, 590-830 ms, in 80 rollouts), and syncs that could decide nothing new: a pod-less rollout waiting for its pods was rechecked every second (123 deployer-controller syncs per rollout at N=1000), and every DC status write came back as a watch event that re-synced the DC. Fixed: the controller\'s writes, lists and watches go through the small JSON client (src/kube/rest-clients.ts); a waiting pod-less rollout is woken by its RCs\' watch events and requeued only at its deadline (docs/design.md §6.8); the event of the status a DC sync wrote as its last act does not re-sync the DC (§4.1); 2 MiB semi-spaces in the install manifest (§1.1); and, after the runs below (not measured separately), no deep copy of the cached RC per deployer sync. Three runs at N=100 pod-less, each against Deployments on the same plane under different load from other processes: controller CPU per rollout 67 ms (kube-controller-manager 23 ms per Deployment rollout), 44 ms with the first three fixes (22 ms), 36 ms with the semi-spaces too (25 ms); deployer-controller syncs per rollout 29.9 → 13.7, DC syncs 11.8 → 8.1; peak RSS 108, 104, 107 MiB.');
  L.push('- Fixed (issue 16 part 4, DC status writes): each replica count the RC manager or a deployer wrote during a rollout re-synced the DC, and each re-sync wrote the DC status: about 11 DC status writes per deployer-pod rollout at N=10, each costing kube-apiserver about three times a native write (\"Where kube-apiserver\'s CPU goes\"). During a rollout, RC changes that touch only replica counts now re-sync the DC once per `--status-batch-period` (default 0.5 s; docs/design.md §4.1); phase changes and counts after the rollout still re-sync at once. Two runs at N=10/100 on one plane, 6 minutes apart (`--controller-args=--status-batch-period=0` for before): DC-controller updates per rollout 11.4 → 5.5 (deployer pods, N=10), 10.6 → 6.5 (N=100), 9.3 → 5.5 (pod-less, N=10), 6.6 → 5.1 (N=100); DC syncs per rollout 15.3 → 7.4, 13.6 → 7.7, 12.8 → 6.2, 8.8 → 5.3; requests against Deployments 1.54× → 1.33×, 1.53× → 1.43×, 1.27× → 1.17×, 1.15× → 1.12×; time against Deployments (first rollout / update) 2.65× / 1.51× → 1.81× / 1.28× (deployer pods, N=10), 4.57× / 2.81× → 3.98× / 2.11× (N=100), 1.40× / 1.17× → 1.21× / 1.06× (pod-less, N=10), 1.49× / 1.49× → 1.20× / 1.04× (N=100). Two pod-less runs at N=1000, one after the other (`--kinds dc-inline`): 78.0 s → 63.3 s (first rollout) and 225.4 s → 199.9 s (template update); DC-controller updates per rollout 6.1 → 5.0, DC syncs 8.2 → 5.1, controller CPU 27 → 23 ms per rollout.');
  L.push('- Fixed (issue 16 part 2, deployer requests): each deployer run LISTed its DC\'s RCs and then watched them, two requests; its feeds now ask for the initial list as a watch (kube\'s WatchList, `sendInitialEvents`, on by default in kube 1.32 and since 1.34), one request, and LIST only where the server refuses it (docs/design.md §6.2). Two runs at N=100 on one plane, one after the other, before (the previous commit) and after: deployer LISTs per rollout 1.0 → 0.1 (the re-LISTs of a silent watch remain), deployer-pod requests per rollout 44.2 → 43.1.');
  L.push('- Fixed (issue 16 part 4, DC status writes): the latest RC moving from New to Pending to Running re-synced the DC at once, although it changes at most the Progressing message; it is now batched with the replica counts (docs/design.md §4.1). A pod-less rolling update ended before the RC manager reported the old RC at 0, so the DC status reported the outcome in one write and the drained counts in another; it now ends once the old RC is reported at 0, as the rolling updater\'s last scale does (§6.8). One DC on a quiet plane: a template update wrote the DC status 7 times before, 5 after (pod-less), 7 → 6 (deployer pod), a first rollout 3 → 2 (deployer pod). At N=100 under load the same two runs as above: DC-controller updates per pod-less rollout 5.2 → 5.0, DC syncs 5.4 → 5.1, controller CPU 26 → 24 ms per rollout; time against Deployments 1.42× / 1.19× → 1.10× / 0.93× (pod-less, first rollout / update), with the Deployments\' own time 4.30 s / 14.1 s in the first run and 4.91 s / 16.6 s in the second: the time ratios move with the machine as much as with the change.');
  L.push('- Fixed (bench, issue 16 part 4): each run deleted its namespace and the next run began at once, so the next run\'s measured phases shared the plane with the namespace controller and the garbage collector deleting the previous run\'s objects. At N=1000 (the run of 2026-12-02T04:05Z) the pod-less phases held 3391 garbage-collector deletes and 6850 kwok pod deletes of the deployer-pod run, and 577 scheduler status writes for pods that did not fit: the previous run\'s 3000 pods still held kwok\'s node capacity (3 × 2000). The Deployment phases held the pod-less run\'s deletion (3226 and 7150). Extra work in both sides\' windows pulls their ratio towards 1.0×; it flattered the DC side. The bench now waits until the namespace is gone (Setup). The same pair at N=100 on one plane, one run each: 1.18× / 1.07× (pod-less against Deployments, first rollout / template update) with the old bench, where the Deployments ran during the pod-less namespace\'s deletion (6.58 s + 18.0 s); three runs with the fix: 1.30×–1.77× / 1.23×–1.50× (Deployments 4.79–6.77 s + 14.0–16.8 s). The earlier sessions\' pod-less ratios (0.93×–1.33× for the update at N=100) were measured with the overlap.');
  L.push('- Fixed (bench): the deployer start-up alone ran with the bench\'s own environment; on this machine that holds NODE_EXTRA_CA_CERTS, and Node.js parses those 144 certificates at start (`node -e 0`: 29 ms of CPU without, about 80 ms with). Deployer pods never had it; the measurement now runs with the environment the process kubelet gives a deployer pod.');
  L.push('- Found, left as it is: a deployer process on Node.js 20 parses Node\'s ~140 bundled root certificates when it builds its first TLS context with the cluster\'s CA (32 ms of CPU measured alone; Node 26, which the image runs, builds the same context in 3.5 ms). Sixteen rollouts with deployer pods on one plane (Node.js 20): deployer CPU median 114 ms per process, 83 ms with `--use-openssl-ca` (OpenSSL\'s store instead of Node\'s bundled one).');
  L.push('- Fixed (bench): `node bench/bench.mjs --help` (and any mistyped option) started a full run that replaced the committed report; options are now checked and `--help` prints them.');
  L.push('- Added (bench, issue 16 part 2): the deployer processes\' private memory (RssAnon) next to their RSS. One N=30 run with deployer pods (2026-12-03T06:25Z): 68 MiB RSS per process, of which 17 MiB private; 16 at once summed to 1074 MiB of RSS but 265 MiB of private memory, the rest being the node binary\'s file pages that they share.');
  L.push('- Measured, not adopted (issue 16 part 2): V8 flags that shrink a deployer process. Two N=30 runs each, alternating, deployer pods: no flag 68.0 / 67.7 MiB RSS per process and 189 / 187 ms CPU per rollout; `--jitless` 58.1 / 58.3 MiB and 245 / 249 ms; `--no-opt --no-maglev` 59.4 MiB and 231 ms; `--max-semi-space-size=1` no change in RSS. Any V8 flag makes Node.js reject the code cache of its built-in modules (`node -e "require(\'https\')"`: 95 ms CPU without a flag, 148-161 ms with one), so the RSS target (60 MiB) would cost 30 % more CPU per rollout; the image keeps the default flags.');
  L.push('- Added (image, issue 16 part 2): the image ships a read-only V8 compile cache of both bundles (`NODE_COMPILE_CACHE`, filled at build time as the pods\' user; the process kubelet fills one per plane). Measured alone, 20 interleaved runs each on Node.js 26: loading the deployer 106.5 → 102.0 ms CPU, a full CLI command 534 → 448 ms (10 runs each).');
  L.push('- Fixed (issue 16 part 2, deployer start-up): bin/dcctl.js and the deployer bundle were ES modules, so every deployer process linked an ES module graph and built the ES module facades of the builtins it used (loading fs, util, readline and worker_threads internals it never calls); they are now CommonJS (bin/package.json, dist/deployer.cjs). Measured alone, 20 interleaved runs each on Node.js 26: up to the first request 112 → 102 ms CPU and 55.5 → 53.2 MiB. Three N=30 runs with deployer pods on one plane, new / old / new (2026-12-03T06:55Z, a slower hour than the runs above): deployer CPU 206 / 230 / 211 ms per rollout, peak RSS per process 66.4 / 68.4 / 66.4 MiB; the hypervisor took 0.18–0.39 / 0.60–0.64 / 0.39–0.49 of the 2 cores, so the run figures lean on the interleaved ones.');
  L.push(`- Fixed (bench): the controller and the deployer pods ran the bench's own Node.js (20 on the machines so far), the image runs Node.js 26 (Dockerfile). They now run the image's major (\`--node\`, default \`auto\`; this run: ${podNode.version}). Measured on one plane at N=30 with deployer pods, Node.js 20 then 26 (2026-12-02T21:33Z): deployer CPU 5.17 s → 4.50 s (first rollout) and 5.85 s → 5.38 s (template update), 184 → 165 ms per rollout; the deployer start-up alone 0.11–0.14 s → 0.14–0.15 s CPU and 50 → 60–66 MiB peak RSS in four runs: Node.js 26 starts slower (\`node -e 0\` 28–34 ms and 41 MiB against 22 ms and 38 MiB; loading node:tls 28 ms and 7 MiB more) but builds the TLS context faster, and its processes are larger.`);
  L.push('- Fixed (issue 16 part 2, deployer pods at N=1000): each deployer watched the namespace\'s RC Warning events from its RC\'s last change, made before its pod waited for a process slot (a median of 169 s at N=1000). kube-apiserver keeps no watch cache for events, so etcd replayed every change of those minutes to each such watch and kube-apiserver decoded every event of the namespace among them. The watch now starts at the revision of the deployer\'s first read (docs/design.md §6.2; `node bench/events-watch.mjs`: 16 watches replaying 10 000 revisions cost kube-apiserver 1.2-1.6 s and etcd 0.2-0.3 s of CPU, against 0.1 s and 0.04 s from the current revision). N=1000 with deployer pods, the run of 2026-12-02T21:40Z before and that of 2026-12-03T09:08Z after, in an hour when the Deployments took 14-24 % longer: etcd CPU 66.5 s → 29.4 s (first rollout) and 142.3 s → 70.2 s (template update), against the Deployments\' 11.8 → 13.0 s and 39.8 → 47.2 s; the whole plane\'s CPU against the Deployments\' 5.31× → 4.51× and 3.03× → 2.64×; time 5.43× → 4.65× and 3.08× → 2.66×. At N=100 (deployer pods waited a median of 16 s) etcd CPU 11.0 s → 10.2 s in two runs 10 minutes apart.');
  L.push('- Changed (issue 16 part 4, pod-mode requests): `--status-batch-period` defaults to 2 s instead of 0.5 s (docs/design.md §4.1). With deployer pods, the deployer\'s scale, the RC manager\'s pod creations and the pods\' readiness reach the DC controller a second or so apart, so at 0.5 s most of them cost a DC status write of their own. Four N=100 runs with deployer pods on one plane, one after the other (2026-12-03, 10:58-11:10Z, `--controller-args=--status-batch-period=S`): DC-controller status writes per rollout 7.7 and 8.2 at 0.5 s, 6.4 at 1 s, 5.2 at 2 s; DC syncs 8.8, 6.7, 5.4; all DC-side requests per rollout 42.1-42.6, 40.5, 39.8 (the Deployments of the first run: 30.4); rollout times within the runs\' noise. Pod-less rollouts wrote 4.51-4.57 against 4.93-4.97 (four interleaved N=100 runs). During a rollout the DC\'s replica counts may lag its RCs by up to 2 s; the outcome never waits.');
  L.push('- Fixed (bench, issue 16 part 4): the process kubelet (hack/process-kubelet.mjs) opened a new TLS connection for every request, because client-node 1.x builds a new https.Agent per request: three full handshakes per deployer pod (its service-account token and two status patches), each signed by kube-apiserver, where a kubelet keeps its connections open. It now uses one keep-alive agent. Two N=100 runs of both DC modes with `--apiserver-profile`, one after the other (2026-12-03T12:18Z and 12:29Z), before and after: kube-apiserver\'s TLS handshakes 2.76 → 1.15 s in the deployer-pod phases (0.49 → 0.39 s pod-less), i.e. 11.4 → 3.8 ms per rollout more than pod-less; the process kubelet\'s own CPU 4.24 / 4.26 s (first rollout / update, the 11:49Z run) → 1.73 / 1.50 s. Reports generated before this fix charge the deployer-pod mode (and the bare deployer pods) with those handshakes.');
  L.push('- Changed (issue 16 part 2, deployer memory; docs/design.md §6.1): a deployer process turns V8\'s baseline and optimizing compilers off once it has taken its invocation (`v8.setFlagsFromString`, src/deployer/main.ts; as a command-line flag any V8 flag made Node.js reject its built-in code cache, see "Measured, not adopted" above), and the image\'s entry point (bin/dcctl-entrypoint, which the process kubelet runs as the image does) starts `deploy` with `--use-openssl-ca`, so Node.js does not parse its ~140 bundled root certificates, which a deployer that trusts only its cluster\'s CA never uses. Where the memory was: of the 67 MiB a deployer peaked at, 50 MiB were file pages of the node binary, and the compilers\' code was about 6 of them. Two pairs of N=100 runs with deployer pods on one plane, alternating (2026-12-03, 14:29-14:38Z, `--kinds dc`): with the compilers 65.8 / 65.8 MiB RSS per deployer process and 42.8 / 42.8 s of deployer CPU for 200 rollouts, without 59.0 / 59.0 MiB and 43.6 / 40.4 s; against the previous commit (14:16-14:28Z, with Deployments): 66.7 / 66.6 MiB before, 59.1 / 58.8 MiB after, 16 processes at once summing to 1048-1057 MiB before and 938 MiB after. The deployer\'s start-up alone (`deploy` for a missing RC, 40 interleaved runs each): 134 ms of CPU with the bundled roots, 124 ms without. N=1000, all three kinds (2026-12-03T14:58Z against the 12:53Z run): 59 MiB per deployer process (was 67), deployer CPU 169 ms per rollout (was 204), deployer-pod time against the Deployments 3.41× / 1.77× (was 3.68× / 2.34×; the Deployments\' template update took 282 s against 237 s, which flatters the second ratio).');
  L.push('- Added (issue 16 part 4): bare deployer pods after the three kinds of each N (Setup), for a lower bound on what the pod mode costs whatever its controller and deployer do (Analysis); and `--repeat` (Repeatability), because one run\'s ratio moves by tens of percent on this machine.');
  L.push('- Changed (issue 16 part 2, deployer start-up; docs/design.md §6.1): Node.js builds its default store of root certificates with a process\'s first TLS context even when that context names its own CA; with `--use-openssl-ca` (the image\'s entry point) it parses OpenSSL\'s whole system file, where there is one (`SSL_CERT_FILE`, or `cert.pem` in the node binary\'s OpenSSL directory, `/etc/ssl`: Alpine has one, Debian and this image do not). A deployer now makes its server\'s CA the process\'s default store first (`tls.setDefaultCACertificates`, src/kube/rest.ts `trustOnlyServerCa`). Measured on Node.js 26, `deploy` for an RC its token may not read, 30 interleaved runs each: with `SSL_CERT_FILE` naming Debian\'s bundle (146 roots) 98.7 → 86.9 ms of CPU (median); through the entry point with the environment the process kubelet gives a deployer pod, where OpenSSL finds no file, 92.2 against 93.5 ms, and two pairs of N=100 bench runs with deployer pods, alternating (2026-12-03, 16:54-17:01Z): 183 / 148 ms of deployer CPU per rollout before, 187 / 151 after: no change here, as expected.');
  L.push('- Changed (issue 16 part 2, deployer CPU; docs/design.md §6.1): CPU profiles of the deployer processes of an N=100 run (`--node` naming a wrapper that adds `--cpu-prof` to `deploy`) showed two costs a deployer need not pay. The bundle evaluated the YAML parser as it loaded, though a deployer pod reads no kubeconfig (it runs on its service account): js-yaml is now required the first time a kubeconfig is YAML, and the deployer bundle no longer carries it. And every RC a deployer\'s watches delivered was deep-copied through `toPlain`, which is for client-node\'s typed answers, not the server\'s JSON: 0.12-0.14 ms per RC event with the compilers off (a 4.7 KB RC), 10-25 events per rollout. Measured alone on Node.js 26 (2026-12-04), `deploy` for a missing RC interleaved with the previous build: 87.2 → 81.9 ms of CPU (medians of 40 runs each) and 90.3 → 89.5 ms (60 each). Two alternating pairs of N=100 runs with deployer pods (`--kinds dc`, 11:54-12:02Z): deployer CPU 102 and 119 ms per rollout before, 100 and 109 after, within these runs\' noise.');
  L.push('- Fixed (issue 16 part 1, DC status writes; docs/design.md §4.1): a new RC\'s first step (its phase, its first scale) was batched only once the cached DC showed the new latestVersion; on a quiet controller it comes a few milliseconds after the sync that bumped the version, before the informer has delivered that write, and it cost a DC status write of its own. The changed RC now counts as the latest when its version (from its name) is newer than the cached DC\'s. Three template updates on an idle local plane (2026-12-04): 4 DC status writes each before, 3 after. Not visible at the bench\'s load, where the informer has caught up by then (N=100, one run each, 12:14-12:20Z: 4.4 against 4.5 DC-controller updates per pod-less rollout, 4.2 against 4.1 with deployer pods).');
  L.push('- Fixed (bench): "Where the controller\'s time goes" and the DC controller\'s syncs per rollout below divided the controller\'s counters since it started, which held its start-up and the warm-up\'s 60 rollouts and 30 deletions as well, by the measured phases\' 2N rollouts. They now count what the measured phases added (bench/lib.mjs `metricsSince`). At N=10 that made them about four times too high: the run of 2026-12-03T22:52Z reported 19.9 DC syncs and 39.4 deployer-controller syncs per rollout with deployer pods, 15.9 and 74.6 pod-less; an N=10 run with the fix (2026-12-04T12:33Z) 4.3 and 11.0, 2.8 and 18.8. At N=100 the counters were about 1.3 times too high, at N=1000 1.03 times (docs/benchmarks-n1000.md, not re-run).');
  L.push('- Measured, not adopted (issue 16 part 4, DC status writes; docs/design.md §4.1): a longer `--status-batch-period`. Four N=100 runs, pod-less against Deployments on one plane, alternating 2 s (the default) and 6 s (2026-12-04T14:26-14:35Z): DC status writes per rollout 4.0 and 4.1 against 2.5 and 2.5; the DC side\'s CPU 10.6 and 12.8 s against 10.0 and 11.0 s (first rollout) and 25.7 and 27.9 s against 24.7 and 23.9 s (template update), about 5-10 %, less than the Deployments\' own CPU moved between the runs (9.1-10.3 s and 21.8-28.2 s); time against Deployments 1.06× / 1.12× and 1.25× / 1.07× at 2 s, 1.11× / 1.13× and 1.05× / 0.85× at 6 s. At N=1000 the period makes no difference, the DC controller\'s queue already keeping each key waiting longer (four pod-less runs, 2 / 6 / 6 / 2 s, 15:28-15:52Z: 4.7 / 4.6 / 4.6 / 4.7 DC status writes per rollout, first rollout 59.2 / 71.2 / 57.5 / 60.5 s, template update 169.6 / 179.8 / 146.2 / 158.1 s). The default stays at 2 s: the counts and the Available condition are what `oc rollout status` shows during a rollout.');
  L.push('- Measured, nothing to change (issue 16 part 4, kube-apiserver at N=1000; docs/design.md §2.3): one N=1000 run of both pod-less DCs and Deployments with `--apiserver-profile` (2026-12-04T16:26Z; profiling slowed both sides: 81.9 s / 193.2 s against 46.7 s / 148.2 s, 1.75× / 1.30×). kube-apiserver\'s sampled CPU was 147.9 against 92.3 ms per rollout; of the 55.6 ms more, DC status writes 23.3 ms (4.76 per rollout at 4.89 ms each, where the N=100 profile of the morning put one at 3.67 ms; a native write cost 1.31 ms on the DC side and 1.05 ms on the Deployment side), garbage collection +7.2 ms, native writes +5.2 ms, request filters and I/O +4.9 ms, decoding stored DCs for the watch cache +4.5 ms, the bench\'s own DC creates and template patches 3.5 ms, DC watch events 2.5 ms, authentication and TLS +2.1 ms. What is left in a DC status write is the CRD path, not a rule or a part of the schema we could drop: three alternating rounds of 500 sequential status PUTs of one DC on an idle local plane cost kube-apiserver 6.6-7.7 ms of CPU each with the CRD as shipped, 6.0-7.7 ms with no CEL rule at all, 6.2-7.7 ms with the pod template left schemaless, 6.1-7.4 ms with the status left schemaless, 4.4-5.8 ms with no schema at all (no validation, no defaults), and a ConfigMap PUT of the same size 2.2-2.4 ms.');
  L.push('- Fixed (bench): the Targets row of the cold controller (the warm-up\'s first 60 rollouts right after it started) compared it with kube-controller-manager in the measured phases, whose larger batches cost less per rollout; it now compares with kube-controller-manager in the Deployments\' own warm-up, the same 60 rollouts. Re-rendered reports: N=100 30 against 30 ms (was against 22: not met), N=1000 29 against 26 ms (was against 30: met).');
  L.push('- Found, out of our reach (issue 16 part 4, pod-mode requests at N=1000): the deployer-pod side\'s excess over the Deployments is the RC manager\'s, not ours. In the N=1000 run of 2026-12-04T01:02Z our controller and deployers made 16.3 requests per rollout (pod-less, our controller alone: 14.5), kube-controller-manager\'s RC manager 26.0 with deployer pods, 14.8 pod-less, and its ReplicaSet controller 14.5 for the Deployments; with the RC manager at its pod-less 14.8 the deployer-pod side would be at 31.1, 1.17×. What makes the difference is how many RCs roll out at once, not what we write: the same audit-log analysis of two N=100 runs on one plane (2026-12-04T04:41Z, the same 600 pod readiness patches by kwok in each mode) found the RC manager\'s status writes 2532 (and 494 conflicts) with deployer pods against 1678 (94) pod-less, and the gap between two of its consecutive successful status writes to one RC a median of 272 ms (36 % under 100 ms) against 2199 ms (12 %) (`node bench/rc-manager-audit.mjs <cluster dir>/audit.log`). Pod-less, every RC of the phase rolls out at once and the RC manager\'s queue folds each RC\'s pod creations and readiness changes into a few syncs; with deployer pods only the 16 RCs of the running deployers move, so it syncs an RC for each pod change, often before its informer has delivered its own previous status write (a 409, a GET and the PUT again: the RC manager has no consistency store, a TODO in kube 1.36\'s pkg/controller/replication, where the ReplicaSet controller has one, StaleControllerConsistencyReplicaSet). With 110 deployer process slots instead of 16 (one N=100 run, 04:50Z) the RC manager wrote 1834 times with 89 conflicts (median gap 2884 ms), its requests fell from 24.6 to 17.1 per rollout and kube-controller-manager\'s CPU from 7.4 to 4.9 s, but the deployers\' CPU rose from 133 to 154 ms per rollout and, waiting longer, they re-listed a silent RC watch 3.7 times per rollout (0.1 with 16): the bench keeps 16 (Setup).');
  L.push('- Found, left as it is (issue 16 part 4, pod-mode requests): kube-controller-manager raises one event per pod its RC manager or ReplicaSet controller creates or deletes, but sends fewer of them when they come fast (client-go\'s event broadcaster sends them one at a time and drops what overflows its queue). In the N=1000 run of 2026-12-03T14:58Z, for the same 6000 pod creations and 3000 deletions, the RC manager created 8930 events with deployer pods (phases of 263 s + 499 s), 5718 pod-less (122 s + 274 s), and the ReplicaSet controller 5421 (77 s + 282 s): about 1.8 of the deployer-pod mode\'s 13.8 requests per rollout more than the Deployments are events that the faster Deployment run did not send. Counting no events on either side would not help: the Deployment controller\'s own ScalingReplicaSet events (5269) make up the difference, 10 933 events on the DC side against 10 690, and the ratio without them is 1.65× instead of 1.52×.');
  L.push('- Changed (bench, issue 16 part 4): each run rolls out `--warmup` objects (default 30, 60 rollouts) before it measures (Setup). Every run starts a new controller process, and Node.js compiles and optimizes the sync code while that process runs its first rollouts; kube-controller-manager, a Go binary, had run since the plane started. One controller on a local plane, pod-less rollouts in batches of 10 DCs created and updated right after its start: 850, 730, 620 and 580 ms of controller CPU for the first four batches (the image\'s compile cache, which holds the code compiled when the bundle loads, did not change the first). So the N=10 runs, 20 rollouts, measured mostly a cold process: 42 against 38 ms per rollout at 2026-12-03T21:25Z; this run 31 against 35 ms warm and 35 ms cold (N=10), 26 against 30 ms warm and 28 ms cold (N=100), both in "Cold start".');
  L.push('- Added (bench): the Targets table at the top of the report, each target of issue 16 with what this run measured and, for a time target not met, whether the run\'s CPU budget or lower bound rules it out.');
  L.push('- Fixed (issue 16, controller CPU between rollouts; docs/operations.md): an idle leader renewed its Lease with a GET and a PUT every 2 s through client-node, and read the cross-namespace image policy and its binding every 10 s through it too: 11 ms of CPU per second on an idle plane with no DCs (kube-controller-manager: 5-6 ms/s). It now renews with one PUT of the Lease it wrote last (client-go\'s fast path; a conflict falls back to reading it) and both go through the controller\'s JSON client: 6.7 ms/s (two 60 s samples each). Most of the rest was prom-client\'s event-loop histogram waking the process every 10 ms; sampled every 100 ms (the same `nodejs_eventloop_lag_*` gauges) an idle controller uses 2.2-2.5 ms/s against 6.8-7.8 ms/s (alternated 60 s samples; kube-controller-manager 4.3-5.3 ms/s). The N=10 phases are short, so that rate was a few ms of each rollout\'s controller CPU there. Two alternating pairs of N=100 runs against the previous commit (pod-less and Deployments, one plane, 20:56-21:02Z): controller CPU per rollout 24 and 27 ms before, 28 and 23 ms after; time against Deployments 1.13× / 1.30× and 1.01× / 1.41× before, 1.34× / 1.50× and 1.08× / 0.95× after (first rollout / update): within the noise of this VM.');
  L.push('- Measured, no cost (docs/crd.md "Null fields"): every DC the controllers read now loses the null fields of its spec (src/apis/nulls.ts, in the informer caches and the DC clients), and templates are compared with empty lists and objects left out as well. Two alternating pairs of N=100 runs, pod-less against Deployments on one plane, the previous commit (22492c6) against this one (2026-12-04, 19:55-20:04Z): controller CPU per rollout 15 and 20 ms before, 15 and 16 ms after (kube-controller-manager 20 and 22 ms, 21 and 22 ms per Deployment rollout); time against Deployments 1.26× / 1.13× and 1.33× / 1.39× before, 1.17× / 1.12× and 1.22× / 1.11× after (first rollout / update): within the noise of this VM.');
  L.push('- Fixed (bench, issue 16 part 4): the pod-less CPU budget could rule a time target out "for a DC served as a CRD, whatever its controller" once the run had kube-apiserver profiles: its floor added what one DC status write costs kube-apiserver more than a native write. That is not a floor. A Deployment rollout writes its own status more often than a DC rollout must (1,967 Deployment status writes against 1,088 DC status writes for the same 260 rollouts, warm-up included, in an N=100 run of 2026-12-04T21:56Z), so the DC side could save as many native writes as its CRD writes cost more; measured alone on an idle plane, 100 sequential status writes in four alternating rounds, a DC status write cost kube-apiserver 5.3-5.7 ms of CPU, a Deployment status write 3.6-4.0 ms, a ConfigMap update 2.4-3.5 ms. The premium is now shown for comparison only; no committed report had used that verdict.');
  L.push('- Found, out of our reach (issue 16 part 4, where a pod-less DC loses time per object): a scale the deployer controller writes reaches the RC manager at once, and waits in its queue. In an N=100 run of pod-less DCs and Deployments (2026-12-05T05:10Z) a new RC\'s first step came 586 ms (median) before its first pod was bound, where a new ReplicaSet of the Deployments waited 111 ms; the scheduler bound either side\'s pods 25 and 17 ms after their creation. With kube-controller-manager logging at -v=4 (05:16Z, one N=100 run of each kind): from the informer delivering a changed replica count to the sync that acts on it, the RC manager took 625 ms (p90 1627 ms, 908 changes) and the ReplicaSet controller 270 ms (p90 1218 ms, 910); the RC manager\'s 3659 syncs took 104.5 s in all, the ReplicaSet controller\'s 4326 syncs 88.4 s, because every request was slower on the DC side\'s busier plane (pod creates p50 15 against 9 ms, RC against ReplicaSet status writes 10 against 5 ms). Both controllers run the same code with 5 workers each, and each worker waits on its requests, so the RC manager syncs fewer RCs per second when the plane\'s requests are slower, and a queue that the ReplicaSet controller drains grows for the RC manager. At N=1000 (the full run of 2026-12-05T06:00Z) the RC manager\'s pod creates took 19 ms (p50) against the ReplicaSet controller\'s 14 ms, for the same 6180 pods and the same 14.4 requests per rollout, and a first step waited 12.6 s for its first pod where a new ReplicaSet waited 1.9 s (the column next to it in "Where a pod-less rollout\'s time goes", now in every run). The requests are slower because the plane\'s CPU is (the phases keep 1.9-2.0 of 2 cores busy, and a DC costs kube-apiserver more than a Deployment, above); our controller\'s writes to the RCs, 4.5 patches per pod-less rollout against the deployment controller\'s 2.5 ReplicaSet updates, each cost the RC manager a sync, and only the scales among them a request.');
  const dcRuns = results.filter((r) => isDc(r.kind) && r.startCosts?.writeToRc?.length);
  for (const r of dcRuns) {
    const ours = ourConflicts(r);
    const q = r.controllerMetrics?.queues?.deploymentconfig;
    L.push(`- N=${r.n} ${r.kind}: DC write → its RC created: median ${fmt.s(percentile(r.startCosts.writeToRc, 50) / 1000)} (p90 ${fmt.s(percentile(r.startCosts.writeToRc, 90) / 1000)})${q ? `; the DC controller did ${fmt.n(q.syncs / r.rollouts, 1)} syncs per rollout, its keys waited ${fmt.ms((q.queueSeconds / Math.max(q.adds, 1)) * 1000)} in the queue on average and a sync took ${fmt.ms((q.syncSeconds / Math.max(q.syncs, 1)) * 1000)} on average` : ''}. Conflicts (409) from our clients (controller and deployers): ${fmt.n(ours / r.rollouts, 2)} per rollout.`);
  }
  L.push('', '## Chaos test', '');
  L.push('`npm run test:chaos` (test/chaos/chaos.test.ts; CHAOS_SEED, CHAOS_DCS=30, CHAOS_DURATION_S=75, CHAOS_MODES=pod,inline): once per deployer mode, 30 DCs roll out with template updates every 0.5-2.5 s while the harness SIGKILLs and restarts the controller every 3-12 s, restarts kube-apiserver once (same argv from /proc, waits for /readyz), deletes random deployer pods (pod mode) or running hook pods (inline mode, where every third DC has a pre hook) and rewrites RC annotations from a competing client. It checks throughout (from watches, paused while kube-apiserver restarts: at most one unterminated deployer pod per DC, no RC phase moving backwards, one RC per DC version, every RC controlled by its DC) and at the end (every DC\'s latest RC carries the last template and is Complete, or Failed with the previous Complete RC scaled back up; no RC past latestVersion; no deployer pod left running; inline mode: no deployer pod at all, no pre hook run twice for one RC, none missing for a Complete RC). It prints its seed and the counts of faults and checks.');
  if (skipped.length) {
    L.push('', '## Not run', '');
    for (const s of skipped) L.push(`- ${s}`);
  }
  return L.join('\n') + '\n';
}

function analysis(byN) {
  const out = [];
  for (const [n, { dc, deploy }] of byN) {
    if (!dc?.startCosts || !deploy) continue;
    const c = dc.startCosts;
    const med = (xs) => percentile(xs, 50);
    const start = med(c.createToTake) + med(c.takeToStart) + med(c.startToFirstCall);
    const wait = med(c.slotWait);
    const life = med(c.lifetime);
    // The per-pod medians cover both phases, so they are set against the mean of both phases' medians.
    const p50 = (dc.phases.create.p50 + dc.phases.update.p50) / 2;
    const share = (start + wait) / p50;
    const ctl = med(c.writeToRc ?? []);
    out.push(`N=${n}: median per-DC rollout ${fmt.s(dc.phases.create.p50 / 1000)} (first) / ${fmt.s(dc.phases.update.p50 / 1000)} (update), against ${fmt.s(deploy.phases.create.p50 / 1000)} / ${fmt.s(deploy.phases.update.p50 / 1000)} for a Deployment. Where a DC rollout's time goes (medians over all its rollouts): ${fmt.s(ctl / 1000)} from the DC write to the DC controller creating the RC, ${fmt.s(wait / 1000)} waiting for a deployer process slot, ${fmt.s(start / 1000)} starting the deployer pod up to its first API call (${fmt.s(med(c.startToFirstCall) / 1000)} of it Node.js and CLI start-up), ${fmt.s(life / 1000)} the deployer's run. `
      + (share >= 0.5 ? `**The deployer pod (queueing + start) dominates: ${Math.round(share * 100)}% of the median.**` : share >= 0.3 ? `The deployer pod (queueing + start) is a large share: ${Math.round(share * 100)}% of the median.` : `The deployer pod's start is ${Math.round(share * 100)}% of the median; the rollout itself (1 s interval/period polling, pod readiness) is most of it.`));
  }
  for (const [n, v] of byN) {
    const r = v['dc-inline'];
    const deploy = v.deploy;
    if (!r || !deploy) continue;
    const tot = requestsPerRollout;
    const ours = Object.entries(r.conflicts).filter(([k]) => k.startsWith('dc-controller ')).reduce((a, [, x]) => a + x, 0);
    // Conflicts of the RC manager's status writes, by whose write they lost to.
    const rcm = r.conflictCauses?.['kcm/replication-controller update replicationcontrollers/status'] ?? {};
    const rcmOwn = (rcm.own ?? 0) / r.rollouts;
    const rcmOurs = Object.entries(rcm).filter(([cause]) => cause === 'dc-controller').reduce((a, [, x]) => a + x, 0) / r.rollouts;
    const c = r.inlineSteps;
    const med = (xs) => percentile(xs ?? [], 50);
    const ctlPerRollout = r.cpu.controller / r.rollouts;
    const kcmPerDeployment = deploy.cpu.kcm / deploy.rollouts;
    out.push(`N=${n} pod-less (dc-inline) against Deployments, same plane, one run: total time ${fmt.ratio(r.phases.create.totalMs, deploy.phases.create.totalMs)} (first rollout) and ${fmt.ratio(r.phases.update.totalMs, deploy.phases.update.totalMs)} (template update), target ≤ 1.0×; API requests per rollout ${fmt.n(tot(r), 1)} against ${fmt.n(tot(deploy), 1)} = ${fmt.ratio(tot(r), tot(deploy))}, target ≤ 1.2×; conflicts from our controller ${fmt.n(ours / r.rollouts, 2)} per rollout, target 0; controller CPU ${fmt.n(ctlPerRollout * 1000, 0)} ms per rollout against kube-controller-manager's ${fmt.n(kcmPerDeployment * 1000, 0)} ms per Deployment rollout.`
      + (r.conflictCauses ? ` The RC manager's status writes conflicted ${fmt.n(rcmOwn, 2)} times per rollout with its own previous write (its cache had not seen it yet; each conflict is followed by a GET and the PUT again, about ${fmt.n(3 * rcmOwn, 1)} requests per rollout) and ${fmt.n(rcmOurs, 2)} times with a write of our controller; the ReplicaSet controller (the same code in kube-controller-manager) had ${fmt.n((deploy.conflicts['kcm/replicaset-controller update replicasets/status'] ?? 0) / deploy.rollouts, 2)} status conflicts per rollout in the Deployment run: since kube 1.36 it waits for its own writes before syncing a ReplicaSet again (feature gate StaleControllerConsistencyReplicaSet).` : '')
      + (c ? ` Where the time goes (medians): ${fmt.ms(med(c.writeToRc))} from the DC write to the RC${deploy.writeToReplicaSet?.length ? ` (a Deployment's write to its ReplicaSet in the Deployment run: ${fmt.ms(med(deploy.writeToReplicaSet))}, p90 ${fmt.ms(percentile(deploy.writeToReplicaSet, 90))}; the DC's p90 ${fmt.ms(percentile(c.writeToRc, 90))})` : ''}, ${fmt.ms(med(c.rcToFirstStep))} to the first step, ${fmt.ms(med(c.steps))} of steps (the template update demands ${fmt.s((r.demandedWaitMs?.update ?? 0) / 1000)} of updatePeriodSeconds; the rest is the RC manager creating pods and kwok's ${readyDelayMs} ms readiness), ${fmt.ms(med(c.lastStepToDone))} from Complete to the DC status saying so. Per-object p50 ${fmt.s(r.phases.update.p50 / 1000)} against the Deployment's ${fmt.s(deploy.phases.update.p50 / 1000)} + ${fmt.s((r.demandedWaitMs?.update ?? 0) / 1000)} demanded (template update).` : '')
      + firstRolloutLine(r, deploy));
    out.push(...cpuBudgetLines(n, r, deploy));
  }
  for (const [n, v] of byN) out.push(...podFloorLines(n, v, podFloors.find((f) => f.n === n)));
  for (const [n, v] of byN) out.push(...dcFloorLines(n, v));
  const last = [...byN].filter(([, v]) => v.dc && v.deploy).at(-1);
  if (last) {
    const [n, { dc, deploy }] = last;
    const perDeployer = dc.cpu.deployers / dc.rollouts;
    out.push(`What a deployer pod costs: ${fmt.n(perDeployer * 1000, 0)} ms CPU per rollout (N=${n}), of which ${deployerStart ? `${fmt.n(deployerStart.cpuSeconds, 2)} s is starting Node.js, loading the deployer and making a first request (measured alone: the image's entry point \`deploy\` for a missing RC, median of ${deployerStart.runs}: ${fmt.n(deployerStart.cpuSeconds, 2)} s CPU, ${fmt.mib(deployerStart.rssBytes)} peak RSS)` : 'the start-up was not measured alone'}, and ${fmt.mib(dc.rss.deployerPeakOne)} RSS per process${dc.rss.deployerPeakOnePrivate ? ` (${fmt.mib(dc.rss.deployerPeakOnePrivate)} of it private; the rest is file pages of the node binary, which all deployer processes on a node share)` : ''}. That is ${fmt.ratio(dc.cpu.deployers, dc.cpu.controller)} the DC controller's own CPU and the reason the DC side uses ${fmt.ratio(dc.cpuTotal, deploy.cpuTotal)} the CPU of the Deployment side; the DC controller alone uses ${fmt.ratio(dc.cpu.controller, deploy.cpuTotal)} of kube-controller-manager's CPU for the same rollouts.`);
    out.push(`Throughput bound: with ${maxPods} deployer processes at once and ~${fmt.s((percentile(dc.startCosts.startToFirstCall, 50) + percentile(dc.startCosts.lifetime, 50)) / 1000)} per process, the process kubelet completes at most ~${fmt.n(maxPods / ((percentile(dc.startCosts.startToFirstCall, 50) + percentile(dc.startCosts.lifetime, 50)) / 1000), 1)} rollouts/s, so the total grows linearly with N; raising the limit does not help on 2 CPUs (Setup), where the ${dc.rollouts} deployer runs of N=${n} alone need ${fmt.s(dc.cpu.deployers / 2)} of both cores. In a real cluster deployer pods run on the nodes, not next to the control plane, and a container start (image present) adds ~1-2 s instead.`);
  }
  return out;
}

/**
 * Issue 16's targets against this run's figures, one row each: what was measured, and whether the
 * target is met; for a time target that is not met, whether the run's own CPU accounting rules it
 * out (cpuBudgetOf, podFloorOf) or leaves it open. Sizes the run did not measure have no row.
 */
/** The warm-up's CPU per rollout (a cold controller) beside the measured phases' (warm). */
function warmupLines(byN) {
  const out = [];
  for (const [n, v] of byN) for (const [kind, dc] of dcSides(v)) {
    if (!dc.warmup?.cpu.controller) continue;
    const w = dc.warmup;
    const deployKcm = v.deploy?.warmup ? `; in the Deployments' warm-up KCM used ${fmt.n((1000 * v.deploy.warmup.cpu.kcm) / v.deploy.warmup.rollouts, 0)} ms per rollout` : '';
    out.push(`- N=${n} ${kind}: in the warm-up (${w.rollouts} rollouts right after the controller started) the controller used ${fmt.n((1000 * w.cpu.controller) / w.rollouts, 0)} ms of CPU per rollout, in the measured phases ${fmt.n((1000 * dc.cpu.controller) / dc.rollouts, 0)} ms${deployKcm}, in the measured Deployment phases ${v.deploy ? fmt.n((1000 * v.deploy.cpu.kcm) / v.deploy.rollouts, 0) : '-'} ms.`);
  }
  return out.length ? ['', 'Cold start (`--warmup`, Setup): a fresh controller process against the same process warm, CPU per rollout:', '', ...out] : [];
}

function targetsSection(byN, idle) {
  const rows = [];
  const row = (target, n, measured, met, why = '') => rows.push(`| ${target} | ${n} | ${measured} | ${met ? 'met' : `**not met**${why ? `: ${why}` : ''}`} |`);
  const phaseLabel = { create: 'first rollout', update: 'template update' };
  const tot = requestsPerRollout;
  const reachText = { node: 'out of reach for a controller in Node.js (CPU budget, Analysis)', others: 'the CPU budget leaves no room for the other processes\' extra of this run (Analysis)', open: 'not ruled out by the CPU budget (Analysis)' };
  for (const [n, v] of byN) {
    const r = v['dc-inline'];
    const deploy = v.deploy;
    if (!r || !deploy) continue;
    if (n >= 100) {
      for (const ph of ['create', 'update']) {
        const ratio = r.phases[ph].totalMs / deploy.phases[ph].totalMs;
        const b = cpuBudgetOf(n, r, deploy, ph);
        const f = dcFloorOf(n, v, ph);
        const floorText = f && (f.cpuBound
          ? (f.reach !== 'open'
            ? `out of reach for ${f.reach === 'any' ? 'any DC controller' : 'a controller in Node.js'}: the floor alone needs ${fmt.n(f.ratio, 2)}× the Deployments' CPU${f.reach === 'node' ? `, leaving ${fmt.n(f.roomMs, 1)} ms per rollout, less than the client CPU of its own writes` : ''} (Analysis)`
            : `the floor leaves ${fmt.n(f.roomMs, 1)} ms of CPU per rollout for a controller; ours used ${fmt.n(f.oursMs, 1)} ms and the plane ${fmt.n(f.beyondMs, 1)} ms for its writes beyond the floor's (Analysis)`)
          : `not bound by the CPU; the floor took ${fmt.n(f.time, 2)}× the Deployments' time (Analysis)`);
        row(`pod-less total time ≤ 1.0× (${phaseLabel[ph]})`, n, fmt.ratio(r.phases[ph].totalMs, deploy.phases[ph].totalMs), ratio <= 1, floorText ?? (b?.cpuBound ? reachText[b.reach] : ''));
      }
    }
    if (n === 10) {
      for (const ph of ['create', 'update']) {
        const over = r.phases[ph].p50 - (deploy.phases[ph].p50 + (r.demandedWaitMs?.[ph] ?? 0));
        row(`pod-less p50 per object ≤ Deployment p50 + demanded wait + 0.5 s (${phaseLabel[ph]})`, n, `${over >= 0 ? '+' : ''}${fmt.s(over / 1000)}`, over <= 500);
      }
    }
    row('pod-less API requests per rollout ≤ 1.2×', n, `${fmt.n(tot(r), 1)} against ${fmt.n(tot(deploy), 1)}: ${fmt.ratio(tot(r), tot(deploy))}`, tot(r) <= 1.2 * tot(deploy));
    const ctl = (1000 * r.cpu.controller) / r.rollouts;
    const kcm = (1000 * deploy.cpu.kcm) / deploy.rollouts;
    row(`pod-less controller CPU per rollout ≤ kube-controller-manager's per Deployment rollout${r.warmup ? ' (both warm, Setup)' : ''}`, n, `${fmt.n(ctl, 0)} against ${fmt.n(kcm, 0)} ms`, ctl <= kcm);
    if (r.warmup?.cpu.controller !== undefined) {
      // Like against like: the same warm-up (--warmup objects) on both sides, where each rollout costs more
      // than in the measured phases' larger batches; only our controller is a fresh process there.
      const cold = (1000 * r.warmup.cpu.controller) / r.warmup.rollouts;
      const kcmWarmup = deploy.warmup?.cpu.kcm !== undefined ? (1000 * deploy.warmup.cpu.kcm) / deploy.warmup.rollouts : undefined;
      const against = kcmWarmup ?? kcm;
      row(`the same, with the controller cold: its first ${r.warmup.rollouts} rollouts after it started (the warm-up), against kube-controller-manager ${kcmWarmup === undefined ? 'in the measured phases' : 'in the Deployments\' warm-up'}`, n, `${fmt.n(cold, 0)} against ${fmt.n(against, 0)} ms`, cold <= against, 'a fresh Node.js process compiles and optimizes its code as it runs (CPU and memory)');
    }
  }
  for (const [n, v] of byN) {
    const { dc, deploy } = v;
    if (!dc || !deploy) continue;
    if (n >= 1000) {
      for (const ph of ['create', 'update']) {
        const floor = podFloors.find((f) => f.n === n);
        const bound = ph === 'create' && floor && v['dc-inline'] ? podFloorOf(v, floor) : undefined;
        const why = bound ? (bound.bound > bound.offer ? 'out of reach for deployer pods that run Node.js (lower bound, Analysis)' : `not ruled out by the lower bound (${fmt.s(bound.bound)} of the ${fmt.s(bound.offer)} of CPU that 3× offers; the run spent ${fmt.s(bound.measured)}, Analysis)`) : '';
        row(`deployer pods: total time ≤ 3× (${phaseLabel[ph]})`, n, fmt.ratio(dc.phases[ph].totalMs, deploy.phases[ph].totalMs), dc.phases[ph].totalMs <= 3 * deploy.phases[ph].totalMs, why);
      }
    }
    const own = (x) => Object.entries(x.conflicts ?? {}).filter(([k]) => k.startsWith('kcm/replication-controller ')).reduce((a, [, c]) => a + c, 0) / x.rollouts;
    row('deployer pods: API requests per rollout ≤ 1.5×', n, `${fmt.n(tot(dc), 1)} against ${fmt.n(tot(deploy), 1)}: ${fmt.ratio(tot(dc), tot(deploy))}`, tot(dc) <= 1.5 * tot(deploy),
      `kube-controller-manager's RC manager made ${fmt.n(clientRequestsPerRollout(dc, 'kcm/replication-controller'), 1)} of them (its ReplicaSet controller ${fmt.n(clientRequestsPerRollout(deploy, 'kcm/replicaset-controller'), 1)}), with ${fmt.n(own(dc), 2)} status-write conflicts per rollout; our controller and deployers ${fmt.n(clientRequestsPerRollout(dc, 'dc-controller') + clientRequestsPerRollout(dc, 'deployer'), 1)}`);
    const perDeployer = (1000 * dc.cpu.deployers) / dc.rollouts;
    row('deployer process: ≤ 0.25 s CPU and ≤ 60 MiB RSS per rollout', n, `${fmt.n(perDeployer, 0)} ms, ${fmt.mib(dc.rss.deployerPeakOne)}`, perDeployer <= 250 && dc.rss.deployerPeakOne <= 60 * 2 ** 20);
  }
  for (const [n, v] of byN) {
    const mine = dcKinds.filter((k) => v[k]).map((k) => v[k]);
    if (!mine.length) continue;
    const perRollout = mine.map((x) => ourConflicts(x) / x.rollouts);
    row('conflicts (409) per rollout from our controller and deployers: 0', n, mine.map((x, i) => `${x.kind} ${fmt.n(perRollout[i], 2)}`).join(', '), perRollout.every((c) => c === 0));
    if (n >= 1000) {
      const peak = Math.max(...mine.map((x) => x.rss.controller));
      // The same code's RSS moves between runs with what the process starts at (file pages of the
      // node binary, malloc arenas): the idle run's controller without objects shows that baseline.
      const base = idle?.baseRss ? `, ${fmt.mib(peak - idle.baseRss)} above an idle controller without objects (${fmt.mib(idle.baseRss)}${idle.measuredAt ? `, the run of ${String(idle.measuredAt).slice(0, 16)}Z` : ''})` : '';
      row('controller peak RSS ≤ 150 MiB', n, `${mine.map((x) => `${x.kind} ${fmt.mib(x.rss.controller)}`).join(', ')}${base}`, peak <= 150 * 2 ** 20);
    }
  }
  if (idle) {
    const writes = idle.initial.writes + idle.resync.writes;
    row(`idle resync: 0 writes${idle.measuredAt ? ` (the run of ${String(idle.measuredAt).slice(0, 16)}Z)` : ''}`, idle.count, `${idle.initial.writes} at start-up, ${idle.resync.writes} in ${idle.resync.seconds} s of periodic resyncs`, writes === 0);
  }
  if (!rows.length) return [];
  return ['## Targets (issue 16)', '', 'Each target of issue 16 against this run (ratios are DC side against Deployments, same plane, one run; details in the sections below):', '',
    '| target | N | measured | status |', '|---|---|---|---|', ...rows, ''];
}

/**
 * Whether a pod-less phase could have taken no longer than the Deployments'. In a phase that kept
 * the cores busy, time follows CPU: the DC side would have had to use no more CPU than the
 * Deployment side. What the Deployment side spends and the DC side does not is
 * kube-controller-manager's Deployment work (KCM's CPU in the Deployment phase minus in the DC
 * phase, where its RC manager does what its ReplicaSet controller did); our controller, plus
 * whatever the other processes spend more for DCs, must fit in that budget. A floor for our
 * controller: the writes a pod-less rollout cannot do without (the RC, each scale the rolling
 * updater makes, the Complete, one DC status write), at the client CPU of one request measured
 * alone (clientRequestCost), reads and watch events not counted. Where the run has kube-apiserver
 * profiles of both sides, what that one DC status write costs kube-apiserver more than a native
 * write is shown beside it, for comparison only (cpuBudgetOf's `reach`).
 */
function cpuBudgetOf(n, r, deploy, ph) {
  const a = r.phases[ph]?.load;
  const d = deploy.phases[ph]?.load;
  if (!requestCost || !a?.cpuByProcess || !d?.cpuByProcess) return undefined;
  if (Math.min(a.machineBusyCores, d.machineBusyCores) < 0.9 * cores) return { cpuBound: false, busy: [a.machineBusyCores, d.machineBusyCores] };
  const per = (x) => (1000 * x) / n;
  const kcm = 'kube-controller-manager';
  const budget = per((d.cpuByProcess[kcm] ?? 0) - (a.cpuByProcess[kcm] ?? 0));
  const others = Object.keys({ ...a.cpuByProcess, ...d.cpuByProcess }).filter((k) => k !== kcm && k !== 'controller');
  const extra = per(others.reduce((s, k) => s + (a.cpuByProcess[k] ?? 0) - (d.cpuByProcess[k] ?? 0), 0));
  const apiserverExtra = per((a.cpuByProcess['kube-apiserver'] ?? 0) - (d.cpuByProcess['kube-apiserver'] ?? 0));
  const ours = per(a.cpuByProcess.controller ?? 0);
  const scales = ph === 'create' ? 1 : (r.demandedWaitMs?.updateScales ?? 1);
  const writes = 3 + scales;
  const floor = writes * requestCost.cpuMs;
  const crd = crdStatusWritePremium(r, deploy);
  const crdFloor = floor + Math.max(0, crd?.premiumMs ?? 0);
  // 'node': no controller in Node.js fits; 'others': the other processes' extra of this run does
  // not leave room; 'open': not ruled out. The CRD's price of a status write (crdFloor) is shown
  // but rules nothing out: a Deployment rollout writes its own status more often (about 7 times
  // at N=100) than a DC rollout must (twice), so the DC side could in principle save as many
  // native writes as its CRD writes cost more.
  const reach = floor > budget ? 'node' : floor + Math.max(0, extra) > budget ? 'others' : 'open';
  return { cpuBound: true, budget, extra, apiserverExtra, ours, scales, writes, floor, crd, crdFloor, reach };
}

function cpuBudgetLines(n, r, deploy) {
  const out = [];
  for (const ph of ['create', 'update']) {
    const b = cpuBudgetOf(n, r, deploy, ph);
    if (!b) continue;
    const label = ph === 'create' ? 'first rollout' : 'template update';
    if (!b.cpuBound) {
      out.push(`N=${n} pod-less ${label}, CPU budget: not computed, the phases were not bound by the CPU (${fmt.n(b.busy[0], 2)} and ${fmt.n(b.busy[1], 2)} of ${cores} cores busy).`);
      continue;
    }
    const { budget, extra, apiserverExtra, ours, scales, writes, floor, crd, crdFloor } = b;
    const crdText = crd ? ` A CRD's price, for comparison: one DC status write cost kube-apiserver ${fmt.n(crd.dcMs, 2)} ms, a native write in the Deployment run ${fmt.n(crd.nativeMs, 2)} ms (its CPU profiles, this run), so the floor with that one write's premium would be ${fmt.n(crdFloor, 1)} ms; not a floor, as a Deployment rollout writes its own status more often than a DC rollout must.` : '';
    const verdict = {
      node: `the floor alone is more than the whole budget, even if no other process needed anything more for DCs: **≤ 1.0× is out of reach here for a controller in Node.js**.${crdText}`,
      others: `the floor fits in the budget, but not with the other processes' extra of this run: ≤ 1.0× would need kube-apiserver (and the rest) to spend less on DCs than here, not only a cheaper controller.`,
      open: `the floor and the other processes' extra fit in the budget: ≤ 1.0× is not ruled out; our controller used ${fmt.n(ours / Math.max(floor, 1e-9), 1)}× the floor.`,
    }[b.reach];
    out.push(`N=${n} pod-less ${label}, CPU budget (ms per rollout): KCM used ${fmt.n(budget, 1)} ms more in the Deployment phase than in this one, the Deployment work our controller replaces: the budget for our controller and for anything the other processes spend more on DCs. Here those spent ${extra >= 0 ? '+' : ''}${fmt.n(extra, 1)} ms (kube-apiserver ${apiserverExtra >= 0 ? '+' : ''}${fmt.n(apiserverExtra, 1)} ms) and our controller ${fmt.n(ours, 1)} ms. Floor for any controller in Node.js: ${writes} writes (the RC, ${scales === 1 ? 'its scale' : `${scales} scales`}, the Complete, one DC status write) at ${fmt.n(requestCost.cpuMs, 2)} ms of client CPU each (one GET through the controller's client, measured alone, mean of ${requestCost.requests}) = ${fmt.n(floor, 1)} ms, reads and watch events not counted: ${verdict}`);
  }
  return out;
}

/**
 * What one DC status write costs kube-apiserver more than a native write, from the profiles of
 * this run (the DC kind's "DeploymentConfig status writes" per write, the Deployment run's native
 * writes per write); undefined without profiles of both.
 */
function crdStatusWritePremium(r, deploy) {
  const dcMs = msPerWrite(r.apiserverProfile).dcStatus;
  const nativeMs = msPerWrite(deploy.apiserverProfile).native;
  if (dcMs === undefined || nativeMs === undefined) return undefined;
  return { dcMs, nativeMs, premiumMs: dcMs - nativeMs };
}

/** The per-object first rollout against its target (Deployment p50 + demanded wait + 0.5 s), with its own breakdown. */
function firstRolloutLine(r, deploy) {
  const demanded = r.demandedWaitMs?.create ?? 0;
  const over = r.phases.create.p50 - (deploy.phases.create.p50 + demanded);
  const c = r.inlineSteps?.byPhase?.create;
  const med = (xs) => fmt.ms(percentile(xs ?? [], 50));
  return ` First rollout per object: p50 ${fmt.s(r.phases.create.p50 / 1000)} against the Deployment's ${fmt.s(deploy.phases.create.p50 / 1000)} + ${fmt.s(demanded / 1000)} demanded, ${fmt.s(over / 1000)} over (target ≤ 0.5 s)`
    + (c?.firstStepToBound ? `; its medians: ${med(c.writeToRc)} DC write → RC, ${med(c.rcToFirstStep)} RC → first step, ${med(c.firstStepToBound)} first step → first pod bound, ${med(c.steps)} first → last step, ${med(c.lastStepToDone)} Complete → DC reported.` : '.');
}

// ------------------------------------------------------------------ main
const results = [];
const skipped = [];
let idle;
const podFloors = [];
const dcFloors = [];
// --repeat K (default 1): each N below 1000 runs K times (the first run is the one the tables
// show); --repeat-kinds: which kinds repeat (default: the pod-less mode and Deployments).
const repeatCount = Math.max(1, Number(args.repeat ?? 1));
const repeatKinds = (args['repeat-kinds'] ?? 'dc-inline,deploy').split(',').filter((k) => kinds.includes(k));
const repeats = [];
let deployerStart;
let requestCost;
if (args['report-only'] === 'true') {
  // Re-render the report and the chart from the last run's results file.
  const last = recorded;
  started.setTime(Date.parse(last.started ?? started.toISOString()));
  results.push(...last.results);
  skipped.push(...last.skipped);
  idle = last.idle;
  deployerStart = last.deployerStart;
  requestCost = last.requestCost;
  podFloors.push(...(last.podFloors ?? []));
  dcFloors.push(...(last.dcFloors ?? []));
  repeats.push(...(last.repeats ?? []));
  sizes.length = 0;
  args.idle = '0';
}
try {
  if (args['report-only'] !== 'true') {
    await setupCluster();
    deployerStart = deployerStartCost();
    log(`deployer start-up alone: ${deployerStart ? `${fmt.n(deployerStart.cpuSeconds, 2)} s CPU, ${fmt.mib(deployerStart.rssBytes)}, ${fmt.n(deployerStart.wallSeconds, 2)} s wall` : 'not measured'}`);
    requestCost = clientRequestCost();
    log(`one request's client CPU alone: ${requestCost ? `${fmt.n(requestCost.cpuMs, 3)} ms` : 'not measured'}`);
  }
  for (const n of sizes) {
    for (const kind of kinds) {
      // --force-1000 (all kinds) or --force-1000 <kind,...>: run N>=1000 whatever the estimate.
      const forced = args['force-1000'] === 'true' || (args['force-1000'] ?? '').split(',').includes(kind);
      if (n >= 1000 && !forced) {
        // Estimate from this kind's largest run so far; 15 min per kind at most.
        const prev = results.filter((r) => r.kind === kind).at(-1);
        const est = prev ? ((prev.phases.create.totalMs + prev.phases.update.totalMs) / prev.n) * n / 1000 : 0;
        if (est > 900) {
          skipped.push(`N=${n} ${kind}: estimated ${fmt.s(est)} (linear from N=${prev.n}: ${fmt.s(prev.phases.create.totalMs / 1000)} + ${fmt.s(prev.phases.update.totalMs / 1000)}), over the 15 min budget per kind on this ${os.cpus().length}-CPU machine; run with --force-1000 ${kind} to measure it anyway.`);
          log(`skipping N=${n} ${kind}: estimated ${fmt.s(est)}`);
          continue;
        }
      }
      results.push(await runOne(kind, n));
    }
    // After the three kinds of this N: bare deployer pods, for the pod mode's lower bound.
    if (kinds.includes('dc') && args['pod-floor'] !== 'false' && results.some((r) => r.kind === 'dc' && r.n === n)) podFloors.push(await runPodFloor(n));
    // And DCs rolled out by the floor controller, for the pod-less mode's lower bound.
    if (args['dc-floor'] !== 'false' && ['dc-inline', 'deploy'].every((k) => results.some((r) => r.kind === k && r.n === n))) dcFloors.push(await runDcFloor(n));
    for (const r of results.filter((x) => x.n === n)) repeats.push(repeatSummary(r, 0));
    // --repeat K: K-1 more runs of the --repeat-kinds of this N, in reversed order every other
    // time, so that the spread of the ratios between runs on this plane is known (Repeatability).
    for (let rep = 1; rep < repeatCount && n < 1000; rep++) {
      const order = rep % 2 === 1 ? [...repeatKinds].reverse() : repeatKinds;
      for (const kind of order) repeats.push(repeatSummary(await runOne(kind, n), rep));
    }
  }
  if (idleN > 0 && args['report-only'] !== 'true') idle = await idleRun(idleN);
  else if (!idle && previousRun?.idle) {
    // --idle 0: keep the idle figures of the last run that measured them, saying so.
    idle = { ...previousRun.idle, measuredAt: previousRun.idle.measuredAt ?? previousRun.started };
  }
} finally {
  // The results first: a report that fails to render can be re-rendered from them (--report-only).
  writeFileSync(resultsFile, JSON.stringify({ started: started.toISOString(), machine, maxPods, warmup: warmupN, podNode, controllerArgs, clusterDir, controllerNodeOptions: recorded ? recorded.controllerNodeOptions : controllerNodeOptions, results, idle, skipped, deployerStart, requestCost, podFloors, dcFloors, repeats }, null, 1));
  // The plane stops even when the report fails to render: a report error once left it running.
  try {
    const md = report(results, idle, skipped);
    const docs = path.join(repo, 'docs');
    writeFileSync(path.join(docs, `${outName}.md`), md);
    try {
      renderChart(results, path.join(docs, `${outName}.svg`));
    } catch (err) {
      log(`chart: ${err.message}`);
    }
    process.stdout.write(md);
  } finally {
    if (startedCluster && args['keep-cluster'] !== 'true') clusterScript('down');
  }
}
process.exit(0);
