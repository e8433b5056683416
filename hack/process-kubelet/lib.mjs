// Pure parts of the process kubelet (test infrastructure, see docs/process-kubelet.md):
// command mapping, environment resolution, status bodies, backoff and deadlines. No I/O here,
// so test/unit/hack/process-kubelet.test.ts can cover them without a cluster.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Label that marks deployer and hook pods; kwok leaves exactly these pods to us. */
export const DeployerPodLabel = 'openshift.io/deployer-pod-for.name';
export const HostIP = '127.0.0.1';
export const DeadlineReason = 'DeadlineExceeded';
export const DeadlineMessage = 'Pod was active on the node longer than the specified deadline';
export const RestartedMessage = 'process kubelet restarted while the pod was running';
/** Paths the container image puts the shims at; a command naming them runs the local shim. */
export const ImageShimPaths = {
  '/usr/local/bin/openshift-deploy': 'openshift-deploy',
  '/usr/bin/openshift-deploy': 'openshift-deploy',
  '/usr/local/bin/dcctl': 'dcctl',
};
const MaxTerminationMessageBytes = 1024;

/** `sh` single-quoting, for the generated shim scripts. */
function shQuote(s) {
  return `'${String(s).replaceAll("'", `'\\''`)}'`;
}

/**
 * The executables put first on every pod's PATH, so custom deployer commands and hooks can call
 * `openshift-deploy` / `dcctl` as in the image (through the image's entry point, this repository's
 * bin/dcctl-entrypoint). Returns file name → script text; `node` itself is a link of its own
 * (nodeLinkName), so the entry point's `node` is the pods' Node.js.
 */
export function shimScripts({ entrypointPath }) {
  const run = `exec ${shQuote(entrypointPath)}`;
  return {
    'openshift-deploy': `#!/bin/sh\n${run} deploy "$@"\n`,
    dcctl: `#!/bin/sh\n${run} "$@"\n`,
  };
}

/** The name, in the shim directory, of a symbolic link to the Node.js that pods run. */
export const nodeLinkName = 'node';

/**
 * Kubernetes `$(VAR)` expansion (kubelet `expansion.Expand`): `$(NAME)` is replaced when NAME
 * is known, kept verbatim otherwise; `$$` is an escaped `$`.
 */
export function expandVars(input, lookup) {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c !== '$' || i + 1 >= input.length) {
      out += c;
      continue;
    }
    const next = input[i + 1];
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '(') {
      const end = input.indexOf(')', i + 2);
      if (end < 0) {
        out += input.slice(i);
        break;
      }
      const name = input.slice(i + 2, end);
      const value = lookup(name);
      out += value === undefined ? input.slice(i, end + 1) : value;
      i = end;
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * The ENTRYPOINT, CMD and ENV of a Dockerfile's last stage (ENTRYPOINT and CMD in exec form, JSON
 * arrays; ENV as `KEY=value ...`, values optionally double-quoted). What the stage does not set is
 * empty here: the base image's are not known. Throws on the shell form and on the legacy
 * `ENV KEY value`, which this parser does not model.
 */
export function imageDefaults(dockerfile) {
  const lines = dockerfile.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  let entrypoint = [];
  let cmd = [];
  let env = {};
  for (const line of lines) {
    const m = /^\s*(FROM|ENTRYPOINT|CMD|ENV)\s+(.*)$/i.exec(line);
    if (!m) continue;
    const instruction = m[1].toUpperCase();
    if (instruction === 'FROM') {
      entrypoint = [];
      cmd = [];
      env = {};
      continue;
    }
    if (instruction === 'ENV') {
      env = { ...env, ...envPairs(m[2]) };
      continue;
    }
    let value;
    try {
      value = JSON.parse(m[2]);
    } catch {
      value = undefined;
    }
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`${instruction} ${m[2]}: only the exec form (a JSON array of strings) is supported`);
    if (instruction === 'ENTRYPOINT') entrypoint = value;
    else cmd = value;
  }
  return { entrypoint, cmd, env };
}

/** The `KEY=value` pairs of one ENV instruction. */
function envPairs(text) {
  const pairs = {};
  const pair = /\s*([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/y;
  let rest = text.trim();
  while (rest.length > 0) {
    pair.lastIndex = 0;
    const m = pair.exec(rest);
    if (!m) throw new Error(`ENV ${text}: only KEY=value pairs are supported`);
    pairs[m[1]] = m[2].startsWith('"') ? m[2].slice(1, -1).replace(/\\(.)/g, '$1') : m[2];
    rest = rest.slice(pair.lastIndex).trim();
  }
  return pairs;
}

/**
 * The image's ENV for a container that runs the image here: NODE_COMPILE_CACHE, a directory in
 * the image that its build fills (Dockerfile), becomes `compileCacheDir` on this machine.
 */
export function imageEnv(image, { compileCacheDir }) {
  const env = { ...image.env };
  if (env.NODE_COMPILE_CACHE !== undefined) env.NODE_COMPILE_CACHE = compileCacheDir;
  return env;
}

/**
 * The argv that fills a compile cache as the image's build does (Dockerfile: its RUN that imports
 * the deployer bundle and every file of the CLI's), for this repository's bundles; run it with
 * NODE_COMPILE_CACHE set.
 */
export function compileCacheWarmup({ nodePath, repoDir }) {
  const cli = readdirSync(path.join(repoDir, 'dist')).filter((f) => /^dcctl.*\.mjs$/.test(f)).sort().map((f) => `dist/${f}`);
  const bundles = ['dist/deployer.cjs', ...cli].map((f) => JSON.stringify(pathToFileURL(path.join(repoDir, f)).href));
  return [nodePath, '--input-type=module', '-e', bundles.map((b) => `await import(${b});`).join(' ')];
}

/** The image's ENTRYPOINT, which is this repository's bin/dcctl-entrypoint. */
const ImageEntrypoint = ['/app/bin/dcctl-entrypoint'];

/**
 * The argv to run for the pod's first container, or `{ error }` when it cannot run here.
 * - `deployment` container without a command: what the project's image runs (`image`, its
 *   Dockerfile's ENTRYPOINT `/app/bin/dcctl-entrypoint` here as this repository's file, then the
 *   container args, or the image's CMD without them), as a container runtime would;
 * - otherwise `command` + `args`, with the image's shim paths mapped to the local shims.
 * `$(VAR)` references are expanded against `env` (a name → value map).
 */
export function commandFor(container, { entrypointPath, shimDir, image, env = {} }) {
  const lookup = (name) => (Object.hasOwn(env, name) ? env[name] : undefined);
  const command = (container.command ?? []).map((s) => expandVars(s, lookup));
  const args = (container.args ?? []).map((s) => expandVars(s, lookup));
  if (command.length === 0) {
    if (container.name !== 'deployment') {
      return { error: `container "${container.name}" has no command; the process kubelet cannot run images` };
    }
    if (JSON.stringify(image.entrypoint) !== JSON.stringify(ImageEntrypoint)) {
      return { error: `the image's ENTRYPOINT ${JSON.stringify(image.entrypoint)} is not ${JSON.stringify(ImageEntrypoint)}; the process kubelet cannot run it` };
    }
    return { argv: [entrypointPath, ...(args.length > 0 ? args : image.cmd)] };
  }
  const shim = ImageShimPaths[command[0]];
  if (shim) command[0] = `${shimDir}/${shim}`;
  return { argv: [...command, ...args] };
}

/** Value of a `fieldRef` path the process kubelet supports, or undefined. */
export function fieldRefValue(pod, fieldPath) {
  const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(fieldPath);
  if (m) return pod.metadata?.[m[1]]?.[m[2]];
  switch (fieldPath) {
    case 'metadata.name':
      return pod.metadata?.name;
    case 'metadata.namespace':
      return pod.metadata?.namespace;
    case 'metadata.uid':
      return pod.metadata?.uid;
    case 'spec.nodeName':
      return pod.spec?.nodeName;
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? 'default';
    case 'status.podIP':
    case 'status.hostIP':
      return HostIP;
    default:
      return undefined;
  }
}

/** Key under which a ConfigMap/Secret value is passed to resolveEnv. */
export function refKey(kind, name, key) {
  return `${kind}/${name}/${key}`;
}

/** The ConfigMap/Secret keys the container's env reads: [{ kind, name, key, optional }]. */
export function envRefs(container) {
  const refs = [];
  for (const e of container.env ?? []) {
    const cm = e.valueFrom?.configMapKeyRef;
    const sec = e.valueFrom?.secretKeyRef;
    if (cm) refs.push({ kind: 'configmap', name: cm.name, key: cm.key, optional: cm.optional === true });
    else if (sec) refs.push({ kind: 'secret', name: sec.name, key: sec.key, optional: sec.optional === true });
  }
  return refs;
}

/**
 * The container's environment as the kubelet builds it: `base` first, then `env` in order with
 * `$(VAR)` expansion against what precedes. `refValues` maps refKey(...) → string for keys that
 * were found. Returns `{ env, skipped: string[] }` (explanations of entries left out) or
 * `{ error }` when a non-optional ConfigMap/Secret key is missing (the kubelet would not start
 * the container).
 */
export function resolveEnv(container, pod, { base, refValues = new Map() }) {
  const env = { ...base };
  const skipped = [];
  const lookup = (name) => (Object.hasOwn(env, name) ? env[name] : undefined);
  if ((container.envFrom ?? []).length > 0) skipped.push('envFrom is not supported; ignored');
  for (const e of container.env ?? []) {
    const from = e.valueFrom;
    if (!from) {
      env[e.name] = expandVars(e.value ?? '', lookup);
      continue;
    }
    if (from.fieldRef) {
      const v = fieldRefValue(pod, from.fieldRef.fieldPath);
      if (v === undefined) skipped.push(`${e.name}: unsupported fieldRef ${from.fieldRef.fieldPath}`);
      else env[e.name] = v;
      continue;
    }
    const ref = from.configMapKeyRef ?? from.secretKeyRef;
    if (ref) {
      const kind = from.configMapKeyRef ? 'configmap' : 'secret';
      const v = refValues.get(refKey(kind, ref.name, ref.key));
      if (v !== undefined) env[e.name] = v;
      else if (ref.optional === true) skipped.push(`${e.name}: optional ${kind} key ${ref.name}/${ref.key} not found`);
      else return { error: `couldn't find key ${ref.key} in ${kind === 'configmap' ? 'ConfigMap' : 'Secret'} ${pod.metadata?.namespace}/${ref.name}` };
      continue;
    }
    skipped.push(`${e.name}: unsupported valueFrom ${Object.keys(from).join(',')}`);
  }
  return { env, skipped };
}

/** The minimal environment every pod process starts from (NODE_OPTIONS deliberately absent). */
export function baseEnv({ shimDir, nodeDir, hostPath, home, podName, kubeconfig }) {
  const path = [shimDir, nodeDir, ...(hostPath ?? '/usr/local/bin:/usr/bin:/bin').split(':')]
    .filter((p, i, all) => p && all.indexOf(p) === i)
    .join(':');
  return { PATH: path, HOME: home, HOSTNAME: podName, KUBECONFIG: kubeconfig };
}

/** TokenRequest body: a 1 h token for the pod's service account, bound to the pod. */
export function tokenRequestBody(pod) {
  return {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: {
      audiences: [],
      expirationSeconds: 3600,
      boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid },
    },
  };
}

/** Service account the pod runs as. */
export function serviceAccountOf(pod) {
  return pod.spec?.serviceAccountName || 'default';
}

/** A kubeconfig (JSON is valid YAML) with the pod's service-account token. */
export function podKubeconfig({ server, caData, insecure, token, namespace }) {
  const cluster = { server };
  if (caData) cluster['certificate-authority-data'] = caData;
  if (insecure) cluster['insecure-skip-tls-verify'] = true;
  return `${JSON.stringify(
    {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'local', cluster }],
      users: [{ name: 'pod', user: { token } }],
      contexts: [{ name: 'pod', context: { cluster: 'local', user: 'pod', namespace } }],
      'current-context': 'pod',
    },
    null,
    2,
  )}\n`;
}

/** Delay before restart number `restartCount` (1-based): 1 s doubling, at most 10 s. */
export function restartBackoffMs(restartCount) {
  return Math.min(10_000, 1000 * 2 ** Math.max(0, restartCount - 1));
}

/** Milliseconds left before activeDeadlineSeconds, counted from `startTime`; Infinity without one. */
export function deadlineRemainingMs(pod, startTime, now) {
  const secs = pod.spec?.activeDeadlineSeconds;
  if (secs === undefined || secs === null) return Infinity;
  return new Date(startTime).getTime() + secs * 1000 - now.getTime();
}

/** Seconds between SIGTERM and SIGKILL: the pod's grace period, at most 10 s. */
export function killGraceSeconds(pod) {
  const g = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
  return Math.max(0, Math.min(10, g));
}

/**
 * What to do with a pod seen on the watch. `known` = UIDs this process has handled.
 * 'start': bound, Pending, not deleting, not handled; 'orphaned': Running but not ours (a
 * previous kubelet ran it); 'ignore' otherwise.
 */
/** Pods carrying this annotation with value "true" are never run. */
export const IgnoreAnnotation = 'process-kubelet.dcctl.io/ignore';

export function podAction(pod, known) {
  if (pod.metadata?.deletionTimestamp) return 'ignore';
  // Lets a test keep a deployer-labelled pod to itself (it reports the status by hand).
  if (pod.metadata?.annotations?.[IgnoreAnnotation] === 'true') return 'ignore';
  if (known.has(pod.metadata?.uid)) return 'ignore';
  if (!pod.spec?.nodeName) return 'ignore';
  const phase = pod.status?.phase ?? 'Pending';
  if (phase === 'Pending') return 'start';
  if (phase === 'Running') return 'orphaned';
  return 'ignore';
}

/** Conditions as `type → status`, keeping lastTransitionTime of the ones that did not change. */
export function podConditions(existing, wanted, now, notReadyReason) {
  const ts = now.toISOString();
  return Object.entries(wanted).map(([type, status]) => {
    const old = (existing ?? []).find((c) => c.type === type);
    const lastTransitionTime = old && old.status === status && old.lastTransitionTime ? new Date(old.lastTransitionTime).toISOString() : ts;
    const c = { type, status, lastTransitionTime };
    if (status === 'False' && notReadyReason && (type === 'Ready' || type === 'ContainersReady')) {
      c.reason = notReadyReason;
    }
    return c;
  });
}

function imageID(container) {
  return `process://${container.image ?? ''}`;
}

/**
 * The last 1 KiB of output as the termination message when the policy is
 * FallbackToLogsOnError and the container failed; otherwise undefined.
 */
export function terminationMessage(container, exitCode, output) {
  if (container.terminationMessagePolicy !== 'FallbackToLogsOnError' || exitCode === 0) return undefined;
  const buf = Buffer.isBuffer(output) ? output : Buffer.from(output ?? '');
  if (buf.length === 0) return undefined;
  return buf.subarray(Math.max(0, buf.length - MaxTerminationMessageBytes)).toString('utf8');
}

/**
 * `state.terminated` for an attempt. `signal` is the signal number (the API field is an
 * integer); `message` (e.g. why the process could not start) wins over the output tail.
 */
export function terminatedState({ container, pid, exitCode, signal, startedAt, finishedAt, output, reason, message: given }) {
  const t = {
    exitCode,
    reason: reason ?? (exitCode === 0 ? 'Completed' : 'Error'),
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
  };
  if (pid !== undefined) t.containerID = `process://${pid}`;
  if (typeof signal === 'number') t.signal = signal;
  const message = given ?? terminationMessage(container, exitCode, output);
  if (message !== undefined) t.message = message;
  return t;
}

function containerStatus(pod, { ready, state, pid, restartCount, lastTerminated }) {
  const container = pod.spec.containers[0];
  const s = {
    name: container.name,
    image: container.image ?? '',
    imageID: imageID(container),
    ready,
    started: state.running !== undefined,
    restartCount,
    state,
    lastState: lastTerminated ? { terminated: lastTerminated } : {},
  };
  if (pid !== undefined) s.containerID = `process://${pid}`;
  return s;
}

function baseStatus(pod, startTime) {
  return {
    startTime: new Date(startTime).toISOString(),
    hostIP: HostIP,
    hostIPs: [{ ip: HostIP }],
    podIP: HostIP,
    podIPs: [{ ip: HostIP }],
  };
}

/** Merge-patch body: the container runs (process `pid`, started at `startedAt`). */
export function runningStatus(pod, { startTime, now, pid, startedAt, restartCount = 0, lastTerminated }) {
  return {
    status: {
      phase: 'Running',
      ...baseStatus(pod, startTime),
      conditions: podConditions(pod.status?.conditions, readyConditions(true), now),
      containerStatuses: [
        containerStatus(pod, { ready: true, pid, restartCount, lastTerminated, state: { running: { startedAt: startedAt.toISOString() } } }),
      ],
    },
  };
}

/** Merge-patch body: the container failed and waits for its restart (OnFailure). */
export function backoffStatus(pod, { startTime, now, restartCount, lastTerminated, delayMs }) {
  const name = pod.spec.containers[0].name;
  const message = `back-off ${Math.round(delayMs / 1000)}s restarting failed container=${name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
  return {
    status: {
      phase: 'Running',
      ...baseStatus(pod, startTime),
      conditions: podConditions(pod.status?.conditions, readyConditions(false), now, 'ContainersNotReady'),
      containerStatuses: [
        containerStatus(pod, { ready: false, restartCount, lastTerminated, state: { waiting: { reason: 'CrashLoopBackOff', message } } }),
      ],
    },
  };
}

/**
 * Merge-patch body for a finished pod: Succeeded when `terminated.exitCode` is 0 and no pod-level
 * `reason` is given, Failed otherwise. `terminated` may be undefined when no process ran.
 */
export function finishedStatus(pod, { startTime, now, terminated, restartCount = 0, lastTerminated, reason, message }) {
  const phase = !reason && terminated && terminated.exitCode === 0 ? 'Succeeded' : 'Failed';
  const status = {
    phase,
    ...baseStatus(pod, startTime),
    conditions: podConditions(pod.status?.conditions, readyConditions(false), now, 'PodCompleted'),
  };
  if (reason) status.reason = reason;
  if (message) status.message = message;
  // No process ran this time: the last attempt (restart backoff) or a synthetic record.
  const last = terminated ?? lastTerminated;
  const state = last
    ? { terminated: last }
    : { terminated: { exitCode: 128, reason: reason ?? 'Error', startedAt: null, finishedAt: now.toISOString(), ...(message ? { message } : {}) } };
  const pid = terminated?.containerID?.startsWith('process://') ? Number(terminated.containerID.slice('process://'.length)) : undefined;
  status.containerStatuses = [containerStatus(pod, { ready: false, pid, restartCount, lastTerminated, state })];
  return { status };
}

function readyConditions(ready) {
  const r = ready ? 'True' : 'False';
  return { PodReadyToStartContainers: 'True', Initialized: 'True', Ready: r, ContainersReady: r, PodScheduled: 'True' };
}

/** Exit code of a process that ended with (code, signal), as a container runtime reports it. */
export function exitCodeOf(code, signal, signals) {
  if (code !== null && code !== undefined) return code;
  const n = signal ? signals[signal] : undefined;
  return 128 + (n ?? 9);
}

/** One log line: ISO timestamp, then the message. */
export function logLine(now, message) {
  return `${now.toISOString()} ${message}`;
}
