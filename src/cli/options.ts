/**
 * Option bags shared between the CLI and the programs it starts. The manager imports
 * `ManagerOptions` from here so the flag set and the runtime contract cannot drift apart.
 */

/** Flags of `dcctl controller`, passed unchanged to `runManager`. */
export interface ManagerOptions {
  readonly kubeconfig?: string;
  readonly context?: string;
  /** Watch scope; undefined means all namespaces. */
  readonly namespace?: string;
  readonly workers: number;
  readonly deployerImage?: string;
  readonly deployerCommand?: string[];
  readonly deployerServiceAccount: string;
  /** Create the deployer service account and role binding in a namespace on first use (default true). */
  readonly manageDeployerAccess?: boolean;
  readonly enableDcController: boolean;
  readonly enableDeployerController: boolean;
  /** Run the image trigger controller (needs the ImageStream CRD; default true). */
  readonly enableImageTriggerController?: boolean;
  readonly leaderElect: boolean;
  readonly leaderElectionNamespace?: string;
  readonly metricsBindAddress: string;
  /** Seconds between informer resyncs (default 600, as OpenShift's controllers). */
  readonly resyncSeconds?: number;
  readonly logLevel: string;
  readonly logFormat: 'json' | 'pretty';
}

/** Flags of `dcctl deploy` (the program inside the deployer pod). */
export interface DeployCommandOptions {
  readonly name: string;
  readonly namespace: string;
  readonly until?: string;
  readonly kubeconfig?: string;
  readonly context?: string;
}

/** Connection flags every rollout verb accepts. */
export interface GlobalOptions {
  readonly namespace?: string;
  readonly context?: string;
  readonly kubeconfig?: string;
}

/** `-o` values for commands whose output is data. */
export type OutputFormat = 'json' | 'yaml';
