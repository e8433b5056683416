/**
 * The Recreate strategy (oc `strategy/recreate/recreate.go`, design.md §6.3). Also the
 * delegate of the Rolling strategy for first rollouts.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { decodeDeploymentConfig } from '../apis/encoded.js';
import { defaultInPlace, selectorString } from '../apps/index.js';
import { errorMessage } from '../util/error-message.js';
import type { UpdateAcceptor } from './acceptor.js';
import { acceptAvailablePods } from './acceptor.js';
import { recreateScaleAndWait } from './scaler.js';
import type { DeploymentStrategy, StrategyContext } from './strategy.js';
import { hasRunningPod, recreateStages, stageTiming, untilReached } from './steps.js';
import { ConditionReachedError, parsePercentage, rcName, rcNamespace } from './util.js';

export { hasRunningPod };

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
      config = defaultInPlace(decodeDeploymentConfig(to));
    } catch (err) {
      throw new Error(`couldn't decode config from deployment ${rcName(to)}: ${errorMessage(err)}`, { cause: err });
    }
    const params = config.spec.strategy?.recreateParams;
    // A Rolling DC's first rollout comes through here and takes the rolling timeout.
    const timing = stageTiming(config);
    const timeoutMs = timing.timeoutMs;
    const accept = acceptor ?? acceptAvailablePods(deps.rcWatcher, timeoutMs);
    const stages = recreateStages(params, from !== undefined, desiredReplicas);

    let current = to;
    // Warning events of both RCs are forwarded once the pre hook has passed.
    let forwardWarnings = false;
    try {
      for (const stage of stages) {
        switch (stage.kind) {
          case 'hook':
            try {
              await hooks.execute(stage.hook, stage.point === 'post' ? current : to, stage.suffix, stage.point);
            } catch (err) {
              throw new Error(`${stage.point} hook failed: ${errorMessage(err)}`, { cause: err });
            }
            break;
          case 'until': {
            const reached = untilReached(stage, until, parsePercentage);
            if (reached) throw new ConditionReachedError(reached);
            if ('exact' in stage.test && stage.test.exact === 'pre') forwardWarnings = true;
            break;
          }
          case 'scaleDownFrom':
            if (!from) break;
            out.write(`--> Scaling ${rcName(from)} down to zero\n`);
            try {
              await recreateScaleAndWait(deps, from, 0, timeoutMs);
            } catch (err) {
              throw new Error(`couldn't scale ${rcName(from)} to 0: ${errorMessage(err)}`, { cause: err });
            }
            await this.waitForTerminatedPods(from, timing.recreateTimeoutMs);
            break;
          case 'scaleTo': {
            const beforeAcceptance = stage.accept && from !== undefined;
            if (beforeAcceptance || current.spec?.replicas !== stage.replicas) {
              out.write(beforeAcceptance
                ? `--> Scaling ${rcName(to)} to 1 before performing acceptance check\n`
                : `--> Scaling ${rcName(to)} to ${stage.replicas}\n`);
              try {
                current = await recreateScaleAndWait(deps, current, stage.replicas, timeoutMs);
              } catch (err) {
                throw new Error(`couldn't scale ${rcName(to)} to ${stage.replicas}: ${errorMessage(err)}`, { cause: err });
              }
            }
            if (stage.accept) {
              try {
                await accept.accept(current);
              } catch (err) {
                throw new Error(`update acceptor rejected ${rcName(to)}: ${errorMessage(err)}`, { cause: err });
              }
            }
            break;
          }
          default:
            throw new Error(`stage ${stage.kind} is not a Recreate stage`);
        }
      }
    } finally {
      if (forwardWarnings) {
        // Go defers `to` after `from`, so `to` is reported first.
        await events.recordConfigWarnings([to, from], out);
      }
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
