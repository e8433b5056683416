/**
 * The deployer process's common steps (oc `pkg/cli/deployer/deployer.go`, design.md
 * §6.2): find `from`, clean up older RCs, then hand over to the strategy.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { decodeDeploymentConfig } from '../apis/encoded.js';
import {
  byVersionDesc, configSelector, defaultInPlace, isComplete, labelFor, selectorString, versionOf,
} from '../apps/index.js';
import { errorMessage } from '../util/error-message.js';
import { goQuote } from '../util/go-format.js';
import { DeployerEvents } from './events.js';
import { newHookExecutor } from './hooks.js';
import type { DeployerDeps, RcWarnings } from './ports.js';
import { RecreateStrategy } from './recreate.js';
import { RollingStrategy } from './rolling.js';
import { scaleWithScaler } from './scaler.js';
import type { DeploymentStrategy, StrategyContext } from './strategy.js';
import { ConditionReachedError, intAnnotation, rcName } from './util.js';

/** Options of one deployer run. */
export interface RunDeployerOptions {
  readonly namespace: string;
  /** The RC to roll out (`OPENSHIFT_DEPLOYMENT_NAME`). */
  readonly rcName: string;
  /** `--until` condition; reaching it rejects with ConditionReachedError. */
  readonly until?: string;
  /** Progress lines, hook logs and `--> Success`. */
  readonly out: NodeJS.WritableStream;
  /** Non-fatal errors (default: `out`). */
  readonly errOut?: NodeJS.WritableStream;
}

/** Older RCs are scaled down with kubectl's Scaler: retry and wait every 1 s for up to 120 s. */
const olderRcScaleParams = { intervalMs: 1000, timeoutMs: 120_000 } as const;

function strategyFor(config: DeploymentConfig, ctx: StrategyContext): DeploymentStrategy {
  const type = config.spec.strategy?.type;
  switch (type) {
    case 'Recreate':
      return new RecreateStrategy(ctx);
    case 'Rolling':
      return new RollingStrategy(ctx, new RecreateStrategy(ctx));
    default:
      // Custom rollouts are the custom image's job; the built-in deployer refuses them (§6.7).
      throw new Error(`unsupported strategy type: ${type ?? ''}`);
  }
}

/**
 * The RC to roll out, taken from the list+watch of its DC's RCs that the run needs anyway
 * (design.md §6.2): the DC is the `<dc>` of the RC's immutable name `<dc>-<version>` (§3.5), so
 * that list can start before the RC is read, and a GET of the RC is one request fewer per
 * rollout. Also the revision that list is current at. Undefined when the name has no version or
 * the list fails, and no `rc` when the list does not hold the RC (not labelled for that DC): the
 * caller GETs it, with OpenShift's errors. Which DC's RCs the run scales is still decided by the
 * decoded config, as before.
 */
async function fromOwnDcList(deps: DeployerDeps, namespace: string, name: string): Promise<{ rc?: V1ReplicationController; resourceVersion: string } | undefined> {
  const dcName = /^(.+)-[0-9]+$/.exec(name)?.[1];
  if (!dcName) return undefined;
  try {
    const listed = await deps.rcWatcher.listAndWatch(namespace, selectorString(configSelector(dcName)));
    return { rc: listed.items.find((rc) => rcName(rc) === name), resourceVersion: listed.resourceVersion };
  } catch {
    return undefined;
  }
}

/**
 * `Deployer.Deploy`:
 * 1. read the RC (from its DC's list of RCs, else a GET), decode its DC, pick the strategy;
 * 2. read `kubectl.kubernetes.io/desired-replicas` (missing → "has already run to completion");
 * 3. `from` = newest other Complete RC of the DC; `to` must not be older than it;
 * 4. scale every other RC with replicas down to 0 (failures only printed);
 * 5. `--until=start`; run the strategy; print `--> Success`.
 * Resolves on success; rejects with ConditionReachedError at an `--until` stop point, with an
 * Error otherwise.
 */
export async function runDeployer(deps: DeployerDeps, options: RunDeployerOptions): Promise<void> {
  const { namespace } = options;
  const listed = await fromOwnDcList(deps, namespace, options.rcName);
  let to = listed?.rc;
  if (!to) {
    try {
      to = await deps.rcs.get(namespace, options.rcName);
    } catch (err) {
      throw new Error(`couldn't get deployment ${options.rcName}: ${errorMessage(err)}`, { cause: err });
    }
  }
  // Opened before anything else the run does, so that the RC warnings repeated on the DC at the
  // end come from this watch instead of a LIST of every event of the namespace (§6.2). It starts
  // at the revision of the run's first read, not at the RC's last change: kube-apiserver caches
  // no events, so a watch from an older revision makes etcd replay, and kube-apiserver decode,
  // every event the namespace got since, once per deployer (one whose pod waited minutes for a
  // node replayed minutes of them).
  const since = listed?.resourceVersion || to.metadata?.resourceVersion || '';
  const warnings = await deps.watchRcWarnings?.(namespace, since);
  try {
    await deployRc(deps, options, to, warnings);
  } finally {
    warnings?.close();
  }
}

/** runDeployer from step 1's decoding on, for the RC `to`. */
async function deployRc(deps: DeployerDeps, options: RunDeployerOptions, to: V1ReplicationController, warnings: RcWarnings | undefined): Promise<void> {
  const { namespace, out } = options;
  const errOut = options.errOut ?? out;
  const until = options.until ?? '';
  let config: DeploymentConfig;
  try {
    config = defaultInPlace(decodeDeploymentConfig(to));
  } catch (err) {
    throw new Error(`couldn't decode deployment config from deployment ${rcName(to)}: ${errorMessage(err)}`, { cause: err });
  }

  const events = new DeployerEvents(deps.events, deps.clock, errOut, warnings);
  const ctx: StrategyContext = { deps, out, errOut, until, events, hooks: newHookExecutor(deps, events, out) };
  const strategy = strategyFor(config, ctx);

  const desiredReplicas = intAnnotation(to, Annotations.DesiredReplicas);
  if (desiredReplicas === undefined) throw new Error(`deployment ${rcName(to)} has already run to completion`);
  // Anyone who may patch RCs can write it; a negative count made the rolling updater scale the
  // old RC to 0 and wait for a new one that never comes (design.md §10.3).
  if (desiredReplicas < 0) throw new Error(`metadata.annotations[${goQuote(Annotations.DesiredReplicas)}]: invalid value ${goQuote(String(desiredReplicas))}: must be 0 or more`);

  const dcName = config.metadata.name ?? '';
  let deployments: V1ReplicationController[];
  try {
    // One list+watch of the DC's RCs for the whole run: every later wait on `to`, `from` or an
    // older RC is served by it (design.md §6.2).
    deployments = (await deps.rcWatcher.listAndWatch(namespace, selectorString(configSelector(dcName)))).items;
  } catch (err) {
    throw new Error(`couldn't get controllers in namespace ${namespace}: ${errorMessage(err)}`, { cause: err });
  }
  deployments = byVersionDesc(deployments);

  const from = deployments.find((c) => rcName(c) !== rcName(to) && isComplete(c));
  if (from && versionOf(to) < versionOf(from)) {
    throw new Error(`deployment ${rcName(to)} is older than ${rcName(from)}`);
  }

  for (const candidate of deployments) {
    if (rcName(candidate) === rcName(to) || (from && rcName(candidate) === rcName(from))) continue;
    if (candidate.spec?.replicas === undefined || candidate.spec.replicas === 0) continue;
    try {
      await scaleWithScaler(deps, candidate.metadata?.namespace ?? namespace, rcName(candidate), 0, olderRcScaleParams, olderRcScaleParams);
      out.write(`--> Scaled older deployment ${rcName(candidate)} down\n`);
    } catch (err) {
      errOut.write(`error: Couldn't scale down prior deployment ${labelFor(candidate)}: ${errorMessage(err)}\n`);
    }
  }

  if (until === 'start') throw new ConditionReachedError('Ready to start deployment');

  await strategy.deploy(from, to, desiredReplicas);
  out.write('--> Success\n');
}
