/**
 * What CLI commands need from the outside world. Commands take a CliContext, so unit tests run
 * them against in-memory fakes; `context.ts` builds the real one from a kubeconfig.
 */
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import type { Clock, DeploymentConfigClient, PodClient, ReplicationControllerClient } from '../controller/ports.js';
import type { OutputStreams } from './output.js';

/**
 * Yields the DC each time it may have changed (first value immediately) until `signal` aborts,
 * then returns. Errors from the API (NotFound, Forbidden) are thrown from the iterator.
 */
export type WatchDeploymentConfig = (namespace: string, name: string, signal: AbortSignal) => AsyncIterable<DeploymentConfig>;

/** Everything a rollout verb touches. */
export interface CliContext extends OutputStreams {
  readonly namespace: string;
  readonly dcs: DeploymentConfigClient;
  readonly rcs: ReplicationControllerClient;
  readonly pods: PodClient;
  readonly watchDc: WatchDeploymentConfig;
  readonly clock: Clock;
  /** Generates instantiate request ids (a UUID in production). */
  readonly newId: () => string;
  /** `dcctl` or `kubectl dc`: used in hints such as "use 'dcctl rollout latest web'". */
  readonly commandName: string;
}
