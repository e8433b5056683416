/**
 * `cleanupOldDeployments` (§4.8): revision history pruning.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { isNotFound } from '../controller/errors.js';
import type { ReplicationControllerClient } from '../controller/ports.js';
import { aggregateMessage } from '../util/error-message.js';
import { deploymentsForCleanup } from '../apps/index.js';

/** Aggregated delete failures of one cleanup pass. */
export class CleanupError extends Error {
  override readonly name = 'CleanupError';
  constructor(readonly errors: readonly unknown[]) {
    super(aggregateMessage(errors));
  }
}

/**
 * Deletes (Background propagation) the oldest surplus RCs beyond `revisionHistoryLimit`. RCs that
 * still have replicas are skipped but keep counting against the limit. NotFound is ignored; other
 * failures are collected and thrown together after every candidate was tried.
 */
export async function cleanupOldDeployments(
  deps: { rcClient: ReplicationControllerClient },
  dc: DeploymentConfig,
  existing: readonly V1ReplicationController[],
): Promise<void> {
  const limit = dc.spec.revisionHistoryLimit;
  if (limit === undefined || limit === null) return;
  const prunable = deploymentsForCleanup(dc, existing);
  if (prunable.length <= limit) return;
  const errors: unknown[] = [];
  for (let i = 0; i < prunable.length - limit; i++) {
    const rc = prunable[i]!;
    if ((rc.spec?.replicas ?? 0) !== 0) continue;
    try {
      await deps.rcClient.delete(rc.metadata?.namespace ?? '', rc.metadata?.name ?? '', 'Background');
    } catch (err) {
      if (!isNotFound(err)) errors.push(err);
    }
  }
  if (errors.length > 0) throw new CleanupError(errors);
}
