// Measuring helpers of the benchmark (bench/bench.mjs): process CPU/RSS sampling from /proc,
// request counting from the kube-apiserver audit log, percentiles, metric text parsing.
import { openSync, readSync, closeSync, readFileSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';

const CLK_TCK = 100; // Linux USER_HZ; /proc/<pid>/stat times are in these ticks

/** utime, stime, cutime, cstime of a process in seconds, or undefined once it is gone. */
export function cpuTimes(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces: fields start after the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const n = (i) => Number(f[i - 3]) / CLK_TCK;
    return { self: n(14) + n(15), children: n(16) + n(17) };
  } catch {
    return undefined;
  }
}

/** Resident set size in bytes, or 0 once the process is gone. */
export function rssBytes(pid) {
  return memBytes(pid).rss;
}

/**
 * Resident set size and its private part in bytes (0 once the process is gone): RssAnon is the
 * process's own memory; the rest of VmRSS is file pages (the node binary's code and data), which
 * every process of the same binary shares with the others and with the page cache.
 */
export function memBytes(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    return { rss: kib('VmRSS'), anon: kib('RssAnon') };
  } catch {
    return { rss: 0, anon: 0 };
  }
}

/** Pids whose parent is `ppid` (scans /proc; no /proc/<pid>/task/<tid>/children on this kernel). */
export function childPids(ppid) {
  const out = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[1]) === ppid) out.push(Number(d));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/**
 * Samples CPU and RSS of named processes every `intervalMs` until stopped. `children: true`
 * also samples the summed RSS of the direct children (the deployer processes of the process
 * kubelet) and counts their CPU through the parent's cutime/cstime (children it reaped).
 */
export class ProcSampler {
  constructor(targets, intervalMs = 250) {
    this.targets = targets.filter((t) => t.pid);
    this.start = new Map(this.targets.map((t) => [t.name, cpuTimes(t.pid)]));
    this.peak = new Map(this.targets.map((t) => [t.name, rssBytes(t.pid)]));
    this.peakChildren = new Map();
    this.maxChildren = new Map();
    this.peakChildRss = new Map();
    this.peakChildAnon = new Map();
    this.peakChildrenAnon = new Map();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  sample() {
    for (const t of this.targets) {
      this.peak.set(t.name, Math.max(this.peak.get(t.name) ?? 0, rssBytes(t.pid)));
      if (t.children) {
        const kids = childPids(t.pid);
        const mem = kids.map(memBytes);
        const rss = mem.map((m) => m.rss);
        const anon = mem.map((m) => m.anon);
        const sum = (xs) => xs.reduce((a, b) => a + b, 0);
        this.peakChildren.set(t.name, Math.max(this.peakChildren.get(t.name) ?? 0, sum(rss)));
        this.maxChildren.set(t.name, Math.max(this.maxChildren.get(t.name) ?? 0, kids.length));
        this.peakChildRss.set(t.name, Math.max(this.peakChildRss.get(t.name) ?? 0, ...rss, 0));
        this.peakChildAnon.set(t.name, Math.max(this.peakChildAnon.get(t.name) ?? 0, ...anon, 0));
        this.peakChildrenAnon.set(t.name, Math.max(this.peakChildrenAnon.get(t.name) ?? 0, sum(anon)));
      }
    }
  }

  /** Stops sampling; per target: cpu seconds (self), children cpu seconds, peak RSS bytes. */
  stop() {
    clearInterval(this.timer);
    this.sample();
    const out = {};
    for (const t of this.targets) {
      const a = this.start.get(t.name);
      const b = cpuTimes(t.pid) ?? a;
      out[t.name] = {
        cpuSeconds: a && b ? b.self - a.self : NaN,
        childCpuSeconds: a && b ? b.children - a.children : NaN,
        peakRss: this.peak.get(t.name) ?? 0,
        peakChildrenRss: this.peakChildren.get(t.name) ?? 0,
        maxChildren: this.maxChildren.get(t.name) ?? 0,
        peakChildRss: this.peakChildRss.get(t.name) ?? 0,
        peakChildAnon: this.peakChildAnon.get(t.name) ?? 0,
        peakChildrenAnon: this.peakChildrenAnon.get(t.name) ?? 0,
      };
    }
    return out;
  }
}

/** Size of a file now (an offset to read the audit log from later). */
export function fileSize(file) {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Audit events (parsed JSON) written to `file` after byte `offset`, one per request. */
export function readAudit(file, offset) {
  const size = fileSize(file);
  if (size <= offset) return [];
  const buf = Buffer.alloc(size - offset);
  const fd = openSync(file, 'r');
  readSync(fd, buf, 0, buf.length, offset);
  closeSync(fd);
  const seen = new Set();
  const events = [];
  for (const line of buf.toString('utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    let e;
    try {
      e = JSON.parse(line);
    } catch {
      continue; // a line still being written
    }
    // Watches log ResponseStarted and ResponseComplete: count each request once.
    if (seen.has(e.auditID)) continue;
    seen.add(e.auditID);
    events.push(e);
  }
  return events;
}

/**
 * Which client made a request, from its user agent: our controller and deployer processes,
 * and kube-controller-manager's controllers (client-go appends the controller name).
 */
export function clientOf(userAgent = '') {
  if (userAgent.startsWith('deploymentconfig-controller')) return 'dc-controller';
  if (userAgent.startsWith('dcctl-deployer')) return 'deployer';
  const kcm = /^kube-controller-manager\/.*\/([a-z-]+)$/.exec(userAgent);
  if (kcm) return `kcm/${kcm[1]}`;
  if (userAgent.startsWith('kube-scheduler')) return 'scheduler';
  if (userAgent.startsWith('kwok')) return 'kwok';
  return 'other';
}

/** counts[client][verb] over events. */
export function countByClientVerb(events) {
  const counts = {};
  for (const e of events) {
    const c = clientOf(e.userAgent);
    counts[c] ??= {};
    counts[c][e.verb] = (counts[c][e.verb] ?? 0) + 1;
  }
  return counts;
}

export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const idx = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[idx];
}

/** Prometheus text → [{name, labels, value}]. */
export function parseMetrics(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels = {};
    for (const l of (m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[4]) });
  }
  return out;
}

export function sumMetric(samples, name, filter = () => true) {
  return samples.filter((s) => s.name === name && filter(s.labels)).reduce((a, s) => a + s.value, 0);
}

/**
 * What the DC controller's metrics (parseMetrics of its /metrics) say of its work so far: API
 * requests and errors, and per controller its syncs, their total duration, failed syncs, queue
 * adds, time keys waited in the queue and requeues. Counters since the process started: the bench
 * takes the difference of two readings (metricsSince).
 */
export function controllerQueueMetrics(samples) {
  const byCtl = (name, ctl) => sumMetric(samples, name, (l) => (l.controller ?? l.name) === ctl);
  return {
    requests: sumMetric(samples, 'dcctl_api_requests_total'),
    errors: sumMetric(samples, 'dcctl_api_errors_total'),
    queues: Object.fromEntries(['deploymentconfig', 'deployer'].map((c) => [c, {
      syncs: byCtl('dcctl_sync_duration_seconds_count', c),
      syncSeconds: byCtl('dcctl_sync_duration_seconds_sum', c),
      errors: sumMetric(samples, 'dcctl_sync_duration_seconds_count', (l) => l.controller === c && l.result === 'error'),
      adds: byCtl('workqueue_adds_total', c),
      queueSeconds: byCtl('workqueue_queue_duration_seconds_sum', c),
      retries: byCtl('workqueue_retries_total', c),
    }])),
  };
}

/** `after` less `before`, field by field (nested objects of numbers, as controllerQueueMetrics returns). */
export function metricsSince(after, before) {
  if (typeof after === 'number') return after - (typeof before === 'number' ? before : 0);
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, metricsSince(v, before?.[k])]));
}

export const fmt = {
  s: (x) => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 2 : 1)} s` : 'n/a'),
  ms: (x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : 'n/a'),
  mib: (x) => (Number.isFinite(x) ? `${(x / 1048576).toFixed(0)} MiB` : 'n/a'),
  n: (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a'),
  ratio: (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a'),
};

/** Busy and total jiffies of the whole machine (first line of /proc/stat). */
export function machineJiffies() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already in user/nice)
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  // steal: time the hypervisor gave this VM's CPUs to someone else (busy for us, but no process's).
  return { busy: total - idle, total, steal: f[7] ?? 0 };
}

/** The 1-minute load average. */
export function loadAverage1() {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

/**
 * What the machine looked like during one phase of the bench: the 1-minute load average
 * (sampled every `intervalMs`: min / mean / max) and the CPU left to the bench, i.e. the
 * machine's cores minus what every process NOT belonging to the bench used (machine busy time
 * from /proc/stat minus the CPU time of `pids()`: the bench itself, its control plane, the
 * controller and the deployer processes, which the process kubelet reaps).
 */
export class LoadSampler {
  constructor(pids, cores, intervalMs = 1000) {
    this.pids = pids;
    this.cores = cores;
    this.loads = [loadAverage1()];
    this.t0 = Date.now();
    this.m0 = machineJiffies();
    this.byProcess0 = this.cpuByProcess();
    this.timer = setInterval(() => this.loads.push(loadAverage1()), intervalMs);
    this.timer.unref?.();
  }

  /**
   * CPU seconds so far of each bench process, by name. `pids()` yields pids or
   * `{ name, pid, childrenAs }`: a process's reaped children count under `childrenAs` when given
   * (the process kubelet's deployer processes), else with the process itself.
   */
  cpuByProcess() {
    const out = {};
    const add = (name, x) => { out[name] = (out[name] ?? 0) + x; };
    for (const entry of this.pids()) {
      const { name, pid, childrenAs } = typeof entry === 'number' ? { name: `pid ${entry}`, pid: entry } : entry;
      const t = cpuTimes(pid);
      if (!t) continue;
      add(name, childrenAs ? t.self : t.self + t.children);
      if (childrenAs) add(childrenAs, t.children);
    }
    return out;
  }

  /** { seconds, load: {min, mean, max}, machineBusyCores, stealCores, benchCores, othersCores, leftCores, cpuByProcess }. */
  stop() {
    clearInterval(this.timer);
    this.loads.push(loadAverage1());
    const seconds = (Date.now() - this.t0) / 1000;
    const m1 = machineJiffies();
    const byProcess1 = this.cpuByProcess();
    // A process that started during the phase (the controller) counts from 0.
    const cpuByProcess = Object.fromEntries(Object.entries(byProcess1).map(([k, v]) => [k, Math.max(0, v - (this.byProcess0[k] ?? 0))]));
    const benchCpu = Object.values(cpuByProcess).reduce((a, b) => a + b, 0);
    // /proc/stat counts per-CPU jiffies: busy/total * cores = cores busy on average.
    const totalJiffies = Math.max(1, m1.total - this.m0.total);
    const busyCores = ((m1.busy - this.m0.busy) / totalJiffies) * this.cores;
    const stealCores = ((m1.steal - this.m0.steal) / totalJiffies) * this.cores;
    const benchCores = benchCpu / Math.max(seconds, 0.001);
    const othersCores = Math.max(0, busyCores - stealCores - benchCores);
    const loads = this.loads;
    return {
      seconds,
      load: { min: Math.min(...loads), mean: loads.reduce((a, b) => a + b, 0) / loads.length, max: Math.max(...loads) },
      machineBusyCores: busyCores,
      stealCores,
      benchCores,
      othersCores,
      leftCores: Math.max(0, this.cores - othersCores - stealCores),
      cpuByProcess,
    };
  }
}

/**
 * "load 3.1 (2.0–4.2), others used 0.3 of 2 cores, the hypervisor took 0.4 (steal time): 1.3
 * left to the bench". Results recorded before steal was sampled count it under the others.
 */
export function describeLoad(l, cores) {
  if (!l) return 'not sampled';
  const steal = l.stealCores === undefined ? '' : `, the hypervisor took ${l.stealCores.toFixed(2)} (steal time)`;
  return `load average ${l.load.mean.toFixed(1)} (${l.load.min.toFixed(1)}–${l.load.max.toFixed(1)}), other processes used ${l.othersCores.toFixed(2)} of ${cores} cores${steal}: ${l.leftCores.toFixed(2)} left to the bench`;
}

/**
 * The options of a script that takes only `--name N` pairs of positive integers: `--help` prints
 * `usage` and exits 0; anything else (a mistyped flag, a stray argument) exits 2 with the usage,
 * before the script does anything. Resolves each name to its value or its default.
 */
export function integerOptions(script, usage, defaults, argv = process.argv.slice(2)) {
  if (argv.includes('--help')) {
    console.log(usage);
    process.exit(0);
  }
  const values = { ...defaults };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (!argv[i].startsWith('--') || !(name in defaults) || !/^[1-9][0-9]*$/.test(argv[i + 1] ?? '')) {
      console.error(`bench/${script}: unexpected ${JSON.stringify(argv.slice(i, i + 2).join(' '))}\n${usage}`);
      process.exit(2);
    }
    values[name] = Number(argv[i + 1]);
  }
  return values;
}

/**
 * The local plane a script runs on: its run directory (LOCAL_CLUSTER_DIR, default
 * <repo>/.local-cluster), and the server and TLS options of KUBECONFIG (default: the plane's admin
 * kubeconfig) for node:https requests.
 */
export async function localPlane(repo) {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const runDir = process.env.LOCAL_CLUSTER_DIR ?? path.join(repo, '.local-cluster');
  const kc = new KubeConfig();
  kc.loadFromFile(process.env.KUBECONFIG ?? path.join(runDir, 'admin.kubeconfig'));
  const tls = {};
  await kc.applyToHTTPSOptions(tls);
  return { runDir, server: new URL(kc.getCurrentCluster().server), tls };
}
