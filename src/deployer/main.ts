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
import { setFlagsFromString } from 'node:v8';
import { restDeployerDeps } from '../kube/deployer-rest.js';
import { loadRestConfig, RestClient, trustOnlyServerCa, type RestConfig } from '../kube/rest.js';
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
 * Turns off V8's baseline and optimizing compilers (Sparkplug, Maglev, Turbofan) for the rest of
 * this process: a deployer process runs one rollout and mostly waits on the API server, so the
 * compilers' own code, pages of the node binary, is memory it need not touch. Two pairs of N=100
 * bench runs with deployer pods, alternating: 59.0 instead of 65.8 MiB RSS per deployer process,
 * the same CPU per rollout within the runs' noise (docs/design.md §6.1). Not as command-line flags:
 * any V8 flag given at start makes Node.js reject the code cache of its built-in modules (+50 ms);
 * set now, it only affects code compiled from here on. Only once the invocation is the deployer's
 * own, never for the full CLI it may fall back to.
 */
function interpretOnly(): void {
  setFlagsFromString('--no-sparkplug --no-maglev --no-turbofan');
}

/**
 * What a deployer process changes in itself before its first request: V8's compilers off
 * (interpretOnly), and its server's CA as its default trust store (src/kube/rest.ts
 * trustOnlyServerCa), so it never parses a store of roots it does not use (docs/design.md §6.1).
 */
function prepareDeployerProcess(config: RestConfig): void {
  interpretOnly();
  trustOnlyServerCa(config);
}

/**
 * Runs `deploy` from `argv` (the arguments after `deploy`) and returns the exit code, or
 * undefined when `argv` is not a plain deploy invocation (the caller then runs the full CLI).
 * `prepareProcess` runs with the connection settings once the invocation is accepted, before any
 * request (tests pass a no-op, the process they run in is not a deployer's).
 */
export async function deployMain(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  prepareProcess: (config: RestConfig) => void = prepareDeployerProcess,
): Promise<number | undefined> {
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
  prepareProcess(config);
  const rest = new RestClient(config, 'dcctl-deployer');
  return runDeployCommand(opts, { env, makeDeps: () => restDeployerDeps(rest) });
}
