/**
 * Builders for DeploymentConfig manifests and wait helpers for the deployer e2e tests (real local
 * control plane, real controllers, deployer and hook pods run by the process kubelet).
 */
import { afterEach, beforeEach, expect } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CoreV1Event, V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Group, Plural, Version } from '../../src/apis/constants.js';
import type { DeploymentCondition, DeploymentConfig, DeploymentStrategy, LifecycleHook } from '../../src/apis/deploymentconfig.js';
import { InvariantWatcher, isReadyPod, type InvariantOptions } from './invariants.js';
import { apis, createNamespace, deleteNamespace, kubectl, repoDir, startController, waitFor, type ControllerProcess } from './kube.js';
import { versionOf } from '../../src/apps/index.js';
import { rcNameFor } from '../../src/util/naming.js';

export interface DcOptions {
  name?: string;
  replicas?: number;
  image?: string;
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  test?: boolean;
  /** Pod template node selector (copied to the deployer pod as well, design.md §3.3). */
  nodeSelector?: Record<string, string>;
  env?: Array<{ name: string; value: string }>;
  revisionHistoryLimit?: number;
}

/** A DC with a ConfigChange trigger, selector `app=<name>` and one container `web`. */
export function dcManifest(o: DcOptions = {}): DeploymentConfig {
  const name = o.name ?? 'web';
  return {
    apiVersion: `${Group}/${Version}`,
    kind: 'DeploymentConfig',
    metadata: { name },
    spec: {
      replicas: o.replicas ?? 3,
      selector: { app: name },
      strategy: o.strategy ?? { type: 'Rolling', rollingParams: { intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 60 } },
      ...(o.minReadySeconds !== undefined ? { minReadySeconds: o.minReadySeconds } : {}),
      ...(o.test !== undefined ? { test: o.test } : {}),
      ...(o.revisionHistoryLimit !== undefined ? { revisionHistoryLimit: o.revisionHistoryLimit } : {}),
      triggers: [{ type: 'ConfigChange' }],
      template: {
        metadata: { labels: { app: name } },
        spec: {
          ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
          containers: [{ name: 'web', image: o.image ?? 'registry.local/web:1', env: o.env ?? [], ports: [{ containerPort: 8080 }] }],
        },
      },
    },
  } as DeploymentConfig;
}

/** An execNewPod hook running `script` with /bin/sh in a copy of container `web`. */
export function shHook(script: string, failurePolicy: LifecycleHook['failurePolicy'], env: Array<{ name: string; value: string }> = []): LifecycleHook {
  return { failurePolicy, execNewPod: { containerName: 'web', command: ['/bin/sh', '-c', script], env } };
}

/** A fresh directory for marker/counter files shared with hook processes (they run on this host). */
export function scratchDir(prefix = 'dc-e2e-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Lines of a file, [] if it does not exist. */
export function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** The log the process kubelet wrote for a deployer or hook pod ('' if none). */
export function podLog(namespace: string, pod: string): string {
  const dir = process.env.LOCAL_CLUSTER_DIR ?? path.join(repoDir, '.local-cluster');
  try {
    return readFileSync(path.join(dir, 'pod-logs', `${namespace}_${pod}.log`), 'utf8');
  } catch {
    return '';
  }
}

/** `<dc>-<version>`, the controller's own rule. */
export const rcNameOf = rcNameFor;
export const phaseOf = (rc: V1ReplicationController | undefined): string | undefined => rc?.metadata?.annotations?.[Annotations.Phase];
export { versionOf };

/** Everything a test needs against one namespace. */
export class DcClient {
  private readonly a = apis();
  constructor(readonly namespace: string) {}

  async create(dc: DeploymentConfig): Promise<void> {
    await this.a.custom.createNamespacedCustomObject({ group: Group, version: Version, namespace: this.namespace, plural: Plural, body: dc });
  }

  async get(name = 'web'): Promise<DeploymentConfig> {
    return (await this.a.custom.getNamespacedCustomObject({ group: Group, version: Version, namespace: this.namespace, plural: Plural, name })) as DeploymentConfig;
  }

  /** JSON merge patch of the DC (kubectl, as a user would). */
  patch(patch: unknown, name = 'web'): void {
    kubectl(['patch', '-n', this.namespace, `deploymentconfig.${Group}/${name}`, '--type', 'merge', '-p', JSON.stringify(patch)]);
  }

  /** Sets the image of container `web` (a config change). */
  setImage(image: string, name = 'web'): void {
    kubectl(['patch', '-n', this.namespace, `deploymentconfig.${Group}/${name}`, '--type', 'json', '-p',
      JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }])]);
  }

  async rc(name: string): Promise<V1ReplicationController | undefined> {
    return this.a.core.readNamespacedReplicationController({ name, namespace: this.namespace }).catch(() => undefined);
  }

  /** The DC's RCs sorted by version. */
  async rcs(dc = 'web'): Promise<V1ReplicationController[]> {
    const list = await this.a.core.listNamespacedReplicationController({ namespace: this.namespace, labelSelector: `${Annotations.DeploymentConfig}=${dc}` });
    return list.items.sort((x, y) => versionOf(x) - versionOf(y));
  }

  async pods(selector: string): Promise<V1Pod[]> {
    return (await this.a.core.listNamespacedPod({ namespace: this.namespace, labelSelector: selector })).items;
  }

  async readyPods(selector: string): Promise<V1Pod[]> {
    return (await this.pods(selector)).filter(isReadyPod);
  }

  async events(): Promise<CoreV1Event[]> {
    return (await this.a.core.listNamespacedEvent({ namespace: this.namespace })).items;
  }

  /** `reason: message` of every event (optionally only those about `involvedName`). */
  async eventTexts(involvedName?: string): Promise<string[]> {
    return (await this.events())
      .filter((e) => involvedName === undefined || e.involvedObject.name === involvedName)
      .map((e) => `${e.type} ${e.reason}: ${e.message}`);
  }

  /** A Warning event about RC `rc`, as another component (an admission webhook, a quota) writes one. */
  async rcWarning(rc: V1ReplicationController, name: string, reason: string, message: string): Promise<void> {
    await this.a.core.createNamespacedEvent({
      namespace: this.namespace,
      body: {
        metadata: { name, namespace: this.namespace },
        involvedObject: { kind: 'ReplicationController', name: rc.metadata?.name, namespace: this.namespace, uid: rc.metadata?.uid },
        type: 'Warning', reason, message, count: 1,
      },
    });
  }

  async deletePod(name: string, gracePeriodSeconds?: number): Promise<void> {
    await this.a.core.deleteNamespacedPod({ name, namespace: this.namespace, ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}) });
  }

  /** Marks an RC cancelled exactly as `oc rollout cancel` does. */
  cancel(rcName: string): void {
    kubectl(['annotate', '-n', this.namespace, `rc/${rcName}`, '--overwrite',
      `${Annotations.Cancelled}=true`, `${Annotations.StatusReason}=cancelled by the user`]);
  }

  async waitForPhase(rcName: string, phases: string | string[], timeoutMs = 90_000): Promise<V1ReplicationController> {
    const want = Array.isArray(phases) ? phases : [phases];
    return waitFor(`${this.namespace}/${rcName} in phase ${want.join('|')}`, async () => {
      const rc = await this.rc(rcName);
      return rc && want.includes(phaseOf(rc) ?? '') ? rc : undefined;
    }, { timeoutMs, intervalMs: 100 });
  }

  async waitForLatestVersion(version: number, dc = 'web', timeoutMs = 30_000): Promise<DeploymentConfig> {
    return waitFor(`${dc} latestVersion ${version}`, async () => {
      const d = await this.get(dc);
      return (d.status?.latestVersion ?? 0) >= version ? d : undefined;
    }, { timeoutMs, intervalMs: 100 });
  }

  /** Waits until the DC's conditions match `want` (type → {status, reason}). */
  async waitForConditions(want: Record<string, Partial<DeploymentCondition>>, dc = 'web', timeoutMs = 30_000): Promise<DeploymentConfig> {
    return waitFor(`${dc} conditions ${JSON.stringify(want)}`, async () => {
      const d = await this.get(dc);
      const ok = Object.entries(want).every(([type, fields]) => {
        const c = d.status?.conditions?.find((x) => x.type === type);
        return c !== undefined && Object.entries(fields).every(([k, v]) => (c as unknown as Record<string, unknown>)[k] === v);
      });
      return ok ? d : undefined;
    }, { timeoutMs, intervalMs: 200 });
  }

  /**
   * Waits until RC `<dc>-<keep>` runs `replicas` ready pods and every other RC of the DC is at 0
   * replicas (spec and status) — what a user sees after a rollout settles.
   */
  async waitForOnlyActive(keep: number, replicas: number, dc = 'web', timeoutMs = 60_000): Promise<V1ReplicationController[]> {
    return waitFor(`only ${dc}-${keep} active with ${replicas} ready replicas`, async () => {
      const rcs = await this.rcs(dc);
      const ok = rcs.every((rc) => versionOf(rc) === keep
        ? (rc.spec?.replicas ?? 0) === replicas && (rc.status?.readyReplicas ?? 0) === replicas && (rc.status?.replicas ?? 0) === replicas
        : (rc.spec?.replicas ?? 0) === 0 && (rc.status?.replicas ?? 0) === 0);
      return ok && rcs.some((rc) => versionOf(rc) === keep) ? rcs : undefined;
    }, { timeoutMs, intervalMs: 200 });
  }
}

/** One namespace, one controller process and one invariant watcher, per test. */
export interface DeployerTestEnv {
  ns: string;
  dc: DcClient;
  watcher: InvariantWatcher;
  controller: ControllerProcess;
  /** Local time the test body started (ms). */
  startedMs: number;
}

/**
 * Registers beforeEach/afterEach hooks giving every test its own namespace, controller and
 * invariant watcher. afterEach asserts that the watcher saw RC and pod events and no invariant
 * violation, then stops everything; the timeline and controller output of each test go to
 * `<tmp>/dc-e2e-<ns>.log` for diagnosis.
 */
export function useDeployerTestEnv(prefix: string, opts: InvariantOptions & { controllerArgs?: string[] } = {}): DeployerTestEnv {
  const env = {} as DeployerTestEnv;
  beforeEach(async () => {
    env.ns = await createNamespace(prefix);
    env.dc = new DcClient(env.ns);
    env.watcher = await InvariantWatcher.start(env.ns, opts);
    env.controller = startController(env.ns, opts.controllerArgs);
    env.startedMs = Date.now();
  });
  afterEach(async () => {
    const { watcher, controller, ns } = env;
    await watcher?.stop();
    await controller?.stop();
    if (watcher && controller) {
      const file = path.join(tmpdir(), `dc-e2e-${ns}.log`);
      writeFileSync(file, `timeline:\n${watcher.formatTimeline(env.startedMs)}\n\nviolations:\n${watcher.violations.join('\n')}\n\ncontroller output:\n${controller.output()}`);
    }
    if (ns) await deleteNamespace(ns);
    expect(watcher.violations).toEqual([]);
    // The watcher must have observed the rollout, or its silence proves nothing.
    expect(watcher.counts.rcs).toBeGreaterThan(0);
    expect(watcher.counts.pods).toBeGreaterThan(0);
  });
  return env;
}
