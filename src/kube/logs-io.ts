/**
 * `dcctl logs` I/O (src/cli/logs/ports.ts) against the API server. pods/log is read with
 * node:https and the kubeconfig's credentials (`applyToFetchOptions`) rather than client-node's
 * `Log`, which drops the API server's error message for 4xx answers ("Error occurred in log
 * request") — and that message is what tells a user why a log cannot be read.
 */
import https from 'node:https';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import type { LogsContext } from '../cli/logs/ports.js';
import type { OutputStreams } from '../cli/output.js';
import { ApiError, isNotFound } from '../controller/errors.js';
import { makeApiClient } from './client.js';
import { makeClients } from './clients.js';
import { wrapApi } from './errors.js';
import { toPlain } from './plain.js';
import { sleep } from '../util/sleep.js';

export function makeLogsContext(kc: KubeConfig, namespace: string, streams: OutputStreams): LogsContext {
  const clients = makeClients(kc, { userAgent: 'dcctl' });
  const core = makeApiClient(kc, CoreV1Api, { userAgent: 'dcctl' });
  return {
    ...streams,
    namespace,
    getDc: (name) => clients.deploymentConfigs.get(namespace, name),
    async findRc(name) {
      try {
        return await clients.replicationControllers.get(namespace, name);
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    listPods: (labelSelector) => clients.pods.list(namespace, labelSelector),
    async streamPodLog(pod, container, opts) {
      const server = kc.getCurrentCluster()?.server ?? '';
      const url = new URL(`${server}/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log`);
      url.searchParams.set('container', container);
      if (opts.follow) url.searchParams.set('follow', 'true');
      if (opts.timestamps) url.searchParams.set('timestamps', 'true');
      if (opts.tailLines !== undefined) url.searchParams.set('tailLines', String(opts.tailLines));
      const init = await kc.applyToFetchOptions({});
      const headers: Record<string, string> = { 'User-Agent': 'dcctl' };
      new Headers(init.headers as Record<string, string> | undefined).forEach((v, k) => { headers[k] = v; });
      await new Promise<void>((resolve, reject) => {
        const req = https.get(url, { agent: init.agent as https.Agent | undefined, headers }, (res) => {
          if (res.statusCode === 200) {
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => streams.out.write(chunk));
            res.on('end', resolve);
            res.on('error', reject);
            return;
          }
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => { body += chunk; });
          res.on('end', () => reject(statusError(res.statusCode ?? 0, body)));
        });
        req.on('error', reject);
      });
    },
    async listEvents(objectName) {
      const list = await wrapApi(core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.name=${objectName}` }));
      return list.items.map((e) => toPlain(e));
    },
    sleep: (ms) => sleep(ms),
  };
}

/** The API server's Status (JSON) or plain-text answer as a typed ApiError. */
function statusError(code: number, body: string): ApiError {
  try {
    const status = JSON.parse(body) as { message?: string; reason?: string; code?: number };
    return new ApiError(status.message || `HTTP ${code}`, status.code ?? code, status.reason || undefined);
  } catch {
    return new ApiError(body.trim().slice(0, 500) || `HTTP ${code}`, code, undefined);
  }
}
