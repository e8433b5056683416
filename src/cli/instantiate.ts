/**
 * The client half of this project's instantiate protocol. A CRD has no `instantiate`
 * subresource, so the CLI writes an InstantiateRequest into the `deploy.dcctl.io/instantiate`
 * annotation (a merge patch of the main resource: `patch deploymentconfigs` is all the RBAC it
 * needs) and waits for the controller's acknowledgement in `status.lastInstantiateRequest`.
 * The annotation persists, so a request made while the controller is down is handled later.
 *
 * The annotation holds ONE request, so a write must never replace a request the controller has
 * not acknowledged yet (20 parallel `rollout latest` used to overwrite each other and still
 * report "recorded"): `fileRequest` waits for a pending request's acknowledgement, then writes
 * with the DC's resourceVersion as a precondition and re-reads on a conflict; `waitForAck`
 * notices when its request is replaced by a writer that does not follow this protocol.
 */
import { Annotations } from '../apis/constants.js';
import type { DeploymentConfig, InstantiateAck, InstantiateRequest } from '../apis/deploymentconfig.js';
import { isConflict } from '../controller/errors.js';
import { getDc } from './common.js';
import { CliError } from './errors.js';
import type { CliContext } from './ports.js';
import { watchDcUntil } from './watch.js';

/** The annotation value for a request (compact JSON). */
export const encodeInstantiateRequest = (request: InstantiateRequest): string => JSON.stringify(request);

/** The metadata part of a merge patch that files `request`. */
export function instantiatePatch(request: InstantiateRequest): { metadata: { annotations: Record<string, string> } } {
  return { metadata: { annotations: { [Annotations.InstantiateRequest]: encodeInstantiateRequest(request) } } };
}

/** The id of the request in the annotation when the controller has not acknowledged it yet. */
export function pendingRequestId(dc: DeploymentConfig): string | undefined {
  const raw = dc.metadata.annotations?.[Annotations.InstantiateRequest];
  if (raw === undefined) return undefined;
  let id: unknown;
  try {
    id = (JSON.parse(raw) as { id?: unknown } | null)?.id;
  } catch {
    return undefined; // unreadable: the controller rejects it; replacing it loses nothing
  }
  return typeof id === 'string' && dc.status?.lastInstantiateRequest?.id !== id ? id : undefined;
}

/** A merge patch of the DC that files a request. */
export type RequestPatch = { metadata: Record<string, unknown> } & Record<string, unknown>;


/**
 * Writes the patch `prepare` builds from the freshly read DC, so that no request is lost:
 * waits (at most `timeoutMs`) while another request is pending, then patches with the DC's
 * resourceVersion as a precondition; a conflict re-reads and prepares again (so checks in
 * `prepare`, such as "already in progress", see the current state), up to `maxConflicts`
 * attempts, after which the Conflict itself is thrown. Throws when the request could not be
 * recorded; returns the DC the patch was built from.
 */
export async function fileRequest(
  ctx: CliContext, name: string, timeoutMs: number,
  prepare: (dc: DeploymentConfig) => RequestPatch | Promise<RequestPatch>,
  maxConflicts = 10,
): Promise<DeploymentConfig> {
  for (let attempt = 1; ; attempt++) {
    let dc = await getDc(ctx, name);
    const pending = pendingRequestId(dc);
    if (pending !== undefined) {
      const settled = await waitWhilePending(ctx, name, pending, timeoutMs);
      if (!settled) {
        throw new CliError(`request not recorded: request ${pending} (from another client) in the ${Annotations.InstantiateRequest} `
          + `annotation of deploymentconfig/${name} has not been handled by the controller${timeoutMs > 0 ? ` within ${Math.round(timeoutMs / 1000)}s` : ''}; `
          + 'writing over it would lose it. Try again once the controller has acknowledged it.');
      }
      dc = settled;
    }
    const patch = await prepare(dc);
    patch.metadata = { ...patch.metadata, resourceVersion: dc.metadata.resourceVersion };
    try {
      await ctx.dcs.patch(ctx.namespace, name, patch, 'merge');
      return dc;
    } catch (err) {
      if (!isConflict(err) || attempt >= maxConflicts) throw err;
    }
  }
}

/** Waits until `pending` is acknowledged or replaced; the DC then, or undefined on timeout. */
async function waitWhilePending(ctx: CliContext, name: string, pending: string, timeoutMs: number): Promise<DeploymentConfig | undefined> {
  if (timeoutMs <= 0) return undefined;
  return watchDcUntil(ctx, name, timeoutMs, (dc) => (pendingRequestId(dc) !== pending ? dc : undefined));
}

/** Result of waiting: the acknowledgement with the DC it was read from, or undefined on timeout. */
export interface AckResult {
  readonly ack: InstantiateAck;
  readonly dc: DeploymentConfig;
}

/**
 * Waits until `status.lastInstantiateRequest.id === id`, at most `timeoutMs` (0 = do not wait).
 * Returns undefined when the controller did not answer in time and the request is still in the
 * annotation (recorded, will be handled). Throws CliError when the annotation holds another
 * request and ours was not acknowledged: it was overwritten, or handled and superseded between
 * two polls; either way it cannot be reported as recorded.
 */
export async function waitForAck(ctx: CliContext, name: string, id: string, timeoutMs: number): Promise<AckResult | undefined> {
  if (timeoutMs <= 0) return undefined;
  const acked = (dc: DeploymentConfig): AckResult | undefined => {
    const ack = dc.status?.lastInstantiateRequest;
    if (ack?.id === id) return { ack, dc };
    if (requestIdIn(dc) !== id) throw notRecorded(name, id, dc);
    return undefined;
  };
  // Once the time is up, one last read: the answer may have come after the last tick.
  return (await watchDcUntil(ctx, name, timeoutMs, acked)) ?? acked(await getDc(ctx, name));
}

/** The id in the request annotation, whether acknowledged or not. */
function requestIdIn(dc: DeploymentConfig): string | undefined {
  try {
    const id = (JSON.parse(dc.metadata.annotations?.[Annotations.InstantiateRequest] ?? 'null') as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

function notRecorded(name: string, id: string, dc: DeploymentConfig): CliError {
  const other = requestIdIn(dc);
  return new CliError(`request ${id} is no longer in the ${Annotations.InstantiateRequest} annotation of deploymentconfig/${name} `
    + `(it now holds ${other === undefined ? 'no request' : `request ${other}`}) and the controller did not acknowledge it: `
    + 'another writer replaced it, so it is NOT recorded; check `rollout history` and run the command again if needed');
}

/** What the CLI prints when no acknowledgement came: the request is durable, not lost. */
export function unacknowledgedNotice(name: string, id: string, timeoutMs: number): string {
  return `warning: the controller has not acknowledged request ${id} within ${Math.round(timeoutMs / 1000)}s; `
    + `it is recorded in the ${Annotations.InstantiateRequest} annotation of deploymentconfig/${name} `
    + 'and will be handled when the controller runs\n';
}
