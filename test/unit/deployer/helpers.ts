import { runDeployCommand } from '../../../src/deployer/command.js';
import { NS, Output, type FakeCluster } from './fakes.js';

export interface RunResult {
  code: number;
  out: Output;
  err: Output;
}

/** Runs `dcctl deploy` for `rc` against the fake cluster. */
export async function deploy(cluster: FakeCluster, rc: string, until?: string): Promise<RunResult> {
  const out = new Output();
  const err = new Output();
  const code = await runDeployCommand(
    { name: rc, namespace: NS, until },
    { out: out.asStream(), errOut: err.asStream(), env: {}, makeDeps: () => cluster.deps() },
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
