/**
 * Annotations on a DC's RCs that the controllers cannot act on, as one message for the DC's
 * ReplicaFailure=True/InvalidReplicationController condition and its Warning event. These
 * annotations are writable by anyone who may patch RCs in the namespace (every deployer and
 * hook pod included), so the controllers report them rather than follow them
 * (docs/design.md §10.3).
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Phase } from '../apis/constants.js';
import { hasUnknownPhase } from './deployment.js';
import { quoteUntrusted, rcVersion } from './rc-version.js';

/**
 * An RC whose phase annotation is not one of the five phases: nothing moves it (the deployer
 * controller only makes forward transitions between known phases) and it would block its DC
 * forever. `rollout cancel`, `rollout retry` or setting the annotation recovers it.
 */
export function rcPhaseProblem(rc: V1ReplicationController): string | undefined {
  if (!hasUnknownPhase(rc)) return undefined;
  const phase = rc.metadata?.annotations?.[Annotations.Phase];
  const what = phase === undefined ? 'has no annotation' : `has unknown phase ${quoteUntrusted(phase)} in annotation`;
  return `replication controller "${rc.metadata?.name ?? ''}" ${what} ${Annotations.Phase}, so no controller can move its rollout on; `
    + `set it to one of ${Object.values(Phase).join(', ')}, or run 'rollout cancel' or 'rollout retry'`;
}

/** How many problems a message names; anyone may create RCs that each bring one. */
const MaxProblemsNamed = 3;

/** The problems of these RCs, sorted: the first few, then how many more; undefined when none. */
export function rcProblems(rcs: readonly V1ReplicationController[]): string | undefined {
  const problems = rcs.flatMap((rc) => [rcVersion(rc).problem, rcPhaseProblem(rc)]).filter((p): p is string => p !== undefined).sort();
  if (problems.length === 0) return undefined;
  const more = problems.length - MaxProblemsNamed;
  return problems.slice(0, MaxProblemsNamed).join('; ') + (more > 0 ? `; and ${more} more` : '');
}
