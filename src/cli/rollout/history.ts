/**
 * `rollout history [--revision N]` (design.md §9.4): a table of the DC's RCs, or the pod template
 * of one revision. Output mirrors kubectl's: `<resource>/<name>` then the viewer's text.
 */
import { getDc } from '../common.js';
import { describePodTemplate } from '../describe.js';
import { CliError } from '../errors.js';
import { formatHistoryTable, historyEntries } from '../history.js';
import { qualifiedName } from '../names.js';
import type { OutputFormat } from '../options.js';
import { formatData } from '../output.js';
import type { CliContext } from '../ports.js';
import { configSelector, selectorString, versionOf } from '../../apps/index.js';

export interface HistoryOptions {
  readonly name: string;
  /** 0 = the whole table. */
  readonly revision: number;
  readonly output?: OutputFormat;
}

/** Runs the verb; returns the exit code. */
export async function rolloutHistory(ctx: CliContext, opts: HistoryOptions): Promise<number> {
  await getDc(ctx, opts.name);
  const rcs = await ctx.rcs.list(ctx.namespace, selectorString(configSelector(opts.name)));
  if (opts.revision > 0) {
    const rc = rcs.find((r) => versionOf(r) === opts.revision);
    if (!rc) throw new CliError('unable to find the specified revision');
    ctx.out.write(opts.output
      ? formatData(rc.spec?.template ?? {}, opts.output)
      : `${qualifiedName(opts.name)} with revision #${opts.revision}\n${describePodTemplate(rc.spec?.template)}`);
    return 0;
  }
  const entries = historyEntries(rcs);
  if (opts.output) {
    ctx.out.write(formatData(entries, opts.output));
    return 0;
  }
  ctx.out.write(`${qualifiedName(opts.name)}\n${entries.length === 0 ? 'No rollout history found.\n' : formatHistoryTable(entries)}`);
  return 0;
}
