/**
 * The bench's reading of the DC controller's own metrics (bench/lib.mjs): the measured phases'
 * syncs, queue adds and waits are what the counters added during them, not what they held since
 * the process started. The controller the bench starts has already run its start-up sync and
 * the warm-up's 60 rollouts and deletions by then; at N=10 those were three quarters of the
 * syncs the report divided by the phases' 20 rollouts.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const lib = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bench/lib.mjs');

/** Two /metrics texts of one controller → metricsSince(controllerQueueMetrics(after), (before)). */
function measured(before: string, after: string): unknown {
  const script = [
    `import { controllerQueueMetrics, metricsSince, parseMetrics } from ${JSON.stringify(lib)};`,
    'const [before, after] = JSON.parse(process.argv[1]).map((t) => controllerQueueMetrics(parseMetrics(t)));',
    'console.log(JSON.stringify(metricsSince(after, before)));',
  ].join('\n');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([before, after])], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

const metricsText = (dcSyncs: number, deployerSyncs: number, errors: number, adds: number, queueSeconds: number, requests: number): string => [
  '# HELP dcctl_sync_duration_seconds Sync duration',
  '# TYPE dcctl_sync_duration_seconds histogram',
  `dcctl_sync_duration_seconds_count{controller="deploymentconfig",result="success"} ${dcSyncs}`,
  `dcctl_sync_duration_seconds_sum{controller="deploymentconfig",result="success"} ${dcSyncs * 0.05}`,
  `dcctl_sync_duration_seconds_count{controller="deployer",result="success"} ${deployerSyncs - errors}`,
  `dcctl_sync_duration_seconds_count{controller="deployer",result="error"} ${errors}`,
  `dcctl_sync_duration_seconds_sum{controller="deployer",result="success"} ${deployerSyncs * 0.01}`,
  `workqueue_adds_total{name="deploymentconfig"} ${adds}`,
  `workqueue_adds_total{name="deployer"} ${2 * adds}`,
  `workqueue_queue_duration_seconds_sum{name="deploymentconfig"} ${queueSeconds}`,
  `workqueue_retries_total{name="deployer"} ${errors}`,
  `dcctl_api_requests_total{verb="update",resource="deploymentconfigs"} ${requests}`,
  '',
].join('\n');

describe('the controller metrics of a bench run', () => {
  it('counts what the measured phases added, not the start-up and warm-up before them', () => {
    const before = metricsText(300, 1200, 2, 310, 12.5, 400);
    const after = metricsText(420, 1500, 3, 432, 20, 530);
    expect(measured(before, after)).toEqual({
      requests: 130,
      errors: 0,
      queues: {
        deploymentconfig: { syncs: 120, syncSeconds: expect.closeTo(6, 9), errors: 0, adds: 122, queueSeconds: 7.5, retries: 0 },
        deployer: { syncs: 300, syncSeconds: expect.closeTo(3, 9), errors: 1, adds: 244, queueSeconds: 0, retries: 1 },
      },
    });
  });
});
