/**
 * `rollout pause` / `rollout resume` (design.md §9.6): a merge patch of `spec.paused`, refused
 * when already in the requested state with kubectl's `<resource> "<name>" is already paused` text.
 */
import { getDc } from '../common.js';
import { CliError } from '../errors.js';
import { qualifiedName } from '../names.js';
import type { CliContext } from '../ports.js';

/** Sets `spec.paused`; returns the exit code. */
export async function setPaused(ctx: CliContext, opts: { readonly name: string; readonly paused: boolean }): Promise<number> {
  const dc = await getDc(ctx, opts.name);
  if (Boolean(dc.spec.paused) === opts.paused) {
    throw new CliError(`deploymentconfigs.apps.openshift.io "${opts.name}" ${opts.paused ? 'is already paused' : 'is not paused'}`);
  }
  await ctx.dcs.patch(ctx.namespace, opts.name, { spec: { paused: opts.paused } }, 'merge');
  ctx.out.write(`${qualifiedName(opts.name)} ${opts.paused ? 'paused' : 'resumed'}\n`);
  return 0;
}

/** `rollout pause`. */
export const rolloutPause = (ctx: CliContext, opts: { readonly name: string }): Promise<number> => setPaused(ctx, { ...opts, paused: true });

/** `rollout resume`. */
export const rolloutResume = (ctx: CliContext, opts: { readonly name: string }): Promise<number> => setPaused(ctx, { ...opts, paused: false });
