/**
 * Issue 14 sweep: `openshift_apps_deploymentconfigs_strategy_total{type}` takes its label from the
 * encoded config, an RC annotation that anyone who may patch RCs rewrites. Any string there became
 * a label value (a new series per forged value, of any length); only the strategy types a DC can
 * have are labels now, anything else counts as unknown.
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
