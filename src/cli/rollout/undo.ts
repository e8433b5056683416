/**
 * `rollout undo [--to-revision N]` (design.md §8.1–§8.2), computed client-side because a CRD has
 * no rollback subresource.
 *
 * 1. GET the DC; paused → oc's "cannot rollback a paused config ..." refusal.
 * 2. Validate and pick the target RC (§8.1 steps 3–4); GET it and decode its encoded config.
 * 3. Generate the rolled-back DC (template only; automatic image triggers switched off).
 * 4. Dry run: print the pod template (or the DC with -o) and stop.
 * 5. ONE merge patch: the spec diff, the resourceVersion (so a concurrent edit conflicts
 *    instead of being overwritten) and a forced instantiate request, so the rollback rolls out
 *    even without a ConfigChange trigger (OpenShift bumps latestVersion in the same update).
 *    A Conflict (usually a controller status write in between) restarts from step 1, up to 5 times 10 ms apart (client-go `DefaultRetry`).
 * 6. Wait for the acknowledgement like `rollout latest`; print "rolled back" and the warning
 *    about disabled image triggers (`oc rollback`'s text).
 */
import { ApiVersion, Kind } from '../../apis/constants.js';
import { DecodeError, decodeDeploymentConfig } from '../../apis/encoded.js';
import { DefaultRetry, retryOnConflict } from '../../util/retry.js';
import { ApiError, isConflict } from '../../controller/errors.js';
import { findRc, getDc } from '../common.js';
import { describePodTemplate } from '../describe.js';
import { CliError } from '../errors.js';
import { fileRequest, instantiatePatch, unacknowledgedNotice, waitForAck } from '../instantiate.js';
import { createMergePatch } from '../../util/merge-patch.js';
import { qualifiedName } from '../names.js';
import type { OutputFormat } from '../options.js';
import { formatData } from '../output.js';
import type { CliContext } from '../ports.js';
import { disabledImageTriggers, generateRollback, invalidRollback, rollbackTarget, undoDefaults } from '../../apps/rollback.js';

export interface UndoOptions {
  readonly name: string;
  /** 0 = the previous revision (latestVersion - 1). */
  readonly toRevision: number;
  readonly dryRun: boolean;
  readonly output?: OutputFormat;
  readonly timeoutMs: number;
}

/** Runs the verb; returns the exit code. */
export async function rolloutUndo(ctx: CliContext, opts: UndoOptions): Promise<number> {
  // The resourceVersion precondition also trips on the controller's status writes; those do not
  // change what the rollback computes, so re-read and recompute a few times before giving up.
  return retryOnConflict(() => undoOnce(ctx, opts), DefaultRetry);
}

async function undoOnce(ctx: CliContext, opts: UndoOptions): Promise<number> {
  const dc = await getDc(ctx, opts.name);
  if (dc.spec.paused) {
    throw new CliError(`cannot rollback a paused config; resume it first with 'rollout resume dc/${opts.name}' and try again`);
  }
  const targetName = rollbackTarget(dc, opts.toRevision);
  const target = await findRc(ctx, targetName);
  if (!target) throw invalidRollback(opts.name, `replicationcontrollers "${targetName}" not found`);
  let to;
  try {
    to = decodeDeploymentConfig(target);
  } catch (err) {
    if (err instanceof DecodeError) throw invalidRollback(opts.name, `couldn't decode deployment config from deployment: ${err.message}`);
    throw err;
  }
  const generated = generateRollback(dc, to, undoDefaults(opts.toRevision));

  if (opts.dryRun) {
    ctx.out.write(opts.output
      ? formatData({ apiVersion: ApiVersion, kind: Kind, ...generated }, opts.output)
      : `${qualifiedName(opts.name)}\n${describePodTemplate(generated.spec.template)}`);
    return 0;
  }

  const id = ctx.newId();
  const specPatch = createMergePatch(dc.spec, generated.spec);
  await fileRequest(ctx, opts.name, opts.timeoutMs, (fresh) => {
    // The spec patch was computed from `dc`: a DC changed meanwhile is refused by the
    // resourceVersion precondition rather than patched with a stale diff: the same Conflict the
    // API server would return, so the caller recomputes from a fresh read.
    if (fresh.metadata.resourceVersion !== dc.metadata.resourceVersion) {
      throw new ApiError(`deploymentconfig/${opts.name} changed while the rollback was prepared`, 409, 'Conflict');
    }
    const { metadata } = instantiatePatch({ id, latest: false, force: true });
    const patch: { metadata: Record<string, unknown> } & Record<string, unknown> = { metadata };
    if (specPatch !== undefined) patch['spec'] = specPatch;
    return patch;
  }, 1); // conflicts restart the whole computation (rolloutUndo's loop)

  const result = await waitForAck(ctx, opts.name, id, opts.timeoutMs);
  if (result && result.ack.outcome !== 'Triggered') {
    throw new CliError(result.ack.message || `deployment config "${opts.name}" cannot be instantiated`);
  }
  if (!result && opts.timeoutMs > 0) ctx.err.write(unacknowledgedNotice(opts.name, id, opts.timeoutMs));
  let message = `${qualifiedName(opts.name)} rolled back\n`;
  const disabled = disabledImageTriggers(generated);
  if (disabled.length > 0) {
    message += `Warning: the following images triggers were disabled: ${disabled.join(',')}\n`
      + `  You can re-enable them with: oc set triggers dc/${opts.name} --auto\n`;
  }
  ctx.out.write(message);
  return 0;
}
