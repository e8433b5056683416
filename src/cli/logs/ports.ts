/** What `dcctl logs` reaches outside itself; `src/kube/logs-io.ts` implements it. */
import type { CoreV1Event, V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../../apis/deploymentconfig.js';
import type { OutputStreams } from '../output.js';

/** pods/log options, as the API takes them. */
export interface PodLogOptions {
  readonly follow: boolean;
  readonly timestamps: boolean;
  readonly tailLines?: number;
}

export interface LogsContext extends OutputStreams {
  readonly namespace: string;
  getDc(name: string): Promise<DeploymentConfig>;
  /** undefined when the RC does not exist. */
  findRc(name: string): Promise<V1ReplicationController | undefined>;
  /** Pods matching a label selector. */
  listPods(labelSelector: string): Promise<V1Pod[]>;
  /** GET pods/log, written to `out` as it arrives; resolves when the log (or the follow) ends. */
  streamPodLog(pod: string, container: string, opts: PodLogOptions): Promise<void>;
  /** Events about one object (involvedObject.name). */
  listEvents(objectName: string): Promise<CoreV1Event[]>;
  sleep(ms: number): Promise<void>;
}
