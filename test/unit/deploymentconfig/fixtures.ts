/**
 * Builders for DC-controller unit tests: DCs, the RCs the controller would have made for them, and
 * a `sync` shortcut over a FakeCluster.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, type DeploymentPhase } from '../../../src/apis/constants.js';
import type { DeploymentConfig, DeploymentTriggerPolicy } from '../../../src/apis/deploymentconfig.js';
import { syncDeploymentConfig } from '../../../src/deploymentconfig/sync.js';
import { dcFor } from '../../support/builders.js';
import type { FakeCluster } from '../../support/fakes.js';

export const NS = 'ns';
export const NAME = 'app';
export const KEY = `${NS}/${NAME}`;
export const DC_UID = 'dc-uid';

export interface DcOptions {
  replicas?: number;
  latestVersion?: number;
  triggers?: DeploymentTriggerPolicy[] | null;
  image?: string;
  paused?: boolean;
  test?: boolean;
  revisionHistoryLimit?: number;
  generation?: number;
  observedGeneration?: number;
}

/** A Rolling DC `ns/app` with one container `web`; triggers absent (→ ConfigChange) by default. */
export function makeDc(o: DcOptions = {}): DeploymentConfig {
  const dc = dcFor({
    name: NAME, namespace: NS, uid: DC_UID, generation: o.generation ?? 1, labels: { team: 'a' },
    spec: { replicas: o.replicas ?? 1 },
    containers: [{ name: 'web', image: o.image ?? 'nginx:1' }],
    status: { latestVersion: o.latestVersion ?? 0, observedGeneration: o.observedGeneration ?? 0 },
  });
  if (o.triggers !== undefined) dc.spec.triggers = o.triggers;
  if (o.paused !== undefined) dc.spec.paused = o.paused;
  if (o.test !== undefined) dc.spec.test = o.test;
  if (o.revisionHistoryLimit !== undefined) dc.spec.revisionHistoryLimit = o.revisionHistoryLimit;
  return dc;
}

export const imageTrigger = (name: string, containers: string[], lastTriggeredImage?: string, automatic = true): DeploymentTriggerPolicy => ({
  type: 'ImageChange',
  imageChangeParams: { automatic, containerNames: containers, from: { kind: 'ImageStreamTag', name }, ...(lastTriggeredImage ? { lastTriggeredImage } : {}) },
});

export { rcFor, type RcOptions } from '../../support/builders.js';

/** One sync of `ns/app`. */
export const sync = (f: FakeCluster, key = KEY): Promise<void> => syncDeploymentConfig(f, key);

/** Syncs, ignoring the error (for steps expected to requeue); returns the error. */
export async function syncCatch(f: FakeCluster, key = KEY): Promise<unknown> {
  try {
    await sync(f, key);
    return undefined;
  } catch (err) {
    return err;
  }
}

/** The stored DC (API view). */
export const storedDc = (f: FakeCluster): DeploymentConfig => f.dcs.get(NS, NAME)!;

/** What a deployer would do: move an RC to a phase, optionally scaling it. */
export function deployerSets(f: FakeCluster, rcName: string, phase: DeploymentPhase, replicas?: number): void {
  f.rcs.mutate(NS, rcName, (rc) => {
    rc.metadata!.annotations![Annotations.Phase] = phase;
    if (replicas !== undefined) {
      rc.spec!.replicas = replicas;
      rc.status = { replicas, availableReplicas: replicas, readyReplicas: replicas };
    }
  });
}

/** A user edit that sets container `web`'s image (a config change). */
export const setImage = (image: string) => (dc: DeploymentConfig) => { dc.spec.template!.spec!.containers[0]!.image = image; };

/** The stored DC's Progressing condition. */
export const progressing = (f: FakeCluster) => storedDc(f).status?.conditions?.find((c) => c.type === 'Progressing');

/** Edits the DC spec like a user (generation bumps when the spec changes). */
export function userEdits(f: FakeCluster, edit: (dc: DeploymentConfig) => void): void {
  f.dcs.mutate(NS, NAME, (dc) => {
    const before = JSON.stringify(dc.spec);
    edit(dc);
    if (JSON.stringify(dc.spec) !== before) dc.metadata.generation = (dc.metadata.generation ?? 1) + 1;
  });
}

/** Syncs until a sync makes no write (or `max` rounds), swallowing requeue errors; returns the rounds. */
export async function settle(f: FakeCluster, max = 10): Promise<number> {
  for (let i = 1; i <= max; i++) {
    const before = f.api.writes().length;
    await syncCatch(f);
    if (f.api.writes().length === before) return i;
  }
  return max;
}
