/**
 * The deployer's ports on client-node, for the kubeconfigs only client-node handles (exec and
 * auth-provider plugins, proxies, merged files: see src/kube/rest.ts, which serves every other
 * deployer process) and for `dcctl deploy` run from the full CLI.
 */
import { PassThrough } from 'node:stream';
import {
  Log, Watch, type CoreV1Api, type KubeConfig,
} from '@kubernetes/client-node';
import type { DeployCommandOptions } from '../deployer/command.js';
import type { DeployerDeps, PodLogs } from '../deployer/ports.js';
import { systemDeployerClock } from '../deployer/ports.js';
import { loadKubeConfig } from './client.js';
import { makeClients } from './clients.js';
import { KubeDeployerWatchers } from './deployer-io.js';
import { watchRcWarnings } from './rc-warnings.js';
import { KubeImageStreamClient } from './imagestreams.js';
import type { DeployerLists, WatchLike } from './deployer-io.js';
import { toApiError, wrapApi } from './errors.js';

/** The feeds' LISTs through CoreV1Api. */
export function clientNodeLists(core: CoreV1Api): DeployerLists {
  return {
    replicationControllers: (namespace, selector) => wrapApi(core.listNamespacedReplicationController({ namespace, ...selector })),
    pods: (namespace, selector) => wrapApi(core.listNamespacedPod({ namespace, ...selector })),
  };
}

/** client-node's Watch, its refusals as ApiErrors (it rejects with an Error carrying statusCode). */
export function clientNodeWatch(kc: KubeConfig): WatchLike {
  const watch = new Watch(kc);
  return {
    async watch(path, query, callback, done) {
      try {
        return await watch.watch(path, query, callback, done);
      } catch (err) {
        throw toApiError(err);
      }
    },
  };
}

/** The deployer's ports on client-node, from the kubeconfig (in-cluster in a pod). */
export function clientNodeDeployerDeps(opts: DeployCommandOptions): DeployerDeps {
  const kc = loadKubeConfig({ kubeconfig: opts.kubeconfig, context: opts.context });
  const clients = makeClients(kc, { userAgent: 'dcctl-deployer' });
  const watch = clientNodeWatch(kc);
  const watchers = new KubeDeployerWatchers(clientNodeLists(clients.core), watch, { streamingLists: true });
  return {
    rcs: clients.replicationControllers,
    pods: clients.pods,
    events: clients.events,
    rcWatcher: watchers,
    podWatcher: watchers,
    logs: new KubePodLogs(kc),
    clock: systemDeployerClock,
    imageStreams: new KubeImageStreamClient(clients.customObjects),
    watchRcWarnings: (namespace, resourceVersion) => watchRcWarnings(watch, namespace, resourceVersion),
    close: () => watchers.close(),
  };
}

export class KubePodLogs implements PodLogs {
  private readonly log: Log;

  constructor(kc: KubeConfig) {
    this.log = new Log(kc);
  }

  async follow(namespace: string, pod: string, container: string, out: NodeJS.WritableStream): Promise<void> {
    // Log pipes the body into the stream and ENDS it when the body ends; never hand it `out`.
    const pipe = new PassThrough();
    pipe.on('data', (chunk: Buffer) => out.write(chunk));
    const ended = new Promise<void>((resolve, reject) => {
      pipe.on('end', resolve);
      pipe.on('error', reject);
    });
    try {
      await this.log.log(namespace, pod, container, pipe, { follow: true, timestamps: false });
    } catch (err) {
      pipe.destroy();
      throw toApiError(err);
    }
    await ended;
  }
}

