/** What the `set` verbs reach outside themselves; `src/kube/set-io.ts` implements it. */
import type { DeploymentConfig } from '../../apis/deploymentconfig.js';
import type { OutputStreams } from '../output.js';

export interface SetContext extends OutputStreams {
  readonly namespace: string;
  getDc(name: string): Promise<DeploymentConfig>;
  /** Merge-patches the DC; `dryRun` sends dryRun=All (the server validates, nothing is stored). */
  patchDc(name: string, patch: unknown, opts: { dryRun: boolean }): Promise<DeploymentConfig>;
  /** The data keys of a Secret or ConfigMap (for `set env --from`). */
  sourceKeys(kind: 'secret' | 'configmap', name: string): Promise<string[]>;
  /** Standard input, read only for `set env -e -`. */
  readStdin(): Promise<string>;
}
