/**
 * Scaling ReplicationControllers, in the two flavours the deployer uses; they differ on purpose (design.md §6.3, §6.4):
 *
 * - `recreateScaleAndWait` (Recreate strategy, first rollouts): treats "status already at the
 *   target" as done, retries admission warm-up errors, and IGNORES the outcome of its wait.
 * Both write `spec.replicas` by a merge patch of the RC (OpenShift GETs and UPDATEs the scale
 * subresource: two requests, and a conflict whenever the RC manager wrote the status in
 * between), and read the RC's state from the run's watch of it, never by a GET.
 * - `scaleWithScaler` (kubectl `Scaler.Scale`: rolling updater, scaling down older RCs): retries
 *   only conflicts, and fails with `timed out waiting for "<rc>" to be synced`.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { isConflict, isForbidden } from '../controller/errors.js';
import type { DeployerDeps, DeployerClock } from './ports.js';
import { WaitTimeoutError } from './ports.js';
import { rcName, rcNamespace, specReplicas, statusReplicas } from './util.js';

/** Interval and timeout of a retry or a wait (kubectl `RetryParams`). */
export interface RetryParams {
  readonly intervalMs: number;
  readonly timeoutMs: number;
}

/**
 * `wait.PollImmediate`: runs `condition` now and then every `intervalMs` until it returns true;
 * WaitTimeoutError once `timeoutMs` has passed. Used only for RETRIES of writes; waiting for
 * state goes through the watchers.
 */
export async function pollImmediate(
  clock: DeployerClock,
  intervalMs: number,
  timeoutMs: number,
  condition: () => Promise<boolean>,
): Promise<void> {
  const deadline = clock.monotonicMs() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    const left = deadline - clock.monotonicMs();
    if (left <= 0) throw new WaitTimeoutError();
    await clock.sleep(Math.min(intervalMs, left));
  }
}

/**
 * An admission plugin whose caches are not warm yet answers Forbidden with this text; OpenShift
 * retries it (oc 525897c19). The API gives no reason code for it, hence the text match.
 */
export function isAdmissionNotReady(err: unknown): boolean {
  return isForbidden(err) && err instanceof Error && err.message.includes('not yet ready to handle request');
}

/**
 * The Recreate strategy's `scaleAndWait`:
 * 1. If `spec.replicas` and `status.replicas` already equal `replicas`, return `rc` as is.
 * 2. If the RC's latest observed `status.replicas` already equals `replicas` it counts as scaled
 *    (OpenShift reads the scale for this), else merge-patch `spec.replicas`, every second up to `timeoutMs` while admission is warming up; other errors abort.
 * 3. Unless already scaled, wait (watch) up to `timeoutMs` for `status.replicas == replicas`.
 *    The outcome is ignored, as in OpenShift: the acceptance check catches a slow scale-up.
 * 4. Return the RC as last observed (no older than the write).
 * The state comes from the run's watch of the RC, never from a GET.
 */
export async function recreateScaleAndWait(
  deps: DeployerDeps,
  rc: V1ReplicationController,
  replicas: number,
  timeoutMs: number,
): Promise<V1ReplicationController> {
  if (rc.spec?.replicas === replicas && statusReplicas(rc) === replicas) return rc;
  const namespace = rcNamespace(rc);
  const name = rcName(rc);
  const latest = await currentState(deps, namespace, name, timeoutMs);
  const alreadyScaled = statusReplicas(latest) === replicas;
  let written: string | undefined;
  if (!alreadyScaled) {
    await pollImmediate(deps.clock, 1000, timeoutMs, async () => {
      try {
        written = (await patchReplicas(deps, namespace, name, replicas)).metadata?.resourceVersion;
        return true;
      } catch (err) {
        if (isAdmissionNotReady(err)) return false;
        throw err;
      }
    });
    try {
      return await deps.rcWatcher.waitFor(namespace, name, (r) => statusReplicas(r) === replicas, timeoutMs, { recheckMs: 1000, notOlderThan: written });
    } catch {
      // Deliberately ignored (design.md §10.1 item 4).
    }
  }
  return currentState(deps, namespace, name, timeoutMs, written);
}

/**
 * Sets `spec.replicas` by a merge patch (kubectl's Scaler without precondition patches too),
 * with `annotations` in the same patch: the rolling updater's own bookkeeping on that RC, which
 * would otherwise cost a write of its own (and a sync of the RC manager) just before.
 */
function patchReplicas(
  deps: DeployerDeps,
  namespace: string,
  name: string,
  replicas: number,
  annotations?: Record<string, string | null>,
): Promise<V1ReplicationController> {
  const body = annotations && Object.keys(annotations).length > 0 ? { metadata: { annotations }, spec: { replicas } } : { spec: { replicas } };
  return deps.rcs.patch(namespace, name, body, 'merge');
}

/** The RC as the run's watch last saw it (no older than `notOlderThan`). */
function currentState(deps: DeployerDeps, namespace: string, name: string, timeoutMs: number, notOlderThan?: string): Promise<V1ReplicationController> {
  return deps.rcWatcher.waitFor(namespace, name, () => true, timeoutMs, { notOlderThan });
}

/**
 * kubectl `Scaler.Scale` with no precondition:
 * 1. Merge-patch `spec.replicas` (kubectl `ScaleSimple` without precondition patches), with the
 *    caller's `annotations` in the same patch; a Conflict is retried every `retry.intervalMs` up
 *    to `retry.timeoutMs` (then `timed out waiting for the condition`); other errors abort.
 * 2. Wait (watch, re-checking at least every `wait.intervalMs`) up to `wait.timeoutMs` until
 *    `spec.replicas == status.replicas == replicas`, or until someone else changed
 *    `spec.replicas` (counts as done), and return the RC as observed then.
 *    Timeout → `timed out waiting for "<rc>" to be synced`.
 */
export async function scaleWithScaler(
  deps: DeployerDeps,
  namespace: string,
  name: string,
  replicas: number,
  retry: RetryParams,
  wait: RetryParams,
  annotations?: Record<string, string | null>,
): Promise<V1ReplicationController> {
  let written: string | undefined;
  await pollImmediate(deps.clock, retry.intervalMs, retry.timeoutMs, async () => {
    try {
      written = (await patchReplicas(deps, namespace, name, replicas, annotations)).metadata?.resourceVersion;
      return true;
    } catch (err) {
      if (isConflict(err)) return false;
      throw err;
    }
  });
  try {
    return await deps.rcWatcher.waitFor(
      namespace,
      name,
      (rc) => specReplicas(rc) !== replicas || statusReplicas(rc) === replicas,
      wait.timeoutMs,
      { recheckMs: wait.intervalMs, notOlderThan: written },
    );
  } catch (err) {
    if (err instanceof WaitTimeoutError) throw new Error(`timed out waiting for "${name}" to be synced`, { cause: err });
    throw err;
  }
}
