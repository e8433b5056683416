/**
 * `cancelRunningRollouts` (§4.4): before the RC of a new version is created, every older
 * non-terminal RC is marked cancelled, and the sync waits until they have all terminated.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, CancelledTrue, StatusReasons } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { RetriableError } from '../controller/errors.js';
import type { EventRecorder, Lister, ReplicationControllerClient } from '../controller/ports.js';
import type { RcControllerRefManager } from './claim.js';
import { isCancelled, isTerminal, labelFor } from '../apps/index.js';
import { retryOnConflict } from '../util/retry.js';

export interface CancelDeps {
  rcLister: Lister<V1ReplicationController>;
  rcClient: ReplicationControllerClient;
  recorder: EventRecorder;
  claims: RcControllerRefManager;
}

/**
 * Cancels in-flight rollouts; `existing` entries are replaced by the updated RCs. Throws the
 * update error (after a DeploymentCancellationFailed event) or, when anything is still in
 * flight, RetriableError "found previous inflight deployment for <ns>/<dc> - requeuing".
 */
export async function cancelRunningRollouts(
  deps: CancelDeps, dc: DeploymentConfig, existing: V1ReplicationController[],
): Promise<void> {
  const version = dc.status?.latestVersion ?? 0;
  let awaiting = false;
  for (let i = 0; i < existing.length; i++) {
    const deployment = existing[i]!;
    if (isTerminal(deployment)) continue;
    awaiting = true;
    if (isCancelled(deployment)) continue;

    const ns = deployment.metadata?.namespace ?? '';
    const name = deployment.metadata?.name ?? '';
    let updated: V1ReplicationController | undefined;
    try {
      await retryOnConflict(async () => {
        // Re-read from the cache on every attempt, as OpenShift does.
        const cached = deps.rcLister.get(ns, name);
        if (!cached) return;
        if (!(await deps.claims.claimOne(cached))) return;
        const copy = structuredClone(cached);
        copy.metadata ??= {};
        copy.metadata.annotations = {
          ...(copy.metadata.annotations ?? {}),
          [Annotations.Cancelled]: CancelledTrue,
          [Annotations.StatusReason]: StatusReasons.CancelledByNewer,
        };
        updated = await deps.rcClient.update(copy);
      });
    } catch (err) {
      deps.recorder.event(dc, 'Warning', 'DeploymentCancellationFailed',
        `Failed to cancel deployment "${name}" superceded by version ${version}: ${(err as Error).message}`);
      throw err;
    }
    if (updated) {
      existing[i] = updated;
      deps.recorder.event(dc, 'Normal', 'DeploymentCancelled', `Cancelled deployment "${name}" superceded by version ${version}`);
    }
  }
  if (awaiting) {
    deps.recorder.event(dc, 'Normal', 'DeploymentAwaitingCancellation',
      `Deployment of version ${version} awaiting cancellation of older running deployments`);
    throw new RetriableError(`found previous inflight deployment for ${labelFor(dc)} - requeuing`);
  }
}
