/**
 * Prometheus metrics: work queues, syncs, API errors, and OpenShift's rollout metrics (design.md
 * §4.11, same names) computed from the RC cache at scrape time.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Annotations, Phase } from './apis/constants.js';
import { decodeDeploymentConfig } from './apis/encoded.js';
import type { Lister } from './controller/ports.js';
import type { ControllerMetrics, SyncFn } from './controller/runner.js';
import type { WorkQueueMetrics } from './controller/workqueue.js';
import { byVersionDesc, isCancelled, isInProgress, phaseOf, versionOf } from './apps/index.js';
import { MaxTimerDelayMs } from './util/sleep.js';

/**
 * The DC an RC belongs to, for metric labels: from its immutable name `<dc>-<N>` (§3.5), not from
 * the config-name annotation, which anyone who may patch RCs rewrites (§10.3). One series per RC
 * at most, whatever is written into its annotations.
 */
const dcNameOf = (rc: V1ReplicationController): string => {
  const name = rc.metadata?.name ?? '';
  return /^(.+)-[0-9]+$/.exec(name)?.[1] ?? name;
};

/** Label values of `openshift_apps_deploymentconfigs_strategy_total`: the strategy types of a DC. */
const StrategyLabels = new Set(['rolling', 'recreate', 'custom']);

/**
 * How often the event-loop delay is sampled. A sample is the time between two runs of a timer
 * of this period, so a blocked loop shows as the excess over it; 100 ms still catches every
 * stall the controller can suffer from (a sync, a large list), at a tenth of the wake-ups.
 */
export const EventLoopSamplingMs = 100;

/**
 * prom-client's `nodejs_eventloop_lag_*` gauges, same names and meaning, from a histogram sampled
 * every EventLoopSamplingMs instead of 10 ms. Its values are the delays past the sampling period
 * (prom-client reports the whole interval, so its idle floor is its 10 ms period);
 * `nodejs_eventloop_lag_seconds` is, as there, the delay of a setImmediate at scrape time.
 */
function registerEventLoopLag(registry: Registry): void {
  const histogram = monitorEventLoopDelay({ resolution: EventLoopSamplingMs });
  histogram.enable();
  const lagSeconds = (ns: number): number => (Number.isFinite(ns) && histogram.count > 0 ? Math.max(0, ns / 1e9 - EventLoopSamplingMs / 1000) : 0);
  const parts: Array<[string, string, () => number]> = [
    ['min', 'The minimum recorded event loop delay.', () => lagSeconds(histogram.min)],
    ['max', 'The maximum recorded event loop delay.', () => lagSeconds(histogram.max)],
    ['mean', 'The mean of the recorded event loop delays.', () => lagSeconds(histogram.mean)],
    ['stddev', 'The standard deviation of the recorded event loop delays.', () => (histogram.count > 1 && Number.isFinite(histogram.stddev) ? histogram.stddev / 1e9 : 0)],
    ['p50', 'The 50th percentile of the recorded event loop delays.', () => lagSeconds(histogram.percentile(50))],
    ['p90', 'The 90th percentile of the recorded event loop delays.', () => lagSeconds(histogram.percentile(90))],
    ['p99', 'The 99th percentile of the recorded event loop delays.', () => lagSeconds(histogram.percentile(99))],
  ];
  for (const name of ['nodejs_eventloop_lag_seconds', ...parts.map(([part]) => `nodejs_eventloop_lag_${part}_seconds`)]) registry.removeSingleMetric(name);
  const lag = new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Lag of event loop in seconds.',
    registers: [registry],
    // One collect sets all (as prom-client does): the histogram covers the time since the last scrape.
    collect: async () => {
      for (const [gauge, value] of partGauges) gauge.set(value());
      histogram.reset();
      const start = performance.now();
      await new Promise((resolve) => setImmediate(resolve));
      lag.set((performance.now() - start) / 1000);
    },
  });
  // After `lag`, whose collect fills them: a registry collects in the order of registration.
  const partGauges = parts.map(([part, help, value]) => [new Gauge({ name: `nodejs_eventloop_lag_${part}_seconds`, help, registers: [registry] }), value] as const);
}

export class Metrics implements ControllerMetrics {
  readonly registry = new Registry();
  private readonly depth = new Gauge({ name: 'workqueue_depth', help: 'Current depth of the work queue', labelNames: ['name'], registers: [this.registry] });
  private readonly adds = new Counter({ name: 'workqueue_adds_total', help: 'Adds handled by the work queue', labelNames: ['name'], registers: [this.registry] });
  private readonly latency = new Histogram({ name: 'workqueue_queue_duration_seconds', help: 'Seconds an item waits in the queue before it is processed', labelNames: ['name'], buckets: [0.001, 0.01, 0.1, 0.5, 1, 5, 10, 60], registers: [this.registry] });
  private readonly work = new Histogram({ name: 'workqueue_work_duration_seconds', help: 'Seconds processing an item takes', labelNames: ['name'], buckets: [0.001, 0.01, 0.1, 0.5, 1, 5, 10, 60], registers: [this.registry] });
  private readonly retries = new Counter({ name: 'workqueue_retries_total', help: 'Rate-limited requeues', labelNames: ['name'], registers: [this.registry] });
  readonly syncDuration = new Histogram({ name: 'dcctl_sync_duration_seconds', help: 'Duration of one sync by controller and result', labelNames: ['controller', 'result'], buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5], registers: [this.registry] });
  readonly apiErrors = new Counter({ name: 'dcctl_api_errors_total', help: 'Failed API requests by verb, resource and HTTP code', labelNames: ['verb', 'resource', 'code'], registers: [this.registry] });
  readonly apiRequests = new Counter({ name: 'dcctl_api_requests_total', help: 'API requests made through the controllers\' clients, by verb and resource', labelNames: ['verb', 'resource'], registers: [this.registry] });
  /** Admission reviews of the webhook (docs/webhook.md), by outcome: allowed, denied, unchecked (admitted unjudged). */
  readonly webhookReviews = new Counter({ name: 'dcctl_webhook_reviews_total', help: 'DeploymentConfig writes the admission webhook reviewed, by outcome', labelNames: ['outcome'], registers: [this.registry] });
  readonly leader = new Gauge({ name: 'dcctl_leader', help: '1 while this replica holds the leader lease', registers: [this.registry] });

  constructor() {
    // prom-client's event-loop histogram samples every 10 ms: a hundred wake-ups a second, most
    // of an idle controller's CPU. Its timer is parked (~24.8 days) and its gauges replaced by ours.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: MaxTimerDelayMs });
    registerEventLoopLag(this.registry);
  }

  /** Adapter for one named WorkQueue. */
  queue(name: string): WorkQueueMetrics {
    return {
      setDepth: (d) => this.depth.set({ name }, d),
      incAdds: () => this.adds.inc({ name }),
      observeQueueLatency: (s) => this.latency.observe({ name }, s),
      observeWorkDuration: (s) => this.work.observe({ name }, s),
      incRetries: () => this.retries.inc({ name }),
    };
  }

  /** Records each sync's duration under `controller`, with result success or error. */
  timeSync(controller: string, sync: SyncFn): SyncFn {
    return async (key, ctx) => {
      const end = this.syncDuration.startTimer({ controller });
      try {
        await sync(key, ctx);
        end({ result: 'success' });
      } catch (err) {
        end({ result: 'error' });
        throw err;
      }
    };
  }

  /** OpenShift's rollout metrics, computed from the RC cache on each scrape. */
  registerRolloutMetrics(rcs: Lister<V1ReplicationController>, now: () => Date = () => new Date()): void {
    const rolloutsOf = () => rcs.list().filter((rc) => rc.metadata?.annotations?.[Annotations.DeploymentConfig]);
    new Gauge({
      name: 'openshift_apps_deploymentconfigs_complete_rollouts_total',
      help: 'Counts total complete rollouts',
      labelNames: ['phase'],
      registers: [this.registry],
      collect() {
        const counts = { available: 0, failed: 0, cancelled: 0 };
        for (const rc of rolloutsOf()) {
          const phase = phaseOf(rc);
          if (phase === Phase.Complete) counts.available++;
          else if (phase === Phase.Failed) { if (isCancelled(rc)) counts.cancelled++; else counts.failed++; }
        }
        this.reset();
        for (const [phase, n] of Object.entries(counts)) this.set({ phase }, n);
      },
    });
    new Gauge({
      name: 'openshift_apps_deploymentconfigs_active_rollouts_duration_seconds',
      help: 'Tracks the active rollout duration in seconds',
      labelNames: ['namespace', 'name', 'phase', 'latest_version'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const rc of rolloutsOf()) {
          const phase = phaseOf(rc);
          // An unknown phase (anyone who may patch RCs can write one) is no active rollout.
          if (!isInProgress(rc)) continue;
          const created = rc.metadata?.creationTimestamp ? new Date(rc.metadata.creationTimestamp).getTime() : NaN;
          if (Number.isNaN(created)) continue;
          this.set({ namespace: rc.metadata?.namespace ?? '', name: dcNameOf(rc), phase, latest_version: String(versionOf(rc)) },
            (now().getTime() - created) / 1000);
        }
      },
    });
    new Gauge({
      name: 'openshift_apps_deploymentconfigs_last_failed_rollout_time',
      help: 'Tracks the time of last failure rollout per deployment config',
      labelNames: ['namespace', 'name', 'latest_version'],
      registers: [this.registry],
      collect() {
        this.reset();
        const byDc = new Map<string, V1ReplicationController[]>();
        for (const rc of rolloutsOf()) {
          const key = `${rc.metadata?.namespace}/${dcNameOf(rc)}`;
          const list = byDc.get(key);
          if (list) list.push(rc); else byDc.set(key, [rc]);
        }
        for (const list of byDc.values()) {
          const sorted = byVersionDesc(list);
          const newestComplete = sorted.find((rc) => phaseOf(rc) === Phase.Complete);
          const failed = sorted.find((rc) => phaseOf(rc) === Phase.Failed && !isCancelled(rc));
          if (!failed || (newestComplete && versionOf(newestComplete) > versionOf(failed))) continue;
          const created = failed.metadata?.creationTimestamp ? new Date(failed.metadata.creationTimestamp).getTime() / 1000 : 0;
          this.set({ namespace: failed.metadata?.namespace ?? '', name: dcNameOf(failed), latest_version: String(versionOf(failed)) }, created);
        }
      },
    });
    new Gauge({
      name: 'openshift_apps_deploymentconfigs_strategy_total',
      help: 'Counts strategy usage',
      labelNames: ['type'],
      registers: [this.registry],
      collect() {
        this.reset();
        const counts = new Map<string, number>();
        const seen = new Set<string>();
        for (const rc of byVersionDesc([...rolloutsOf()])) {
          const dcKey = `${rc.metadata?.namespace}/${dcNameOf(rc)}`;
          if (seen.has(dcKey)) continue;
          seen.add(dcKey);
          // The encoded config is an annotation anyone who may patch RCs rewrites (§10.3): only
          // the types a DC can have become label values, anything else counts as unknown.
          let type = 'unknown';
          try { type = (decodeDeploymentConfig(rc).spec.strategy?.type ?? 'Rolling').toLowerCase(); } catch { /* malformed: counted as unknown */ }
          if (!StrategyLabels.has(type)) type = 'unknown';
          counts.set(type, (counts.get(type) ?? 0) + 1);
        }
        for (const [type, n] of counts) this.set({ type }, n);
      },
    });
  }

  /**
   * Wraps a port so every call counts as an API request and failures count by HTTP code. The
   * verb is the port's method name (get, list, create, update, updateStatus, patch, delete, ...).
   */
  instrument<T extends object>(client: T, resource: string): T {
    return new Proxy(client, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        return (...args: unknown[]) => {
          this.apiRequests.inc({ verb: prop, resource });
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (result instanceof Promise) {
            return result.catch((err: unknown) => {
              const code = (err as { code?: unknown })?.code;
              this.apiErrors.inc({ verb: prop, resource, code: typeof code === 'number' ? String(code) : 'network' });
              throw err;
            });
          }
          return result;
        };
      },
    });
  }
}
