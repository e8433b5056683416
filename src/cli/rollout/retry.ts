/**
 * `rollout retry` (design.md §9.3, oc `pkg/cli/rollout/retry.go`): only the latest RC, only when
 * Failed. Deletes its deployer and hook pods (grace 0), then resets the RC to New without the
 * cancelled flag and status reason, so the deployer controller starts over.
 */
import { Annotations, Phase } from '../../apis/constants.js';
import { rcNameFor } from '../../util/naming.js';
import { findRc, getDc } from '../common.js';
import { CliError, formatError } from '../errors.js';
import { qualifiedName } from '../names.js';
import type { CliContext } from '../ports.js';
import { deployerPodSelector, hasUnknownPhase, phaseOf, selectorString } from '../../apps/index.js';

/** The merge patch oc's retry applies (null deletes an annotation). */
export const retryPatch = {
  metadata: { annotations: { [Annotations.Phase]: Phase.New, [Annotations.StatusReason]: null, [Annotations.Cancelled]: null } },
} as const;

/** Runs the verb; returns the exit code. */
export async function rolloutRetry(ctx: CliContext, opts: { readonly name: string }): Promise<number> {
  const { name } = opts;
  const dc = await getDc(ctx, name);
  if (dc.spec.paused) throw new CliError(`unable to retry paused deployment config "${name}"`);
  const latest = dc.status?.latestVersion ?? 0;
  if (latest === 0) throw new CliError(`no rollouts found for "${name}"`);
  const rcName = rcNameFor(name, latest);
  let rc;
  try {
    rc = await findRc(ctx, rcName);
  } catch (err) {
    throw new CliError(`unable to fetch replication controller "${name}"`, 1, { cause: err });
  }
  if (!rc) {
    throw new CliError(`unable to find the latest rollout (#${latest}).\nYou can start a new rollout with '${ctx.commandName} rollout latest dc/${name}'.`);
  }
  const phase = phaseOf(rc);
  // An unknown phase can be retried too: nothing else moves such a rollout on (oc refuses it).
  if (phase !== Phase.Failed && !hasUnknownPhase(rc)) {
    const hint = phase === Phase.Complete
      ? `You can start a new deployment with '${ctx.commandName} rollout latest dc/${name}'.`
      : `Optionally, you can cancel this deployment with '${ctx.commandName} rollout cancel dc/${name}'.`;
    throw new CliError(`rollout #${latest} is ${phase.toLowerCase()}; only failed deployments can be retried.\n${hint}`);
  }

  let pods;
  try {
    pods = await ctx.pods.list(ctx.namespace, selectorString(deployerPodSelector(rcName)));
  } catch (err) {
    throw new CliError(`failed to list deployer/hook pods for deployment #${latest}: ${detail(err)}`, 1, { cause: err });
  }
  const failures: string[] = [];
  for (const pod of pods) {
    const podName = pod.metadata?.name ?? '';
    try {
      await ctx.pods.delete(ctx.namespace, podName, 0);
    } catch (err) {
      failures.push(`failed to delete deployer/hook pod ${podName} for deployment #${latest}: ${detail(err)}`);
    }
  }
  if (failures.length > 0) throw new CliError(failures.length === 1 ? failures[0] as string : `[${failures.join(', ')}]`);

  await ctx.rcs.patch(ctx.namespace, rcName, retryPatch, 'merge');
  ctx.out.write(`${qualifiedName(name)} retried rollout #${latest}\n`);
  return 0;
}

const detail = (err: unknown): string => formatError(err).replace(/^error: /, '');
