/** Pure formatting for `rollout history` (oc's DeploymentConfigHistoryViewer, design.md §9.4). */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../apis/constants.js';
import { byVersionAsc, phaseOf, versionOf } from '../apps/index.js';
import { tabwrite } from './tabwriter.js';

/** One history row, also the `-o json|yaml` shape. */
export interface HistoryEntry {
  readonly revision: number;
  readonly status: string;
  readonly cause: string;
  readonly replicationController: string;
}

/** Rows sorted by revision ascending; a missing status-reason reads `<unknown>`. */
export function historyEntries(rcs: readonly V1ReplicationController[]): HistoryEntry[] {
  return byVersionAsc(rcs).map((rc) => ({
    revision: versionOf(rc),
    status: phaseOf(rc),
    cause: rc.metadata?.annotations?.[Annotations.StatusReason] || '<unknown>',
    replicationController: rc.metadata?.name ?? '',
  }));
}

/** The `REVISION STATUS CAUSE` table, tab-padded exactly as oc's tabwriter does. */
export function formatHistoryTable(entries: readonly HistoryEntry[]): string {
  const raw = ['REVISION\tSTATUS\tCAUSE', ...entries.map((e) => `${e.revision}\t${e.status}\t${e.cause}`)].join('\n');
  return `${tabwrite(raw, { padding: 1, padChar: '\t' })}\n`;
}
