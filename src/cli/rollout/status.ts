/**
 * `rollout status [--revision N] [--watch] [--timeout]` (design.md §9.5). Each time the DC may
 * have changed it re-reads the latest RC (to tell a stale Progressing condition from a finished
 * rollout, see ../status-message.ts) and, while the rollout runs, its hook pods, then prints
 * oc's message when it differs from the last one. Exit 0 when rolled out, 1 on failure or timeout.
 */
import { Labels } from '../../apis/constants.js';
import { rcNameFor } from '../../util/naming.js';
import { findRc } from '../common.js';
import { CliError } from '../errors.js';
import type { CliContext } from '../ports.js';
import { deployerPodSelector, isInProgress, selectorString } from '../../apps/index.js';
import { rolloutStatus } from '../status-message.js';
import { watchDcUntil } from '../watch.js';

export interface StatusOptions {
  readonly name: string;
  /** 0 = whatever is latest. */
  readonly revision: number;
  readonly watch: boolean;
  /** 0 = wait forever (kubectl's default). */
  readonly timeoutMs: number;
}

/** Runs the verb; returns the exit code. */
export async function rolloutStatusCommand(ctx: CliContext, opts: StatusOptions): Promise<number> {
  let last: string | undefined;
  const hookPhases = new Map<string, string>();
  const code = await watchDcUntil(ctx, opts.name, opts.timeoutMs, async (dc) => {
    const latest = dc.status?.latestVersion ?? 0;
    const rcName = rcNameFor(opts.name, latest);
    const rc = latest > 0 ? (await findRc(ctx, rcName)) ?? null : null;
    if (rc && isInProgress(rc) && opts.watch) await reportHooks(ctx, rcName, hookPhases);
    const status = rolloutStatus(dc, opts.revision, rc, ctx.commandName);
    if (status.error !== undefined) throw new CliError(status.error);
    if (status.message !== undefined && status.message !== last) {
      ctx.out.write(`${status.message}\n`);
      last = status.message;
    }
    return status.done || !opts.watch ? 0 : undefined;
  });
  if (code === undefined) throw new CliError('timed out waiting for the condition');
  return code;
}

/** Prints `--> <hook>: hook pod "<pod>" <phase>` when a hook pod appears or changes phase. */
async function reportHooks(ctx: CliContext, rcName: string, seen: Map<string, string>): Promise<void> {
  let pods;
  try {
    pods = await ctx.pods.list(ctx.namespace, selectorString(deployerPodSelector(rcName)));
  } catch {
    return; // Reading pods is optional: a user allowed only DCs and RCs still gets the rollout status.
  }
  for (const pod of pods) {
    const type = pod.metadata?.labels?.[Labels.DeployerPodType];
    const podName = pod.metadata?.name ?? '';
    if (!type) continue;
    const phase = pod.status?.phase ?? 'Pending';
    if (seen.get(podName) === phase) continue;
    seen.set(podName, phase);
    ctx.out.write(`--> ${type.replace(/^hook-/, '')}: hook pod "${podName}" ${phase}\n`);
  }
}
