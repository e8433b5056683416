/**
 * The acceptance check of Recreate rollouts and first Rolling rollouts (oc
 * `support/acceptor.go`, design.md §6.5).
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { isNotFound } from '../controller/errors.js';
import type { RcWatcher } from './ports.js';
import { WaitTimeoutError, WatchedObjectDeletedError } from './ports.js';
import { allReplicasAvailable } from './steps.js';
import { rcName, rcNamespace } from './util.js';

/** Decides whether a scaled RC is good enough to continue the rollout. */
export interface UpdateAcceptor {
  accept(rc: V1ReplicationController): Promise<void>;
}


/**
 * "All pods available": accepts once `status.availableReplicas == spec.replicas` (minReadySeconds
 * is honoured by the RC manager's own availability count). Watches the one RC until then; the RC
 * must keep its UID. Timeout → `pods for rc '<ns>/<rc>' took longer than <T> seconds to become
 * available`.
 */
export function acceptAvailablePods(watcher: RcWatcher, timeoutMs: number): UpdateAcceptor {
  return {
    async accept(rc) {
      if (allReplicasAvailable(rc)) return;
      const namespace = rcNamespace(rc);
      const name = rcName(rc);
      const uid = rc.metadata?.uid;
      try {
        await watcher.waitFor(
          namespace,
          name,
          (current) => {
            if (current.metadata?.uid !== uid) {
              throw new Error(
                `replicationcontrollers '${namespace}/${name}' no longer exists, expected UID "${uid ?? ''}", got UID "${current.metadata?.uid ?? ''}"`,
              );
            }
            return allReplicasAvailable(current);
          },
          timeoutMs,
          // Never decide on a state older than the RC we were handed (the scaled one).
          { notOlderThan: rc.metadata?.resourceVersion },
        );
      } catch (err) {
        if (err instanceof WaitTimeoutError) {
          throw new Error(
            `pods for rc '${namespace}/${name}' took longer than ${Math.round(timeoutMs / 1000)} seconds to become available`,
            { cause: err },
          );
        }
        if (isNotFound(err)) throw new Error(`replicationcontrollers '${namespace}/${name}' not found`, { cause: err });
        if (err instanceof WatchedObjectDeletedError) throw new Error(`replicationController ${namespace}/${name} got deleted`, { cause: err });
        throw err;
      }
    },
  };
}
