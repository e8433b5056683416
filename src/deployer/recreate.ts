/**
 * The Recreate strategy (oc `strategy/recreate/recreate.go`, design.md §6.3). Also the
 * delegate of the Rolling strategy for first rollouts.
 */
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Defaults, HookSuffix } from '../apis/constants.js';
import { decodeDeploymentConfig } from '../apis/encoded.js';
import { applyDefaults, selectorString } from '../apps/index.js';
import { errorMessage } from '../util/error-message.js';
import type { UpdateAcceptor } from './acceptor.js';
import { acceptAvailablePods } from './acceptor.js';
import { recreateScaleAndWait } from './scaler.js';
import type { DeploymentStrategy, StrategyContext } from './strategy.js';
import { ConditionReachedError, percentageBetween, rcName, rcNamespace } from './util.js';

/** `hasRunningPod`: Pending, Running and Unknown (node unreachable) pods count as running. */
export function hasRunningPod(pods: V1Pod[]): boolean {
  return pods.some((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
}

/** The Recreate strategy, with the acceptor injectable for first Rolling rollouts. */
export class RecreateStrategy implements DeploymentStrategy {
  constructor(private readonly ctx: StrategyContext) {}

  deploy(from: V1ReplicationController | undefined, to: V1ReplicationController, desiredReplicas: number): Promise<void> {
    return this.deployWithAcceptor(from, to, desiredReplicas, undefined);
  }

  /**
   * `DeployWithAcceptor`:
   * 1. pre hook; `--until=pre`;
   * 2. scale `from` to 0 and wait for its pods to terminate (a timeout only warns); `--until=0%`;
   * 3. mid hook; `--until=mid`;
   * 4. if desired > 0: with a previous RC scale `to` to 1 and run the acceptor (`--until=1..99%`),
   *    scale to desired, run the acceptor if not yet run;
   * 5. `--until=N%` (first rollout) / `100%`; post hook.
   * Warning events of both RCs are forwarded to the DC at the end, whatever the outcome, once
   * step 1 has passed.
   */
  async deployWithAcceptor(
    from: V1ReplicationController | undefined,
    to: V1ReplicationController,
    desiredReplicas: number,
    acceptor: UpdateAcceptor | undefined,
  ): Promise<void> {
    const { deps, out, until, hooks, events } = this.ctx;
    let config;
    try {
      config = applyDefaults(decodeDeploymentConfig(to));
    } catch (err) {
      throw new Error(`couldn't decode config from deployment ${rcName(to)}: ${errorMessage(err)}`, { cause: err });
    }
    const params = config.spec.strategy?.recreateParams;
    const rollingParams = config.spec.strategy?.rollingParams;
    // A Rolling DC's first rollout comes through here and takes the rolling timeout.
    let timeoutSeconds: number = Defaults.RecreateTimeoutSeconds;
    if (params?.timeoutSeconds !== undefined) timeoutSeconds = params.timeoutSeconds;
    if (rollingParams?.timeoutSeconds !== undefined) timeoutSeconds = rollingParams.timeoutSeconds;
    const timeoutMs = timeoutSeconds * 1000;
    const accept = acceptor ?? acceptAvailablePods(deps.rcWatcher, timeoutMs);

    if (params?.pre) {
      try {
        await hooks.execute(params.pre, to, HookSuffix.Pre, 'pre');
      } catch (err) {
        throw new Error(`pre hook failed: ${errorMessage(err)}`, { cause: err });
      }
    }
    if (until === 'pre') throw new ConditionReachedError('pre hook succeeded');

    try {
      if (from) {
        out.write(`--> Scaling ${rcName(from)} down to zero\n`);
        try {
          await recreateScaleAndWait(deps, from, 0, timeoutMs);
        } catch (err) {
          throw new Error(`couldn't scale ${rcName(from)} to 0: ${errorMessage(err)}`, { cause: err });
        }
        await this.waitForTerminatedPods(from, (params?.timeoutSeconds ?? Defaults.RecreateTimeoutSeconds) * 1000);
      }
      if (until === '0%') throw new ConditionReachedError('Reached 0% (no running pods)');

      if (params?.mid) {
        try {
          await hooks.execute(params.mid, to, HookSuffix.Mid, 'mid');
        } catch (err) {
          throw new Error(`mid hook failed: ${errorMessage(err)}`, { cause: err });
        }
      }
      if (until === 'mid') throw new ConditionReachedError('mid hook succeeded');

      let accepted = false;
      let current = to;
      if (desiredReplicas > 0) {
        if (from) {
          out.write(`--> Scaling ${rcName(to)} to 1 before performing acceptance check\n`);
          let updated: V1ReplicationController;
          try {
            updated = await recreateScaleAndWait(deps, current, 1, timeoutMs);
          } catch (err) {
            throw new Error(`couldn't scale ${rcName(to)} to 1: ${errorMessage(err)}`, { cause: err });
          }
          try {
            await accept.accept(updated);
          } catch (err) {
            throw new Error(`update acceptor rejected ${rcName(to)}: ${errorMessage(err)}`, { cause: err });
          }
          accepted = true;
          current = updated;
          if (percentageBetween(until, 1, 99)) throw new ConditionReachedError(`Reached ${until}`);
        }

        if (current.spec?.replicas !== desiredReplicas) {
          out.write(`--> Scaling ${rcName(to)} to ${desiredReplicas}\n`);
          try {
            current = await recreateScaleAndWait(deps, current, desiredReplicas, timeoutMs);
          } catch (err) {
            throw new Error(`couldn't scale ${rcName(to)} to ${desiredReplicas}: ${errorMessage(err)}`, { cause: err });
          }
        }

        if (!accepted) {
          try {
            await accept.accept(current);
          } catch (err) {
            throw new Error(`update acceptor rejected ${rcName(to)}: ${errorMessage(err)}`, { cause: err });
          }
        }
      }

      if ((!from && percentageBetween(until, 1, 100)) || (from && until === '100%')) {
        throw new ConditionReachedError(`Reached ${until}`);
      }

      if (params?.post) {
        try {
          await hooks.execute(params.post, current, HookSuffix.Post, 'post');
        } catch (err) {
          throw new Error(`post hook failed: ${errorMessage(err)}`, { cause: err });
        }
      }
    } finally {
      // Go defers `to` after `from`, so `to` is reported first.
      await events.recordConfigWarnings(to, out);
      await events.recordConfigWarnings(from, out);
    }
  }

  /**
   * Waits until no pod of `rc` is running, so old and new pods do not overlap (oc 605f6a773).
   * A timeout only warns: the rollout continues.
   */
  private async waitForTerminatedPods(rc: V1ReplicationController, timeoutMs: number): Promise<void> {
    const { deps, out } = this.ctx;
    try {
      await deps.podWatcher.waitForPods(
        rcNamespace(rc),
        selectorString(rc.spec?.selector),
        (pods) => !hasRunningPod(pods),
        timeoutMs,
        { recheckMs: 1000 },
      );
    } catch (err) {
      out.write(`--> Failed to wait for old pods to be terminated: ${errorMessage(err)}\nNew pods may be scaled up before old pods get terminated!\n`);
    }
  }
}
