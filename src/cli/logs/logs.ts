/**
 * `dcctl logs dc/NAME`: the deployer pod's log of the latest (or `--version N`, or `--previous`)
 * rollout, then the logs of its lifecycle hook pods (pre, mid, post), each read through the
 * ordinary pods/log API. OpenShift serves `oc logs dc/x` from a `deploymentconfigs/log`
 * subresource that a CRD cannot have (README); this verb reads the same pods directly.
 *
 * Differences from oc, on purpose: a Complete rollout still shows its deployer log (oc switches
 * to an application pod; use `kubectl logs rc/<name>-<N>` for that), and when the deployer pod
 * is gone (deleted by `rollout retry`, by RC pruning or by hand) the verb says so and prints
 * what is left: the RC's phase and reason annotations and the events of the RC and its pods.
 */
import type { CoreV1Event, V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../apis/constants.js';
import { HookSuffix } from '../../apis/constants.js';
import { isNotFound } from '../../controller/errors.js';
import { deployerPodNameFor, getPodName, rcNameFor } from '../../util/naming.js';
import { CliError, dcNotFound } from '../errors.js';
import { deployerPodSelector, selectorString } from '../../apps/index.js';
import { tabwrite } from '../tabwriter.js';
import type { LogsContext, PodLogOptions } from './ports.js';

export interface LogsOptions {
  readonly name: string;
  readonly version?: number;
  /** oc's DeploymentLogOptions.previous: the rollout before the latest. */
  readonly previous: boolean;
  readonly follow: boolean;
  readonly timestamps: boolean;
  readonly tailLines?: number;
  /** How many 1 s polls `-f` waits for a pending deployer pod to start (default 60). */
  readonly waitPolls?: number;
}

const hookOrder = [HookSuffix.Pre, HookSuffix.Mid, HookSuffix.Post] as const;

/** Which rollout a request means (oc: latestVersion 0 is an error; previous = latest − 1). */
export function targetVersion(latest: number, dcName: string, opts: Pick<LogsOptions, 'version' | 'previous'>): number {
  if (opts.version !== undefined && opts.previous) throw new CliError('--version and --previous cannot be used together');
  if (latest === 0) throw new CliError(`no deployment exists for deploymentConfig "${dcName}"`);
  if (opts.version !== undefined) {
    if (!Number.isInteger(opts.version) || opts.version < 1) throw new CliError(`--version must be a positive integer, got ${opts.version}`);
    if (opts.version > latest) throw new CliError(`deploymentconfig "${dcName}" has no rollout #${opts.version} (latest is #${latest})`);
    return opts.version;
  }
  if (opts.previous) {
    if (latest < 2) throw new CliError(`deploymentconfig "${dcName}" has no previous rollout (latest is #${latest})`);
    return latest - 1;
  }
  return latest;
}

/**
 * The deployer pod, then the hook pods pre → mid → post, picked by name: the label value is
 * shortened for long RC names (rcLabelValue), so the label alone may also match another RC's pods.
 */
export function orderRolloutPods(rcName: string, pods: readonly V1Pod[]): { deployer?: V1Pod; hooks: V1Pod[] } {
  const deployerName = deployerPodNameFor(rcName);
  const hooks = hookOrder.flatMap((suffix) => pods.filter((p) => p.metadata?.name === getPodName(rcName, suffix)));
  return { deployer: pods.find((p) => p.metadata?.name === deployerName), hooks };
}

/** What is left of a rollout whose deployer pod is gone: RC annotations and events. */
export function leftoversReport(rc: V1ReplicationController, events: readonly CoreV1Event[]): string {
  const a = rc.metadata?.annotations ?? {};
  const lines = [`Rollout ${rc.metadata?.name ?? ''}:`];
  lines.push(`  phase: ${a[Annotations.Phase] ?? '<none>'}`);
  if (a[Annotations.StatusReason]) lines.push(`  reason: ${a[Annotations.StatusReason]}`);
  if (a[Annotations.Cancelled]) lines.push('  cancelled: true');
  if (a[Annotations.DeployerPodCompletedAt]) lines.push(`  deployer finished at: ${a[Annotations.DeployerPodCompletedAt]}`);
  if (events.length === 0) {
    lines.push('No events are left (the API server keeps them for an hour by default).');
  } else {
    const sorted = [...events].sort((x, y) => eventTime(x) - eventTime(y));
    const rows = [['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], ...sorted.map((e) => [
      new Date(eventTime(e)).toISOString(), e.type ?? '', e.reason ?? '',
      `${(e.involvedObject.kind ?? '').toLowerCase()}/${e.involvedObject.name ?? ''}`, (e.message ?? '').trim(),
    ])];
    lines.push('Events:', tabwrite(rows.map((r) => r.join('\t')).join('\n'), { padding: 2, padChar: ' ' }));
  }
  return `${lines.join('\n')}\n`;
}

function eventTime(e: CoreV1Event): number {
  const t = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp;
  return t ? new Date(t as unknown as string).getTime() : 0;
}

const isPending = (p: V1Pod): boolean => (p.status?.phase ?? 'Pending') === 'Pending';

/** Runs the verb; returns the exit code. */
export async function logsCommand(ctx: LogsContext, opts: LogsOptions): Promise<number> {
  let dc;
  try {
    dc = await ctx.getDc(opts.name);
  } catch (err) {
    if (isNotFound(err)) throw dcNotFound(opts.name, err);
    throw err;
  }
  const version = targetVersion(dc.status?.latestVersion ?? 0, opts.name, opts);
  const rcName = rcNameFor(opts.name, version);
  const rc = await ctx.findRc(rcName);
  if (!rc) {
    const events = await ctx.listEvents(opts.name);
    ctx.out.write(events.length > 0 ? leftoversReport({ metadata: { name: rcName } }, events) : '');
    throw new CliError(`replication controller ${rcName} of rollout #${version} is gone (pruned by revisionHistoryLimit or deleted); no deployer log is left`);
  }

  let pods = orderRolloutPods(rcName, await ctx.listPods(selectorString(deployerPodSelector(rcName))));
  const logOptions: PodLogOptions = { follow: opts.follow, timestamps: opts.timestamps, tailLines: opts.tailLines };
  if (rc.metadata?.annotations?.[Annotations.DeployerMode] === 'inline' && !pods.deployer) {
    // A pod-less rollout (design.md §6.8) has no deployer log: its progress is in the events.
    ctx.out.write(`Rollout #${version} of deploymentconfig "${opts.name}" ran without a deployer pod (${Annotations.DeployerMode}: inline), so there is no deployer log.\n`
      + `Its progress is in the events below, in \`dcctl rollout status dc/${opts.name}\` and in the annotations of replication controller ${rcName}.\n`);
    ctx.out.write(leftoversReport(rc, [...await ctx.listEvents(opts.name), ...await ctx.listEvents(rcName)]));
    for (const hook of pods.hooks) {
      if (isPending(hook)) continue;
      ctx.out.write(`\n==> ${hook.metadata?.name ?? ''} (lifecycle hook pod, ${hook.status?.phase ?? 'Unknown'}) <==\n`);
      await streamPod(ctx, hook, { ...logOptions, follow: opts.follow && hook.status?.phase === 'Running' });
    }
    return 0;
  }
  // As oc does for a New/Pending rollout, -f waits (1 s polls, 60 by default) for the deployer pod to start.
  for (let polls = opts.waitPolls ?? 60; opts.follow && (!pods.deployer || isPending(pods.deployer)) && polls > 0; polls--) {
    await ctx.sleep(1000);
    pods = orderRolloutPods(rcName, await ctx.listPods(selectorString(deployerPodSelector(rcName))));
  }
  const logOpts: PodLogOptions = { follow: opts.follow, timestamps: opts.timestamps, tailLines: opts.tailLines };
  if (!pods.deployer) {
    const events = [...await ctx.listEvents(rcName), ...await ctx.listEvents(deployerPodNameFor(rcName))];
    ctx.out.write(leftoversReport(rc, events));
    throw new CliError(`the deployer pod ${deployerPodNameFor(rcName)} of rollout #${version} is gone (deleted after the rollout, by \`rollout retry\` or by hand); its log cannot be read`);
  }
  if (isPending(pods.deployer)) {
    throw new CliError(`the deployer pod ${pods.deployer.metadata?.name ?? ''} of rollout #${version} has not started yet (phase ${rc.metadata?.annotations?.[Annotations.Phase] ?? 'New'}); use -f to wait for it`);
  }
  await streamPod(ctx, pods.deployer, logOpts);
  if (opts.follow) pods = orderRolloutPods(rcName, await ctx.listPods(selectorString(deployerPodSelector(rcName))));
  for (const hook of pods.hooks) {
    if (isPending(hook)) continue;
    ctx.out.write(`\n==> ${hook.metadata?.name ?? ''} (lifecycle hook pod, ${hook.status?.phase ?? 'Unknown'}) <==\n`);
    // A hook has ended by the time its deployer has, so no follow for it.
    await streamPod(ctx, hook, { ...logOpts, follow: opts.follow && hook.status?.phase === 'Running' });
  }
  return 0;
}

async function streamPod(ctx: LogsContext, pod: V1Pod, opts: PodLogOptions): Promise<void> {
  const name = pod.metadata?.name ?? '';
  const container = pod.spec?.containers[0]?.name ?? '';
  try {
    await ctx.streamPodLog(name, container, opts);
  } catch (err) {
    // The pod went away between the list and the read (e.g. `rollout retry`).
    if (isNotFound(err)) throw new CliError(`pod ${name} is gone; its log cannot be read`, 1, { cause: err });
    throw err;
  }
}
