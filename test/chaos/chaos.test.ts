/**
 * Chaos test (issue 7 item 2), on the real local control plane of the global setup:
 * CHAOS_DCS DeploymentConfigs roll out concurrently (each gets several template updates) while
 * the harness SIGKILLs the controller at random moments and restarts it, restarts kube-apiserver
 * once, deletes random deployer pods and the deployer's ServiceAccount/RoleBinding, and updates RC annotations from a competing client so the
 * controllers' writes conflict.
 *
 * Checked throughout (from watches; paused while kube-apiserver restarts): never more than one unterminated deployer pod per DC; no RC
 * phase moving backwards; no two RCs for one DC version; every RC owned by its DC.
 * Checked at the end: every DC converges to its latest template, rolled out (Complete) or
 * recorded as Failed with the previous Complete RC scaled back up; no RC beyond latestVersion;
 * no unterminated deployer pod; nothing lost (the latest RC carries the last template written).
 *
 * It runs once per deployer mode (design.md §6.8): `pod` (deployer pods) and `inline` (pod-less
 * rollouts run by the controller, `--default-deployer=inline`). In inline mode the SIGKILLs land
 * in the middle of the controller's own rollouts, every third DC has a pre hook that appends its
 * RC's name to a marker file, and the pod deletes hit running hook pods instead of deployer pods.
 * Checked at the end besides the above: no deployer pod was ever created; no hook ran twice for
 * one RC (a repeated step) and every Complete RC of a DC with a hook ran it (a lost step).
 *
 * Knobs: CHAOS_SEED (printed on every run), CHAOS_DCS (30), CHAOS_DURATION_S (75 = the bounded
 * CI form, per mode), CHAOS_APISERVER_RESTART (1; 0 skips it, e.g. on a cluster shared with other
 * tests), CHAOS_MODES (pod,inline).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RbacAuthorizationV1Api, type V1Pod, type V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Group, Labels, Plural, Version } from '../../src/apis/constants.js';
import type { DeploymentConfig } from '../../src/apis/deploymentconfig.js';
import { InvariantWatcher, isDeployerPod } from '../support/invariants.js';
import { apis, createNamespace, deleteNamespace, repoDir, startController as startControllerProcess, waitFor, type ControllerProcess } from '../support/kube.js';
import { seededRandom, sleep } from '../support/wait.js';

const seed = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const dcCount = Number(process.env.CHAOS_DCS ?? 30);
const durationMs = Number(process.env.CHAOS_DURATION_S ?? 75) * 1000;
const restartApiserver = process.env.CHAOS_APISERVER_RESTART !== '0';
const modes = (process.env.CHAOS_MODES ?? 'pod,inline').split(',') as Array<'pod' | 'inline'>;
const replicas = 2;

const random = seededRandom(seed); // replay a failing run with CHAOS_SEED
const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(random() * xs.length)];
const between = (lo: number, hi: number) => lo + random() * (hi - lo);

/** The DC `name` at template revision `rev`; with `marker`, a pre hook appends the RC's name to it. */
function dcManifest(name: string, rev: number, marker?: string): DeploymentConfig {
  const pre = marker
    ? { pre: { failurePolicy: 'Abort', execNewPod: { containerName: 'web', command: ['/bin/sh', '-c', 'echo "$OPENSHIFT_DEPLOYMENT_NAME" >> "$MARKER"'], env: [{ name: 'MARKER', value: marker }] } } }
    : {};
  return {
    apiVersion: `${Group}/${Version}`,
    kind: 'DeploymentConfig',
    metadata: { name },
    spec: {
      replicas,
      selector: { app: name },
      strategy: { type: 'Rolling', rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 120, maxSurge: '25%', maxUnavailable: '25%', ...pre } },
      triggers: [{ type: 'ConfigChange' }],
      template: {
        metadata: { labels: { app: name } },
        spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'web', image: 'registry.local/web:1', env: [{ name: 'REV', value: String(rev) }] }] },
      },
    },
  } as DeploymentConfig;
}

const revOf = (rc: V1ReplicationController) => rc.spec?.template?.spec?.containers?.[0]?.env?.find((e) => e.name === 'REV')?.value;
const versionOf = (rc: V1ReplicationController) => Number(rc.metadata?.annotations?.[Annotations.LatestVersion] ?? NaN);
const dcOfRc = (rc: V1ReplicationController) => rc.metadata?.annotations?.[Annotations.DeploymentConfig];

/** Stops and restarts kube-apiserver with its own argv (from /proc), the log appended; waits for /readyz. */
async function restartKubeApiserver(clusterDir: string): Promise<void> {
  const pidFile = path.join(clusterDir, 'kube-apiserver.pid');
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((s) => s !== '');
  if (!argv[0]?.endsWith('kube-apiserver')) throw new Error(`pid ${pid} from ${pidFile} is not kube-apiserver: ${argv[0]}`);
  const gone = () => {
    try {
      // A zombie still answers kill(0); its state letter tells.
      return /^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return true;
    }
  };
  // A graceful stop drains long-running watches and can take a minute; a crash is as real a
  // fault, so give it 10 s and then kill it.
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (!gone() && Date.now() < deadline) await sleep(100);
  if (!gone()) process.kill(pid, 'SIGKILL');
  await waitFor('kube-apiserver to exit', gone, { timeoutMs: 30_000, intervalMs: 100 });
  const logFd = openSync(path.join(clusterDir, 'kube-apiserver.log'), 'a');
  // Its own session and process group, as hack/local-cluster.sh starts it, so `down` still stops it.
  const child = spawn(argv[0], argv.slice(1), { detached: true, stdio: ['ignore', logFd, logFd] });
  child.unref();
  writeFileSync(pidFile, `${child.pid}\n`);
  await waitFor('kube-apiserver /readyz after the restart', () => {
    try {
      return execFileSync('kubectl', ['get', '--raw', '/readyz'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim() === 'ok';
    } catch {
      return false;
    }
  }, { timeoutMs: 90_000, intervalMs: 250 });
}

describe.each(modes)('chaos (%s deployer): concurrent DC rollouts under controller kills, an apiserver restart, deployer or hook pod deletes and conflicting writes', (mode) => {
  const faults = { controllerKills: 0, apiserverRestarts: 0, deployerPodDeletes: 0, hookPodDeletes: 0, deployerAccessDeletes: 0, rcAnnotationUpdates: 0, rcConflictsSeen: 0, templateUpdates: 0 };
  const checks = { watchEvents: 0, duplicateChecks: 0, ownerChecks: 0, finalDcChecks: 0, hookRunChecks: 0 };
  const violations: string[] = [];
  const controllerArgs = mode === 'inline' ? ['--default-deployer=inline'] : [];
  const startController = (namespace: string) => startControllerProcess(namespace, controllerArgs);
  /** Inline mode: the pre hooks' marker file (one line per hook run: the RC's name). */
  const marker = mode === 'inline' ? path.join(mkdtempSync(path.join(tmpdir(), 'chaos-hooks-')), 'runs') : undefined;
  /**
   * Hook pods this test deleted. A deleted hook pod opens the one window design.md §6.8 leaves:
   * deleted before the controller recorded its stage, by a controller that was then killed, it
   * is created and run again. Repeats of such hooks are counted and printed, not failed; any
   * other repeat fails.
   */
  const deletedHookPods = new Set<string>();
  let windowRepeats = 0;
  const hooked = (name: string) => marker !== undefined && Number(name.slice(-2)) % 3 === 0;
  const { core, custom, kc } = apis();
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  let ns = '';
  let controller: ControllerProcess | undefined;
  let watcher: InvariantWatcher | undefined;
  const clusterDir = process.env.LOCAL_CLUSTER_DIR ?? path.join(repoDir, '.local-cluster');
  const names = Array.from({ length: dcCount }, (_, i) => `chaos-${String(i).padStart(2, '0')}`);
  /** Last REV written to each DC's template: the rollout that must not be lost. */
  const lastRev = new Map<string, number>();

  beforeAll(async () => {
    console.log(`chaos (${mode} deployer): seed ${seed} (replay with CHAOS_SEED=${seed}), ${dcCount} DCs, ${durationMs / 1000} s of faults, apiserver restart ${restartApiserver ? 'on' : 'off'}, cluster ${clusterDir}`);
    ns = await createNamespace('chaos');
    watcher = await startWatcher();
    controller = startController(ns);
  }, 120_000);

  /**
   * Starts the invariant watcher with our own checks on every RC event: one RC per DC version,
   * every RC owned by its DC.
   */
  async function startWatcher(): Promise<InvariantWatcher> {
    const w = await InvariantWatcher.start(ns);
    w.onChange((state, kind) => {
      checks.watchEvents++;
      if (kind !== 'rc') return;
      const seen = new Map<string, string>();
      for (const rc of state.rcs.values()) {
        const dc = dcOfRc(rc);
        if (!dc) continue;
        checks.duplicateChecks++;
        const key = `${dc}#${versionOf(rc)}`;
        const other = seen.get(key);
        if (other !== undefined && other !== rc.metadata?.name) violations.push(`duplicate RCs for ${key}: ${other} and ${rc.metadata?.name}`);
        seen.set(key, rc.metadata?.name ?? '');
        checks.ownerChecks++;
        const owner = (rc.metadata?.ownerReferences ?? []).find((r) => r.controller);
        if (owner?.kind !== 'DeploymentConfig' || owner.name !== dc) violations.push(`RC ${rc.metadata?.name} is not controlled by DC ${dc}: ${JSON.stringify(rc.metadata?.ownerReferences)}`);
      }
    });
    return w;
  }

  /**
   * The watcher's cache is not pruned when it relists after a broken watch, so across the
   * apiserver restart a pod deleted meanwhile would stay "Running" in it forever. The watcher is
   * therefore stopped (its findings kept) before the restart and a fresh one started after it:
   * the throughout-checks pause for the restart window; the end checks cover it.
   */
  async function restartApiserverWatched(): Promise<void> {
    const old = watcher!;
    await old.stop();
    retired.violations.push(...old.violations);
    retired.pods += old.counts.pods;
    retired.rcs += old.counts.rcs;
    await restartKubeApiserver(clusterDir);
    faults.apiserverRestarts++;
    watcher = await startWatcher();
  }
  const retired = { violations: [] as string[], pods: 0, rcs: 0 };

  afterAll(async () => {
    await watcher?.stop();
    await controller?.stop();
    if (ns && process.env.KEEP_CHAOS_NAMESPACE !== '1') await deleteNamespace(ns);
  });

  it('keeps every invariant and converges every DC', async () => {
    const dcPath = { group: Group, version: Version, plural: Plural, namespace: ns };
    await Promise.all(names.map(async (name) => {
      await custom.createNamespacedCustomObject({ ...dcPath, body: dcManifest(name, 1, hooked(name) ? marker : undefined) });
      lastRev.set(name, 1);
    }));

    let until = Date.now() + durationMs;
    const apiserverAt = Date.now() + durationMs * between(0.3, 0.6);
    let apiserverDone = !restartApiserver;
    const loops: Array<Promise<void>> = [];
    const running = () => Date.now() < until;

    // Template updates keep rollouts in flight for the whole run.
    loops.push((async () => {
      let rev = 1;
      while (running()) {
        await sleep(between(500, 2500));
        const name = pick(names)!;
        rev++;
        try {
          await custom.patchNamespacedCustomObject({ ...dcPath, name, body: [{ op: 'replace', path: '/spec/template/spec/containers/0/env/0/value', value: String(rev) }] });
          lastRev.set(name, rev);
          faults.templateUpdates++;
        } catch {
          // apiserver restarting: the previous REV stays the one that must roll out
        }
      }
    })());

    // Controller SIGKILLs and restarts; the apiserver restart once, while the controller runs.
    loops.push((async () => {
      while (running()) {
        await sleep(between(3000, 12_000));
        if (!apiserverDone && Date.now() >= apiserverAt) {
          apiserverDone = true;
          await restartApiserverWatched();
          continue;
        }
        await controller!.kill();
        faults.controllerKills++;
        await sleep(between(200, 3000));
        controller = startController(ns);
      }
      if (!apiserverDone) await restartApiserverWatched();
    })());

    // Deployer pod deletes (pod mode); hook pod deletes (inline mode: there are no deployer pods).
    loops.push((async () => {
      while (running()) {
        await sleep(between(2000, 8000));
        try {
          const pods = (await core.listNamespacedPod({ namespace: ns, labelSelector: Labels.DeployerPodFor })).items
            .filter((p: V1Pod) => (mode === 'pod' ? isDeployerPod(p) : !isDeployerPod(p))
              && !p.metadata?.deletionTimestamp && ['Pending', 'Running'].includes(p.status?.phase ?? 'Pending'));
          const victim = pick(pods);
          if (!victim?.metadata?.name) continue;
          // Recorded before the request: a delete whose answer is lost may still have happened.
          if (mode === 'inline') deletedHookPods.add(victim.metadata.name);
          await core.deleteNamespacedPod({ name: victim.metadata.name, namespace: ns, gracePeriodSeconds: 0 });
          if (mode === 'pod') faults.deployerPodDeletes++; else faults.hookPodDeletes++;
        } catch {
          // gone already, or the apiserver is restarting
        }
      }
    })());

    // Deployer access deleted under the controller (issue 14 item 2): the `system:deployers`
    // RoleBinding or the `deployer` ServiceAccount. A deployer running then may fail (403, or
    // its token gone); the next deployer pod must find them re-created.
    loops.push((async () => {
      while (running()) {
        await sleep(between(10_000, 25_000));
        try {
          if (random() < 0.5) await rbac.deleteNamespacedRoleBinding({ name: 'system:deployers', namespace: ns });
          else await core.deleteNamespacedServiceAccount({ name: 'deployer', namespace: ns });
          faults.deployerAccessDeletes++;
        } catch {
          // already gone (not re-created yet), or the apiserver is restarting
        }
      }
    })());

    // A competing client: read-modify-write of RC annotations (full updates with the read
    // resourceVersion), racing the controllers' own RC writes.
    loops.push((async () => {
      let n = 0;
      while (running()) {
        await sleep(between(100, 600));
        try {
          const rcs = (await core.listNamespacedReplicationController({ namespace: ns })).items;
          const rc = pick(rcs);
          if (!rc?.metadata?.name) continue;
          await sleep(between(0, 300)); // widen the race
          rc.metadata.annotations = { ...rc.metadata.annotations, 'chaos.test/touch': String(++n) };
          await core.replaceNamespacedReplicationController({ name: rc.metadata.name, namespace: ns, body: rc });
          faults.rcAnnotationUpdates++;
        } catch (err) {
          if ((err as { code?: number }).code === 409) faults.rcConflictsSeen++;
        }
      }
    })());

    // One loop failing (e.g. the apiserver not coming back) stops the others at once.
    await Promise.all(loops.map((l) => l.catch((err: unknown) => { until = 0; throw err; })));
    // The faults end with a running controller.
    if (controller!.child.exitCode !== null || controller!.child.signalCode !== null) controller = startController(ns);

    // Convergence: every DC's latest RC carries the last template and is terminal.
    const unsettled = async () => {
      const dcs = (await custom.listNamespacedCustomObject(dcPath)) as { items: DeploymentConfig[] };
      const rcs = (await core.listNamespacedReplicationController({ namespace: ns })).items;
      const out: string[] = [];
      for (const dc of dcs.items) {
        const name = dc.metadata!.name!;
        const v = dc.status?.latestVersion ?? 0;
        const latest = rcs.find((r) => dcOfRc(r) === name && versionOf(r) === v);
        const phase = latest?.metadata?.annotations?.[Annotations.Phase];
        if (!latest || revOf(latest) !== String(lastRev.get(name)) || !['Complete', 'Failed'].includes(phase ?? '')
          || (dc.status?.observedGeneration ?? 0) < (dc.metadata?.generation ?? 0)) {
          out.push(`${name}: latestVersion ${v}, RC ${latest?.metadata?.name ?? 'missing'} ${phase ?? ''} REV ${latest ? revOf(latest) : '-'} (want ${lastRev.get(name)})`);
        }
      }
      return out;
    };
    let last: string[] = [];
    await waitFor('every DC to settle on its last template', async () => {
      last = await unsettled();
      return last.length === 0;
    }, { timeoutMs: 240_000, intervalMs: 1000 }).catch((err: Error) => { throw new Error(`${err.message}\nunsettled:\n${last.join('\n')}\ncontroller output:\n${controller!.output().slice(-3000)}`); });
    // Give the DC controller time to reconcile replicas after a terminal phase (restoring the
    // previous RC after a failure), then check the final state of every DC.
    await sleep(3000);
    const hookRuns = new Map<string, number>();
    const finalState = async () => {
      const problems: string[] = [];
      hookRuns.clear();
      windowRepeats = 0;
      if (marker) {
        let lines: string[] = [];
        try {
          lines = readFileSync(marker, 'utf8').split('\n').filter((l) => l !== '');
        } catch {
          // no hook ran yet
        }
        for (const l of lines) hookRuns.set(l, (hookRuns.get(l) ?? 0) + 1);
      }
      const dcs = (await custom.listNamespacedCustomObject(dcPath)) as { items: DeploymentConfig[] };
      const rcs = (await core.listNamespacedReplicationController({ namespace: ns })).items;
      const pods = (await core.listNamespacedPod({ namespace: ns, labelSelector: Labels.DeployerPodFor })).items;
      for (const dc of dcs.items) {
        checks.finalDcChecks++;
        const name = dc.metadata!.name!;
        const v = dc.status?.latestVersion ?? 0;
        const own = rcs.filter((r) => dcOfRc(r) === name).sort((a, b) => versionOf(a) - versionOf(b));
        const latest = own.find((r) => versionOf(r) === v)!;
        const phase = latest.metadata?.annotations?.[Annotations.Phase];
        if (own.some((r) => versionOf(r) > v)) problems.push(`${name}: RC beyond latestVersion ${v}`);
        if (new Set(own.map(versionOf)).size !== own.length) problems.push(`${name}: duplicate RC versions`);
        const live = pods.filter((p) => isDeployerPod(p) && p.metadata?.labels?.[Labels.DeployerPodFor]?.replace(/-\d+$/, '') === name && !['Succeeded', 'Failed'].includes(p.status?.phase ?? ''));
        if (live.length > 0) problems.push(`${name}: unterminated deployer pods ${live.map((p) => p.metadata?.name).join(',')}`);
        if (mode === 'inline') {
          const deployers = pods.filter((p) => isDeployerPod(p) && p.metadata?.labels?.[Labels.DeployerPodFor]?.replace(/-\d+$/, '') === name);
          if (deployers.length > 0) problems.push(`${name}: deployer pods in inline mode: ${deployers.map((p) => p.metadata?.name).join(',')}`);
        }
        if (hooked(name)) {
          // Each pre hook ran at most once per RC (no repeated step), and every Complete RC ran it (no lost step).
          for (const rc of own) {
            checks.hookRunChecks++;
            const rcName = rc.metadata?.name ?? '';
            const runs = hookRuns.get(rcName) ?? 0;
            if (runs > 1 && deletedHookPods.has(`${rcName}-hook-pre`)) windowRepeats++;
            else if (runs > 1) problems.push(`${name}: pre hook of ${rcName} ran ${runs} times`);
            if (runs === 0 && rc.metadata?.annotations?.[Annotations.Phase] === 'Complete') problems.push(`${name}: ${rcName} is Complete but its pre hook never ran`);
          }
        }
        const active = phase === 'Complete' ? latest : [...own].reverse().find((r) => r.metadata?.annotations?.[Annotations.Phase] === 'Complete');
        for (const rc of own) {
          const want = rc === active ? replicas : 0;
          if ((rc.spec?.replicas ?? 0) !== want) problems.push(`${name}: RC ${rc.metadata?.name} (${rc.metadata?.annotations?.[Annotations.Phase]}) has ${rc.spec?.replicas} replicas, want ${want} (latest ${latest.metadata?.name} ${phase})`);
        }
        const progressing = dc.status?.conditions?.find((c) => c.type === 'Progressing');
        if (phase === 'Complete' && progressing?.reason !== 'NewReplicationControllerAvailable') problems.push(`${name}: Complete but Progressing is ${progressing?.reason}`);
        if (phase === 'Failed' && progressing?.status !== 'False') problems.push(`${name}: Failed but Progressing is ${progressing?.status}/${progressing?.reason}`);
      }
      return problems;
    };
    let problems: string[] = [];
    await waitFor('the final state of every DC', async () => {
      problems = await finalState();
      return problems.length === 0;
    }, { timeoutMs: 60_000, intervalMs: 1000 }).catch(() => undefined);

    const outcome = { complete: 0, failed: 0 };
    for (const rc of (await core.listNamespacedReplicationController({ namespace: ns })).items) {
      const dc = (await custom.getNamespacedCustomObject({ ...dcPath, name: dcOfRc(rc)! })) as DeploymentConfig;
      if (versionOf(rc) !== dc.status?.latestVersion) continue;
      if (rc.metadata?.annotations?.[Annotations.Phase] === 'Complete') outcome.complete++; else outcome.failed++;
    }
    console.log(`chaos (${mode} deployer): seed ${seed}; faults injected ${JSON.stringify(faults)}; invariants checked ${JSON.stringify({ ...checks, watcherPodEvents: retired.pods + watcher!.counts.pods, watcherRcEvents: retired.rcs + watcher!.counts.rcs })}; `
      + `DCs ended ${outcome.complete} rolled out, ${outcome.failed} failed with the previous RC restored; final-state problems: ${problems.length}`
      + (marker ? `; hooks re-run after this test deleted their pod before it was recorded (design.md §6.8 window): ${windowRepeats}` : ''));

    expect([...retired.violations, ...watcher!.violations, ...violations]).toEqual([]);
    expect(problems).toEqual([]);
    expect(faults.controllerKills).toBeGreaterThan(0);
    if (marker) expect(checks.hookRunChecks).toBeGreaterThan(0);
    expect(faults.apiserverRestarts).toBe(restartApiserver ? 1 : 0);
  }, durationMs + 600_000);
});
