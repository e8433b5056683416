/**
 * Rollback generation, OpenShift's `deploymentconfigs/rollback` endpoint (design.md §8.1): in CRD
 * mode the CLI computes the rolled-back DC itself from the target RC's encoded config (a CRD
 * has no such subresource); in API mode the API server serves it with the same code. Pure:
 * callers fetch the DC and the RC.
 */
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { rcNameFor } from '../util/naming.js';

/** A refused rollback; the message is the endpoint's (the CLI prints it, the API server answers 422 with it). */
export class InvalidRollbackError extends Error {
  override readonly name = 'InvalidRollbackError';
}

/** DeploymentConfigRollbackSpec's switches; `oc rollout undo` sends only includeTemplate. */
export interface RollbackSpec {
  /** 0 = latestVersion - 1. */
  readonly revision: number;
  readonly includeTemplate: boolean;
  readonly includeTriggers: boolean;
  readonly includeStrategy: boolean;
  readonly includeReplicationMeta: boolean;
}

/** `oc rollout undo` defaults: template only. */
export const undoDefaults = (revision = 0): RollbackSpec => ({
  revision, includeTemplate: true, includeTriggers: false, includeStrategy: false, includeReplicationMeta: false,
});

/** The endpoint answers every refusal as Invalid on field `name`; kubectl prints it like this. */
export function invalidRollback(name: string, reason: string): InvalidRollbackError {
  return new InvalidRollbackError(`The DeploymentConfigRollback "${name}" is invalid: name: Invalid value: "${name}": ${reason}`);
}

/**
 * Step 3–4 of §8.1: validates the request against the current DC and returns the RC name to
 * roll back to. Throws InvalidRollbackError with the endpoint's messages.
 */
export function rollbackTarget(current: DeploymentConfig, revision: number): string {
  const name = current.metadata.name ?? '';
  const latest = current.status?.latestVersion ?? 0;
  if (revision < 0) throw invalidRollback(name, 'must be greater than or equal to 0');
  if (latest === 0) throw invalidRollback(name, 'cannot rollback an undeployed config');
  if (latest === 1) throw invalidRollback(name, `no previous deployment exists for "${current.metadata.namespace ?? ''}/${name}"`);
  if (revision === latest) throw invalidRollback(name, `version ${revision} is already the latest`);
  return rcNameFor(name, revision > 0 ? revision : latest - 1);
}

/**
 * Step 7 of §8.1 (`GenerateRollback`): a deep copy of `from` with the selected parts of `to`,
 * every ImageChange trigger set to `automatic: false`, and `status.latestVersion + 1`.
 */
export function generateRollback(from: DeploymentConfig, to: DeploymentConfig, spec: RollbackSpec): DeploymentConfig {
  const result = structuredClone(from);
  const target = structuredClone(to);
  if (spec.includeTemplate && target.spec.template !== undefined) result.spec.template = target.spec.template;
  if (spec.includeReplicationMeta) {
    result.spec.replicas = target.spec.replicas ?? 0;
    result.spec.selector = target.spec.selector ? { ...target.spec.selector } : {};
  }
  if (spec.includeTriggers) result.spec.triggers = target.spec.triggers ?? null;
  if (spec.includeStrategy) result.spec.strategy = target.spec.strategy ?? {};
  for (const trigger of result.spec.triggers ?? []) {
    if (trigger.type === 'ImageChange' && trigger.imageChangeParams) trigger.imageChangeParams.automatic = false;
  }
  result.status = { ...(result.status ?? {}), latestVersion: (from.status?.latestVersion ?? 0) + 1 };
  return result;
}

/** Names (`from.name`) of the ImageChange triggers that are manual in `dc`, in order. */
export function disabledImageTriggers(dc: DeploymentConfig): string[] {
  return (dc.spec.triggers ?? [])
    .filter((t) => t.type === 'ImageChange' && t.imageChangeParams && !t.imageChangeParams.automatic)
    .map((t) => t.imageChangeParams?.from.name ?? '');
}
