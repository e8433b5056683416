#!/usr/bin/env node
// The process kubelet: TEST INFRASTRUCTURE for hack/local-cluster.sh, never shipped.
// kwok fakes ordinary pods but leaves alone pods labelled openshift.io/deployer-pod-for.name
// (deployer and lifecycle-hook pods). This program runs those pods' first container as a local
// process group and reports pod status as a kubelet would. See docs/process-kubelet.md.
//
//   env KUBECONFIG=<run dir>/admin.kubeconfig LOCAL_CLUSTER_DIR=<run dir> node hack/process-kubelet.mjs
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync, fstatSync } from 'node:fs';
import https from 'node:https';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiException, CoreV1Api, KubeConfig, PatchStrategy, Watch, setHeaderOptions } from '@kubernetes/client-node';
import * as lib from './process-kubelet/lib.mjs';
import * as logs from './process-kubelet/logs.mjs';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runDir = path.resolve(process.env.LOCAL_CLUSTER_DIR ?? path.join(repoDir, '.local-cluster'));
const entrypointPath = path.join(repoDir, 'bin/dcctl-entrypoint');
// What the project's image runs in a container without a command: read from the Dockerfile, so
// that pods here run what they would run in a cluster.
const image = lib.imageDefaults(readFileSync(path.join(repoDir, 'Dockerfile'), 'utf8'));
const shimDir = path.join(runDir, 'process-kubelet-bin');
const logDir = path.join(runDir, 'pod-logs');
const scratchRoot = path.join(runDir, 'pod-scratch');
// The Node.js that pod processes run (`node` on their PATH, the deployer, the shims): by default
// this process's own; PROCESS_KUBELET_NODE picks another, e.g. the image's major version for the
// benchmark (bench/bench.mjs --node), since a deployer's start-up cost depends on it.
const podNode = process.env.PROCESS_KUBELET_NODE || process.execPath;
// The image's compiled-code cache (Dockerfile: NODE_COMPILE_CACHE, filled at build time), one per
// plane here, filled at start as the image's build fills it.
const compileCacheDir = path.join(runDir, 'compile-cache');
const imageEnv = lib.imageEnv(image, { compileCacheDir });

const log = (msg) => process.stdout.write(`${lib.logLine(new Date(), msg)}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const codeOf = (err) => (err instanceof ApiException ? err.code : undefined);
function errText(err) {
  if (err instanceof ApiException) {
    try {
      return `${err.code}: ${JSON.parse(err.body).message}`;
    } catch {
      return `HTTP ${err.code}`;
    }
  }
  return err?.message ?? String(err);
}

/**
 * client-node 1.x builds a new https.Agent, so a new TLS connection (a full handshake that
 * kube-apiserver signs), for every request: three per pod (its token and two status patches). A
 * kubelet keeps its connections to kube-apiserver open, so this one does too: one keep-alive agent
 * for every request and watch (the kubeconfig, and so the agent's TLS options, never change), as
 * the controller's clients do (src/kube/client.ts, keepAliveAuthentication; this script runs
 * without the build).
 */
class KeepAliveKubeConfig extends KubeConfig {
  createAgent(cluster, agentOptions) {
    this.sharedAgent ??= super.createAgent(cluster, { ...agentOptions, keepAlive: true });
    return this.sharedAgent;
  }
}

const kc = new KeepAliveKubeConfig();
if (!process.env.KUBECONFIG) {
  log('KUBECONFIG is not set; refusing to guess a cluster');
  process.exit(2);
}
kc.loadFromFile(process.env.KUBECONFIG);
const core = kc.makeApiClient(CoreV1Api);
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** uid → PodRun for every pod this process has taken on (kept after it finishes). */
const runs = new Map();
let shuttingDown = false;

// Every pod process is a Node.js process (~70 MB, ~0.3 s CPU to start): on a small machine,
// hundreds of concurrent rollouts would otherwise fork hundreds of them at once. Like a full
// node, the process kubelet keeps the rest Pending and starts them in arrival order.
const maxPods = (() => {
  const raw = process.env.PROCESS_KUBELET_MAX_PODS ?? '8';
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    log(`PROCESS_KUBELET_MAX_PODS=${JSON.stringify(raw)} is not a positive integer`);
    process.exit(2);
  }
  return n;
})();
let activePods = 0;
/** FIFO of pods waiting for a slot: { run, grant(ok) }. */
const waitingPods = [];

/** Resolves true once `run` may start processes, false if it was stopped while waiting. */
function acquireSlot(run) {
  if (activePods < maxPods) {
    activePods++;
    return Promise.resolve(true);
  }
  log(`${run.key}: ${activePods} pod process(es) running (PROCESS_KUBELET_MAX_PODS=${maxPods}); waiting, ${waitingPods.length} ahead`);
  return new Promise((resolve) => {
    const entry = { run, grant: resolve };
    waitingPods.push(entry);
    run.wake = () => {
      const i = waitingPods.indexOf(entry);
      if (i >= 0) waitingPods.splice(i, 1);
      resolve(false);
    };
  });
}

/** Hands the slot to the oldest waiting pod, or frees it. */
function releaseSlot() {
  const next = waitingPods.shift();
  if (next) {
    log(`${next.run.key}: got a pod process slot`);
    next.run.wake = () => {};
    next.grant(true);
    return;
  }
  activePods--;
}

class PodRun {
  constructor(pod) {
    this.pod = pod;
    this.key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    this.file = `${pod.metadata.namespace}_${pod.metadata.name}`;
    this.child = undefined;
    this.stopReason = undefined; // 'deleted' | 'deadline' | 'shutdown'
    this.wake = () => {};
    this.timers = [];
    this.finished = false;
    this.patching = Promise.resolve(true);
    /** One record per container attempt (restarts add one), for the log endpoint. */
    this.attempts = [];
  }

  /** Stops the pod: SIGTERM to the process group, SIGKILL after `graceSec`. */
  stop(reason, graceSec) {
    if (this.finished || this.stopReason) return;
    this.stopReason = reason;
    this.wake();
    const child = this.child;
    if (!child) return;
    log(`${this.key}: ${reason}; SIGTERM to process group ${child.pid} (SIGKILL after ${graceSec}s)`);
    killGroup(child, 'SIGTERM');
    this.timers.push(setTimeout(() => killGroup(child, 'SIGKILL'), graceSec * 1000));
  }
}

/** Signals the group of a child we spawned, only while that child has not been reaped. */
function killGroup(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Merge-patches pods/status; one request at a time per pod, so a late "Running" never wins. */
function patchStatus(run, body) {
  run.patching = run.patching.then(() => sendStatus(run, body));
  return run.patching;
}

async function sendStatus(run, body) {
  const { namespace, name } = run.pod.metadata;
  for (let attempt = 0; ; attempt++) {
    try {
      run.pod = await core.patchNamespacedPodStatus({ name, namespace, body }, mergePatch);
      return true;
    } catch (err) {
      if (codeOf(err) === 404) {
        log(`${run.key}: pod is gone; stopping it`);
        run.stop('deleted', 0);
        return false;
      }
      if (attempt >= 5 || shuttingDown) {
        log(`${run.key}: status update failed, giving up: ${errText(err)}`);
        return false;
      }
      await sleep(500 * 2 ** attempt);
    }
  }
}

async function serviceAccountKubeconfig(run, dir) {
  const pod = run.pod;
  const sa = lib.serviceAccountOf(pod);
  const { namespace } = pod.metadata;
  let token;
  for (let attempt = 0; ; attempt++) {
    try {
      const tr = await core.createNamespacedServiceAccountToken({ name: sa, namespace, body: lib.tokenRequestBody(pod) });
      token = tr.status.token;
      break;
    } catch (err) {
      // The namespace's service accounts may still be on their way; then give up clearly.
      if (attempt >= 10 || run.stopReason || ![404, 429, 500, 503].includes(codeOf(err) ?? 500)) {
        throw new Error(`cannot get a token for service account ${namespace}/${sa}: ${errText(err)}`);
      }
      await sleep(1000);
    }
  }
  const cluster = kc.getCurrentCluster();
  const caData = cluster.caData ?? (cluster.caFile ? readFileSync(cluster.caFile).toString('base64') : undefined);
  const file = path.join(dir, 'kubeconfig');
  writeFileSync(file, lib.podKubeconfig({ server: cluster.server, caData, insecure: cluster.skipTLSVerify, token, namespace }), { mode: 0o600 });
  return file;
}

async function readRefValues(namespace, refs) {
  const values = new Map();
  for (const ref of refs) {
    try {
      if (ref.kind === 'configmap') {
        const cm = await core.readNamespacedConfigMap({ name: ref.name, namespace });
        const v = cm.data?.[ref.key];
        if (v !== undefined) values.set(lib.refKey(ref.kind, ref.name, ref.key), v);
      } else {
        const s = await core.readNamespacedSecret({ name: ref.name, namespace });
        const v = s.data?.[ref.key];
        if (v !== undefined) values.set(lib.refKey(ref.kind, ref.name, ref.key), Buffer.from(v, 'base64').toString('utf8'));
      }
    } catch (err) {
      if (codeOf(err) !== 404) throw err;
    }
  }
  return values;
}

/** Scratch dir, kubeconfig, environment and argv of the pod, or throws with the reason. */
async function prepare(run) {
  const pod = run.pod;
  const container = pod.spec.containers[0];
  const scratch = path.join(scratchRoot, run.file);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const kubeconfig = await serviceAccountKubeconfig(run, scratch);
  const base = lib.baseEnv({
    shimDir,
    nodeDir: path.dirname(podNode),
    hostPath: process.env.PATH,
    home: scratch,
    podName: pod.metadata.name,
    kubeconfig,
  });
  const refValues = await readRefValues(pod.metadata.namespace, lib.envRefs(container));
  // A container without a command runs the project's image (commandFor), with its ENV under the
  // container's own, as a container runtime sets them.
  const usesImage = (container.command ?? []).length === 0;
  const resolved = lib.resolveEnv(container, pod, { base: usesImage ? { ...base, ...imageEnv } : base, refValues });
  if (resolved.error) throw new Error(resolved.error);
  for (const s of resolved.skipped) log(`${run.key}: env ${s}`);
  // The pod's own KUBECONFIG would point at a path inside its image; it gets the SA's.
  const env = { ...resolved.env, KUBECONFIG: kubeconfig };
  const cmd = lib.commandFor(container, { entrypointPath, shimDir, image, env });
  if (cmd.error) throw new Error(cmd.error);
  return { scratch, env, argv: cmd.argv };
}

/** Lines kept per attempt for the log endpoint (older ones are dropped, as a kubelet rotates). */
const MaxLogEntries = 100_000;

/** One container attempt's output as the log endpoint serves it: timestamped lines, live. */
class AttemptLog {
  constructor() {
    this.entries = [];
    this.ended = false;
    this.listeners = new Set();
  }
  add(text) {
    const entry = { time: Date.now(), text };
    this.entries.push(entry);
    if (this.entries.length > MaxLogEntries) this.entries.splice(0, this.entries.length - MaxLogEntries);
    for (const l of this.listeners) l.line(entry);
  }
  end() {
    this.ended = true;
    for (const l of this.listeners) l.end();
    this.listeners.clear();
  }
}

/** Spawns one attempt; resolves with its terminated state once the process exits. */
function runAttempt(run, { scratch, env, argv }, first, onStart) {
  const container = run.pod.spec.containers[0];
  const logFile = path.join(logDir, `${run.file}.log`);
  // A new pod with a reused name (e.g. `rollout retry`) starts a new log; restarts append.
  const fd = openSync(logFile, first ? 'w' : 'a');
  const offset = fstatSync(fd).size;
  const startedAt = new Date();
  const attemptLog = new AttemptLog();
  run.attempts.push(attemptLog);
  return new Promise((resolve) => {
    let finished = false;
    const finish = (exitCode, signal, pid, reason, message) => {
      if (finished) return;
      finished = true;
      attemptLog.end();
      closeSync(fd);
      const output = readTail(logFile, offset);
      resolve(lib.terminatedState({ container, pid, exitCode, signal, startedAt, finishedAt: new Date(), output, reason, message }));
    };
    const startError = (err) => {
      const message = `failed to start ${JSON.stringify(argv[0])}: ${err.message}`;
      log(`${run.key}: ${message}`);
      finish(128, undefined, undefined, 'StartError', message);
    };
    let child;
    try {
      // Pipes, not the file itself: each line is also kept with its time for the kubelet log
      // endpoint (timestamps, follow, previous); the file gets the same bytes as before.
      child = spawn(argv[0], argv.slice(1), { cwd: scratch, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      startError(err);
      return;
    }
    child.once('error', (err) => {
      if (child.pid === undefined) startError(err);
    });
    if (child.pid === undefined) return;
    for (const stream of [child.stdout, child.stderr]) {
      const splitter = new logs.LineSplitter((line) => attemptLog.add(line));
      stream.on('data', (chunk) => {
        writeSync(fd, chunk);
        splitter.push(chunk);
      });
      stream.on('close', () => splitter.end());
    }
    run.child = child;
    log(`${run.key}: started pid ${child.pid}: ${JSON.stringify(argv)}`);
    onStart(child.pid, startedAt);
    let exit;
    const done = () => {
      const { exitCode, signal } = exit;
      log(`${run.key}: pid ${child.pid} exited with ${signal ?? exitCode}`);
      finish(exitCode, signal ? osConstants.signals[signal] : undefined, child.pid);
    };
    child.once('exit', (code, signal) => {
      // As in a container: once the main process ends, nothing it left behind keeps running.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is empty
      }
      run.child = undefined;
      exit = { exitCode: lib.exitCodeOf(code, signal, osConstants.signals), signal };
      // 'close' follows once the pipes are drained; a process that left its group could hold
      // them open, so do not wait for it forever.
      setTimeout(() => { if (!finished) done(); }, 2000).unref();
    });
    child.once('close', () => {
      if (exit) done();
    });
  });
}

/** The last 1 KiB this attempt wrote to the pod log. */
function readTail(file, offset) {
  try {
    const size = statSync(file).size;
    const start = Math.max(offset, size - 1024);
    const buf = Buffer.alloc(size - start);
    const fd = openSync(file, 'r');
    readSync(fd, buf, 0, buf.length, start);
    closeSync(fd);
    return buf;
  } catch {
    return Buffer.alloc(0);
  }
}

/** Runs a bound Pending pod to completion (or until it is stopped). */
async function runPod(run) {
  const pod = run.pod;
  const startTime = pod.status?.startTime ? new Date(pod.status.startTime) : new Date();
  const container = pod.spec.containers[0];
  const restarts = ['OnFailure', 'Always'].includes(pod.spec.restartPolicy);
  let restartCount = 0;
  let lastTerminated;
  let reported = false;
  const fail = (extra) => {
    reported = true;
    return patchStatus(run, lib.finishedStatus(run.pod, { startTime, now: new Date(), restartCount, lastTerminated, ...extra }));
  };

  const remaining = lib.deadlineRemainingMs(pod, startTime, new Date());
  if (remaining !== Infinity) {
    run.timers.push(setTimeout(() => run.stop('deadline', lib.killGraceSeconds(run.pod)), Math.max(0, Math.min(remaining, 2 ** 31 - 1))));
  }
  log(`${run.key}: taking the pod (container ${container.name}, restartPolicy ${pod.spec.restartPolicy ?? 'Always'})`);
  const slot = await acquireSlot(run);
  let prepared;
  if (slot) {
    try {
      prepared = await prepare(run);
    } catch (err) {
      if (!run.stopReason) {
        log(`${run.key}: cannot start: ${err.message}`);
        await fail({ reason: 'CreateContainerConfigError', message: err.message });
      }
    }
  }
  while (prepared && !run.stopReason) {
    const terminated = await runAttempt(run, prepared, restartCount === 0, (pid, startedAt) => {
      void patchStatus(run, lib.runningStatus(run.pod, { startTime, now: new Date(), pid, startedAt, restartCount, lastTerminated }));
    });
    if (run.stopReason) {
      if (run.stopReason === 'deadline') {
        log(`${run.key}: deadline exceeded`);
        await fail({ terminated, reason: lib.DeadlineReason, message: lib.DeadlineMessage });
      }
      break;
    }
    if (terminated.exitCode === 0 || !restarts) {
      log(`${run.key}: ${terminated.exitCode === 0 ? 'Succeeded' : 'Failed'}`);
      await fail({ terminated });
      break;
    }
    restartCount++;
    lastTerminated = terminated;
    const delayMs = lib.restartBackoffMs(restartCount);
    log(`${run.key}: restart #${restartCount} in ${delayMs} ms`);
    await patchStatus(run, lib.backoffStatus(run.pod, { startTime, now: new Date(), restartCount, lastTerminated, delayMs }));
    await new Promise((r) => {
      const t = setTimeout(r, delayMs);
      run.wake = () => {
        clearTimeout(t);
        r();
      };
    });
  }
  if (run.stopReason === 'deadline' && !reported) {
    // The deadline passed before the first or between two processes: nothing ran to kill.
    log(`${run.key}: deadline exceeded`);
    await fail({ reason: lib.DeadlineReason, message: lib.DeadlineMessage });
  }
  run.finished = true;
  if (slot) releaseSlot();
  for (const t of run.timers) clearTimeout(t);
  if (run.stopReason && run.stopReason !== 'deadline') log(`${run.key}: stopped (${run.stopReason})`);
}

function onPod(type, pod) {
  if (!pod?.metadata?.uid || !pod.spec?.containers?.length) return;
  const run = runs.get(pod.metadata.uid);
  if (type === 'DELETED' || pod.metadata.deletionTimestamp) {
    if (run && !run.finished) {
      run.pod = pod;
      run.stop('deleted', lib.killGraceSeconds(pod));
    }
    return;
  }
  if (run) return;
  if (shuttingDown) return;
  const action = lib.podAction(pod, runs);
  if (action === 'start') {
    const r = new PodRun(pod);
    runs.set(pod.metadata.uid, r);
    runPod(r).catch((err) => log(`${r.key}: internal error: ${err.stack ?? err}`));
  } else if (action === 'orphaned') {
    const r = new PodRun(pod);
    r.finished = true;
    runs.set(pod.metadata.uid, r);
    log(`${r.key}: Running without a process here; failing it`);
    const now = new Date();
    void patchStatus(r, lib.finishedStatus(pod, { startTime: pod.status?.startTime ?? now, now, message: lib.RestartedMessage }));
  }
}

/** List, then watch from the list's resourceVersion; relist after 410; back off on errors. */
async function watchLoop() {
  const selector = lib.DeployerPodLabel;
  const watch = new Watch(kc);
  let rv;
  let backoff = 1000;
  while (!shuttingDown) {
    const began = Date.now();
    try {
      if (!rv) {
        const list = await core.listPodForAllNamespaces({ labelSelector: selector });
        rv = list.metadata.resourceVersion;
        log(`listed ${list.items.length} pod(s) at resourceVersion ${rv}`);
        const seen = new Set(list.items.map((p) => p.metadata.uid));
        // A pod that vanished while we were not watching: kill what it left running.
        for (const [uid, run] of runs) if (!seen.has(uid) && !run.finished) run.stop('deleted', 0);
        for (const pod of list.items) onPod('ADDED', JSON.parse(JSON.stringify(pod)));
      }
      await new Promise((resolve, reject) => {
        let controller;
        watch
          .watch(
            '/api/v1/pods',
            { labelSelector: selector, resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds: 300 },
            (type, obj) => {
              if (type === 'ERROR') {
                // 410 Gone: our resourceVersion is too old; relist right away.
                if (obj?.code === 410) {
                  rv = undefined;
                  log('watch: resourceVersion expired (410); relisting');
                  resolve();
                } else {
                  reject(new Error(`watch error ${obj?.code}: ${obj?.message}`));
                }
                controller?.abort();
                return;
              }
              if (obj?.metadata?.resourceVersion) rv = obj.metadata.resourceVersion;
              backoff = 1000;
              if (type !== 'BOOKMARK') onPod(type, obj);
            },
            (err) => (err ? reject(err) : resolve()),
          )
          .then((c) => {
            controller = c;
            stopWatch = () => c.abort();
          }, reject);
      });
    } catch (err) {
      if (shuttingDown) break;
      if (err?.statusCode === 410 || codeOf(err) === 410) rv = undefined;
      log(`watch: ${errText(err)}; retrying in ${backoff} ms`);
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 30_000);
      continue;
    }
    // A clean close is normal (timeoutSeconds); never reconnect in a tight loop.
    if (Date.now() - began < 1000) await sleep(1000);
  }
}
let stopWatch = () => {};

// ---------------------------------------------------------------- kubelet log endpoint
// The API server serves pods/log (`kubectl logs`, client-node's readNamespacedPodLog) by calling
// GET https://<node InternalIP>:<daemonEndpoints.kubeletEndpoint.Port>/containerLogs/{ns}/{pod}/{container}.
// local-cluster.sh points every kwok node at this port (kwok --node-port), so the real pods/log
// API works for the pods this process runs. Authentication is not checked (loopback, test only).

/** The latest run for namespace/name (a reused name, e.g. after `rollout retry`, is the newest). */
function runByName(namespace, name) {
  let found;
  for (const r of runs.values()) if (r.pod.metadata.namespace === namespace && r.pod.metadata.name === name) found = r;
  return found;
}

function badRequest(res, message, code = 400) {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(message);
}

function serveContainerLogs(req, res) {
  const url = new URL(req.url ?? '/', 'https://127.0.0.1');
  const target = logs.parseLogPath(url.pathname);
  if (req.method !== 'GET' || !target) return badRequest(res, `${req.method} ${url.pathname}: the process kubelet serves only GET /containerLogs/{namespace}/{pod}/{container}`, 404);
  let opts;
  try {
    opts = logs.parseLogQuery(url.searchParams, new Date());
  } catch (err) {
    return badRequest(res, err.message);
  }
  const run = runByName(target.namespace, target.pod);
  if (!run) {
    return badRequest(res, `pod "${target.pod}" in namespace "${target.namespace}" is not run by the process kubelet (it runs only pods labelled ${lib.DeployerPodLabel}; kwok simulates the others, which have no logs)`, 404);
  }
  const container = run.pod.spec.containers[0];
  if (target.container !== container.name) {
    return badRequest(res, `container ${target.container} is not valid for pod ${target.pod} (the process kubelet runs only the first container, ${container.name})`);
  }
  const index = run.attempts.length - (opts.previous ? 2 : 1);
  const attempt = run.attempts[index];
  if (!attempt) {
    if (opts.previous) return badRequest(res, `previous terminated container "${container.name}" in pod "${target.pod}" not found`);
    return badRequest(res, `container "${container.name}" in pod "${target.pod}" is waiting to start: ContainerCreating`);
  }
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
  const budget = new logs.ByteBudget(opts.limitBytes);
  for (const line of logs.initialLines(attempt.entries, opts)) {
    res.write(budget.take(line));
    if (budget.exhausted) return res.end();
  }
  if (!opts.follow || attempt.ended || opts.previous) return res.end();
  const listener = {
    line: (entry) => {
      if (opts.sinceMs !== undefined && entry.time < opts.sinceMs) return;
      res.write(budget.take(logs.formatEntry(entry, opts.timestamps)));
      if (budget.exhausted) listener.end();
    },
    end: () => {
      attempt.listeners.delete(listener);
      res.end();
    },
  };
  attempt.listeners.add(listener);
  res.on('close', () => attempt.listeners.delete(listener));
}

function startLogServer() {
  const port = Number(process.env.KUBELET_PORT ?? '');
  if (!port) {
    log('KUBELET_PORT is not set: no kubelet log endpoint (pods/log will not work)');
    return;
  }
  const server = https.createServer({
    cert: readFileSync(process.env.KUBELET_TLS_CERT ?? ''),
    key: readFileSync(process.env.KUBELET_TLS_KEY ?? ''),
  }, (req, res) => {
    try {
      serveContainerLogs(req, res);
    } catch (err) {
      log(`log endpoint: ${err.stack ?? err}`);
      if (!res.headersSent) badRequest(res, 'internal error', 500);
      else res.end();
    }
  });
  server.on('error', (err) => log(`log endpoint: ${err.message}`));
  server.listen(port, '127.0.0.1', () => log(`kubelet log endpoint on https://127.0.0.1:${port}/containerLogs/`));
}

function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  stopWatch();
  const live = [...runs.values()].filter((r) => !r.finished);
  log(`${signal}: stopping ${live.length} pod process(es) and exiting`);
  for (const r of live) r.stop('shutdown', 3);
  const check = setInterval(() => {
    if ([...runs.values()].every((r) => !r.child)) process.exit(0);
  }, 100);
  setTimeout(() => {
    clearInterval(check);
    process.exit(0);
  }, 4000);
}

process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('unhandledRejection', (err) => log(`unhandled rejection: ${err?.stack ?? err}`));

if (!existsSync(podNode)) {
  log(`PROCESS_KUBELET_NODE=${JSON.stringify(podNode)}: no such file`);
  process.exit(2);
}
mkdirSync(logDir, { recursive: true });
mkdirSync(scratchRoot, { recursive: true });
mkdirSync(shimDir, { recursive: true });
for (const [name, text] of Object.entries(lib.shimScripts({ entrypointPath }))) {
  writeFileSync(path.join(shimDir, name), text, { mode: 0o755 });
}
rmSync(path.join(shimDir, lib.nodeLinkName), { force: true });
symlinkSync(podNode, path.join(shimDir, lib.nodeLinkName));
log(`process kubelet started (pid ${process.pid}); cluster ${kc.getCurrentCluster()?.server}; run dir ${runDir}; at most ${maxPods} pod process(es) at once; pods run ${podNode}`);
try {
  statSync(path.join(repoDir, 'dist/cli/index.js'));
  if (imageEnv.NODE_COMPILE_CACHE !== undefined) {
    const [cmd, ...cmdArgs] = lib.compileCacheWarmup({ nodePath: podNode, repoDir });
    const warm = spawnSync(cmd, cmdArgs, { env: { PATH: process.env.PATH, HOME: runDir, NODE_COMPILE_CACHE: compileCacheDir }, encoding: 'utf8' });
    if (warm.status !== 0) log(`warning: filling the compile cache ${compileCacheDir} failed: ${warm.error?.message ?? warm.stderr}`);
  }
} catch {
  log(`warning: ${repoDir}/dist is not built (npm run build); deployer pods will fail`);
}
startLogServer();
await watchLoop();
