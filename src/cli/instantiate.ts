/**
 * The client half of this project's instantiate protocol. A CRD has no `instantiate`
 * subresource, so the CLI writes an InstantiateRequest into the `deploy.dcctl.io/instantiate`
 * annotation (a merge patch of the main resource: `patch deploymentconfigs` is all the RBAC it
 * needs) and waits for the controller's acknowledgement in `status.lastInstantiateRequest`.
 * The annotation persists, so a request made while the controller is down is handled later.
 */
import { Annotations } from '../apis/constants.js';
import type { DeploymentConfig, InstantiateAck, InstantiateRequest } from '../apis/deploymentconfig.js';
import { isNotFound } from '../controller/errors.js';
import { dcNotFound } from './errors.js';
import type { CliContext } from './ports.js';
import { deadline } from './watch.js';

/** The annotation value for a request (compact JSON). */
export const encodeInstantiateRequest = (request: InstantiateRequest): string => JSON.stringify(request);

/** The metadata part of a merge patch that files `request`. */
export function instantiatePatch(request: InstantiateRequest): { metadata: { annotations: Record<string, string> } } {
  return { metadata: { annotations: { [Annotations.InstantiateRequest]: encodeInstantiateRequest(request) } } };
}

/** Result of waiting: the acknowledgement with the DC it was read from, or undefined on timeout. */
export interface AckResult {
  readonly ack: InstantiateAck;
  readonly dc: DeploymentConfig;
}

/**
 * Waits until `status.lastInstantiateRequest.id === id`, at most `timeoutMs` (0 = do not wait).
 * Returns undefined when the controller did not answer in time.
 */
export async function waitForAck(ctx: CliContext, name: string, id: string, timeoutMs: number): Promise<AckResult | undefined> {
  if (timeoutMs <= 0) return undefined;
  const timer = deadline(timeoutMs);
  try {
    for await (const dc of ctx.watchDc(ctx.namespace, name, timer.signal)) {
      const ack = dc.status?.lastInstantiateRequest;
      if (ack?.id === id) return { ack, dc };
      if (timer.signal.aborted) break;
    }
    return undefined;
  } catch (err) {
    if (isNotFound(err)) throw dcNotFound(name, err);
    throw err;
  } finally {
    timer.dispose();
  }
}

/** What the CLI prints when no acknowledgement came: the request is durable, not lost. */
export function unacknowledgedNotice(name: string, id: string, timeoutMs: number): string {
  return `warning: the controller has not acknowledged request ${id} within ${Math.round(timeoutMs / 1000)}s; `
    + `it is recorded in the ${Annotations.InstantiateRequest} annotation of deploymentconfig/${name} `
    + 'and will be handled when the controller runs\n';
}
