/** Builds the production SetContext from the connection flags (client-node loaded lazily). */
import type { GlobalOptions } from '../options.js';
import type { OutputStreams } from '../output.js';
import type { SetContext } from './ports.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text;
}

export async function makeKubeSetContext(global: GlobalOptions, streams: OutputStreams): Promise<SetContext> {
  const { loadKubeConfig, currentNamespace } = await import('../../kube/client.js');
  const { makeSetIo } = await import('../../kube/set-io.js');
  const kc = loadKubeConfig({ kubeconfig: global.kubeconfig, context: global.context });
  // kubectl's field manager for `set` verbs, so managedFields read the same as after `oc set`.
  const io = makeSetIo(kc, 'kubectl-set');
  const namespace = global.namespace || currentNamespace(kc);
  return {
    ...streams,
    namespace,
    getDc: (name) => io.getDc(namespace, name),
    patchDc: (name, patch, opts) => io.patchDc(namespace, name, patch, opts.dryRun),
    sourceKeys: (kind, name) => io.sourceKeys(namespace, kind, name),
    readStdin: () => readAll(process.stdin),
  };
}
