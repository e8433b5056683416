/** Fixtures of the deployer tests: a DC, its RCs as the DC controller made them, and a `dcctl deploy` run. */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Labels } from '../../../src/apis/constants.js';
import type { DeploymentConfig, DeploymentStrategy } from '../../../src/apis/deploymentconfig.js';
import { runDeployCommand } from '../../../src/deployer/command.js';
import type { DeployerDeps } from '../../../src/deployer/ports.js';
import { deployerPodNameFor } from '../../../src/util/naming.js';
import { dcFor, rcFor } from '../../support/builders.js';
import { deployerDeps } from '../../support/fakes.js';
import { Output } from '../../support/output.js';
import type { SimulatedCluster } from '../../support/simulation.js';

export const NS = 'ns';

/** A DC fixture with one container `app`. */
export function makeDc(name: string, strategy: DeploymentStrategy, opts: { replicas?: number; minReadySeconds?: number } = {}): DeploymentConfig {
  return dcFor({
    name, namespace: NS, uid: `dc-uid-${name}`, resourceVersion: '7',
    spec: { replicas: opts.replicas ?? 3, minReadySeconds: opts.minReadySeconds, strategy },
    containers: [{
      name: 'app',
      image: 'registry/app:1',
      env: [{ name: 'A', value: 'base' }, { name: 'B', value: 'base' }],
      volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: 'other', mountPath: '/other' }],
    }],
    volumes: [{ name: 'data', emptyDir: {} }, { name: 'other', emptyDir: {} }],
    status: { latestVersion: 1 },
  });
}

/** The RC `<dc>-<version>` as the DC controller makes it, plus its running deployer pod. */
export function addRcFor(
  cluster: SimulatedCluster,
  dc: DeploymentConfig,
  version: number,
  opts: { phase?: string; replicas?: number; desired?: number | null; annotations?: Record<string, string> } = {},
): V1ReplicationController {
  const made = rcFor(dc, version, { phase: opts.phase ?? 'Running', replicas: opts.replicas ?? 0, defaulted: false });
  const name = made.metadata!.name!;
  const annotations = made.metadata!.annotations!;
  annotations[Annotations.DeployerPod] = deployerPodNameFor(name);
  if (opts.desired === null) delete annotations[Annotations.DesiredReplicas];
  else annotations[Annotations.DesiredReplicas] = String(opts.desired ?? dc.spec.replicas ?? 0);
  Object.assign(annotations, opts.annotations ?? {});
  delete made.status;
  const rc = cluster.sim.addRc(made);
  cluster.pods.put({
    metadata: { name: deployerPodNameFor(name), namespace: NS, labels: { [Labels.DeployerPodFor]: name } },
    spec: { containers: [{ name: 'deployment', image: 'deployer' }] },
    status: { phase: 'Running', startTime: cluster.clock.now().toISOString() as unknown as Date },
  });
  return rc;
}

export interface RunResult {
  code: number;
  out: Output;
  err: Output;
}

/** Runs `dcctl deploy` for `rc` against the cluster. */
export async function deploy(cluster: SimulatedCluster, rc: string, until?: string, extra: Partial<DeployerDeps> = {}): Promise<RunResult> {
  const out = new Output();
  const err = new Output();
  const code = await runDeployCommand(
    { name: rc, namespace: NS, until },
    { out: out.asStream(), errOut: err.asStream(), env: {}, makeDeps: () => ({ ...deployerDeps(cluster), ...extra }) },
  );
  return { code, out, err };
}

/** The (new, old) spec.replicas pairs after each scale of `newRc`/`oldRc`, starting from the given counts. */
export function replicaPairs(actions: string[], newRc: string, oldRc: string, start: [number, number]): [number, number][] {
  let [n, o] = start;
  const pairs: [number, number][] = [];
  for (const a of actions) {
    const m = /^scale (\S+) (\d+)$/.exec(a);
    if (!m) continue;
    if (m[1] === newRc) n = Number(m[2]);
    else if (m[1] === oldRc) o = Number(m[2]);
    else continue;
    pairs.push([n, o]);
  }
  return pairs;
}
