/**
 * The Rolling strategy (oc `strategy/rolling/rolling.go`, design.md §6.4). A first
 * rollout (no Complete RC yet) goes through the Recreate path with an "all pods available"
 * acceptor; later rollouts run the rolling updater.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../apis/constants.js';
import { decodeDeploymentConfig } from '../apis/encoded.js';
import { defaultInPlace, labelFor } from '../apps/index.js';
import { errorMessage } from '../util/error-message.js';
import { acceptAvailablePods } from './acceptor.js';
import type { RecreateStrategy } from './recreate.js';
import { RollingUpdater } from './rolling-updater.js';
import { rollingStages, stageTiming, untilReached, type RolloutStage, type StageTiming } from './steps.js';
import type { DeploymentStrategy, StrategyContext } from './strategy.js';
import { ConditionReachedError, parsePercentage, rcName, rcNamespace } from './util.js';

/**
 * Formats the rolling updater's lines like oc's `rollingUpdaterWriter`: the first line gets
 * `--> `, later ones are indented by four spaces; "Continuing update with ..." is dropped.
 */
export function rollingUpdaterWriter(out: NodeJS.WritableStream): (line: string) => void {
  let called = false;
  return (text) => {
    if (text.startsWith('Continuing update with ')) return;
    const body = text.endsWith('\n') ? text.slice(0, -1) : text;
    for (const line of body.split('\n')) {
      out.write(called ? `    ${line}\n` : `--> ${line}\n`);
      called = true;
    }
  };
}

/** The Rolling strategy. */
export class RollingStrategy implements DeploymentStrategy {
  constructor(private readonly ctx: StrategyContext, private readonly initial: RecreateStrategy) {}

  async deploy(from: V1ReplicationController | undefined, to: V1ReplicationController, desiredReplicas: number): Promise<void> {
    const { deps, out, until, hooks, events } = this.ctx;
    let config;
    try {
      config = defaultInPlace(decodeDeploymentConfig(to));
    } catch (err) {
      throw new Error(`couldn't decode DeploymentConfig from deployment ${labelFor(to)}: ${errorMessage(err)}`, { cause: err });
    }
    const params = config.spec.strategy?.rollingParams ?? {};
    const timing = stageTiming(config);
    const acceptor = acceptAvailablePods(deps.rcWatcher, timing.timeoutMs);

    const runHook = async (stage: Extract<RolloutStage, { kind: 'hook' }>, target: V1ReplicationController): Promise<void> => {
      try {
        await hooks.execute(stage.hook, target, stage.suffix, stage.point);
      } catch (err) {
        throw new Error(`${stage.point} hook failed: ${errorMessage(err)}`, { cause: err });
      }
    };

    if (!from) {
      // The rolling updater only moves between two RCs: the rolling hooks around the Recreate path.
      const stages = rollingStages(params, undefined, false, desiredReplicas);
      const pre = stages.find((s) => s.kind === 'hook' && s.point === 'pre');
      const post = stages.find((s) => s.kind === 'hook' && s.point === 'post');
      if (pre?.kind === 'hook') await runHook(pre, to);
      await this.initial.deployWithAcceptor(undefined, to, desiredReplicas, acceptor);
      if (post?.kind === 'hook') await runHook(post, to);
      return;
    }

    let target: V1ReplicationController = to;
    try {
      for (const stage of rollingStages(params, undefined, true, desiredReplicas)) {
        switch (stage.kind) {
          case 'hook':
            await runHook(stage, target);
            break;
          case 'until': {
            const reached = untilReached(stage, until, parsePercentage);
            if (reached) throw new ConditionReachedError(reached);
            break;
          }
          case 'rolling':
            target = await this.rollingUpdate(from, to, timing);
            break;
          default:
            throw new Error(`stage ${stage.kind} is not a Rolling stage`);
        }
      }
    } finally {
      await events.recordConfigWarnings([to, from], out);
    }
  }

  /**
   * The `rolling` stage: marks `to` with its source and runs the rolling updater. The updater
   * requires `<from>:<uid>` on the new RC; OpenShift writes it first, on its own. Here it goes
   * with the updater's first scale of `to` (one write fewer per rollout, as the pod-less mode
   * does, §6.8); an RC that already carries another source fails the updater's check as before.
   */
  private async rollingUpdate(
    from: V1ReplicationController,
    to: V1ReplicationController,
    timing: StageTiming,
  ): Promise<V1ReplicationController> {
    const { deps, out, until } = this.ctx;
    const namespace = rcNamespace(to);
    const sourceId = `${rcName(from)}:${from.metadata?.uid ?? ''}`;
    // `to` as the run's watch sees it now (the strategy was handed the listed one).
    const target = await deps.rcWatcher.waitFor(namespace, rcName(to), () => true, timing.timeoutMs, { notOlderThan: to.metadata?.resourceVersion });
    const marked = Annotations.UpdateSourceId in (target.metadata?.annotations ?? {});

    await new RollingUpdater(deps, namespace).update({
      newRcAnnotations: marked ? undefined : { [Annotations.UpdateSourceId]: sourceId },
      out: rollingUpdaterWriter(out),
      oldRc: from,
      newRc: target,
      updatePeriodMs: timing.updatePeriodMs,
      intervalMs: timing.intervalMs,
      timeoutMs: timing.timeoutMs,
      maxSurge: timing.maxSurge,
      maxUnavailable: timing.maxUnavailable,
      onProgress: (_old, _new, percentage) => {
        const expect = parsePercentage(until);
        if (expect !== undefined && percentage >= expect) {
          throw new ConditionReachedError(`Reached ${until} (currently ${percentage}%)`);
        }
      },
    });
    return target;
  }
}
