/**
 * Pure parts of the `deploymentconfigs/log` subresource, as openshift-apiserver's deploylog REST
 * handler and its validation (`ValidateDeploymentLogOptions`) decide them: the options a
 * request carries, which rollout it names, and which pod of a complete rollout is read.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { StatusCause } from './status.js';

/** `DeploymentLogOptions` as `oc logs dc/x` encodes it in the query string. */
export interface DeploymentLogOptions {
  readonly container?: string;
  readonly follow: boolean;
  readonly previous: boolean;
  readonly sinceSeconds?: number;
  readonly sinceTime?: string;
  readonly timestamps: boolean;
  readonly tailLines?: number;
  readonly limitBytes?: number;
  readonly nowait: boolean;
  readonly version?: number;
}

export type ParsedLogOptions =
  | { readonly kind: 'ok'; readonly options: DeploymentLogOptions }
  | { readonly kind: 'badRequest'; readonly message: string }
  | { readonly kind: 'invalid'; readonly causes: StatusCause[] };

const bool = (v: string | null): boolean => v === 'true' || v === '1' || v === 'True' || v === 'TRUE';

/** Decodes and validates the query; field errors are OpenShift's (PodLogOptions + version rules). */
export function parseDeploymentLogOptions(q: URLSearchParams): ParsedLogOptions {
  const ints: Record<string, number | undefined> = {};
  for (const name of ['sinceSeconds', 'tailLines', 'limitBytes', 'version']) {
    const raw = q.get(name);
    if (raw === null || raw === '') continue;
    if (!/^-?\d+$/.test(raw)) return { kind: 'badRequest', message: `${name}: invalid value "${raw}": not an integer` };
    ints[name] = Number.parseInt(raw, 10);
  }
  const options: DeploymentLogOptions = {
    ...(q.get('container') ? { container: q.get('container')! } : {}),
    follow: bool(q.get('follow')),
    previous: bool(q.get('previous')),
    ...(ints['sinceSeconds'] !== undefined ? { sinceSeconds: ints['sinceSeconds'] } : {}),
    ...(q.get('sinceTime') ? { sinceTime: q.get('sinceTime')! } : {}),
    timestamps: bool(q.get('timestamps')),
    ...(ints['tailLines'] !== undefined ? { tailLines: ints['tailLines'] } : {}),
    ...(ints['limitBytes'] !== undefined ? { limitBytes: ints['limitBytes'] } : {}),
    nowait: bool(q.get('nowait')),
    ...(ints['version'] !== undefined ? { version: ints['version'] } : {}),
  };
  const causes: StatusCause[] = [];
  const invalidValue = (field: string, value: unknown, detail: string) =>
    causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value)}: ${detail}` });
  if (options.tailLines !== undefined && options.tailLines < 0) invalidValue('tailLines', options.tailLines, 'must be greater than or equal to 0');
  if (options.limitBytes !== undefined && options.limitBytes < 1) invalidValue('limitBytes', options.limitBytes, 'must be greater than 0');
  if (options.sinceSeconds !== undefined && options.sinceTime !== undefined) {
    causes.push({ reason: 'FieldValueForbidden', field: '', message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified' });
  } else if (options.sinceSeconds !== undefined && options.sinceSeconds < 1) {
    invalidValue('sinceSeconds', options.sinceSeconds, 'must be greater than 0');
  }
  if (options.version !== undefined && options.version <= 0) invalidValue('version', options.version, 'deployment version must be greater than 0');
  if (options.version !== undefined && options.previous) invalidValue('previous', options.previous, 'cannot use previous when a version is specified');
  return causes.length > 0 ? { kind: 'invalid', causes } : { kind: 'ok', options };
}

/** The rollout version a request reads, or the BadRequest message OpenShift answers. */
export function targetVersion(name: string, latestVersion: number, opts: DeploymentLogOptions): { version: number } | { error: string } {
  if (latestVersion === 0) return { error: `no deployment exists for deploymentConfig "${name}"` };
  if (opts.version === undefined) {
    if (!opts.previous) return { version: latestVersion };
    return latestVersion - 1 < 1 ? { error: `no previous deployment exists for deploymentConfig "${name}"` } : { version: latestVersion - 1 };
  }
  if (opts.version <= 0 || opts.version > latestVersion) return { error: `invalid version for deploymentConfig "${name}": ${opts.version}` };
  return { version: opts.version };
}

/**
 * The pods/log query for the chosen pod: `DeploymentToPodLogOptions` (`previous` names the
 * previous rollout here, never the previous container instance, so it is not passed on).
 */
export function podLogQuery(opts: DeploymentLogOptions): URLSearchParams {
  const q = new URLSearchParams();
  if (opts.container) q.set('container', opts.container);
  if (opts.follow) q.set('follow', 'true');
  if (opts.sinceSeconds !== undefined) q.set('sinceSeconds', String(opts.sinceSeconds));
  if (opts.sinceTime !== undefined) q.set('sinceTime', opts.sinceTime);
  if (opts.timestamps) q.set('timestamps', 'true');
  if (opts.tailLines !== undefined) q.set('tailLines', String(opts.tailLines));
  if (opts.limitBytes !== undefined) q.set('limitBytes', String(opts.limitBytes));
  return q;
}

/** Whether a deployer pod has a log to read (OpenShift's WaitForRunningDeployerPod). */
export const deployerPodCanLog = (pod: V1Pod | undefined): boolean =>
  pod?.status?.phase === 'Running' || pod?.status?.phase === 'Succeeded' || pod?.status?.phase === 'Failed';

const isReady = (p: V1Pod): boolean => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
const maxRestarts = (p: V1Pod): number => Math.max(0, ...(p.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
const phaseRank = (p: V1Pod): number => ({ Running: 0, Unknown: 1, Pending: 2 } as Record<string, number>)[p.status?.phase ?? ''] ?? 3;
const created = (p: V1Pod): number => (p.metadata?.creationTimestamp ? new Date(p.metadata.creationTimestamp).getTime() : Number.POSITIVE_INFINITY);

/**
 * The application pod whose log a complete rollout shows: kube's `controller.ByLogging` order
 * (assigned, Running < Unknown < Pending, ready, more restarts, older first).
 */
export function podForLogging(pods: readonly V1Pod[]): V1Pod | undefined {
  return [...pods].sort((a, b) => {
    const an = Boolean(a.spec?.nodeName), bn = Boolean(b.spec?.nodeName);
    if (an !== bn) return an ? -1 : 1;
    if (phaseRank(a) !== phaseRank(b)) return phaseRank(a) - phaseRank(b);
    if (isReady(a) !== isReady(b)) return isReady(a) ? -1 : 1;
    if (maxRestarts(a) !== maxRestarts(b)) return maxRestarts(b) - maxRestarts(a);
    return created(a) - created(b);
  })[0];
}
