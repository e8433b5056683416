/**
 * The rolling updater: kubectl's old `rolling-update` algorithm as vendored by oc
 * (`strategy/rolling/rolling_updater.go`, design.md §6.4). Moves replicas from an old
 * RC to a new one within the surge/unavailability fenceposts.
 */
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../apis/constants.js';
import type { IntOrString } from '../apis/deploymentconfig.js';
import { resolveFenceposts } from '../util/intstr.js';
import { selectorString } from '../apps/index.js';
import { formatGoMap } from '../util/go-format.js';
import { retryOnConflict } from '../util/retry.js';
import type { DeployerDeps } from './ports.js';
import { scaleWithScaler } from './scaler.js';
import { rcName, rcNamespace, specReplicas } from './util.js';

/** Configuration of one rolling update (kubectl `RollingUpdaterConfig`). */
export interface RollingUpdaterConfig {
  /** Receives one call per progress line (no trailing newline handling needed). */
  readonly out: (line: string) => void;
  readonly oldRc: V1ReplicationController;
  readonly newRc: V1ReplicationController;
  readonly updatePeriodMs: number;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly minReadySeconds: number;
  readonly maxSurge?: IntOrString;
  readonly maxUnavailable?: IntOrString;
  /** Called after each scale step with a synthetic percentage; throwing stops the update. */
  readonly onProgress?: (oldRc: V1ReplicationController, newRc: V1ReplicationController, percentage: number) => void;
}

/** The arithmetic state of the loop; exported for table tests. */
export interface Fenceposts {
  readonly desired: number;
  readonly maxSurge: number;
  readonly maxUnavailable: number;
  readonly minAvailable: number;
}

/**
 * Steps 5 of the algorithm: surge rounds up, unavailable rounds down, both 0 → unavailable 1;
 * `minAvailable = max(0, desired − maxUnavailable)`; desired 0 means "everything may go"
 * (maxUnavailable = old replicas, minAvailable = 0).
 */
export function computeFenceposts(
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
  desired: number,
  oldReplicas: number,
): Fenceposts {
  const { surge, unavailable } = resolveFenceposts(maxSurge, maxUnavailable, desired);
  if (desired > 0 && surge === 0 && unavailable === 0) throw new Error('one of maxSurge or maxUnavailable must be specified');
  if (desired === 0) return { desired, maxSurge: surge, maxUnavailable: oldReplicas, minAvailable: 0 };
  return { desired, maxSurge: surge, maxUnavailable: unavailable, minAvailable: Math.max(0, desired - unavailable) };
}

/** `scaleUp` arithmetic: the new replica count, or undefined when no scale-up is possible. */
export function scaleUpTarget(f: Fenceposts, oldReplicas: number, newReplicas: number): number | undefined {
  if (newReplicas === f.desired) return undefined;
  // Once the old RC is gone, go all the way.
  const increment = oldReplicas === 0 ? f.desired - newReplicas : f.desired + f.maxSurge - (oldReplicas + newReplicas);
  if (increment <= 0) return undefined;
  return Math.min(newReplicas + increment, f.desired);
}

/**
 * `scaleDown` arithmetic: the old replica count, or undefined when scaling down would break
 * `minAvailable`. The old RC's replicas count as available (old pod readiness is never looked
 * at), the new RC's unavailable pods do not.
 */
export function scaleDownTarget(f: Fenceposts, oldReplicas: number, newReplicas: number, newAvailable: number): number | undefined {
  if (oldReplicas === 0) return undefined;
  const decrement = oldReplicas + newReplicas - f.minAvailable - (newReplicas - newAvailable);
  if (decrement <= 0) return undefined;
  let target = Math.max(0, oldReplicas - decrement);
  if (newReplicas === f.desired && newAvailable === f.desired) target = 0;
  return target;
}

const toDate = (t: Date | string | undefined): Date | undefined => (t === undefined ? undefined : new Date(t));

/**
 * `podutils.IsPodAvailable`: Ready, and (with minReadySeconds) Ready since strictly more than
 * minReadySeconds ago.
 */
export function isPodAvailable(pod: V1Pod, minReadySeconds: number, now: Date): boolean {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') return false;
  if (minReadySeconds === 0) return true;
  const since = toDate(ready.lastTransitionTime as Date | string | undefined);
  return since !== undefined && since.getTime() > 0 && since.getTime() + minReadySeconds * 1000 < now.getTime();
}

/** Runs the rolling update. Errors are plain Errors carrying OpenShift's messages. */
export class RollingUpdater {
  constructor(private readonly deps: DeployerDeps, private readonly namespace: string) {}

  /**
   * `RollingUpdater.Update`:
   * 1. validate the new RC's source-id and desired-replicas annotations;
   * 2. record `original-replicas` on the old RC;
   * 3. loop: scale up within maxSurge, report progress, sleep UpdatePeriod, scale down within
   *    minAvailable, report progress; the progress deadline moves whenever a count changed;
   * 4. report 100%, remove the update annotations, wait for the new RC to settle.
   */
  async update(config: RollingUpdaterConfig): Promise<void> {
    const { deps } = this;
    const out = config.out;
    let oldRc = structuredClone(config.oldRc);
    const scaleParams = { intervalMs: config.intervalMs, timeoutMs: config.timeoutMs };

    const sourceId = `${rcName(oldRc)}:${oldRc.metadata?.uid ?? ''}`;
    let newRc = await deps.rcs.get(rcNamespace(config.newRc) || this.namespace, rcName(config.newRc));
    const annotations = newRc.metadata?.annotations ?? {};
    if (annotations[Annotations.UpdateSourceId] !== sourceId || !(Annotations.DesiredReplicas in annotations)) {
      throw new Error(`missing/unexpected annotations for controller ${rcName(config.newRc)}, expected ${sourceId} : ${formatGoMap(annotations)}`);
    }
    // Printed by kubectl; the deployer's writer filters it out, kept for fidelity of the stream.
    out(`Continuing update with existing controller ${rcName(newRc)}.`);

    const rawDesired = annotations[Annotations.DesiredReplicas] ?? '';
    if (!/^[+-]?[0-9]+$/.test(rawDesired)) {
      throw new Error(`unable to parse annotation for ${rcName(newRc)}: ${Annotations.DesiredReplicas}=${rawDesired}`);
    }
    const desired = Number.parseInt(rawDesired, 10);

    if (!(Annotations.OriginalReplicas in (oldRc.metadata?.annotations ?? {}))) {
      const existing = await deps.rcs.get(rcNamespace(oldRc), rcName(oldRc));
      if (existing.spec?.replicas !== undefined) {
        const original = String(existing.spec.replicas);
        oldRc = await this.updateWithRetries(existing, (rc) => {
          rc.metadata ??= {};
          rc.metadata.annotations = { ...(rc.metadata.annotations ?? {}), [Annotations.OriginalReplicas]: original };
        });
      }
    }

    let oldReplicas = specReplicas(oldRc);
    let newReplicas = specReplicas(newRc);
    const f = computeFenceposts(config.maxSurge, config.maxUnavailable, desired, oldReplicas);
    out(
      `Scaling up ${rcName(newRc)} from ${newReplicas} to ${desired}, scaling down ${rcName(oldRc)} from ${oldReplicas} to 0 ` +
        `(keep ${f.minAvailable} pods available, don't exceed ${desired + f.maxSurge} pods)`,
    );

    const goal = Math.abs(desired - newReplicas);
    const progress = (complete: boolean): void => {
      if (!config.onProgress) return;
      const remaining = Math.abs(desired - newReplicas);
      const percentage = !complete && goal > 0 ? Math.trunc(((goal - remaining) * 100) / goal) : 100;
      config.onProgress(oldRc, newRc, percentage);
    };

    let progressDeadline = deps.clock.now().getTime() + config.timeoutMs;
    while (newReplicas !== desired || oldReplicas !== 0) {
      const newBefore = newReplicas;
      const oldBefore = oldReplicas;

      const up = scaleUpTarget(f, oldReplicas, newReplicas);
      if (up !== undefined) {
        out(`Scaling ${rcName(newRc)} up to ${up}`);
        newRc = await this.scaleAndWait(newRc, up, scaleParams);
        newReplicas = specReplicas(newRc);
      }
      progress(false);

      await deps.clock.sleep(config.updatePeriodMs);

      if (oldReplicas !== 0) {
        const newAvailable = await this.newAvailable(newRc, config.minReadySeconds, config.timeoutMs);
        const down = scaleDownTarget(f, oldReplicas, newReplicas, newAvailable);
        if (down !== undefined) {
          out(`Scaling ${rcName(oldRc)} down to ${down}`);
          oldRc = await this.scaleAndWait(oldRc, down, scaleParams);
          oldReplicas = specReplicas(oldRc);
        }
      }
      progress(false);

      if (newReplicas !== newBefore || oldReplicas !== oldBefore) {
        progressDeadline = deps.clock.now().getTime() + config.timeoutMs;
      } else if (deps.clock.now().getTime() > progressDeadline) {
        throw new Error('timed out waiting for any update progress to be made');
      }
    }

    progress(true);
    await this.cleanup(newRc, config);
  }

  /** Scales through the scale subresource (kubectl Scaler) and returns the RC once synced. */
  private async scaleAndWait(
    rc: V1ReplicationController,
    replicas: number,
    params: { intervalMs: number; timeoutMs: number },
  ): Promise<V1ReplicationController> {
    // The state the wait ended on is as fresh as a GET right after it (kubectl GETs here).
    return scaleWithScaler(this.deps, rcNamespace(rc), rcName(rc), replicas, params, params);
  }

  /**
   * Available pods of the NEW RC, not being deleted, counted with minReadySeconds. The pods come
   * from the pod watcher's current state (one list+watch of the selector for the whole update)
   * rather than a LIST per round; a watch that lags can only under-count available pods, which
   * delays a scale-down, never breaks minAvailable.
   */
  private async newAvailable(newRc: V1ReplicationController, minReadySeconds: number, timeoutMs: number): Promise<number> {
    const pods = await this.deps.podWatcher.waitForPods(rcNamespace(newRc), selectorString(newRc.spec?.selector), () => true, timeoutMs);
    const now = this.deps.clock.now();
    return pods.filter((p) => !p.metadata?.deletionTimestamp && isPodAvailable(p, minReadySeconds, now)).length;
  }

  /** `updateRcWithRetries`: read-modify-write with conflict retries (DefaultBackoff). */
  private async updateWithRetries(
    rc: V1ReplicationController,
    mutate: (rc: V1ReplicationController) => void,
  ): Promise<V1ReplicationController> {
    let current = structuredClone(rc);
    return retryOnConflict(async () => {
      mutate(current);
      try {
        return await this.deps.rcs.update(current);
      } catch (err) {
        try {
          current = await this.deps.rcs.get(rcNamespace(rc), rcName(rc));
        } catch {
          current = structuredClone(rc);
        }
        throw err;
      }
    });
  }

  /**
   * `cleanupWithClients` with the Preserve policy: drop the update-source-id and desired-replicas
   * annotations from the new RC, then wait until the RC manager observed it and
   * `status.replicas == spec.replicas`. The old RC is kept at 0.
   */
  private async cleanup(newRc: V1ReplicationController, config: RollingUpdaterConfig): Promise<void> {
    const fresh = await this.deps.rcs.get(rcNamespace(newRc), rcName(newRc));
    const updated = await this.updateWithRetries(fresh, (rc) => {
      const a = { ...(rc.metadata?.annotations ?? {}) };
      delete a[Annotations.UpdateSourceId];
      delete a[Annotations.DesiredReplicas];
      rc.metadata = { ...(rc.metadata ?? {}), annotations: a };
    });
    const generation = updated.metadata?.generation ?? 0;
    await this.deps.rcWatcher.waitFor(
      rcNamespace(updated),
      rcName(updated),
      (rc) => (rc.status?.observedGeneration ?? 0) >= generation && (rc.status?.replicas ?? 0) === specReplicas(rc),
      config.timeoutMs,
      { recheckMs: config.intervalMs, notOlderThan: updated.metadata?.resourceVersion },
    );
  }
}
