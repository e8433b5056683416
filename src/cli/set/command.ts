/** The yargs definition of `set image|env|triggers` (flags as in `oc set`). */
import type { Argv, ArgumentsCamelCase } from 'yargs';
import { CliError } from '../errors.js';
import { parseDcName } from '../names.js';
import { splitEnvironmentFromResources } from './env.js';
import type { SetContext } from './ports.js';
import { setEnv, setImage, setTriggers, type SetDryRun, type SetOutput } from './run.js';

interface Connection { namespace?: string; context?: string; kubeconfig?: string }
type Runner = <A extends Connection>(fn: (args: ArgumentsCamelCase<A>) => Promise<number>) => (args: ArgumentsCamelCase<A>) => Promise<void>;
export type MakeSetContext = (global: Connection) => Promise<SetContext>;

/** `--dry-run[=none|client|server]`; a bare flag means client, as in kubectl. */
export function parseSetDryRun(value: string | boolean | undefined): SetDryRun {
  if (value === undefined || value === false || value === 'none' || value === 'false') return 'none';
  if (value === true || value === '' || value === 'client' || value === 'true') return 'client';
  if (value === 'server') return 'server';
  throw new CliError(`Invalid dry-run value (${String(value)}). Must be "none", "server", or "client".`);
}

/** Splits positional words into the DC name and the rest: `dc/web a=b`, `dc web a=b`, `web a=b`. */
export function splitTarget(words: readonly string[], isRest: (w: string) => boolean): { name: string; rest: string[] } {
  const firstRest = words.findIndex(isRest);
  const resources = firstRest < 0 ? [...words] : words.slice(0, firstRest);
  const rest = firstRest < 0 ? [] : words.slice(firstRest);
  if (resources.length === 0) throw new CliError('one or more resources must be specified as <resource> <name> or <resource>/<name>');
  if (resources.length > 2) throw new CliError(`only one deployment config can be changed at a time, got: ${resources.join(' ')}`);
  return { name: parseDcName(resources[0], resources[1]), rest };
}

const last = (v: unknown): unknown => (Array.isArray(v) ? v[v.length - 1] : v);

interface CommonSetArgs extends Connection { words: string[]; dryRun?: string; output?: SetOutput }

export function setCommand(scriptName: string, run: Runner, makeSetContext: MakeSetContext) {
  // Variadic positionals (`<words..>`) and repeated `-e` need duplicate values kept, which the
  // top level turns off; single-valued flags then keep their last value, as everywhere else.
  const common = <T>(y: Argv<T>) => y
    .parserConfiguration({ 'duplicate-arguments-array': true })
    .option('dry-run', { type: 'string', coerce: last, describe: 'none|client|server: client prints the changed object without sending it; server sends it with dryRun=All' })
    .option('output', { alias: 'o', type: 'string', choices: ['yaml', 'json', 'name'] as const, coerce: last, describe: 'Print the changed object as yaml or json, or its name' });
  const opts = (a: CommonSetArgs, name: string) => ({ name, dryRun: parseSetDryRun(a.dryRun), output: a.output });

  return {
    command: 'set',
    describe: 'Update the image, environment or triggers of a deployment config (as oc set)',
    builder: (y: Argv) => y
      .command('image <words..>', 'Update the image of containers: set image dc/NAME CONTAINER=IMAGE ... ("*" for every container)',
        (c) => common(c).positional('words', { type: 'string', array: true, describe: 'dc/NAME (or NAME) then CONTAINER=IMAGE pairs' })
          .example(`${scriptName} set image dc/web web=registry/app:v2`, 'Point container web at a new image'),
        run<CommonSetArgs>(async (a) => {
          const { name, rest } = splitTarget(a.words, (w) => w.includes('='));
          return setImage(await makeSetContext(a), { ...opts(a, name), pairs: rest });
        }))
      .command('env [words..]', 'Update environment variables: set env dc/NAME KEY=VALUE ... KEY- ...',
        // `-e` is greedy: words after it that are not KEY=VALUE / KEY- / - are resources (`-e A=1 dc/web`).
        (c) => common(c)
          .positional('words', { type: 'string', array: true, describe: 'dc/NAME (or NAME) then KEY=VALUE to set and KEY- to remove' })
          .option('env', { alias: 'e', type: 'string', array: true, describe: 'KEY=VALUE to set (repeatable); "-" reads KEY=VALUE lines from stdin' })
          .option('from', { type: 'string', coerce: last, describe: 'secret/NAME or configmap/NAME: one variable per key, referencing it' })
          .option('prefix', { type: 'string', coerce: last, describe: 'Prefix for the variable names' })
          .option('containers', { alias: 'c', type: 'string', default: '*', coerce: last, describe: 'Containers to change ("*" wildcards)' })
          .option('list', { type: 'boolean', default: false, describe: 'Print the environment (with the changes) instead of writing it' })
          .option('overwrite', { type: 'boolean', default: true, describe: 'Allow changing a variable that already has a value' })
          .example(`${scriptName} set env dc/web LOG_LEVEL=debug OLD-`, 'Set one variable, remove another')
          .example(`${scriptName} set env dc/web --from=secret/db --prefix=DB_`, 'One variable per key of a Secret')
          .example(`${scriptName} set env dc/web --list`, 'List the variables'),
        run<CommonSetArgs & { env?: string[]; from?: string; prefix?: string; containers: string; list: boolean; overwrite: boolean }>(async (a) => {
          const isEnvSpec = (w: string) => w === '-' || w.includes('=') || w.endsWith('-');
          const flagEnv = (a.env ?? []).filter(isEnvSpec);
          const { resources, envArgs } = splitEnvironmentFromResources([...(a.env ?? []).filter((w) => !isEnvSpec(w)), ...(a.words ?? [])]);
          const { name } = splitTarget(resources, () => false);
          return setEnv(await makeSetContext(a), {
            ...opts(a, name), envArgs: [...envArgs, ...flagEnv], from: a.from, prefix: a.prefix,
            containers: a.containers, list: a.list, overwrite: a.overwrite,
          });
        }))
      .command('triggers <words..>', 'Print or update triggers: --auto|--manual, --from-config, --from-image=STREAM:TAG -c NAME, --remove, --remove-all',
        (c) => common(c).positional('words', { type: 'string', array: true, describe: 'dc/NAME or NAME' })
          .option('auto', { type: 'boolean', describe: 'Enable all triggers, or just the one named' })
          .option('manual', { type: 'boolean', describe: 'Set all triggers to manual, or just the one named' })
          .option('from-config', { type: 'boolean', describe: 'The config change trigger' })
          .option('from-image', { type: 'string', coerce: last, describe: 'An image stream tag to trigger off ([namespace/]stream:tag)' })
          .option('containers', { alias: 'c', type: 'string', coerce: last, describe: 'Comma-separated containers the image trigger updates' })
          .option('remove', { type: 'boolean', describe: 'Remove the named trigger' })
          .option('remove-all', { type: 'boolean', describe: 'Remove all triggers' })
          .example(`${scriptName} set triggers dc/web`, 'Print the triggers')
          .example(`${scriptName} set triggers dc/web --from-image=web:latest -c web`, 'Add an image trigger')
          .example(`${scriptName} set triggers dc/web --from-config --remove`, 'Stop rolling out on config changes'),
        run<CommonSetArgs & { auto?: boolean; manual?: boolean; fromConfig?: boolean; fromImage?: string; containers?: string; remove?: boolean; removeAll?: boolean }>(async (a) => {
          const { name } = splitTarget(a.words, () => false);
          return setTriggers(await makeSetContext(a), {
            ...opts(a, name),
            flags: { auto: a.auto, manual: a.manual, fromConfig: a.fromConfig, fromImage: a.fromImage, containers: a.containers, remove: a.remove, removeAll: a.removeAll },
          });
        }))
      .demandCommand(1, 'a set verb is required: image, env or triggers'),
    handler: () => undefined,
  };
}

/**
 * yargs drops a lone `-` value, so `set env -e - dc/web` (read variables from stdin, as in oc)
 * is rewritten to `--env=-` before parsing.
 */
export function keepStdinEnvFlag(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if ((argv[i] === '-e' || argv[i] === '--env') && argv[i + 1] === '-') {
      out.push('--env=-');
      i++;
    } else {
      out.push(argv[i] as string);
    }
  }
  return out;
}
