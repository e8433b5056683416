/**
 * KubeConfig loading and API client construction. Unlike client-node's `loadFromDefault`, which
 * silently falls back to http://localhost:8080, loading here fails loudly when no cluster resolves.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Agent as HttpsAgent } from 'node:https';
import { createSecureContext } from 'node:tls';
import {
  KubeConfig,
  ServerConfiguration,
  createConfiguration,
  setHeaderMiddleware,
  type Configuration,
  type RequestContext,
  type SecurityAuthentication,
} from '@kubernetes/client-node';

export { KubeConfigError, type LoadKubeConfigOptions } from './config-errors.js';
import { KubeConfigError, type LoadKubeConfigOptions } from './config-errors.js';

const SaTokenPath = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/**
 * Loads a KubeConfig in this order: explicit `kubeconfig` path, `$KUBECONFIG` (":"-separated,
 * merged), `~/.kube/config`, then the in-cluster service account. Throws `KubeConfigError` when
 * nothing is found, when `context` does not exist, or when the chosen context has no cluster
 * server.
 */
export function loadKubeConfig(opts: LoadKubeConfigOptions = {}): KubeConfig {
  const env = opts.env ?? process.env;
  const kc = new KubeConfig();
  try {
    if (opts.inCluster) {
      loadInCluster(kc, env);
    } else if (opts.kubeconfig) {
      if (!existsSync(opts.kubeconfig)) throw new KubeConfigError(`kubeconfig file ${opts.kubeconfig} does not exist`);
      kc.loadFromFile(opts.kubeconfig);
    } else if (env['KUBECONFIG']) {
      const files = env['KUBECONFIG'].split(':').filter((f) => f !== '' && existsSync(f));
      const [first, ...rest] = files;
      if (first === undefined) throw new KubeConfigError(`no file of KUBECONFIG=${env['KUBECONFIG']} exists`);
      kc.loadFromFile(first);
      for (const f of rest) {
        const other = new KubeConfig();
        other.loadFromFile(f);
        // kubectl semantics: the first file that sets current-context wins.
        kc.mergeConfig(other, kc.currentContext !== '');
      }
    } else {
      const defaultPath = join(opts.home ?? homedir(), '.kube', 'config');
      if (existsSync(defaultPath)) {
        kc.loadFromFile(defaultPath);
      } else if (env['KUBERNETES_SERVICE_HOST']) {
        loadInCluster(kc, env);
      } else {
        throw new KubeConfigError(
          `no cluster configuration found: pass --kubeconfig, set KUBECONFIG, create ${defaultPath}, or run in a pod`,
        );
      }
    }
  } catch (err) {
    if (err instanceof KubeConfigError) throw err;
    throw new KubeConfigError(`cannot load kubeconfig: ${(err as Error).message}`, { cause: err });
  }

  if (opts.context) {
    if (!kc.getContextObject(opts.context)) throw new KubeConfigError(`context "${opts.context}" not found in kubeconfig`);
    kc.setCurrentContext(opts.context);
  }
  const server = kc.getCurrentCluster()?.server;
  if (!server) {
    throw new KubeConfigError(`context "${kc.getCurrentContext()}" has no cluster with a server URL`);
  }
  return kc;
}

function loadInCluster(kc: KubeConfig, env: NodeJS.ProcessEnv): void {
  if (!env['KUBERNETES_SERVICE_HOST'] || !existsSync(SaTokenPath)) {
    throw new KubeConfigError('not running in a cluster: KUBERNETES_SERVICE_HOST or the service account token is missing');
  }
  kc.loadFromCluster();
}

/** The namespace of the current context, or the pod's namespace in-cluster, else `default`. */
export function currentNamespace(kc: KubeConfig): string {
  return kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default';
}

/** Anything with the generated API classes' constructor shape. */
export type ApiConstructor<T> = new (config: Configuration) => T;

/**
 * Builds a typed API client like `kc.makeApiClient`, optionally sending `userAgent` on every
 * request (client-node has no per-client option for it).
 */
export function makeApiClient<T>(kc: KubeConfig, api: ApiConstructor<T>, opts: { userAgent?: string } = {}): T {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new KubeConfigError('no active cluster');
  const config = createConfiguration({
    baseServer: new ServerConfiguration(server, {}),
    authMethods: { default: keepAliveAuthentication(kc) },
    middleware: opts.userAgent ? [setHeaderMiddleware('User-Agent', opts.userAgent)] : [],
  });
  return new api(config);
}

const sharedAgents = new WeakMap<KubeConfig, HttpsAgent>();

/**
 * client-node 1.x builds a new https.Agent for every request (KubeConfig.applySecurityAuthentication),
 * so every request opened a new TCP and TLS connection and parsed the client key again: in a CPU
 * profile of the controller at 100 pod-less rollouts, TLS set-up was about half of its CPU. This
 * lets client-node set the headers and build its agent as before (tokens from exec plugins and
 * in-cluster files stay fresh), then swaps in one keep-alive agent per KubeConfig built from the
 * same TLS options. Proxy agents (cluster.proxyUrl) and plain HTTP are left as client-node made them.
 *
 * The agent also gets one TLS context built from those options: without it Node builds a new one
 * (parsing the CA bundle, certificate and private key) for every connection the pool opens, and
 * a burst of syncs opens several (one per request in flight). In a CPU profile of the controller
 * during 10 concurrent pod-less rollouts, connection set-up was a quarter of its busy time, the
 * context builds alone about 12 %.
 */
export function keepAliveAuthentication(kc: KubeConfig): SecurityAuthentication {
  return {
    getName: () => kc.getName(),
    async applySecurityAuthentication(context: RequestContext): Promise<void> {
      await kc.applySecurityAuthentication(context);
      const built = context.getAgent();
      if (kc.getCurrentCluster()?.proxyUrl || !(built instanceof HttpsAgent) || built.constructor !== HttpsAgent) return;
      let agent = sharedAgents.get(kc);
      if (!agent) {
        agent = new HttpsAgent({ ...built.options, keepAlive: true, secureContext: createSecureContext(built.options) });
        sharedAgents.set(kc, agent);
      }
      context.setAgent(agent);
    },
  };
}
