/**
 * `dcctl deploy`: the process that runs inside the deployer pod (OpenShift's `openshift-deploy`,
 * design.md §6.1). Reads the RC name and namespace from flags or from the
 * OPENSHIFT_DEPLOYMENT_NAME/OPENSHIFT_DEPLOYMENT_NAMESPACE variables the deployer pod gets.
 */
import { errorMessage } from '../util/error-message.js';
import { runDeployer } from './deployer.js';
import type { DeployerDeps } from './ports.js';
import { ConditionReachedError } from './util.js';

/** Flags of `dcctl deploy`. */
export interface DeployCommandOptions {
  /** `--deployment`: the RC to roll out. */
  name?: string;
  namespace?: string;
  /** `--until`: stop at this condition (start, pre, mid, N%). */
  until?: string;
  kubeconfig?: string;
  context?: string;
}

/** Injection points for tests; production uses the real cluster and process streams. */
export interface DeployCommandIO {
  env?: NodeJS.ProcessEnv;
  out?: NodeJS.WritableStream;
  errOut?: NodeJS.WritableStream;
  /**
   * Builds the ports; default: the real cluster from the kubeconfig (in-cluster in a pod) through
   * client-node (the deployer's own entry point, src/deployer/main.ts, passes the small REST
   * client's ports instead whenever the kubeconfig allows).
   */
  makeDeps?: (opts: DeployCommandOptions) => DeployerDeps | Promise<DeployerDeps>;
}

/**
 * client-node's ports, loaded only when used: the deployer bundle (dist/deployer.cjs) leaves
 * this module out (hack/bundle.mjs), so a deployer process never loads client-node.
 */
async function clientNodeDeps(opts: DeployCommandOptions): Promise<DeployerDeps> {
  const { clientNodeDeployerDeps } = await import('../kube/deployer-client-node.js');
  return clientNodeDeployerDeps(opts);
}

/**
 * Runs the deployer and returns the process exit code: 0 on success (`--> Success`) or when the
 * `--until` condition is reached (`--> <condition message>`), 1 on any error (`error: <msg>` on
 * `errOut`).
 */
export async function runDeployCommand(opts: DeployCommandOptions, io: DeployCommandIO = {}): Promise<number> {
  const env = io.env ?? process.env;
  const out = io.out ?? process.stdout;
  const errOut = io.errOut ?? process.stderr;
  let deps: DeployerDeps | undefined;
  try {
    const name = opts.name || env['OPENSHIFT_DEPLOYMENT_NAME'] || '';
    const namespace = opts.namespace || env['OPENSHIFT_DEPLOYMENT_NAMESPACE'] || '';
    if (!name) throw new Error('--deployment or OPENSHIFT_DEPLOYMENT_NAME is required');
    if (!namespace) throw new Error('--namespace or OPENSHIFT_DEPLOYMENT_NAMESPACE is required');
    deps = await (io.makeDeps ?? clientNodeDeps)(opts);
    await runDeployer(deps, { namespace, rcName: name, until: opts.until, out, errOut });
    return 0;
  } catch (err) {
    if (err instanceof ConditionReachedError) {
      out.write(`--> ${err.message}\n`);
      return 0;
    }
    errOut.write(`error: ${errorMessage(err)}\n`);
    return 1;
  } finally {
    // The waits' watches stay open for the whole run (shared between waits); end them so the
    // process can exit.
    deps?.close?.();
  }
}
