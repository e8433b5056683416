/**
 * `dcctl set image|env|triggers`: read the DC, change a copy with the pure helpers, and send the
 * difference as ONE merge patch carrying `metadata.resourceVersion`, which a CRD accepts (it has
 * no strategic merge patch, which is what `oc set` sends) and which the API server rejects with
 * 409 Conflict if the DC changed since the read; the verb then reads again and recomputes (up to
 * 5 times). Output follows oc: `<type>/<name> <operation>`, `(dry run)` / `(server dry run)`,
 * `-o yaml|json|name`; nothing is printed when nothing changes.
 */
import type { V1Container } from '@kubernetes/client-node';
import { ApiVersion, Kind } from '../../apis/constants.js';
import type { DeploymentConfig } from '../../apis/deploymentconfig.js';
import { isConflict, isNotFound } from '../../controller/errors.js';
import { AggregateCliError, CliError, dcNotFound } from '../errors.js';
import { createMergePatch } from '../../util/merge-patch.js';
import { qualifiedName } from '../names.js';
import { formatData } from '../output.js';
import { tabwrite } from '../tabwriter.js';
import { checkNoOverwrites, envFromSource, listContainerEnv, parseEnv, parseFrom, selectsContainer, updateEnv } from './env.js';
import { parseContainerImages, setImages } from './image.js';
import type { SetContext } from './ports.js';
import { applyDefinition, definitionOf, triggersAction, triggersTable, updateDefinition, type TriggersFlags } from './triggers.js';

export type SetDryRun = 'none' | 'client' | 'server';
export type SetOutput = 'yaml' | 'json' | 'name';

export interface SetCommon {
  readonly name: string;
  readonly dryRun: SetDryRun;
  readonly output?: SetOutput;
}

const MaxConflictRetries = 5;

async function readDc(ctx: SetContext, name: string): Promise<DeploymentConfig> {
  try {
    return await ctx.getDc(name);
  } catch (err) {
    if (isNotFound(err)) throw dcNotFound(name, err);
    throw err;
  }
}

function print(ctx: SetContext, dc: DeploymentConfig, operation: string, opts: SetCommon): void {
  if (opts.output === 'yaml' || opts.output === 'json') {
    ctx.out.write(formatData({ ...dc, apiVersion: ApiVersion, kind: Kind }, opts.output));
    return;
  }
  const name = qualifiedName(dc.metadata.name ?? opts.name);
  if (opts.output === 'name') {
    ctx.out.write(`${name}\n`);
    return;
  }
  const suffix = opts.dryRun === 'client' ? ' (dry run)' : opts.dryRun === 'server' ? ' (server dry run)' : '';
  ctx.out.write(`${name} ${operation}${suffix}\n`);
}

/**
 * The shared read-change-patch loop. `change` edits the copy it is given and returns errors to
 * report after the write (kubectl keeps going past a missing container); it may throw to abort.
 */
async function changeDc(ctx: SetContext, opts: SetCommon, operation: string, change: (dc: DeploymentConfig) => string[]): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const before = await readDc(ctx, opts.name);
    const after = structuredClone(before);
    const errors = change(after);
    const patch = createMergePatch(before, after) as Record<string, Record<string, unknown>> | undefined;
    if (patch !== undefined) {
      if (opts.dryRun === 'client') {
        print(ctx, after, operation, opts);
      } else {
        patch['metadata'] = { ...patch['metadata'], resourceVersion: before.metadata.resourceVersion };
        let actual: DeploymentConfig;
        try {
          actual = await ctx.patchDc(opts.name, patch, { dryRun: opts.dryRun === 'server' });
        } catch (err) {
          if (isConflict(err) && attempt < MaxConflictRetries) continue;
          throw err;
        }
        print(ctx, actual, operation, opts);
      }
    }
    if (errors.length > 0) throw new AggregateCliError(errors.map((e) => new Error(e)));
    return 0;
  }
}

const podSpecOf = (dc: DeploymentConfig) => {
  const spec = dc.spec.template?.spec;
  if (!spec) throw new CliError(`deploymentconfigs/${dc.metadata.name ?? ''} has no pod template`);
  return spec;
};

// ------------------------------------------------------------------ set image

export interface SetImageOptions extends SetCommon { readonly pairs: readonly string[] }

export function setImage(ctx: SetContext, opts: SetImageOptions): Promise<number> {
  const images = parseContainerImages(opts.pairs);
  return changeDc(ctx, opts, 'image updated', (dc) => setImages(podSpecOf(dc), images));
}

// ------------------------------------------------------------------ set env

export interface SetEnvOptions extends SetCommon {
  /** Positional `KEY=VALUE` / `KEY-` arguments, then `-e` values. */
  readonly envArgs: readonly string[];
  readonly from?: string;
  readonly prefix?: string;
  /** `--containers`, `*` wildcards; default every container. */
  readonly containers: string;
  readonly list: boolean;
  readonly overwrite: boolean;
}

export async function setEnv(ctx: SetContext, opts: SetEnvOptions): Promise<number> {
  if (opts.list && opts.output) throw new CliError('--list and --output may not be specified together');
  const parsed = parseEnv(opts.envArgs, opts.envArgs.includes('-') ? await ctx.readStdin() : undefined);
  let env = parsed.env;
  if (opts.from) {
    const source = parseFrom(opts.from);
    let keys: string[];
    try {
      keys = await ctx.sourceKeys(source.kind, source.name);
    } catch (err) {
      if (isNotFound(err)) throw new CliError(`${source.kind === 'secret' ? 'secrets' : 'configmaps'} "${source.name}" not found`, 1, { cause: err });
      throw err;
    }
    env = [...env, ...envFromSource(source.kind, source.name, keys)];
  }
  if (opts.prefix) env = env.map((e) => ({ ...e, name: `${opts.prefix}${e.name}` }));
  if (!opts.list && env.length === 0 && parsed.remove.length === 0) throw new CliError('at least one environment variable must be provided');

  const objectName = `deploymentconfigs/${opts.name}`;
  const update = (dc: DeploymentConfig): V1Container[] => {
    const containers = podSpecOf(dc).containers.filter((c) => selectsContainer(c.name, opts.containers));
    if (containers.length === 0) ctx.err.write(`warning: ${objectName} does not have any containers matching "${opts.containers}"\n`);
    for (const c of containers) {
      if (!opts.overwrite) checkNoOverwrites(c.env ?? [], env);
      const next = updateEnv(c.env ?? [], env, parsed.remove);
      if (next.length > 0) c.env = next;
      else delete c.env;
    }
    return containers;
  };

  if (opts.list) {
    const dc = structuredClone(await readDc(ctx, opts.name));
    for (const c of update(dc)) ctx.out.write(listContainerEnv(objectName, c));
    return 0;
  }
  return changeDc(ctx, opts, 'updated', (dc) => {
    update(dc);
    return [];
  });
}

// ------------------------------------------------------------------ set triggers

export interface SetTriggersOptions extends SetCommon { readonly flags: TriggersFlags }

export async function setTriggers(ctx: SetContext, opts: SetTriggersOptions): Promise<number> {
  const action = triggersAction(opts.flags, ctx.namespace);
  if (action.kind === 'print') {
    const dc = await readDc(ctx, opts.name);
    ctx.out.write(`${tabwrite(triggersTable(dc).map((r) => r.join('\t')).join('\n'), { padding: 2, padChar: ' ', tabWidth: 2 })}\n`);
    return 0;
  }
  return changeDc(ctx, opts, 'triggers updated', (dc) => {
    dc.spec.triggers = applyDefinition(dc, updateDefinition(definitionOf(dc), action));
    return [];
  });
}
