/**
 * The rolling updater: kubectl's old `rolling-update` algorithm as vendored by oc
 * (`strategy/rolling/rolling_updater.go`, design.md §6.4). Moves replicas from an old
 * RC to a new one within the surge/unavailability fenceposts.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../apis/constants.js';
import type { IntOrString } from '../apis/deploymentconfig.js';
import { resolveFenceposts } from '../util/intstr.js';
import { formatGoMap } from '../util/go-format.js';
import type { DeployerDeps } from './ports.js';
import { WaitTimeoutError } from './ports.js';
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
  readonly maxSurge?: IntOrString;
  readonly maxUnavailable?: IntOrString;
  /**
   * Annotations the caller wants on the NEW RC (the update-source-id it marks it with), written
   * in the updater's first write to it instead of a write of their own; the RC as handed in is
   * checked as if they were already there.
   */
  readonly newRcAnnotations?: Record<string, string>;
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

/** Runs the rolling update. Errors are plain Errors carrying OpenShift's messages. */
export class RollingUpdater {
  constructor(private readonly deps: DeployerDeps, private readonly namespace: string) {}

  /**
   * `RollingUpdater.Update`:
   * 1. validate the new RC's source-id and desired-replicas annotations;
   * 2. record `original-replicas` on the old RC (in its first scale-down's patch);
   * 3. loop: scale up within maxSurge, report progress, let UpdatePeriod pass since the last
   *    scaling step, scale down within minAvailable, report progress; the progress deadline moves
   *    whenever a count changed;
   * 4. report 100%, remove the update annotations, wait for the new RC to settle.
   *
   * Where kubectl sleeps whole periods and looks again, this waits on the watch: when nothing can
   * be scaled until more new pods are available, it scales down as soon as the new RC reports them
   * (still at least UpdatePeriod after the last step), instead of up to a period later; and the
   * period runs from the scale-up's write, not from the end of its wait for the RC manager. The
   * steps and their order are kubectl's (design.md §6.4).
   */
  async update(config: RollingUpdaterConfig): Promise<void> {
    const { deps } = this;
    const out = config.out;
    let oldRc = structuredClone(config.oldRc);
    const scaleParams = { intervalMs: config.intervalMs, timeoutMs: config.timeoutMs };

    const sourceId = `${rcName(oldRc)}:${oldRc.metadata?.uid ?? ''}`;
    // The RC as the run's watch sees it now, no older than the one we were handed (no GET).
    let newRc = await this.current(config.newRc, config.timeoutMs);
    // What the caller asked to write with our first write to the new RC.
    let pendingNew: Record<string, string> | undefined = config.newRcAnnotations;
    const annotations = { ...newRc.metadata?.annotations, ...pendingNew };
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

    // Recorded with the old RC's first scale-down (only that step changes what it records).
    let pendingOld: Record<string, string> | undefined;
    if (!(Annotations.OriginalReplicas in (oldRc.metadata?.annotations ?? {}))) {
      const existing = await this.current(oldRc, config.timeoutMs);
      oldRc = existing;
      if (existing.spec?.replicas !== undefined) pendingOld = { [Annotations.OriginalReplicas]: String(existing.spec.replicas) };
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

    // Periods and the progress deadline are elapsed time (Go's monotonic time.Now in kubectl).
    const now = (): number => deps.clock.monotonicMs();
    let progressDeadline = now() + config.timeoutMs;
    /** When the last scaling step was written; undefined before the first. */
    let lastScaleAt: number | undefined;
    while (newReplicas !== desired || oldReplicas !== 0) {
      const newBefore = newReplicas;
      const oldBefore = oldReplicas;
      const roundStart = now();

      const up = scaleUpTarget(f, oldReplicas, newReplicas);
      if (up !== undefined) {
        out(`Scaling ${rcName(newRc)} up to ${up}`);
        lastScaleAt = now();
        newRc = await this.scaleAndWait(newRc, up, scaleParams, pendingNew);
        pendingNew = undefined;
        newReplicas = specReplicas(newRc);
      }
      progress(false);

      // UpdatePeriod between the last step's write (this round's scale-up, else the last
      // scale-down; the round's start before any) and the scale-down.
      const periodEnd = (lastScaleAt ?? roundStart) + config.updatePeriodMs;
      if (periodEnd > now()) await deps.clock.sleep(periodEnd - now());

      if (oldReplicas !== 0) {
        let newAvailable = await this.newAvailable(newRc, config.timeoutMs);
        let down = scaleDownTarget(f, oldReplicas, newReplicas, newAvailable);
        if (down === undefined) {
          // Nothing can be scaled up either (this round did, or there is no room): only more
          // available new pods let the update move. Wait for the new RC to report them (kubectl
          // sleeps another period and looks again), up to the progress deadline.
          const current = await this.awaitAvailable(newRc, (available) => scaleDownTarget(f, oldReplicas, newReplicas, available) !== undefined,
            progressDeadline - now(), config.intervalMs);
          newAvailable = Math.min(current.status?.availableReplicas ?? 0, specReplicas(current));
          down = scaleDownTarget(f, oldReplicas, newReplicas, newAvailable);
        }
        if (down !== undefined) {
          out(`Scaling ${rcName(oldRc)} down to ${down}`);
          lastScaleAt = now();
          oldRc = await this.scaleAndWait(oldRc, down, scaleParams, pendingOld);
          pendingOld = undefined;
          oldReplicas = specReplicas(oldRc);
        }
      }
      progress(false);

      if (newReplicas !== newBefore || oldReplicas !== oldBefore) {
        progressDeadline = now() + config.timeoutMs;
      } else if (now() > progressDeadline) {
        throw new Error('timed out waiting for any update progress to be made');
      }
    }

    progress(true);
    await this.cleanup(newRc, config);
  }

  /** Scales (kubectl Scaler), with `annotations` in the same patch, and returns the RC once synced. */
  private async scaleAndWait(
    rc: V1ReplicationController,
    replicas: number,
    params: { intervalMs: number; timeoutMs: number },
    annotations?: Record<string, string>,
  ): Promise<V1ReplicationController> {
    // The state the wait ended on is as fresh as a GET right after it (kubectl GETs here).
    return scaleWithScaler(this.deps, rcNamespace(rc), rcName(rc), replicas, params, params, annotations);
  }

  /**
   * The new RC once `enough(available)` holds for its available replicas, from the run's watch
   * (re-read at least every `intervalMs`); after `timeoutMs` without, the update has made no
   * progress for timeoutSeconds: kubectl's error.
   */
  private async awaitAvailable(
    newRc: V1ReplicationController,
    enough: (available: number) => boolean,
    timeoutMs: number,
    intervalMs: number,
  ): Promise<V1ReplicationController> {
    try {
      return await this.deps.rcWatcher.waitFor(
        rcNamespace(newRc) || this.namespace,
        rcName(newRc),
        (rc) => enough(Math.min(rc.status?.availableReplicas ?? 0, specReplicas(rc))),
        Math.max(timeoutMs, 0),
        { recheckMs: intervalMs, notOlderThan: newRc.metadata?.resourceVersion },
      );
    } catch (err) {
      if (err instanceof WaitTimeoutError) throw new Error('timed out waiting for any update progress to be made', { cause: err });
      throw err;
    }
  }

  /**
   * Available replicas of the NEW RC: its `status.availableReplicas`, which the RC manager counts
   * as the updater did (Ready pods not being deleted, for the RC's minReadySeconds, the DC's),
   * from the run's watch of the RC rather than a list and watch of its pods. A status that lags
   * can only under-count, which delays a scale-down, never breaks minAvailable.
   */
  private async newAvailable(newRc: V1ReplicationController, timeoutMs: number): Promise<number> {
    const current = await this.current(newRc, timeoutMs);
    return Math.min(current.status?.availableReplicas ?? 0, specReplicas(current));
  }

  /** `rc` as the run's watch last saw it, no older than `rc` itself. */
  private current(rc: V1ReplicationController, timeoutMs: number): Promise<V1ReplicationController> {
    return this.deps.rcWatcher.waitFor(rcNamespace(rc) || this.namespace, rcName(rc), () => true, timeoutMs, { notOlderThan: rc.metadata?.resourceVersion });
  }

  /** Sets (a string) or removes (null) annotations by a merge patch. */
  private patchAnnotations(rc: V1ReplicationController, annotations: Record<string, string | null>): Promise<V1ReplicationController> {
    return this.deps.rcs.patch(rcNamespace(rc) || this.namespace, rcName(rc), { metadata: { annotations } }, 'merge');
  }

  /**
   * `cleanupWithClients` with the Preserve policy: drop the update-source-id and desired-replicas
   * annotations from the new RC, then wait until the RC manager observed it and
   * `status.replicas == spec.replicas`. The old RC is kept at 0.
   */
  private async cleanup(newRc: V1ReplicationController, config: RollingUpdaterConfig): Promise<void> {
    const updated = await this.patchAnnotations(newRc, { [Annotations.UpdateSourceId]: null, [Annotations.DesiredReplicas]: null });
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
