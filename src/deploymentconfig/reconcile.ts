/**
 * `reconcileDeployments` (§4.7): once the latest rollout is terminal, the active (last Complete)
 * RC follows `spec.replicas` and every other RC is scaled to 0 — the automatic fall-back after a
 * failed or cancelled rollout.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { RetriableError } from '../controller/errors.js';
import type { Clock, DeploymentConfigClient, EventRecorder, Lister, ReplicationControllerClient } from '../controller/ports.js';
import type { RcControllerRefManager } from './claim.js';
import { cleanupOldDeployments } from './cleanup.js';
import { updateStatus } from './status.js';
import { activeDeployment } from '../apps/index.js';
import { retryOnConflict } from '../util/retry.js';

export interface ReconcileDeps {
  rcLister: Lister<V1ReplicationController>;
  rcClient: ReplicationControllerClient;
  dcClient: DeploymentConfigClient;
  recorder: EventRecorder;
  clock: Clock;
  claims: RcControllerRefManager;
}

/** Target replicas of each owned RC: spec.replicas for the active one, 0 otherwise (all 0 in test mode). */
export function desiredReplicas(dc: DeploymentConfig, rc: V1ReplicationController, active: V1ReplicationController | undefined): number {
  if (dc.spec.test) return 0;
  return active !== undefined && rc.metadata?.name === active.metadata?.name ? (dc.spec.replicas ?? 0) : 0;
}

/**
 * Scales RCs with a plain Update of spec.replicas (conflicts retried with the RC re-read from the
 * cache), prunes history and writes the status. The first scale failure stops the pass.
 */
export async function reconcileDeployments(
  deps: ReconcileDeps, dc: DeploymentConfig, existing: readonly V1ReplicationController[],
): Promise<void> {
  const active = activeDeployment(existing);
  const updated: V1ReplicationController[] = [];
  for (const deployment of existing) {
    const name = deployment.metadata?.name ?? '';
    const ns = deployment.metadata?.namespace ?? '';
    const from = deployment.spec?.replicas ?? 0;
    const to = desiredReplicas(dc, deployment, active);
    if (from === to) {
      updated.push(deployment);
      continue;
    }
    let copy: V1ReplicationController | undefined;
    try {
      copy = await retryOnConflict(async () => {
        const rc = deps.rcLister.get(ns, name);
        if (!rc) throw new RetriableError(`replicationcontroller "${name}" not found in cache`);
        let ours: boolean;
        try {
          ours = await deps.claims.claimOne(rc);
        } catch (err) {
          throw new RetriableError(
            `error while deploymentConfigController claiming the replication controller ${ns}/${name}: ${(err as Error).message}`,
            { cause: err },
          );
        }
        if (!ours) {
          throw new RetriableError(`deployment config ${dc.metadata.namespace ?? ''}/${dc.metadata.name ?? ''} (${dc.metadata.uid ?? ''}) no longer owns replication controller ${ns}/${name} (${deployment.metadata?.uid ?? ''})`);
        }
        const next = structuredClone(rc);
        next.spec = { ...(next.spec ?? {}), replicas: to };
        return deps.rcClient.update(next);
      });
    } catch (err) {
      deps.recorder.event(dc, 'Warning', 'ReplicationControllerScaleFailed',
        `Failed to scale replication controler "${name}" from ${from} to ${to}: ${(err as Error).message}`);
      throw err;
    }
    deps.recorder.event(dc, 'Normal', 'ReplicationControllerScaled', `Scaled replication controller "${name}" from ${from} to ${to}`);
    updated.push(copy);
  }

  try {
    await cleanupOldDeployments(deps, dc, updated);
  } catch (err) {
    deps.recorder.event(dc, 'Warning', 'ReplicationControllerCleanupFailed', `Couldn't clean up replication controllers: ${(err as Error).message}`);
  }
  await updateStatus(deps, dc, updated, true);
}
