/**
 * Issue 14 sweep: the rollout metrics took label values from RC annotations that anyone who may
 * patch RCs rewrites (the strategy type from the encoded config, the DC name from the config-name
 * annotation, the phase): any string there became a label value, of any length. Now the strategy
 * type is one of a DC's, the name comes from the RC's immutable name and unknown phases are not
 * reported as active rollouts.
 */
import { describe, expect, it } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../../src/apis/constants.js';
import { Metrics } from '../../../src/metrics.js';
import { makeDc, rcFor } from '../deploymentconfig/fixtures.js';

function rcWithStrategy(name: string, type: string): V1ReplicationController {
  const dc = makeDc({ latestVersion: 1 });
  dc.metadata.name = name;
  const rc = rcFor(dc, 1);
  const decoded = JSON.parse(rc.metadata!.annotations![Annotations.EncodedConfig]!) as { spec: { strategy?: { type?: string } } };
  decoded.spec.strategy = { type };
  rc.metadata!.annotations![Annotations.EncodedConfig] = JSON.stringify(decoded);
  rc.metadata!.annotations![Annotations.DeploymentConfig] = name;
  rc.metadata!.name = `${name}-1`;
  return rc;
}

describe('strategy_total label values', () => {
  it('are the strategy types a DC can have; a forged type counts as unknown', async () => {
    const m = new Metrics();
    const rcs = [rcWithStrategy('a', 'Rolling'), rcWithStrategy('b', 'Recreate'), rcWithStrategy('c', 'Custom'),
      rcWithStrategy('d', 'x'.repeat(4000)), rcWithStrategy('e', 'Evil"} 1\nfake_metric{a="')];
    m.registerRolloutMetrics({ get: () => undefined, list: () => rcs });
    const text = await m.registry.getSingleMetricAsString('openshift_apps_deploymentconfigs_strategy_total');
    const samples = text.split('\n').filter((l) => l.startsWith('openshift_apps_deploymentconfigs_strategy_total{')).sort();
    expect(samples).toEqual([
      'openshift_apps_deploymentconfigs_strategy_total{type="custom"} 1',
      'openshift_apps_deploymentconfigs_strategy_total{type="recreate"} 1',
      'openshift_apps_deploymentconfigs_strategy_total{type="rolling"} 1',
      'openshift_apps_deploymentconfigs_strategy_total{type="unknown"} 2',
    ]);
  });
});

describe('rollout metric labels from values others write', () => {
  it('name is the DC of the RC\'s immutable name, not its config-name annotation; unknown phases are no active rollout', async () => {
    const m = new Metrics();
    const running = rcWithStrategy('web', 'Rolling');
    running.metadata!.annotations![Annotations.Phase] = 'Running';
    running.metadata!.annotations![Annotations.DeploymentConfig] = 'y'.repeat(3000);
    running.metadata!.creationTimestamp = new Date('2026-01-01T00:00:00Z');
    const odd = rcWithStrategy('odd', 'Rolling');
    odd.metadata!.annotations![Annotations.Phase] = 'z'.repeat(3000);
    odd.metadata!.creationTimestamp = new Date('2026-01-01T00:00:00Z');
    const failed = rcWithStrategy('api', 'Rolling');
    failed.metadata!.annotations![Annotations.Phase] = 'Failed';
    failed.metadata!.annotations![Annotations.DeploymentConfig] = 'forged';
    failed.metadata!.creationTimestamp = new Date('2026-01-01T00:00:00Z');
    m.registerRolloutMetrics({ get: () => undefined, list: () => [running, odd, failed] }, () => new Date('2026-01-01T00:01:00Z'));
    const lines = async (metric: string) => (await m.registry.getSingleMetricAsString(metric)).split('\n').filter((l) => l.startsWith(`${metric}{`));
    expect(await lines('openshift_apps_deploymentconfigs_active_rollouts_duration_seconds')).toEqual([
      'openshift_apps_deploymentconfigs_active_rollouts_duration_seconds{namespace="ns",name="web",phase="Running",latest_version="1"} 60',
    ]);
    expect(await lines('openshift_apps_deploymentconfigs_last_failed_rollout_time')).toEqual([
      'openshift_apps_deploymentconfigs_last_failed_rollout_time{namespace="ns",name="api",latest_version="1"} 1767225600',
    ]);
  });
});

// Anyone who may create RCs can make any number claim one DC (its config-name annotation and a
// `<dc>-<N>` name). A scrape groups them per DC; appending by copying the group made that
// quadratic: a scrape over 60000 such RCs blocked the controller's only thread for 34 s (this test
// on the old code; under 1 s now). Jest cannot fail a test that blocks its thread, so the figure
// is measured, not asserted.
describe('rollout metrics over many RCs of one DC', () => {
  it('a scrape groups 60000 RCs claiming DC web in one pass and reports the newest failure', async () => {
    const m = new Metrics();
    const rcs = Array.from({ length: 60000 }, (_, i): V1ReplicationController => ({
      metadata: {
        name: `web-${i + 1}`, namespace: 'ns', creationTimestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000),
        labels: { 'openshift.io/deployment-config.name': 'web' },
        annotations: { [Annotations.DeploymentConfig]: 'web', [Annotations.Phase]: 'Failed', [Annotations.LatestVersion]: String(i + 1) },
      },
    }));
    m.registerRolloutMetrics({ get: () => undefined, list: () => rcs });
    const text = await m.registry.getSingleMetricAsString('openshift_apps_deploymentconfigs_last_failed_rollout_time');
    expect(text.split('\n').filter((l) => l.startsWith('openshift_apps_deploymentconfigs_last_failed_rollout_time{'))).toEqual([
      `openshift_apps_deploymentconfigs_last_failed_rollout_time{namespace="ns",name="web",latest_version="60000"} ${Date.UTC(2026, 0, 1) / 1000 + 59999}`,
    ]);
  });
});

