/**
 * Option bags of the CLI itself. The programs it starts own theirs: `ManagerOptions` in
 * src/manager.ts, `DeployCommandOptions` in src/deployer/command.ts.
 */

/** Connection flags every rollout verb accepts. */
export interface GlobalOptions {
  readonly namespace?: string;
  readonly context?: string;
  readonly kubeconfig?: string;
}

/** `-o` values for commands whose output is data. */
export type OutputFormat = 'json' | 'yaml';
