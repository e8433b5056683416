/**
 * `dcctl import`: turns OpenShift exports into objects this project and a vanilla cluster accept,
 * prints them (or applies them with `--apply` / `--dry-run=server`) and reports, per object, what
 * was imported, changed or skipped on stderr so `-o yaml > out.yaml` stays clean.
 * The logic lives in src/import/; this file is flag parsing and I/O.
 */
import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { applyEntries, type ObjectApplier } from '../import/apply.js';
import type { RandomInt } from '../import/generator.js';
import { ParamError, mergeParams, parseParamArgs, parseParamFile } from '../import/params.js';
import { pruneEntries, type SchemaSource } from '../import/prune.js';
import { importObjects, type ImportInput } from '../import/pipeline.js';
import { readInputs, readProcessStdin } from '../import/read.js';
import { formatObjects, formatReport, importedObjects } from '../import/report.js';
import { ImportInputError, type ImportResult } from '../import/types.js';
import { CliError } from './errors.js';
import type { GlobalOptions, OutputFormat } from './options.js';
import type { OutputStreams } from './output.js';

/** `--dry-run` values: `client` (and none without --apply) never contacts the server. */
export type ImportDryRun = 'none' | 'client' | 'server';

/** Parsed flags of `dcctl import`. */
export interface ImportOptions extends GlobalOptions {
  readonly files: readonly string[];
  readonly params: readonly string[];
  readonly paramFile?: string;
  /** `--template`: the Templates of the input to process (all when empty). */
  readonly templates?: readonly string[];
  readonly output?: OutputFormat;
  readonly apply: boolean;
  readonly dryRun: ImportDryRun;
}

/** The outside world of `runImport`; tests inject fakes. */
export interface ImportDeps extends OutputStreams {
  readInputs(files: readonly string[]): Promise<ImportInput[]>;
  readParamFile(path: string): Promise<string>;
  /** The applier and the namespace for objects that name none (-n, else the context's). */
  makeApplier(global: GlobalOptions): Promise<{ applier: ObjectApplier; namespace: string }>;
  /** Schemas of kinds other than this project's CRDs (the cluster's OpenAPI); undefined without a cluster. */
  makeSchemaSource(global: GlobalOptions): Promise<SchemaSource | undefined>;
  readonly random: RandomInt;
}

/** Production dependencies; client-node is loaded only when something is applied. */
export const defaultImportDeps = (streams: OutputStreams): ImportDeps => ({
  ...streams,
  readInputs: (files) => readInputs(files, readProcessStdin),
  readParamFile: (p) => (p === '-' ? readProcessStdin() : readFile(p, 'utf8')),
  async makeApplier(global) {
    const { loadKubeConfig, currentNamespace } = await import('../kube/client.js');
    const { makeObjectApplier } = await import('../kube/apply.js');
    const kc = loadKubeConfig({ kubeconfig: global.kubeconfig, context: global.context });
    return { applier: makeObjectApplier(kc), namespace: global.namespace || currentNamespace(kc) };
  },
  async makeSchemaSource(global) {
    const { loadKubeConfig } = await import('../kube/client.js');
    const { makeOpenApiSchemaSource } = await import('../kube/openapi.js');
    try {
      return makeOpenApiSchemaSource(loadKubeConfig({ kubeconfig: global.kubeconfig, context: global.context }));
    } catch {
      return undefined; // no kubeconfig: the report says which kinds were not checked
    }
  },
  random: (n) => randomInt(n),
});

/** `--dry-run[=none|client|server]`; a bare flag means client, as in kubectl. */
export function parseImportDryRun(value: string | boolean | undefined): ImportDryRun {
  if (value === undefined || value === false || value === 'none' || value === 'false') return 'none';
  if (value === true || value === '' || value === 'client' || value === 'true') return 'client';
  if (value === 'server') return 'server';
  throw new CliError(`Invalid dry-run value (${String(value)}). Must be "none", "server", or "client".`);
}

/** Runs the command; returns the exit code (0 success, 1 unusable input or any object not applied). */
export async function runImport(opts: ImportOptions, deps: ImportDeps): Promise<number> {
  let result: ImportResult;
  try {
    let params: Map<string, string>;
    try {
      const file = opts.paramFile !== undefined ? parseParamFile(await deps.readParamFile(opts.paramFile), opts.paramFile) : new Map<string, string>();
      params = mergeParams(file, parseParamArgs(opts.params));
    } catch (err) {
      if (err instanceof ParamError) throw new CliError(err.message);
      throw err;
    }
    result = importObjects(await deps.readInputs(opts.files), { params, random: deps.random, templates: new Set(opts.templates ?? []) });
    // Unknown fields are removed before printing or applying: with the bundled CRD schemas, and
    // for other kinds with the cluster's OpenAPI (not with --dry-run=client, which stays offline).
    const schemas = opts.dryRun === 'client' ? undefined : await deps.makeSchemaSource(opts);
    result.notes.push(...await pruneEntries(result.entries, schemas));
  } catch (err) {
    if (!(err instanceof ImportInputError)) throw err;
    for (const line of err.message.split('\n')) deps.err.write(`error: ${line}\n`);
    deps.err.write('error: the input was not imported: nothing was printed or applied\n');
    return 1;
  }

  const toServer = opts.dryRun === 'server' || (opts.apply && opts.dryRun === 'none');
  if (!toServer) {
    deps.err.write(formatReport(result));
    deps.out.write(formatObjects(importedObjects(result), opts.output ?? 'yaml'));
    return 0;
  }

  const { applier, namespace } = await deps.makeApplier(opts);
  const dryRun = opts.dryRun === 'server';
  const summary = await applyEntries(result.entries, applier, { namespace, dryRun });
  deps.err.write(formatReport(result, summary.outcomes));
  const failed = summary.outcomes.filter((o) => o.result === 'failed');
  if (summary.stoppedBeforeApply) {
    deps.err.write(`error: ${failed.length} object(s) were rejected before anything was written: nothing was applied\n`);
    return 1;
  }
  const applied = summary.outcomes.filter((o) => o.result === 'applied');
  if (opts.output) {
    deps.out.write(formatObjects(applied.flatMap((o) => (o.object ? [o.object] : [])), opts.output));
  } else {
    for (const o of applied) {
      if (o.created !== undefined) deps.out.write(`${o.entry.ref.slice(0, o.entry.ref.lastIndexOf('/') + 1)}${o.created} created\n`);
      else deps.out.write(`${o.entry.ref} ${o.entry.generateName !== undefined ? 'created' : 'serverside-applied'}${dryRun ? ' (server dry run)' : ''}\n`);
    }
  }
  if (failed.length > 0) {
    deps.err.write(`error: ${failed.length} of ${failed.length + applied.length} object(s) failed to apply; the others were applied\n`);
    return 1;
  }
  return 0;
}

interface ImportArgs { namespace?: string; context?: string; kubeconfig?: string; filename: string | string[]; param?: string | string[]; paramFile?: string; template?: string | string[]; output?: OutputFormat; apply: boolean; dryRun?: string }

const listOf = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** `run` of src/cli/index.ts: turns a command function into a yargs handler that records the exit code. */
export type CommandRunner = <A extends { namespace?: string; context?: string; kubeconfig?: string }>(
  fn: (args: ArgumentsCamelCase<A>) => Promise<number>) => (args: ArgumentsCamelCase<A>) => Promise<void>;

const epilogue = `Input: YAML (several documents), JSON (one object or several concatenated), List objects, top-level
sequences of objects, and OpenShift Templates (processed like 'oc process': --param, --param-file, defaults,
required, generate: expression). Every Template of the input is processed; --template NAME picks some (a
catalogue of alternative Templates that make the same objects).

Fields OpenShift silently ignored are removed and legacy ones renamed (portalIP -> clusterIP, an autoscaler's
group-less DeploymentConfig target -> apps.openshift.io/v1, ...), each named
in the report, so the output passes kubectl's strict validation; so are null fields of DeploymentConfigs and
ImageStreams (\`rollingParams:\` with nothing after it), which OpenShift read as absent, and fractional numbers
where a DeploymentConfig takes a quantity (\`cpu: 0.5\` becomes "0.5"), which the CRD takes only as strings;
a null quantity in \`limits\` or \`requests\` becomes "0", as OpenShift stored it; a number written as a string
where a field takes a number (\`replicas: "3"\`, what a Template's "\${REPLICAS}" writes) becomes the number, as
OpenShift up to 3.7 read it.
YAML is read as kubectl and OpenShift read it (YAML 1.1: \`defaultMode: 0400\` is octal, \`yes\` a boolean); a key
written twice in one YAML mapping or JSON object keeps its later value, as OpenShift's readers did, and is reported.
Objects of versions Kubernetes no longer serves (extensions/v1beta1 and apps/v1beta1 Deployments, StatefulSets,
DaemonSets and Ingresses, batch/v1beta1 CronJobs, policy/v1beta1 PDBs, autoscaling/v2beta1 HPAs, rbac v1beta1
bindings, ...) are converted as the API server converted them, writing out what the old version meant differently.
DeploymentConfigs and ImageStreams are checked against this project's CRD schemas; other kinds against the
cluster's OpenAPI (read-only; skipped offline and with --dry-run=client). Objects with only
metadata.generateName are created (not applied) by --apply.

Bad input stops the import: every problem is printed and nothing is printed to stdout or applied.
With --apply or --dry-run=server every object is first checked by the server (dry run); if any is
rejected, nothing is applied. Once that passed, objects are applied one by one with server-side apply
(field manager dcctl-import, no force); a failure then is reported for that object and the others continue.
OpenShift-only kinds (Route, BuildConfig, ...) are skipped with a hint and do not fail the import; so
is what a cluster writes into every namespace (kube-root-ca.crt, generated credentials, OpenShift's
system:deployers and system:image-* RoleBindings). RoleBinding subjects that are service accounts of
the exported project lose their namespace, so they mean the namespace imported into.
YAML whose aliases expand past 16 MiB and input nested deeper than 100 levels are refused.
The report goes to stderr; stdout has only the objects (or the apply results).`;

/** The yargs module of `dcctl import` (registered in src/cli/index.ts). */
export function importCommand(streams: OutputStreams, run: CommandRunner, deps: ImportDeps = defaultImportDeps(streams)): CommandModule<object, ImportArgs> {
  return {
    command: 'import',
    describe: 'Convert OpenShift exports (Lists, Templates, legacy v1 objects) into objects this project accepts; print or apply them',
    // dcctl makes a repeated flag override the earlier one (kubectl style); -f and --param are
    // meant to repeat, as with oc and kubectl.
    builder: (y: Argv<object>) => y.parserConfiguration({ 'duplicate-arguments-array': true })
      // Not `array: true`: yargs would then refuse `-f -`; repeated flags still collect (above).
      .option('filename', { alias: 'f', type: 'string', demandOption: 'an input is required: -f FILE, -f DIR or -f -', describe: 'File, directory or - (stdin) to import; repeatable' })
      .option('param', { alias: 'p', type: 'string', describe: 'Template parameter NAME=value; repeatable; overrides --param-file' })
      .option('param-file', { type: 'string', describe: 'File of NAME=value lines for template parameters' })
      .option('template', { type: 'string', describe: 'Process only the Template of this name (repeatable); the input\'s other Templates are skipped' })
      .option('output', { alias: 'o', type: 'string', choices: ['yaml', 'json'] as const, describe: 'Print the objects as yaml (default) or json' })
      .option('apply', { type: 'boolean', default: false, describe: 'Apply the objects (server-side apply) to the cluster' })
      .option('dry-run', { type: 'string', describe: 'none|client|server: server validates on the server without persisting' })
      .epilogue(epilogue) as unknown as Argv<ImportArgs>,
    handler: run<ImportArgs>((a) => runImport({
      files: listOf(a.filename), params: listOf(a.param), paramFile: a.paramFile, templates: listOf(a.template), output: a.output, apply: a.apply,
      dryRun: parseImportDryRun(a.dryRun), namespace: a.namespace, context: a.context, kubeconfig: a.kubeconfig,
    }, deps)),
  };
}
