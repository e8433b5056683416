/**
 * What every strategy of one deployer invocation shares.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import type { DeployerEvents } from './events.js';
import type { HookExecutor } from './hooks.js';
import type { DeployerDeps } from './ports.js';

/** The environment of a strategy run. */
export interface StrategyContext {
  readonly deps: DeployerDeps;
  /** Progress lines (`--> ...`) and hook logs. */
  readonly out: NodeJS.WritableStream;
  /** Non-fatal errors. */
  readonly errOut: NodeJS.WritableStream;
  /** The `--until` condition, '' when absent. */
  readonly until: string;
  readonly events: DeployerEvents;
  readonly hooks: HookExecutor;
}

/** A rollout strategy: moves replicas from `from` (the last Complete RC, if any) to `to`. */
export interface DeploymentStrategy {
  deploy(from: V1ReplicationController | undefined, to: V1ReplicationController, desiredReplicas: number): Promise<void>;
}
