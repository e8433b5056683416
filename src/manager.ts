/**
 * `dcctl controller`: runs the DeploymentConfig controller, the deployer controller and the
 * image trigger controller in one process, behind a Lease-based leader election, with /metrics, /healthz and /readyz.
 *
 * Lifecycle: campaign for the lease → on leading, start informers, wait for their first lists,
 * start the workers → on SIGTERM/SIGINT, stop taking work, finish in-flight syncs, stop the
 * informers, release the lease (so a standby takes over at once), exit 0. Losing the lease
 * unexpectedly exits non-zero at once, as client-go controllers do, so two replicas never act.
 */
import type { KubernetesObject, V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { Group, Labels, Plural, Version } from './apis/constants.js';
import type { DeploymentConfig } from './apis/deploymentconfig.js';
import { ImageGroup, ImageStreamPlural, ImageVersion, type ImageStream } from './apis/imagestream.js';
import type { ManagerOptions } from './cli/options.js';
import { ActionableError } from './controller/errors.js';
import { systemClock } from './controller/ports.js';
import { MutationCache } from './controller/mutation-cache.js';
import { recordingDcClient, recordingRcClient } from './controller/recording-clients.js';
import { Controller } from './controller/runner.js';
import { WorkQueue } from './controller/workqueue.js';
import { wireDeployerController } from './deployer-controller/controller.js';
import { onDeployerDropped, syncDeployment } from './deployer-controller/sync.js';
import { wireDeploymentConfigController } from './deploymentconfig/controller.js';
import { indexedRcsForDc, rcIndexers } from './deploymentconfig/rc-index.js';
import { syncDeploymentConfig } from './deploymentconfig/sync.js';
import { wireImageTriggerController } from './image/controller.js';
import { tagResolverFor } from './image/resolve.js';
import { syncImageTriggerKey } from './image/sync.js';
import { loadKubeConfig } from './kube/client.js';
import { makeClients } from './kube/clients.js';
import { DeployerAccessProvisioner } from './kube/deployer-access.js';
import { KubeImageStreamClient } from './kube/imagestreams.js';
import { KubeEventRecorder } from './kube/events.js';
import { createInformer, stripManagedFields, type Informer, type ListResult } from './kube/informer.js';
import { createLeaderElector } from './kube/leader-election.js';
import { Metrics } from './metrics.js';
import { splitKey } from './util/keys.js';

const DefaultResyncSeconds = 10 * 60;

/** The controller's release, logged on every line (package.json sits one level above src/ and dist/). */
const ControllerVersion = ((): string => {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();
export const DefaultDeployerImage = 'ghcr.io/deploymentconfig-controller/dcctl:latest';

export function makeLogger(level: string, format: 'json' | 'pretty'): Logger {
  if (format === 'pretty') {
    return pino({ level, transport: { target: 'pino-pretty', options: { destination: 2, translateTime: 'SYS:HH:MM:ss.l' } } });
  }
  return pino({ level }, pino.destination(2));
}

function parseBindAddress(addr: string): { host?: string; port: number } | undefined {
  if (addr === '0' || addr === '') return undefined;
  const idx = addr.lastIndexOf(':');
  const port = Number.parseInt(idx >= 0 ? addr.slice(idx + 1) : addr, 10);
  const host = idx > 0 ? addr.slice(0, idx) : undefined;
  if (!Number.isInteger(port) || port <= 0) throw new Error(`invalid --metrics-bind-address "${addr}"`);
  return host ? { host, port } : { port };
}

/** Runs until a signal or a fatal error; resolves with the process exit code. */
export async function runManager(opts: ManagerOptions): Promise<number> {
  const log = makeLogger(opts.logLevel, opts.logFormat).child({ version: ControllerVersion });
  const kc = loadKubeConfig({ kubeconfig: opts.kubeconfig, context: opts.context });
  const metrics = new Metrics();
  const userAgent = 'deploymentconfig-controller';
  const clients = makeClients(kc, { fieldManager: 'deploymentconfig-controller', userAgent });
  const ns = opts.namespace;
  const resyncSeconds = opts.resyncSeconds ?? DefaultResyncSeconds;
  if (!Number.isFinite(resyncSeconds) || resyncSeconds < 1) throw new Error(`invalid --resync-period ${resyncSeconds}: want seconds >= 1`);
  const resyncMs = resyncSeconds * 1000;
  const identity = `${hostname()}_${randomUUID()}`;

  const dcPath = ns ? `/apis/${Group}/${Version}/namespaces/${ns}/${Plural}` : `/apis/${Group}/${Version}/${Plural}`;
  const dcInformer = createInformer<DeploymentConfig & KubernetesObject>(kc, {
    path: dcPath,
    list: async () => (ns
      ? clients.customObjects.listNamespacedCustomObject({ group: Group, version: Version, namespace: ns, plural: Plural })
      : clients.customObjects.listClusterCustomObject({ group: Group, version: Version, plural: Plural })) as Promise<ListResult<DeploymentConfig & KubernetesObject>>,
    resyncMs,
    transform: stripManagedFields,
    log: log.child({ informer: 'deploymentconfigs' }),
  });
  const rcInformer = createInformer<V1ReplicationController>(kc, {
    indexers: rcIndexers,
    path: ns ? `/api/v1/namespaces/${ns}/replicationcontrollers` : '/api/v1/replicationcontrollers',
    list: async () => (ns
      ? clients.core.listNamespacedReplicationController({ namespace: ns })
      : clients.core.listReplicationControllerForAllNamespaces()) as Promise<ListResult<V1ReplicationController>>,
    resyncMs,
    transform: stripManagedFields,
    log: log.child({ informer: 'replicationcontrollers' }),
  });
  // Only deployer and hook pods are cached (they carry this label): the deployer controller
  // never needs application pods, and caching every pod of a cluster costs memory for nothing.
  const podSelector = Labels.DeployerPodFor;
  const podInformer = createInformer<V1Pod>(kc, {
    path: ns ? `/api/v1/namespaces/${ns}/pods` : '/api/v1/pods',
    labelSelector: podSelector,
    list: async () => (ns
      ? clients.core.listNamespacedPod({ namespace: ns, labelSelector: podSelector })
      : clients.core.listPodForAllNamespaces({ labelSelector: podSelector })) as Promise<ListResult<V1Pod>>,
    resyncMs,
    transform: stripManagedFields,
    log: log.child({ informer: 'pods' }),
  });
  // ImageStreams are cached only when the image trigger controller runs: a cluster without the
  // ImageStream CRD can run the other controllers with --enable-image-trigger-controller=false.
  const imageTriggers = opts.enableImageTriggerController !== false;
  const isCoords = { group: ImageGroup, version: ImageVersion, plural: ImageStreamPlural };
  const streamInformer = createInformer<ImageStream & KubernetesObject>(kc, {
    path: ns ? `/apis/${ImageGroup}/${ImageVersion}/namespaces/${ns}/${ImageStreamPlural}` : `/apis/${ImageGroup}/${ImageVersion}/${ImageStreamPlural}`,
    list: async () => (ns
      ? clients.customObjects.listNamespacedCustomObject({ ...isCoords, namespace: ns })
      : clients.customObjects.listClusterCustomObject(isCoords)) as Promise<ListResult<ImageStream & KubernetesObject>>,
    resyncMs,
    transform: stripManagedFields,
    log: log.child({ informer: 'imagestreams' }),
  });
  const informers: Informer<KubernetesObject>[] = [];
  if (opts.enableDcController || imageTriggers) informers.push(dcInformer as Informer<KubernetesObject>);
  if (imageTriggers) informers.push(streamInformer as Informer<KubernetesObject>);
  informers.push(rcInformer as Informer<KubernetesObject>);
  if (opts.enableDeployerController) informers.push(podInformer as Informer<KubernetesObject>);
  metrics.registerRolloutMetrics(rcInformer);

  const controllers: Controller[] = [];
  const instrumented = {
    dcs: metrics.instrument(clients.deploymentConfigs, 'deploymentconfigs'),
    rcs: metrics.instrument(clients.replicationControllers, 'replicationcontrollers'),
    pods: metrics.instrument(clients.pods, 'pods'),
    events: metrics.instrument(clients.events, 'events'),
    streams: metrics.instrument(new KubeImageStreamClient(clients.customObjects, 'deploymentconfig-controller'), 'imagestreams'),
  };
  // Our own writes, visible to every sync before their watch events arrive (no 409s from
  // deciding on the state before our last write).
  const dcCache = new MutationCache<DeploymentConfig>(dcInformer, systemClock);
  const rcCache = new MutationCache<V1ReplicationController>(rcInformer, systemClock);
  const writers = {
    dcs: recordingDcClient(instrumented.dcs, dcCache),
    rcs: recordingRcClient(instrumented.rcs, rcCache),
  };
  const timed = (controller: string, fn: (key: string, ctx: { willBeDropped: boolean }) => Promise<void>) =>
    async (key: string, ctx: { willBeDropped: boolean }) => {
      const end = metrics.syncDuration.startTimer({ controller });
      try {
        await fn(key, ctx);
        end({ result: 'success' });
      } catch (err) {
        end({ result: 'error' });
        throw err;
      }
    };

  if (opts.enableDcController) {
    const queue = new WorkQueue({ name: 'deploymentconfig', metrics: metrics.queue('deploymentconfig') });
    const recorder = new KubeEventRecorder({ client: instrumented.events, component: 'deploymentconfig-controller', host: hostname(), log });
    const dlog = log.child({ controller: 'deploymentconfig' });
    wireDeploymentConfigController({ dcs: dcInformer, rcs: rcInformer, dcLister: dcInformer, queue });
    controllers.push(new Controller({
      name: 'deploymentconfig', queue, workers: opts.workers, log,
      sync: timed('deploymentconfig', (key) => syncDeploymentConfig({
        dcLister: dcCache, rcLister: rcCache, dcClient: writers.dcs, rcClient: writers.rcs,
        // Every line of one sync names the object it is about.
        recorder, clock: systemClock, log: dlog.child(splitKey(key)),
        resolveImageTag: imageTriggers ? tagResolverFor((n, name) => streamInformer.get(n, name)) : undefined,
        rcsForDc: indexedRcsForDc(rcInformer, rcCache),
      }, key)),
    }));
  }
  if (imageTriggers) {
    const queue = new WorkQueue({ name: 'imagetrigger', metrics: metrics.queue('imagetrigger') });
    const ilog = log.child({ controller: 'imagetrigger' });
    wireImageTriggerController({ dcs: dcInformer, streams: streamInformer, streamLister: streamInformer, queue });
    controllers.push(new Controller({
      // OpenShift retries trigger updates forever (capped backoff): a DC must never stay stale.
      name: 'imagetrigger', queue, workers: opts.workers, log, maxRetries: Number.POSITIVE_INFINITY,
      sync: timed('imagetrigger', (key) => syncImageTriggerKey({
        dcLister: dcCache, streamLister: streamInformer, dcClient: writers.dcs, streamClient: instrumented.streams,
        clock: systemClock, log: ilog,
      }, key)),
    }));
  }
  if (opts.enableDeployerController) {
    const queue = new WorkQueue({ name: 'deployer', metrics: metrics.queue('deployer') });
    const recorder = new KubeEventRecorder({ client: instrumented.events, component: 'deployer-controller', host: hostname(), log });
    const dlog = log.child({ controller: 'deployer' });
    const deps = {
      rcLister: rcCache, podLister: podInformer, rcClient: writers.rcs, podClient: instrumented.pods,
      recorder, clock: systemClock, log: dlog,
      ensureDeployerAccess: opts.manageDeployerAccess === false ? undefined : (() => {
        const provisioner = new DeployerAccessProvisioner(kc, opts.deployerServiceAccount, userAgent);
        return (namespace: string) => provisioner.ensure(namespace);
      })(),
      options: {
        deployerImage: opts.deployerImage ?? DefaultDeployerImage,
        deployerCommand: opts.deployerCommand,
        serviceAccount: opts.deployerServiceAccount,
      },
    };
    wireDeployerController({ rcs: rcInformer, pods: podInformer, rcLister: rcInformer, queue });
    controllers.push(new Controller({
      name: 'deployer', queue, workers: opts.workers, log,
      sync: timed('deployer', (key, ctx) => syncDeployment(deps, key, ctx.willBeDropped)),
      onDropped: (key, err) => {
        if (err instanceof ActionableError) onDeployerDropped(deps, key, err);
      },
    }));
  }

  let ready = false;
  let server: Server | undefined;
  const bind = parseBindAddress(opts.metricsBindAddress);
  if (bind) {
    server = createServer((req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/healthz') || url.startsWith('/livez')) { res.writeHead(200).end('ok'); return; }
      if (url.startsWith('/readyz')) {
        // A standby replica is ready (it serves probes and waits for the lease); a leader is
        // ready once its caches have synced.
        // Without leader election there is no standby state: ready only once the caches synced
        // (an informer that cannot list, e.g. a missing CRD, must not look healthy).
        const ok = elector ? !elector.isLeader() || ready : ready;
        res.writeHead(ok ? 200 : 503).end(ok ? 'ok' : 'caches not synced');
        return;
      }
      if (url.startsWith('/metrics')) {
        metrics.registry.metrics().then(
          (body) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(body),
          (err: unknown) => res.writeHead(500).end(String(err)),
        );
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(bind.port, bind.host, () => resolve());
    });
    log.info({ address: opts.metricsBindAddress }, 'Serving /metrics, /healthz and /readyz');
  }

  const startControllers = async () => {
    log.info({ namespace: ns ?? '(all)', identity }, 'Starting informers');
    await Promise.all(informers.map((i) => i.start()));
    ready = true;
    log.info('Caches synced; starting workers');
    for (const c of controllers) await c.run();
  };
  const stopControllers = async () => {
    await Promise.all(controllers.map((c) => c.shutdown()));
    for (const i of informers) i.stop();
  };

  const leaseNamespace = opts.leaderElectionNamespace ?? ns ?? 'default';
  const elector = opts.leaderElect
    ? createLeaderElector(kc, { namespace: leaseNamespace, name: 'deploymentconfig-controller', identity, log: log.child({ component: 'leader-election' }) })
    : undefined;

  return new Promise<number>((resolve) => {
    let stopping = false;
    const finish = async (code: number, reason: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ reason }, 'Shutting down: finishing in-flight syncs');
      await stopControllers().catch((err: unknown) => log.error({ err }, 'Stopping controllers failed'));
      if (elector) await elector.release().catch((err: unknown) => log.error({ err }, 'Releasing the lease failed'));
      metrics.leader.set(0);
      await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
      log.info('Stopped');
      log.flush?.();
      resolve(code);
    };
    process.once('SIGTERM', () => void finish(0, 'SIGTERM'));
    process.once('SIGINT', () => void finish(0, 'SIGINT'));

    if (!elector) {
      startControllers().catch((err: unknown) => { log.error({ err }, 'Start failed'); void finish(1, 'start failed'); });
      return;
    }
    elector.run({
      onStartedLeading: async () => {
        metrics.leader.set(1);
        await startControllers().catch((err: unknown) => { log.error({ err }, 'Start failed'); void finish(1, 'start failed'); });
      },
      onStoppedLeading: () => {
        metrics.leader.set(0);
        if (!stopping) {
          log.error('Lost the leader lease; exiting so that only the new leader acts');
          log.flush?.();
          process.exit(1);
        }
      },
      onNewLeader: (holder) => log.info({ leader: holder }, 'Observed leader'),
    }).catch((err: unknown) => { log.error({ err }, 'Leader election failed'); void finish(1, 'leader election failed'); });
  });
}
