/**
 * Builds the production CliContext from the connection flags. client-node is loaded lazily so
 * `--help` and `completion` stay fast and work without a kubeconfig.
 */
import { randomUUID } from 'node:crypto';
import { systemClock } from '../controller/ports.js';
import type { GlobalOptions } from './options.js';
import type { OutputStreams } from './output.js';
import type { CliContext } from './ports.js';
import { pollingWatch } from './watch.js';

/** Loads the kubeconfig (`--kubeconfig`, `--context`) and wires the real clients. */
export async function makeKubeContext(global: GlobalOptions, streams: OutputStreams, commandName: string): Promise<CliContext> {
  const { loadKubeConfig, currentNamespace } = await import('../kube/client.js');
  const { makeClients } = await import('../kube/clients.js');
  const kc = loadKubeConfig({ kubeconfig: global.kubeconfig, context: global.context });
  const clients = makeClients(kc, { fieldManager: 'dcctl', userAgent: 'dcctl' });
  return {
    ...streams,
    namespace: global.namespace || currentNamespace(kc),
    dcs: clients.deploymentConfigs,
    rcs: clients.replicationControllers,
    pods: clients.pods,
    watchDc: pollingWatch(clients.deploymentConfigs),
    clock: systemClock,
    newId: randomUUID,
    commandName,
  };
}
