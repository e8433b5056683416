/**
 * The kubeconfig loaders' options and error, shared by loadKubeConfig (client-node, src/kube/client.ts)
 * and loadRestConfig (the deployer's own client, src/kube/rest.ts), without importing client-node.
 */

/** Raised when no usable cluster configuration can be found; the message says what was tried. */
export class KubeConfigError extends Error {
  override readonly name = 'KubeConfigError';
}

export interface LoadKubeConfigOptions {
  /** Path to a kubeconfig file; wins over $KUBECONFIG and ~/.kube/config. */
  readonly kubeconfig?: string;
  /** Context to use instead of the file's current-context. */
  readonly context?: string;
  /** Use the pod's service account only, ignoring kubeconfig files. */
  readonly inCluster?: boolean;
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** @default os.homedir() */
  readonly home?: string;
}
