/**
 * Entry point of `dcctl` and the kubectl plugin `kubectl dc`. `main` never exits the process:
 * it returns the exit code, so bin/ shims set `process.exitCode` and tests call it directly with
 * fakes injected through `CliDeps`.
 */
import yargs from 'yargs';
import type { Argv, ArgumentsCamelCase } from 'yargs';
import { cobraCompletions, completionScript, type CompletionShell } from './completion.js';
import { makeKubeContext } from './context.js';
import { CliError, exitCodeFor, formatError } from './errors.js';
import { importCommand } from './import.js';
import {
  parseCommand, parseDryRun, parseDuration, parseKeyValues, parseRevision, parseTolerations,
} from './flags.js';
import { parseDcName } from './names.js';
import type { DeployCommandOptions } from '../deployer/command.js';
import {
  CrossNamespaceModes, DefaultCrossNamespaceMode, DefaultCrossNamespacePolicy, DefaultDeployerImage, DefaultResyncSeconds, DefaultStatusBatchSeconds, type ManagerOptions,
} from '../manager-options.js';
import type { GlobalOptions, OutputFormat } from './options.js';
import type { OutputStreams } from './output.js';
import type { CliContext } from './ports.js';
import { rolloutCancel } from './rollout/cancel.js';
import { keepStdinEnvFlag, setCommand } from './set/command.js';
import type { SetContext } from './set/ports.js';
import { logsCommand } from './logs/logs.js';
import type { LogsContext } from './logs/ports.js';
import { rolloutHistory } from './rollout/history.js';
import { rolloutLatest } from './rollout/latest.js';
import { rolloutPause, rolloutResume } from './rollout/pause.js';
import { rolloutRetry } from './rollout/retry.js';
import { rolloutStatusCommand } from './rollout/status.js';
import { rolloutUndo } from './rollout/undo.js';
import { runTag, tagBuilder, type TagArgs } from './tag.js';

export type { ManagerOptions } from '../manager-options.js';

/** The manager module's contract (src/manager.ts). */
export interface ManagerModule { runManager(options: ManagerOptions): Promise<unknown> }
/** The deployer module's contract (src/deployer/command.ts). */
export interface DeployerModule { runDeployCommand(options: DeployCommandOptions): Promise<unknown> }

/** Everything `main` reaches outside itself; defaults are the real implementations. */
export interface CliDeps extends OutputStreams {
  makeContext(global: GlobalOptions, streams: OutputStreams, commandName: string): Promise<CliContext>;
  loadManager(): Promise<ManagerModule>;
  loadDeployer(): Promise<DeployerModule>;
  /** The `logs` verb's context (src/cli/logs/ports.ts). */
  makeLogsContext(global: GlobalOptions, streams: OutputStreams): Promise<LogsContext>;
  /** The `set` verbs' context (src/cli/set/ports.ts). */
  makeSetContext(global: GlobalOptions, streams: OutputStreams): Promise<SetContext>;
  readonly env: NodeJS.ProcessEnv;
}

const defaultDeps: CliDeps = {
  out: process.stdout,
  err: process.stderr,
  makeContext: makeKubeContext,
  // Loaded only by the commands that need them, so rollout verbs start without controller code.
  loadManager: async () => (await import('../manager.js')) as ManagerModule,
  loadDeployer: async () => (await import('../deployer/command.js')) as DeployerModule,
  makeLogsContext: async (global, streams) => {
    const { loadKubeConfig, currentNamespace } = await import('../kube/client.js');
    const { makeLogsContext } = await import('../kube/logs-io.js');
    const kc = loadKubeConfig({ kubeconfig: global.kubeconfig, context: global.context });
    return makeLogsContext(kc, global.namespace || currentNamespace(kc), streams);
  },
  makeSetContext: async (global, streams) => (await import('./set/context.js')).makeKubeSetContext(global, streams),
  env: process.env,
};

interface CommonArgs { namespace?: string; context?: string; kubeconfig?: string }

/** Flags of `dcctl controller`; their defaults are the controller's. */
const controllerFlags = <T extends CommonArgs>(c: Argv<T>) => c
  .option('namespace', { type: 'string', describe: 'Watch only this namespace (default: all namespaces)' })
  .option('dc-group', { type: 'string', default: 'apps.openshift.io', choices: ['apps.openshift.io', 'apps.dcctl.io'], describe: 'API group that stores DeploymentConfigs: apps.openshift.io (CRD mode) or apps.dcctl.io (API mode, see docs/apiserver.md)' })
  .option('workers', { type: 'number', default: 5, describe: 'Concurrent syncs per controller' })
  .option('deployer-image', { type: 'string', default: DefaultDeployerImage, describe: 'Image of deployer pods' })
  .option('deployer-command', { type: 'string', describe: 'Command of deployer pods (JSON array or words); without it they run their image\'s ENTRYPOINT and CMD (dcctl deploy in this project\'s image)' })
  .option('deployer-env', { type: 'string', array: true, describe: 'NAME=VALUE added to every deployer container unless the strategy sets NAME (several: --deployer-env A=1 B=2)' })
  .option('deployer-node-selector', { type: 'string', array: true, describe: 'key=value added to the node selector of deployer pods; the template\'s keys win (several separated by spaces)' })
  .option('deployer-toleration', { type: 'string', array: true, describe: 'key[=value][:effect] toleration added to deployer pods after the template\'s (several separated by spaces)' })
  .option('deployer-service-account', { type: 'string', default: 'deployer', describe: 'Service account of deployer pods' })
  .option('default-deployer', { type: 'string', default: 'pod', choices: ['pod', 'inline'] as const, describe: 'Who runs Rolling and Recreate rollouts of DCs without the deploy.dcctl.io/deployer annotation: pod (a <rc>-deploy pod, as OpenShift) or inline (this controller, no deployer pod; docs/design.md §6.8)' })
  .option('manage-deployer-access', { type: 'boolean', default: true, describe: 'Create the deployer service account and its system:deployers RoleBinding whenever a rollout finds them missing (false: only report them missing)' })
  .option('enable-dc-controller', { type: 'boolean', default: true, describe: 'Run the DeploymentConfig controller' })
  .option('enable-deployer-controller', { type: 'boolean', default: true, describe: 'Run the deployer controller' })
  .option('enable-image-trigger-controller', { type: 'boolean', default: true, describe: 'Run the image trigger controller: ImageStream status tags and ImageChange triggers (needs the ImageStream CRD)' })
  .option('leader-elect', { type: 'boolean', default: true, describe: 'Take a coordination.k8s.io Lease before acting (use false for a single local replica)' })
  .option('leader-election-namespace', { type: 'string', describe: 'Namespace of the Lease (default: --namespace, else default)' })
  .option('metrics-bind-address', { type: 'string', default: '127.0.0.1:8080', describe: 'Address of /metrics and health probes ("0" disables; ":8443" for all interfaces, with --metrics-secure in a cluster)' })
  .option('metrics-secure', { type: 'boolean', default: false, describe: 'Serve /metrics over HTTPS, allowing only bearer tokens whose user may get /metrics (TokenReview + SubjectAccessReview)' })
  .option('metrics-auth', { type: 'boolean', default: true, describe: 'With --metrics-secure: check the bearer token (false: HTTPS only)' })
  .option('metrics-cert-dir', { type: 'string', describe: 'With --metrics-secure: directory with tls.crt and tls.key (default: a self-signed certificate made at start)' })
  .option('webhook-bind-address', { type: 'string', default: '0', describe: 'Address of the admission webhook that refuses a DC whose pod template a ReplicationController cannot have, as OpenShift\'s API did ("0" disables; ":9443" for all interfaces; docs/webhook.md)' })
  .option('webhook-cert-dir', { type: 'string', describe: 'With --webhook-bind-address: directory with the serving tls.crt and tls.key (read again when they change)' })
  .option('cross-namespace-images', { type: 'string', choices: CrossNamespaceModes, default: DefaultCrossNamespaceMode, describe: 'Image references to another namespace (ImageStream spec tags, ImageChange triggers): follow those the admission policy checked (admission), none (deny), or all (allow: anyone who can write a stream can copy any namespace\'s images)' })
  .option('cross-namespace-policy', { type: 'string', default: DefaultCrossNamespacePolicy, describe: 'With --cross-namespace-images=admission: name of the ValidatingAdmissionPolicy and its binding (deploy/image-policy.yaml)' })
  .option('resync-period', { type: 'number', default: DefaultResyncSeconds, describe: 'Seconds between informer resyncs (every cached object is synced again)' })
  .option('status-batch-period', { type: 'number', default: DefaultStatusBatchSeconds, describe: 'During a rollout, fold the RC replica-count changes (and the phase moving from New to Pending to Running) of this many seconds into one DC status update (the outcome is never delayed; 0: update at every change)' })
  .option('log-level', { type: 'string', default: 'info', describe: 'trace, debug, info, warn or error' })
  .option('log-format', { type: 'string', choices: ['json', 'pretty'] as const, default: 'json' as const, describe: 'json lines (production) or pretty (local runs)' });

type ControllerArgs = ArgumentsCamelCase<Awaited<ReturnType<typeof controllerFlags<CommonArgs>>['argv']>>;

/** The parsed flags as the manager's options. */
function managerOptions(a: ControllerArgs): ManagerOptions {
  return {
    kubeconfig: a.kubeconfig, context: a.context, namespace: a.namespace || undefined,
    dcGroup: a.dcGroup,
    workers: a.workers,
    deployerImage: a.deployerImage,
    deployerCommand: parseCommand(a.deployerCommand),
    deployerServiceAccount: a.deployerServiceAccount,
    deployerEnvironment: Object.entries(parseKeyValues(a.deployerEnv, '--deployer-env') ?? {}).map(([name, value]) => ({ name, value })),
    deployerNodeSelector: parseKeyValues(a.deployerNodeSelector, '--deployer-node-selector'),
    deployerTolerations: parseTolerations(a.deployerToleration),
    manageDeployerAccess: a.manageDeployerAccess,
    defaultDeployer: a.defaultDeployer as 'pod' | 'inline',
    enableDcController: a.enableDcController,
    enableDeployerController: a.enableDeployerController,
    enableImageTriggerController: a.enableImageTriggerController,
    leaderElect: a.leaderElect,
    leaderElectionNamespace: a.leaderElectionNamespace,
    metricsBindAddress: a.metricsBindAddress,
    webhookBindAddress: a.webhookBindAddress,
    webhookCertDir: a.webhookCertDir,
    crossNamespaceImages: a.crossNamespaceImages,
    crossNamespacePolicy: a.crossNamespacePolicy,
    metricsSecure: a.metricsSecure,
    metricsAuth: a.metricsAuth,
    metricsCertDir: a.metricsCertDir,
    resyncSeconds: a.resyncPeriod,
    statusBatchSeconds: a.statusBatchPeriod,
    logLevel: a.logLevel,
    logFormat: a.logFormat,
  };
}
interface TargetArgs extends CommonArgs { resource: string; name?: string }

/**
 * Parses `argv` (without node and script), runs the command and returns the exit code:
 * 0 success, 1 any failure (API error, refusal, timeout, usage error).
 */
export async function main(rawArgv: string[], scriptName = 'dcctl', overrides: Partial<CliDeps> = {}): Promise<number> {
  const argv = rawArgv[0] === 'set' ? keepStdinEnvFlag(rawArgv) : rawArgv;
  const deps: CliDeps = { ...defaultDeps, ...overrides };
  const streams: OutputStreams = { out: deps.out, err: deps.err };
  let exitCode = 0;

  const run = <A extends CommonArgs>(fn: (args: ArgumentsCamelCase<A>) => Promise<number>) => async (args: ArgumentsCamelCase<A>): Promise<void> => {
    try {
      exitCode = await fn(args);
    } catch (err) {
      deps.err.write(`${formatError(err)}\n`);
      exitCode = exitCodeFor(err);
    }
  };
  const withContext = <A extends TargetArgs>(fn: (ctx: CliContext, name: string, args: ArgumentsCamelCase<A>) => Promise<number>) =>
    run<A>(async (args) => {
      const name = parseDcName(args.resource, args.name);
      const ctx = await deps.makeContext({ namespace: args.namespace, context: args.context, kubeconfig: args.kubeconfig }, streams, scriptName);
      return fn(ctx, name, args);
    });

  const target = <T>(y: Argv<T>) => y
    .positional('resource', { type: 'string', demandOption: true, describe: 'dc/NAME, deploymentconfig/NAME, NAME, or a type followed by NAME' })
    .positional('name', { type: 'string', describe: 'NAME when the type is given separately' });
  const outputFlag = <T>(y: Argv<T>) => y.option('output', { alias: 'o', type: 'string', choices: ['json', 'yaml'] as const, describe: 'Print data as json or yaml' });
  const timeoutFlag = <T>(y: Argv<T>, def: string, what: string) => y.option('timeout', { type: 'string', default: def, describe: what });

  const cli = yargs(argv)
    .scriptName(scriptName)
    .usage(`${scriptName} manages OpenShift DeploymentConfigs served as a CRD on any Kubernetes cluster`)
    .option('namespace', { alias: 'n', type: 'string', global: true, describe: 'Namespace (default: the kubeconfig context namespace, else "default")' })
    .option('context', { type: 'string', global: true, describe: 'Kubeconfig context to use' })
    .option('kubeconfig', { type: 'string', global: true, describe: 'Path to the kubeconfig file' })
    .command('rollout', 'Start a new rollout, view its status or history, roll back, cancel or retry', (y) => y
      .command('latest <resource> [name]', 'Start a new rollout for a deployment config with the latest state from its triggers',
        (c) => timeoutFlag(outputFlag(target(c)), '30s', 'How long to wait for the controller to acknowledge the request (0 = do not wait)')
          .option('again', { type: 'boolean', default: false, describe: 'Deploy the current pod template without updating state from triggers' })
          .option('dry-run', { type: 'string', describe: 'none|client|server: only print what would be rolled out' }),
        withContext<TargetArgs & { again: boolean; dryRun?: string; output?: OutputFormat; timeout: string }>((ctx, name, a) =>
          rolloutLatest(ctx, { name, again: a.again, dryRun: parseDryRun(a.dryRun), output: a.output, timeoutMs: parseDuration(a.timeout) })))
      .command('undo <resource> [name]', 'Undo a previous rollout',
        (c) => timeoutFlag(outputFlag(target(c)), '30s', 'How long to wait for the controller to acknowledge the rollout (0 = do not wait)')
          .option('to-revision', { type: 'number', describe: 'The revision to roll back to (default: the previous one)' })
          .option('dry-run', { type: 'string', describe: 'none|client|server: only print the rolled-back pod template' }),
        withContext<TargetArgs & { toRevision?: number; dryRun?: string; output?: OutputFormat; timeout: string }>((ctx, name, a) =>
          rolloutUndo(ctx, { name, toRevision: parseRevision(a.toRevision, '--to-revision'), dryRun: parseDryRun(a.dryRun), output: a.output, timeoutMs: parseDuration(a.timeout) })))
      .command('cancel <resource> [name]', 'Cancel the in-progress deployment', target,
        withContext((ctx, name) => rolloutCancel(ctx, { name })))
      .command('retry <resource> [name]', 'Retry the latest failed rollout', target,
        withContext((ctx, name) => rolloutRetry(ctx, { name })))
      .command('pause <resource> [name]', 'Mark the deployment config as paused', target,
        withContext((ctx, name) => rolloutPause(ctx, { name })))
      .command('resume <resource> [name]', 'Resume a paused deployment config', target,
        withContext((ctx, name) => rolloutResume(ctx, { name })))
      .command('history <resource> [name]', 'View rollout history',
        (c) => outputFlag(target(c)).option('revision', { type: 'number', describe: 'Show the pod template of this revision' }),
        withContext<TargetArgs & { revision?: number; output?: OutputFormat }>((ctx, name, a) =>
          rolloutHistory(ctx, { name, revision: parseRevision(a.revision, '--revision'), output: a.output })))
      .command('status <resource> [name]', 'Show the status of the rollout',
        (c) => timeoutFlag(target(c), '0', 'How long to watch before giving up (0 = forever)')
          .option('revision', { type: 'number', describe: 'Pin to a specific revision' })
          .option('watch', { alias: 'w', type: 'boolean', default: true, describe: 'Watch the status until the rollout ends' }),
        withContext<TargetArgs & { revision?: number; watch: boolean; timeout: string }>((ctx, name, a) =>
          rolloutStatusCommand(ctx, { name, revision: parseRevision(a.revision, '--revision'), watch: a.watch, timeoutMs: parseDuration(a.timeout) })))
      .demandCommand(1, 'a rollout verb is required: latest, undo, cancel, retry, pause, resume, history or status'))
    .command('logs <resource> [name]', 'Print the deployer pod log of the latest (or a given) rollout, then its hook pods\' logs',
      (c) => target(c)
        .option('version', { type: 'number', describe: 'The rollout (deployment version) whose logs to print (default: the latest)' })
        .option('previous', { alias: 'p', type: 'boolean', default: false, describe: 'The rollout before the latest' })
        .option('follow', { alias: 'f', type: 'boolean', default: false, describe: 'Stream the log until the deployer ends (waits up to 60 s for it to start)' })
        .option('tail', { type: 'number', default: -1, describe: 'Lines of each log to show from its end (-1: all)' })
        .option('timestamps', { type: 'boolean', default: false, describe: 'Prefix each line with its RFC 3339 time' })
        .example(`${scriptName} logs dc/frontend`, 'The latest rollout\'s deployer log, then its hooks\' logs')
        .example(`${scriptName} logs dc/frontend --version 2 --tail 20`, 'The last 20 lines of rollout #2'),
      run<TargetArgs & { version?: number; previous: boolean; follow: boolean; tail: number; timestamps: boolean }>(async (a) => {
        const name = parseDcName(a.resource, a.name);
        if (!Number.isInteger(a.tail) || a.tail < -1) throw new CliError(`--tail must be an integer >= -1, got ${String(a.tail)}`);
        const ctx = await deps.makeLogsContext({ namespace: a.namespace, context: a.context, kubeconfig: a.kubeconfig }, streams);
        return logsCommand(ctx, { name, version: a.version, previous: a.previous, follow: a.follow, timestamps: a.timestamps, tailLines: a.tail >= 0 ? a.tail : undefined });
      }))
    .command('tag <source> <targets..>', 'Point ImageStream tags at an image (creates the streams if needed)', tagBuilder, run<TagArgs>((a) => runTag(a, { source: a.source, targets: a.targets, sourceKind: a.sourceKind, referencePolicy: a.referencePolicy }, streams)))
    .command('controller', 'Run the DeploymentConfig, deployer and image trigger controllers', controllerFlags,
      (a) => run(async () => {
        const result = await (await deps.loadManager()).runManager(managerOptions(a));
        return typeof result === 'number' ? result : 0;
      })(a))
    .command('apiserver', 'Serve apps.openshift.io/v1 as an aggregated API server in front of the storage group (API mode, docs/apiserver.md)', (c) => c
      .option('secure-port', { type: 'number', default: 8443, describe: 'HTTPS port' })
      .option('bind-address', { type: 'string', default: '0.0.0.0', describe: 'Address to listen on' })
      .option('tls-cert-file', { type: 'string', demandOption: true, describe: 'Serving certificate (PEM)' })
      .option('tls-private-key-file', { type: 'string', demandOption: true, describe: 'Serving key (PEM)' })
      .option('storage-group', { type: 'string', default: 'apps.dcctl.io', describe: 'API group of the CRD that stores the DeploymentConfigs' })
      .option('instantiate-timeout', { type: 'number', default: 30, describe: 'Seconds an instantiate request waits for the controller' })
      .option('log-level', { type: 'string', default: 'info', describe: 'trace, debug, info, warn or error' })
      .option('log-format', { type: 'string', choices: ['json', 'pretty'] as const, default: 'json' as const, describe: 'json lines (production) or pretty (local runs)' }),
    (a) => run(async () => {
      const { runApiServer } = await import('../apiserver/run.js');
      return runApiServer({
        kubeconfig: a.kubeconfig, context: a.context,
        securePort: a.securePort,
        bindAddress: a.bindAddress,
        tlsCertFile: a.tlsCertFile,
        tlsPrivateKeyFile: a.tlsPrivateKeyFile,
        storageGroup: a.storageGroup,
        instantiateTimeoutSeconds: a.instantiateTimeout,
        logLevel: a.logLevel,
        logFormat: a.logFormat,
      });
    })(a))
    .command('migrate-storage', 'Move every DeploymentConfig between CRD mode and API mode, keeping RCs and history; DCs being deleted (or in a namespace being deleted) are skipped (docs/apiserver.md)', (c) => c
      .option('to', { type: 'string', choices: ['aggregated', 'crd'] as const, demandOption: true, describe: 'aggregated: into apps.dcctl.io behind the APIService; crd: back into the apps.openshift.io CRD' })
      .option('force', { type: 'boolean', default: false, describe: 'Run even though a controller holds its leader lease' })
      .option('timeout', { type: 'number', default: 120, describe: 'Seconds to wait for the group to be served after each switch' }),
    (a) => run(async () => {
      const { runMigrateStorage } = await import('../apiserver/run.js');
      return runMigrateStorage({ kubeconfig: a.kubeconfig, context: a.context, to: a.to, force: a.force, timeoutSeconds: a.timeout }, streams.err);
    })(a))
    .command('deploy', 'Run a rollout (the program inside deployer pods)', (c) => c
      .option('deployment', { type: 'string', describe: 'RC to deploy (default $OPENSHIFT_DEPLOYMENT_NAME)' })
      .option('until', { type: 'string', describe: 'Stop at a point: start, pre, mid, post, or N% / N of the replicas' }),
    run<CommonArgs & { deployment?: string; until?: string }>(async (a) => {
      const name = a.deployment || deps.env['OPENSHIFT_DEPLOYMENT_NAME'];
      const namespace = a.namespace || deps.env['OPENSHIFT_DEPLOYMENT_NAMESPACE'];
      if (!name) throw new CliError('--deployment or OPENSHIFT_DEPLOYMENT_NAME is required');
      if (!namespace) throw new CliError('--namespace or OPENSHIFT_DEPLOYMENT_NAMESPACE is required');
      const result = await (await deps.loadDeployer()).runDeployCommand({ name, namespace, until: a.until, kubeconfig: a.kubeconfig, context: a.context });
      return typeof result === 'number' ? result : 0;
    }))
    .command(importCommand(streams, run))
    .command(setCommand(scriptName, run, (a) => deps.makeSetContext({ namespace: a.namespace, context: a.context, kubeconfig: a.kubeconfig }, streams)))
    .command('completion [shell]', `Print a bash or zsh completion script (source <(${scriptName} completion))`,
      (c) => c.positional('shell', { type: 'string', choices: ['bash', 'zsh'] as const, default: 'bash' as const, describe: 'Shell to complete in' }),
      run<CommonArgs & { shell: CompletionShell }>(async (a) => { deps.out.write(completionScript(scriptName, a.shell)); return 0; }))
    // yargs answers `--get-yargs-completions` (what the scripts call) only with completion enabled;
    // its own script generator is hidden because it breaks on "kubectl dc" (see completion.ts).
    .completion('__yargs-completion-script', false)
    .demandCommand(1, 'a command is required')
    .strict()
    // A repeated flag overrides the earlier one (kubectl's behaviour), instead of becoming an array.
    .parserConfiguration({ 'duplicate-arguments-array': false })
    .recommendCommands()
    .help()
    .version(false)
    .wrap(null)
    .exitProcess(false)
    .fail((msg, err) => { throw err ?? new CliError(msg ?? 'invalid arguments'); });

  try {
    let helpText = '';
    await cli.parseAsync(argv, {}, (_err, _args, output) => { helpText = output ?? ''; });
    if (helpText) deps.out.write(helpText.endsWith('\n') ? helpText : `${helpText}\n`);
  } catch (err) {
    deps.err.write(`${formatError(err)}\nSee '${scriptName} --help' for usage.\n`);
    return exitCodeFor(err);
  }
  return exitCode;
}

/**
 * `kubectl_complete-dc __complete <words...>`: the candidates for the last word, in the format
 * kubectl reads from a plugin's completion executable (see completion.ts).
 */
export async function completionCandidates(argv: readonly string[]): Promise<string> {
  const words = argv[0] === '__complete' ? argv.slice(1) : [...argv];
  const current = words.length > 0 ? words[words.length - 1] ?? '' : '';
  let text = '';
  const collect = { write: (chunk: string) => { text += chunk; return true; } };
  const ignore = { write: () => true };
  await main(['--get-yargs-completions', 'kubectl-dc', ...words], 'kubectl dc', { out: collect, err: ignore });
  return cobraCompletions(text.split('\n'), current);
}
