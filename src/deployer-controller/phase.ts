/**
 * The rollout phase state machine of an RC (`openshift.io/deployment.phase`), as library-go
 * `appsutil.CanTransitionPhase` and the deployer controller's `nextStatus` define it.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { Phase, type DeploymentPhase } from '../apis/constants.js';

/**
 * Whether a rollout may move from `current` to `next`. Only forward moves are allowed and a phase
 * never "moves" to itself, so the deployer controller writes the RC only when this is true.
 * Unknown or missing phases (a hand-edited annotation) allow nothing, which leaves such an RC
 * alone instead of guessing.
 */
export function canTransitionPhase(current: string | undefined, next: string | undefined): boolean {
  switch (current) {
    case Phase.New:
      return next === Phase.Pending || next === Phase.Running || next === Phase.Failed || next === Phase.Complete;
    case Phase.Pending:
      return next === Phase.Running || next === Phase.Failed || next === Phase.Complete;
    case Phase.Running:
      return next === Phase.Failed || next === Phase.Complete;
    default:
      return false;
  }
}

/**
 * Rollout phase implied by the deployer pod's phase: Pending→Pending, Running→Running,
 * Succeeded→Complete, Failed→Failed; anything else (Unknown, empty) → New, which is never a valid
 * forward transition and so changes nothing. The annotation side effects OpenShift applies on
 * Succeeded/Failed live in sync.ts.
 */
export function nextStatus(pod: V1Pod): DeploymentPhase {
  switch (pod.status?.phase) {
    case 'Pending':
      return Phase.Pending;
    case 'Running':
      return Phase.Running;
    case 'Succeeded':
      return Phase.Complete;
    case 'Failed':
      return Phase.Failed;
    default:
      return Phase.New;
  }
}

/**
 * `nextStatusComp`: the phase derived from an adopted deployer pod if moving there from
 * `fromPath` is allowed, else `fromPath` itself.
 */
export function nextStatusComp(fromDeployer: string | undefined, fromPath: DeploymentPhase): string {
  return canTransitionPhase(fromPath, fromDeployer) && fromDeployer !== undefined ? fromDeployer : fromPath;
}

/** True for the terminal phases Complete and Failed. */
export const isTerminalPhase = (phase: string | undefined): boolean => phase === Phase.Complete || phase === Phase.Failed;
