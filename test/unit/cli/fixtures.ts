/**
 * CLI fixtures: a CliContext over the shared fake cluster (test/support/fakes.ts) whose DC watch
 * is scripted by `ticks`, and the DCs and RCs the commands read.
 */
import type { V1PodTemplateSpec, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import type { CliContext } from '../../../src/cli/ports.js';
import { dcFor, rcFor } from '../../support/builders.js';
import { FakeClock } from '../../support/clock.js';
import { newFakeCluster, type Action, type FakeCluster } from '../../support/fakes.js';
import { Output } from '../../support/output.js';

export const NS = 'ns1';
export const NOW = new Date('2024-05-01T12:00:00Z');

export interface TestContext {
  ctx: CliContext;
  f: FakeCluster;
  out: Output;
  err: Output;
  /** Hooks run before each watch tick (index from 0); the watch ends after `ticks` ticks. */
  ticks: Array<() => void>;
  /** Stores `dc` at the resourceVersion it names (the version commands must send back). */
  addDc(dc: DeploymentConfig): void;
  /** The requests sent for one resource, failed ones included. */
  writes(resource: 'deploymentconfigs' | 'replicationcontrollers' | 'pods'): Action[];
  /** After each successful DC patch, `ack` changes the stored DC as the controller would. */
  onDcPatch(ack: (dc: DeploymentConfig) => void): void;
}

/**
 * A context over a fresh fake cluster. The watch yields the stored DC once per entry in `ticks`
 * (after running that entry), then ends, which commands treat as their timeout expiring.
 */
export function testContext(): TestContext {
  const f = newFakeCluster(new FakeClock(NOW));
  const out = new Output();
  const err = new Output();
  const ticks: Array<() => void> = [];
  const ctx: CliContext = {
    out, err, dcs: f.dcClient, rcs: f.rcClient, pods: f.podClient,
    namespace: NS,
    clock: f.clock,
    newId: () => 'req-1',
    commandName: 'dcctl',
    watchDc: async function* (namespace, name, signal) {
      for (const tick of ticks) {
        if (signal.aborted) return;
        tick();
        yield await f.dcClient.get(namespace, name);
      }
    },
  };
  let stopAck = (): void => {};
  return {
    ctx, f, out, err, ticks,
    addDc: (dc) => { f.dcs.put(dc, { keepResourceVersion: true }); },
    writes: (resource) => f.api.writes({ resource }),
    onDcPatch: (ack) => {
      stopAck();
      stopAck = f.api.onCommit(({ action }) => {
        if (action.resource === 'deploymentconfigs' && action.verb === 'patch') f.dcs.mutate(action.namespace, action.name, ack);
      });
    },
  };
}

export function template(image: string, labels: Record<string, string> = { app: 'web' }): V1PodTemplateSpec {
  return { metadata: { labels }, spec: { containers: [{ name: 'web', image, ports: [{ containerPort: 8080, protocol: 'TCP' }] }] } };
}

export function makeDc(name = 'web', opts: Partial<{ latestVersion: number; paused: boolean; image: string; triggers: DeploymentConfig['spec']['triggers']; replicas: number; generation: number; observedGeneration: number }> = {}): DeploymentConfig {
  return dcFor({
    name, namespace: NS, resourceVersion: '7', generation: opts.generation ?? 1,
    selector: { app: 'web' },
    spec: { replicas: opts.replicas ?? 2, paused: opts.paused, triggers: opts.triggers },
    template: template(opts.image ?? 'nginx:2'),
    status: { latestVersion: opts.latestVersion ?? 0, observedGeneration: opts.observedGeneration ?? 1 },
  });
}

/** The RC for version `version` of `dc` as the controller makes it, with the given image and phase. */
export function makeRc(dc: DeploymentConfig, version: number, phase: string, opts: Partial<{ image: string; reason: string; cancelled: boolean; created: Date }> = {}): V1ReplicationController {
  const snapshot = structuredClone(dc);
  snapshot.spec.template = template(opts.image ?? `nginx:${version}`);
  return rcFor(snapshot, version, {
    phase, reason: opts.reason, cancelled: opts.cancelled, defaulted: false,
    created: opts.created ?? new Date(NOW.getTime() - 5 * 60_000),
    mutate: (rc) => { delete rc.metadata!.annotations![Annotations.StatusReason]; if (opts.reason !== undefined) rc.metadata!.annotations![Annotations.StatusReason] = opts.reason; },
  });
}
