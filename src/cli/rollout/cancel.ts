/**
 * `rollout cancel` (design.md §9.2, oc `pkg/cli/rollout/cancel.go`).
 *
 * A paused DC adds the error "unable to cancel paused deployment <ns>/<dc>" but, as in oc,
 * processing continues. Every RC in New/Pending/Running is marked cancelled by the user
 * ("cancelling") unless it already is ("already cancelled"); when nothing was cancelled the
 * latest rollout is summarised. Deviation: oc's "nothing cancelled" flag is overwritten by each
 * RC (a bug); here any cancelled RC counts.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, CancelledTrue, StatusReasons } from '../../apis/constants.js';
import { getDc } from '../common.js';
import { AggregateCliError, CliError } from '../errors.js';
import { humanDuration } from '../humanize.js';
import { qualifiedName } from '../names.js';
import type { CliContext } from '../ports.js';
import {
  byVersionDesc, configSelector, hasUnknownPhase, isCancelled, isInProgress, isTerminal, phaseOf, selectorString, versionOf,
} from '../../apps/index.js';

/** The merge patch oc's cancel applies to an RC. */
export const cancelPatch = {
  metadata: { annotations: { [Annotations.Cancelled]: CancelledTrue, [Annotations.StatusReason]: StatusReasons.CancelledByUser } },
} as const;

/** Runs the verb; returns the exit code (errors are thrown, aggregated). */
export async function rolloutCancel(ctx: CliContext, opts: { readonly name: string }): Promise<number> {
  const dc = await getDc(ctx, opts.name);
  const errors: unknown[] = [];
  if (dc.spec.paused) errors.push(new CliError(`unable to cancel paused deployment ${ctx.namespace}/${opts.name}`));

  const rcs = await ctx.rcs.list(ctx.namespace, selectorString(configSelector(opts.name)));
  if (rcs.length === 0) {
    errors.push(new CliError(`there have been no replication controllers for ${ctx.namespace}/${opts.name}`));
    throw new AggregateCliError(errors);
  }
  const sorted = byVersionDesc(rcs);
  let cancelled = false;
  for (const rc of sorted) {
    // Also an RC with an unknown phase: cancelling it is how a user unblocks its DC (the
    // deployer controller then fails it); oc only cancels New/Pending/Running.
    if (!isInProgress(rc) && !hasUnknownPhase(rc)) continue;
    if (isCancelled(rc)) {
      ctx.out.write(`${qualifiedName(opts.name)} already cancelled\n`);
      continue;
    }
    try {
      await ctx.rcs.patch(ctx.namespace, rc.metadata?.name ?? '', cancelPatch, 'merge');
      ctx.out.write(`${qualifiedName(opts.name)} cancelling\n`);
      cancelled = true;
    } catch (err) {
      errors.push(err);
    }
  }
  if (!cancelled) ctx.out.write(noRolloutInProgress(sorted[0] as V1ReplicationController, ctx.clock.now()));
  if (errors.length > 0) throw new AggregateCliError(errors);
  return 0;
}

/** `No rollout is in progress (latest rollout #N <phase>[ (cancelling)] <age> ago)`. */
export function noRolloutInProgress(latest: V1ReplicationController, now: Date): string {
  const cancelling = isCancelled(latest) && !isTerminal(latest) ? ' (cancelling)' : '';
  const created = latest.metadata?.creationTimestamp ? new Date(latest.metadata.creationTimestamp as unknown as string).getTime() : now.getTime();
  const age = humanDuration(now.getTime() - created).toLowerCase();
  return `No rollout is in progress (latest rollout #${versionOf(latest)} ${phaseOf(latest).toLowerCase()}${cancelling} ${age} ago)\n`;
}
