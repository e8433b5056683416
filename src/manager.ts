/**
 * `dcctl controller`: composes the DeploymentConfig controller, the deployer controller and the
 * image trigger controller in one process, behind a Lease-based leader election, with /metrics,
 * /healthz and /readyz. Each controller is constructed in its own folder; this file only builds
 * the shared parts (clients, informer factory, metrics), composes and runs.
 *
 * Lifecycle: campaign for the lease → on leading, start informers, wait for their first lists,
 * start the workers → on SIGTERM/SIGINT, stop taking work, finish in-flight syncs, stop the
 * informers, release the lease (so a standby takes over at once), exit 0. Losing the lease
 * unexpectedly exits non-zero at once, as client-go controllers do, so two replicas never act.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { pino, type Logger } from 'pino';
import type { V1ReplicationController, V1RoleBinding, V1ServiceAccount } from '@kubernetes/client-node';
import type { DeploymentConfig } from './apis/deploymentconfig.js';
import { DeploymentConfigs, deployerRoleBindings, deployerServiceAccounts, ReplicationControllers } from './apis/resources.js';
import { MutationCache } from './controller/mutation-cache.js';
import { recordingDcClient, recordingRcClient } from './controller/recording-clients.js';
import { systemClock } from './controller/ports.js';
import type { Controller, ControllerContext } from './controller/runner.js';
import { newDeployerController } from './deployer-controller/controller.js';
import { newDeploymentConfigController } from './deploymentconfig/controller.js';
import { indexedRcsForDc, rcIndexers } from './deploymentconfig/rc-index.js';
import { newImageTriggerController } from './image/controller.js';
import { allowAllCrossNamespace, denyAllCrossNamespace, type CrossNamespaceGate } from './image/cross-namespace.js';
import { restControllerKube, type ControllerKube } from './kube/controller-kube.js';
import { RestClient, loadRestConfig } from './kube/rest.js';
import { AdmissionPolicyGate } from './kube/cross-namespace-gate.js';
import { DeployerAccessProvisioner, DeployerRoleBinding } from './kube/deployer-access.js';
import { deployerImageStreamClients } from './kube/deployer-imagestreams.js';
import { KubeEventRecorder } from './kube/events.js';
import { InformerFactory } from './kube/informer-factory.js';
import { LeaderElector } from './kube/leader-election.js';
import { KubeMetricsAccessReview, startMetricsServer } from './kube/metrics-server.js';
import { Metrics } from './metrics.js';
import type { WebhookServer } from './webhook/server.js';
import { DefaultCrossNamespaceMode, DefaultCrossNamespacePolicy, parseBindAddress, statusBatchMs, type ManagerOptions } from './manager-options.js';

export type { ManagerOptions } from './manager-options.js';

const Component = 'deploymentconfig-controller';

/** The controller's release, logged on every line (package.json sits one level above src/ and dist/). */
const ControllerVersion = ((): string => {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();

export function makeLogger(level: string, format: 'json' | 'pretty'): Logger {
  if (format === 'pretty') {
    return pino({ level, transport: { target: 'pino-pretty', options: { destination: 2, translateTime: 'SYS:HH:MM:ss.l' } } });
  }
  return pino({ level }, pino.destination(2));
}

/**
 * The controller's API calls: on the small JSON client whenever the kubeconfig allows (the
 * syncs' writes, the informers' lists and watches, the lease: src/kube/rest-clients.ts says why),
 * on client-node for exec/auth-provider plugins, proxies and merged kubeconfigs, imported only
 * then (src/kube/controller-kube.ts says why). API mode (docs/apiserver.md): DCs are read
 * and written in their storage group, never through the aggregated API server.
 */
async function controllerKube(opts: ManagerOptions): Promise<ControllerKube> {
  const kubeOptions = { fieldManager: Component, dcGroup: opts.dcGroup };
  const restConfig = loadRestConfig({ kubeconfig: opts.kubeconfig, context: opts.context });
  if (restConfig) return restControllerKube(new RestClient(restConfig, Component), kubeOptions);
  const [{ loadKubeConfig }, { clientNodeControllerKube }] = await Promise.all([import('./kube/client.js'), import('./kube/controller-client-node.js')]);
  return clientNodeControllerKube(loadKubeConfig({ kubeconfig: opts.kubeconfig, context: opts.context }), kubeOptions);
}

/** Runs until a signal or a fatal error; resolves with the process exit code. */
export async function runManager(opts: ManagerOptions): Promise<number> {
  const batchMs = statusBatchMs(opts.statusBatchSeconds);
  if (!Number.isFinite(opts.resyncSeconds) || opts.resyncSeconds < 1) {
    throw new Error(`invalid --resync-period ${opts.resyncSeconds}: want seconds >= 1`);
  }
  const webhookBind = parseBindAddress(opts.webhookBindAddress ?? '0', '--webhook-bind-address');
  if (webhookBind && !opts.webhookCertDir) throw new Error('--webhook-bind-address needs --webhook-cert-dir (tls.crt and tls.key)');
  const log = makeLogger(opts.logLevel, opts.logFormat).child({ version: ControllerVersion });
  const kube = await controllerKube(opts);
  const metrics = new Metrics();
  const informers = new InformerFactory({
    namespace: opts.namespace, resyncMs: opts.resyncSeconds * 1000, log, dcGroup: opts.dcGroup, watch: kube.watch, list: kube.list,
  });
  const ctx: ControllerContext = { workers: opts.workers, log, clock: systemClock, metrics };
  const api = {
    dcs: metrics.instrument(kube.deploymentConfigs, 'deploymentconfigs'),
    rcs: metrics.instrument(kube.replicationControllers, 'replicationcontrollers'),
    pods: metrics.instrument(kube.pods, 'pods'),
    events: metrics.instrument(kube.events, 'events'),
    streams: metrics.instrument(kube.imageStreams, 'imagestreams'),
  };
  const recorder = (component: string) => new KubeEventRecorder({ client: api.events, component, host: hostname(), log });

  // Shared by the controllers: the RC cache with the index DC syncs claim from, and our own
  // writes, visible to every sync before their watch events arrive (no 409s from deciding on
  // the state before our last write). The DC cache exists only when a controller reads DCs.
  const rcInformer = informers.informerFor<V1ReplicationController>(ReplicationControllers, { indexers: rcIndexers });
  const rcCache = new MutationCache<V1ReplicationController>(rcInformer, systemClock);
  const rcWriter = recordingRcClient(api.rcs, rcCache);
  const dcCache = opts.enableDcController || opts.enableImageTriggerController
    ? new MutationCache<DeploymentConfig>(informers.informerFor<DeploymentConfig>(DeploymentConfigs), systemClock)
    : undefined;
  const dcWriter = dcCache ? recordingDcClient(api.dcs, dcCache) : api.dcs;

  // Image references to another namespace (docs/image-triggers.md "Cross-namespace references").
  const mode = opts.crossNamespaceImages ?? DefaultCrossNamespaceMode;
  const policyGate = mode === 'admission' && (opts.enableDcController || opts.enableImageTriggerController)
    ? new AdmissionPolicyGate(kube.admissionPolicies, opts.crossNamespacePolicy ?? DefaultCrossNamespacePolicy, log.child({ component: 'cross-namespace-images' }))
    : undefined;
  const crossNamespace: CrossNamespaceGate = policyGate ?? (mode === 'allow' ? allowAllCrossNamespace : denyAllCrossNamespace);

  const controllers: Controller[] = [];
  if (opts.enableDcController && dcCache) {
    controllers.push(newDeploymentConfigController(informers, {
      dcs: dcWriter, rcs: rcWriter, recorder: recorder(Component),
      dcLister: dcCache, rcLister: rcCache, rcsForDc: indexedRcsForDc(rcInformer, rcCache),
    }, ctx, { resolveImageTags: opts.enableImageTriggerController, crossNamespace, statusBatchMs: batchMs }));
  }
  if (opts.enableImageTriggerController && dcCache) {
    controllers.push(newImageTriggerController(informers, {
      dcs: dcWriter, dcLister: dcCache, streams: api.streams, recorder: recorder('imagetrigger-controller'),
    }, ctx, { crossNamespace }));
  }
  if (opts.enableDeployerController) {
    // Read from caches before every deployer pod (no GETs per rollout), re-created when missing.
    const access = new DeployerAccessProvisioner(kube.deployerAccess, {
      serviceAccounts: informers.informerFor<V1ServiceAccount>(deployerServiceAccounts(opts.deployerServiceAccount)),
      roleBindings: informers.informerFor<V1RoleBinding>(deployerRoleBindings(DeployerRoleBinding)),
    }, systemClock, opts.deployerServiceAccount, opts.manageDeployerAccess !== false);
    controllers.push(newDeployerController(informers, {
      rcs: rcWriter, rcLister: rcCache, ownCreates: rcCache, pods: api.pods, recorder: recorder('deployer-controller'),
      ensureDeployerAccess: (namespace) => access.ensure(namespace),
      rcsOfDc: (namespace, dc) => rcInformer.byIndex('dcLabel', `${namespace}/${dc}`)
        .map((rc) => rcCache.get(namespace, rc.metadata?.name ?? '') ?? rc),
      events: api.events,
      // tagImages hooks of pod-less rollouts write as the namespace's deployer service account,
      // as the deployer pod does: never with this controller's own rights.
      imageStreams: opts.enableImageTriggerController
        ? deployerImageStreamClients(kube.imageStreamsAs, opts.deployerServiceAccount, {
          wrap: (c) => metrics.instrument(c, 'imagestreams'), before: (namespace) => access.ensure(namespace),
        })
        : undefined,
    }, ctx, {
      deployerImage: opts.deployerImage, deployerCommand: opts.deployerCommand, serviceAccount: opts.deployerServiceAccount,
      environment: opts.deployerEnvironment, nodeSelector: opts.deployerNodeSelector, tolerations: opts.deployerTolerations,
      defaultDeployer: opts.defaultDeployer,
    }));
  }
  metrics.registerRolloutMetrics(rcInformer);

  const identity = `${hostname()}_${randomUUID()}`;
  const elector = opts.leaderElect
    ? new LeaderElector(kube.leases, {
      namespace: opts.leaderElectionNamespace ?? opts.namespace ?? 'default', name: Component, identity,
      log: log.child({ component: 'leader-election' }),
    })
    : undefined;
  let synced = false;
  // A standby replica is ready (it serves probes and waits for the lease); a leader, or a
  // replica without leader election, once its caches have synced (an informer that cannot
  // list, e.g. a missing CRD, must not look healthy).
  const isReady = () => (elector ? !elector.isLeader() || synced : synced);
  const bind = parseBindAddress(opts.metricsBindAddress);
  let server: Server | undefined;
  if (bind) {
    const secure = opts.metricsSecure === true;
    server = await startMetricsServer({
      ...bind, secure, certDir: opts.metricsCertDir, log,
      access: secure && opts.metricsAuth !== false ? new KubeMetricsAccessReview(kube.accessReviews) : undefined,
      metrics: async () => ({ contentType: metrics.registry.contentType, body: await metrics.registry.metrics() }),
      ready: isReady,
    });
    log.info({ address: opts.metricsBindAddress, https: secure, authorization: secure && opts.metricsAuth !== false }, 'Serving /metrics, /healthz and /readyz');
  }

  // Every replica serves it, leader or standby: it needs no cache, only the dry-run.
  let webhook: WebhookServer | undefined;
  if (webhookBind && opts.webhookCertDir) {
    const { startWebhookServer } = await import('./webhook/server.js');
    webhook = await startWebhookServer({
      ...webhookBind, certDir: opts.webhookCertDir, dryRunRc: kube.dryRunCreateRc, log,
      onReview: (outcome) => metrics.webhookReviews.inc({ outcome }),
    });
    log.info({ address: opts.webhookBindAddress, certDir: opts.webhookCertDir }, 'Serving the DeploymentConfig admission webhook');
  }

  const startControllers = async () => {
    // Read before the first sync, so it decides on the policy rather than on "not read yet".
    await policyGate?.start();
    log.info({ namespace: opts.namespace ?? '(all)', identity, dcGroup: opts.dcGroup ?? 'apps.openshift.io' }, 'Starting informers');
    await informers.start();
    synced = true;
    log.info('Caches synced; starting workers');
    for (const c of controllers) await c.run();
  };
  const stopControllers = async () => {
    policyGate?.stop();
    await Promise.all(controllers.map((c) => c.shutdown()));
    informers.stop();
  };

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
      await webhook?.close();
      log.info('Stopped');
      log.flush?.();
      resolve(code);
    };
    process.once('SIGTERM', () => void finish(0, 'SIGTERM'));
    process.once('SIGINT', () => void finish(0, 'SIGINT'));
    const start = () => startControllers().catch((err: unknown) => { log.error({ err }, 'Start failed'); void finish(1, 'start failed'); });

    if (!elector) {
      // The only replica acts: it is the leader (the documented `sum(dcctl_leader) < 1` alert
      // must not fire on a single replica run with --leader-elect=false).
      metrics.leader.set(1);
      void start();
      return;
    }
    elector.run({
      onStartedLeading: async () => {
        metrics.leader.set(1);
        await start();
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
