import { describe, expect, it } from '@jest/globals';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import {
  DeadlineMessage,
  DeadlineReason,
  backoffStatus,
  baseEnv,
  commandFor,
  deadlineRemainingMs,
  envRefs,
  exitCodeOf,
  expandVars,
  finishedStatus,
  imageDefaults,
  imageEnv,
  killGraceSeconds,
  podAction,
  podKubeconfig,
  refKey,
  resolveEnv,
  restartBackoffMs,
  runningStatus,
  shimScripts,
  terminatedState,
  tokenRequestBody,
} from '../../../hack/process-kubelet/lib.mjs';

const image = { entrypoint: ['/app/bin/dcctl-entrypoint'], cmd: ['deploy'], env: {} };
const paths = { entrypointPath: '/repo/bin/dcctl-entrypoint', shimDir: '/run/shims', image };

function pod(overrides: Partial<V1Pod['spec']> = {}, container: Partial<V1Container> = {}): V1Pod {
  return {
    metadata: { name: 'app-1-hook-pre', namespace: 'ns1', uid: 'u-1', labels: { 'openshift.io/deployer-pod-for.name': 'app-1' } },
    spec: {
      nodeName: 'kwok-node-0',
      restartPolicy: 'Never',
      containers: [{ name: 'lifecycle', image: 'busybox', ...container }],
      ...overrides,
    },
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: new Date('2024-01-01T00:00:00Z') }] },
  };
}

describe('imageDefaults', () => {
  it("reads the last stage's ENTRYPOINT and CMD", () => {
    const dockerfile = 'FROM node AS build\nCMD ["build"]\nFROM node\nENTRYPOINT [ \\\n "/app/bin/dcctl-entrypoint"]\nCMD ["deploy"]\n';
    expect(imageDefaults(dockerfile)).toEqual(image);
    expect(imageDefaults('FROM a\nCMD ["x"]\nFROM b\n')).toEqual({ entrypoint: [], cmd: [], env: {} });
  });

  it("reads the last stage's ENV pairs, later ones over earlier ones", () => {
    const dockerfile = 'FROM a\nENV BUILD=1\nFROM b\nENV A=1 B="two words" \\\n  C=x\\"y\nENV A=3\nCMD ["deploy"]\n';
    expect(imageDefaults(dockerfile).env).toEqual({ A: '3', B: 'two words', C: 'x\\"y' });
    expect(() => imageDefaults('FROM a\nENV A 1\n')).toThrow(/KEY=value/);
  });

  it("maps the image's compile cache to a directory of this machine", () => {
    const env = imageEnv({ ...image, env: { NODE_ENV: 'production', NODE_COMPILE_CACHE: '/app/.compile-cache' } }, { compileCacheDir: '/run/compile-cache' });
    expect(env).toEqual({ NODE_ENV: 'production', NODE_COMPILE_CACHE: '/run/compile-cache' });
    expect(imageEnv({ ...image, env: { NODE_ENV: 'production' } }, { compileCacheDir: '/run/cc' })).toEqual({ NODE_ENV: 'production' });
  });

  it('refuses the shell form', () => {
    expect(() => imageDefaults('FROM a\nCMD node app.js\n')).toThrow(/exec form/);
  });
});

describe('commandFor', () => {
  it('runs what the image runs for a deployment container without a command: its ENTRYPOINT and CMD', () => {
    expect(commandFor({ name: 'deployment', image: 'x' }, paths)).toEqual({ argv: ['/repo/bin/dcctl-entrypoint', 'deploy'] });
    // An image whose CMD is not the deployer would not roll anything out in a cluster; nor here.
    const controllerCmd = { ...paths, image: { ...image, cmd: ['controller'] } };
    expect(commandFor({ name: 'deployment' }, controllerCmd).argv).toEqual(['/repo/bin/dcctl-entrypoint', 'controller']);
    expect(commandFor({ name: 'deployment' }, { ...paths, image: { entrypoint: ['/bin/app'], cmd: [], env: {} } }).error).toMatch(/ENTRYPOINT/);
  });

  it('passes deployer container args to dcctl, as the image ENTRYPOINT would', () => {
    expect(commandFor({ name: 'deployment', args: ['deploy', '--until=50%'] }, paths).argv).toEqual(['/repo/bin/dcctl-entrypoint', 'deploy', '--until=50%']);
  });

  it('runs a custom command as given, mapping the image shim paths to local shims', () => {
    const sh = ['/bin/sh', '-c', 'openshift-deploy --until=50% && echo mid && openshift-deploy'];
    expect(commandFor({ name: 'deployment', command: sh }, paths).argv).toEqual(sh);
    expect(commandFor({ name: 'deployment', command: ['/usr/local/bin/openshift-deploy'] }, paths).argv).toEqual(['/run/shims/openshift-deploy']);
  });

  it('expands $(VAR) in command and args and refuses a hook without a command', () => {
    const c = { name: 'lifecycle', command: ['echo', '$(NAME)', '$$(NAME)'], args: ['$(MISSING)'] };
    expect(commandFor(c, { ...paths, env: { NAME: 'rc-1' } }).argv).toEqual(['echo', 'rc-1', '$(NAME)', '$(MISSING)']);
    expect(commandFor({ name: 'lifecycle' }, paths).error).toMatch(/has no command/);
  });
});

describe('shimScripts', () => {
  it('makes openshift-deploy run "dcctl deploy" and dcctl run dcctl with the same arguments, through the entry point', () => {
    const s = shimScripts({ entrypointPath: "/it's/dcctl-entrypoint" });
    expect(s['openshift-deploy']).toBe(`#!/bin/sh\nexec '/it'\\''s/dcctl-entrypoint' deploy "$@"\n`);
    expect(s.dcctl).toBe(`#!/bin/sh\nexec '/it'\\''s/dcctl-entrypoint' "$@"\n`);
  });
});

describe('expandVars', () => {
  it('keeps unknown references and an unterminated one verbatim', () => {
    const lookup = (n: string) => (n === 'A' ? 'x' : undefined);
    expect(expandVars('$(A)-$(B)-$$-$(A', lookup)).toBe('x-$(B)-$-$(A');
  });
});

describe('resolveEnv', () => {
  const base = baseEnv({ shimDir: '/s', nodeDir: '/n', hostPath: '/usr/bin:/s', home: '/h', podName: 'p', kubeconfig: '/h/kubeconfig' });

  it('builds a minimal base with the shims first and no NODE_OPTIONS', () => {
    expect(base).toEqual({ PATH: '/s:/n:/usr/bin', HOME: '/h', HOSTNAME: 'p', KUBECONFIG: '/h/kubeconfig' });
  });

  it('resolves literals with expansion, field refs and ConfigMap/Secret keys in order', () => {
    const c: V1Container = {
      name: 'lifecycle',
      env: [
        { name: 'OPENSHIFT_DEPLOYMENT_NAME', value: 'app-1' },
        { name: 'GREETING', value: 'hello $(OPENSHIFT_DEPLOYMENT_NAME)' },
        { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'SA', valueFrom: { fieldRef: { fieldPath: 'spec.serviceAccountName' } } },
        { name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k' } } },
        { name: 'SEC', valueFrom: { secretKeyRef: { name: 'sec', key: 'pw', optional: true } } },
        { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
      ],
    };
    const p = pod({}, c);
    expect(envRefs(c)).toEqual([
      { kind: 'configmap', name: 'cfg', key: 'k', optional: false },
      { kind: 'secret', name: 'sec', key: 'pw', optional: true },
    ]);
    const r = resolveEnv(c, p, { base, refValues: new Map([[refKey('configmap', 'cfg', 'k'), 'v']]) });
    expect(r.env).toEqual({
      ...base,
      OPENSHIFT_DEPLOYMENT_NAME: 'app-1',
      GREETING: 'hello app-1',
      POD: 'app-1-hook-pre',
      NS: 'ns1',
      SA: 'default',
      IP: '127.0.0.1',
      CM: 'v',
    });
    expect(r.skipped).toHaveLength(2);
  });

  it('fails when a required ConfigMap key is missing', () => {
    const c: V1Container = { name: 'lifecycle', env: [{ name: 'CM', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k' } } }] };
    expect(resolveEnv(c, pod({}, c), { base }).error).toBe("couldn't find key k in ConfigMap ns1/cfg");
  });
});

describe('credentials', () => {
  it('requests a one-hour token bound to the pod', () => {
    expect(tokenRequestBody(pod()).spec).toEqual({
      audiences: [],
      expirationSeconds: 3600,
      boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'app-1-hook-pre', uid: 'u-1' },
    });
  });

  it('writes a token kubeconfig for the same server and CA', () => {
    const k = JSON.parse(podKubeconfig({ server: 'https://127.0.0.1:6443', caData: 'Q0E=', token: 't0k', namespace: 'ns1' }));
    expect(k.clusters[0].cluster).toEqual({ server: 'https://127.0.0.1:6443', 'certificate-authority-data': 'Q0E=' });
    expect(k.users[0].user).toEqual({ token: 't0k' });
    expect(k.contexts[0].context.namespace).toBe('ns1');
  });
});

describe('timing', () => {
  it('backs off 1 s doubling to at most 10 s', () => {
    expect([1, 2, 3, 4, 5, 9].map(restartBackoffMs)).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('counts activeDeadlineSeconds from the start time', () => {
    const start = new Date('2024-01-01T00:00:00Z');
    expect(deadlineRemainingMs(pod({ activeDeadlineSeconds: 5 }), start, new Date('2024-01-01T00:00:03Z'))).toBe(2000);
    expect(deadlineRemainingMs(pod(), start, new Date())).toBe(Infinity);
  });

  it('waits the grace period before SIGKILL, at most 10 s', () => {
    expect(killGraceSeconds(pod({ terminationGracePeriodSeconds: 3 }))).toBe(3);
    expect(killGraceSeconds(pod())).toBe(10);
    const deleting = pod({ terminationGracePeriodSeconds: 30 });
    deleting.metadata!.deletionGracePeriodSeconds = 0;
    expect(killGraceSeconds(deleting)).toBe(0);
  });
});

describe('podAction', () => {
  it('starts bound Pending pods once and fails Running pods it did not start', () => {
    const none = new Set<string>();
    expect(podAction(pod(), none)).toBe('start');
    expect(podAction(pod(), new Set(['u-1']))).toBe('ignore');
    expect(podAction(pod({ nodeName: undefined }), none)).toBe('ignore');
    const running = pod();
    running.status!.phase = 'Running';
    expect(podAction(running, none)).toBe('orphaned');
    const deleting = pod();
    deleting.metadata!.deletionTimestamp = new Date();
    expect(podAction(deleting, none)).toBe('ignore');
  });
});

describe('status bodies', () => {
  const start = new Date('2024-01-01T00:00:01Z');
  const now = new Date('2024-01-01T00:00:02Z');

  it('reports a running container ready, keeping the scheduler condition time', () => {
    const { status } = runningStatus(pod(), { startTime: start, now, pid: 42, startedAt: now });
    expect(status.phase).toBe('Running');
    expect(status.podIP).toBe('127.0.0.1');
    expect(status.startTime).toBe('2024-01-01T00:00:01.000Z');
    const ready = Object.fromEntries((status.conditions ?? []).map((c) => [c.type, c.status]));
    expect(ready).toMatchObject({ PodScheduled: 'True', Initialized: 'True', ContainersReady: 'True', Ready: 'True' });
    expect(status.conditions?.find((c) => c.type === 'PodScheduled')?.lastTransitionTime).toBe('2024-01-01T00:00:00.000Z');
    expect(status.containerStatuses?.[0]).toMatchObject({
      name: 'lifecycle',
      containerID: 'process://42',
      ready: true,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: '2024-01-01T00:00:02.000Z' } },
    });
  });

  it('reports exit 0 as Succeeded/Completed and non-zero as Failed/Error with the output tail', () => {
    const c = { name: 'deployment', terminationMessagePolicy: 'FallbackToLogsOnError' };
    const ok = terminatedState({ container: c, pid: 7, exitCode: 0, startedAt: start, finishedAt: now, output: 'fine' });
    expect(ok).toMatchObject({ exitCode: 0, reason: 'Completed', containerID: 'process://7' });
    expect(ok.message).toBeUndefined();
    expect(finishedStatus(pod(), { startTime: start, now, terminated: ok }).status.phase).toBe('Succeeded');

    const long = `${'x'.repeat(2000)}the end\n`;
    const bad = terminatedState({ container: c, pid: 7, exitCode: 3, startedAt: start, finishedAt: now, output: long });
    expect(bad).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(bad.message).toHaveLength(1024);
    expect(bad.message?.endsWith('the end\n')).toBe(true);
    const { status } = finishedStatus(pod(), { startTime: start, now, terminated: bad });
    expect(status.phase).toBe('Failed');
    expect(status.containerStatuses?.[0]).toMatchObject({ ready: false, state: { terminated: { exitCode: 3 } } });
    expect(status.conditions?.find((x) => x.type === 'Ready')?.status).toBe('False');
  });

  it('leaves the message out for the File policy', () => {
    const t = terminatedState({ container: { name: 'lifecycle' }, exitCode: 1, startedAt: start, finishedAt: now, output: 'boom' });
    expect(t.message).toBeUndefined();
  });

  it('reports a deadline as Failed/DeadlineExceeded even when the process was killed cleanly', () => {
    const t = terminatedState({ container: { name: 'lifecycle' }, exitCode: 0, startedAt: start, finishedAt: now });
    const { status } = finishedStatus(pod(), { startTime: start, now, terminated: t, reason: DeadlineReason, message: DeadlineMessage });
    expect(status).toMatchObject({ phase: 'Failed', reason: 'DeadlineExceeded', message: DeadlineMessage });
  });

  it('reports a restart with restartCount and lastState while staying Running', () => {
    const last = terminatedState({ container: { name: 'lifecycle' }, exitCode: 1, startedAt: start, finishedAt: now });
    const { status } = backoffStatus(pod(), { startTime: start, now, restartCount: 1, lastTerminated: last, delayMs: 1000 });
    expect(status.phase).toBe('Running');
    expect(status.containerStatuses?.[0]).toMatchObject({
      restartCount: 1,
      ready: false,
      lastState: { terminated: { exitCode: 1 } },
      state: { waiting: { reason: 'CrashLoopBackOff' } },
    });
    const again = runningStatus(pod(), { startTime: start, now, pid: 9, startedAt: now, restartCount: 1, lastTerminated: last });
    expect(again.status.containerStatuses?.[0]).toMatchObject({ restartCount: 1, lastState: { terminated: { exitCode: 1 } } });
  });

  it('maps a signal death to 128 + the signal number, reported as an integer', () => {
    expect(exitCodeOf(null, 'SIGTERM', { SIGTERM: 15 })).toBe(143);
    expect(exitCodeOf(2, null, {})).toBe(2);
    const t = terminatedState({ container: { name: 'lifecycle' }, exitCode: 143, signal: 15, startedAt: start, finishedAt: now });
    expect(t.signal).toBe(15);
  });

  it('explains a process that could not start, whatever the message policy', () => {
    const t = terminatedState({
      container: { name: 'lifecycle' },
      exitCode: 128,
      reason: 'StartError',
      message: 'failed to start "x": spawn x ENOENT',
      startedAt: start,
      finishedAt: now,
    });
    const { status } = finishedStatus(pod(), { startTime: start, now, terminated: t });
    expect(status.phase).toBe('Failed');
    expect(status.containerStatuses?.[0]?.state?.terminated).toMatchObject({ reason: 'StartError', message: 'failed to start "x": spawn x ENOENT' });
  });

  it('fails a pod that never ran with the reason and message at pod and container level', () => {
    const { status } = finishedStatus(pod(), { startTime: start, now, reason: 'CreateContainerConfigError', message: 'no token' });
    expect(status).toMatchObject({ phase: 'Failed', reason: 'CreateContainerConfigError', message: 'no token' });
    expect(status.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 128, message: 'no token' });
  });
});

describe('podAction opt-out', () => {
  it('never starts a pod annotated process-kubelet.dcctl.io/ignore=true', () => {
    const pod = { metadata: { uid: 'u1', annotations: { 'process-kubelet.dcctl.io/ignore': 'true' } }, spec: { nodeName: 'kwok-node-0', containers: [] }, status: { phase: 'Pending' } } as V1Pod;
    expect(podAction(pod, new Set())).toBe('ignore');
    expect(podAction({ ...pod, metadata: { uid: 'u2' } }, new Set())).toBe('start');
  });
});
