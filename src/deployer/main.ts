/**
 * The deployer process's own entry point (bundled alone into dist/deployer.cjs by
 * hack/bundle.mjs): `dcctl deploy` runs once per rollout, and loading the whole CLI (yargs, every
 * command, the import pipeline) for it costs start-up CPU and memory on every rollout. bin/dcctl.js
 * tries this first for `deploy`; anything it does not parse (help, a usage error) falls back to
 * the full CLI, which prints the usual messages. It talks to the API server through the small
 * REST client of src/kube/rest.ts, never loading client-node; a kubeconfig that client does not
 * handle also falls back to the full CLI.
 */
import { parseArgs } from 'node:util';
import { restDeployerDeps } from '../kube/deployer-rest.js';
import { loadRestConfig, RestClient, type RestConfig } from '../kube/rest.js';
import { runDeployCommand } from './command.js';

/** Flags of `dcctl deploy` (the same as the full CLI's, see src/cli/index.ts). */
const options = {
  deployment: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  until: { type: 'string' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
} as const;

/**
 * Runs `deploy` from `argv` (the arguments after `deploy`) and returns the exit code, or
 * undefined when `argv` is not a plain deploy invocation (the caller then runs the full CLI).
 */
export async function deployMain(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number | undefined> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }));
  } catch {
    return undefined;
  }
  const name = values.deployment || env['OPENSHIFT_DEPLOYMENT_NAME'];
  const namespace = values.namespace || env['OPENSHIFT_DEPLOYMENT_NAMESPACE'];
  // Let the full CLI word the usage errors.
  if (!name || !namespace) return undefined;
  const opts = { name, namespace, until: values.until, kubeconfig: values.kubeconfig, context: values.context };
  let config: RestConfig | undefined;
  try {
    config = loadRestConfig({ kubeconfig: values.kubeconfig, context: values.context, env });
  } catch (err) {
    // Reported as the deployer reports every error.
    return runDeployCommand(opts, { env, makeDeps: () => { throw err; } });
  }
  // A kubeconfig only client-node handles (exec plugins, proxies, …): the full CLI runs it.
  if (!config) return undefined;
  const rest = new RestClient(config, 'dcctl-deployer');
  return runDeployCommand(opts, { env, makeDeps: () => restDeployerDeps(rest) });
}
