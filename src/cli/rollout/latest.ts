/**
 * `rollout latest` (design.md §9.1) over the annotation protocol of ../instantiate.ts.
 *
 * 1. GET the DC; paused → "cannot deploy a paused deployment config".
 * 2. GET `<dc>-<latestVersion>`: present and not terminal → "#N is already in progress (<phase>).".
 * 3. Dry run: print and stop. Otherwise file `{id, latest: !again, force: true}` (oc always
 *    forces) with one merge patch (after any pending request is acknowledged, with the DC's
 *    resourceVersion as precondition: ../instantiate.ts) and wait for the acknowledgement.
 * 4. Triggered → "rolled out"; NotTriggered/Rejected → the controller's message, exit 1;
 *    no answer in time → exit 0 with a warning: the request is durable and will be handled.
 */
import { ApiVersion, Kind } from '../../apis/constants.js';
import { rcNameFor } from '../../util/naming.js';
import { findRc, getDc } from '../common.js';
import { CliError } from '../errors.js';
import { fileRequest, instantiatePatch, unacknowledgedNotice, waitForAck } from '../instantiate.js';
import { qualifiedName } from '../names.js';
import type { OutputFormat } from '../options.js';
import { formatData } from '../output.js';
import type { CliContext } from '../ports.js';
import { isTerminal, phaseOf } from '../../apps/index.js';

export interface LatestOptions {
  readonly name: string;
  /** Deploy the current template without resolving image triggers (`latest: false`). */
  readonly again: boolean;
  readonly dryRun: boolean;
  readonly output?: OutputFormat;
  /** How long to wait for the acknowledgement; 0 = do not wait. */
  readonly timeoutMs: number;
}

/** Runs the verb; returns the exit code. */
export async function rolloutLatest(ctx: CliContext, opts: LatestOptions): Promise<number> {
  const dc = await getDc(ctx, opts.name);
  if (dc.spec.paused) throw new CliError('cannot deploy a paused deployment config');
  const latest = dc.status?.latestVersion ?? 0;
  const rc = await findRc(ctx, rcNameFor(opts.name, latest));
  if (rc && !isTerminal(rc)) throw new CliError(`#${latest} is already in progress (${phaseOf(rc)}).`);

  if (opts.dryRun) {
    ctx.out.write(opts.output ? formatData({ apiVersion: ApiVersion, kind: Kind, ...dc }, opts.output) : `${qualifiedName(opts.name)} rolled out (dry run)\n`);
    return 0;
  }

  const id = ctx.newId();
  await fileRequest(ctx, opts.name, opts.timeoutMs, async (fresh) => {
    // Re-checked on the DC written over: a request handled while we waited may have started a
    // rollout, which is then in progress exactly as if this command had run a moment later.
    if (fresh.spec.paused) throw new CliError('cannot deploy a paused deployment config');
    const version = fresh.status?.latestVersion ?? 0;
    if (version !== latest) {
      const current = await findRc(ctx, rcNameFor(opts.name, version));
      if (!current || !isTerminal(current)) throw new CliError(`#${version} is already in progress (${current ? phaseOf(current) : 'New'}).`);
    }
    return instantiatePatch({ id, latest: !opts.again, force: true });
  });
  const result = await waitForAck(ctx, opts.name, id, opts.timeoutMs);
  if (!result) {
    if (opts.timeoutMs > 0) ctx.err.write(unacknowledgedNotice(opts.name, id, opts.timeoutMs));
    ctx.out.write(`${qualifiedName(opts.name)} rollout requested\n`);
    return 0;
  }
  const { ack } = result;
  if (ack.outcome !== 'Triggered') {
    throw new CliError(ack.message || `deployment config "${opts.name}" cannot be instantiated`);
  }
  ctx.out.write(opts.output ? formatData({ apiVersion: ApiVersion, kind: Kind, ...result.dc }, opts.output) : `${qualifiedName(opts.name)} rolled out\n`);
  return 0;
}
