/**
 * deploy/monitoring/ is only useful if its queries mean something: every PrometheusRule
 * expression and every Grafana panel query must parse as PromQL (Prometheus' own grammar,
 * @prometheus-io/lezer-promql) and name only metrics and labels the controller really exports
 * (read from its metrics registry, src/metrics.ts, with prom-client's default process metrics).
 */
import { describe, expect, it } from '@jest/globals';
import { parser } from '@prometheus-io/lezer-promql';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { Metrics } from '../../../src/metrics.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (p: string) => readFileSync(path.join(repo, p), 'utf8');

/** Every series name the controller exports, with its label names (histograms expanded). */
async function exportedMetrics(): Promise<Map<string, Set<string>>> {
  const m = new Metrics();
  m.registerRolloutMetrics({ get: () => undefined, list: () => [] });
  const out = new Map<string, Set<string>>();
  for (const metric of await m.registry.getMetricsAsJSON()) {
    const labels = new Set<string>([...((m.registry.getSingleMetric(metric.name) as unknown as { labelNames?: string[] }).labelNames ?? []),
      // Added by Prometheus to every scraped series.
      'job', 'instance']);
    if (String(metric.type) === 'histogram') {
      out.set(`${metric.name}_bucket`, new Set([...labels, 'le']));
      out.set(`${metric.name}_sum`, labels);
      out.set(`${metric.name}_count`, labels);
    } else {
      out.set(metric.name, labels);
    }
  }
  return out;
}

interface Checked { errors: string[]; metrics: string[] }

/** Parses `expr`; reports syntax errors, unknown metrics, and label names no named metric has. */
function checkPromQL(expr: string, exported: Map<string, Set<string>>): Checked {
  const errors: string[] = [];
  const metrics: string[] = [];
  const labelUses: string[] = [];
  const tree = parser.parse(expr);
  tree.iterate({
    enter: (node) => {
      if (node.type.isError) errors.push(`syntax error at ${node.from}: ${JSON.stringify(expr.slice(Math.max(0, node.from - 10), node.to + 10))}`);
      if (node.name === 'VectorSelector') {
        const id = node.node.getChild('Identifier');
        if (id) metrics.push(expr.slice(id.from, id.to));
      }
      if (node.name === 'LabelName') labelUses.push(expr.slice(node.from, node.to));
    },
  });
  for (const name of metrics) if (!exported.has(name)) errors.push(`unknown metric ${name}`);
  const known = new Set(metrics.flatMap((n) => [...(exported.get(n) ?? [])]));
  for (const label of labelUses) if (!known.has(label)) errors.push(`label ${label} is not a label of ${metrics.join(', ')}`);
  if (metrics.length === 0) errors.push('names no metric');
  return { errors, metrics };
}

/** Grafana variables are not PromQL: substitute what Grafana would before parsing. */
const grafanaToPromQL = (expr: string) => expr.replaceAll('$__rate_interval', '5m').replaceAll('$__interval', '1m').replaceAll('$job', '.*');

interface Rule { alert?: string; expr: string }
const rules = (yaml.load(read('deploy/monitoring/prometheusrule.yaml')) as { spec: { groups: Array<{ rules: Rule[] }> } })
  .spec.groups.flatMap((g) => g.rules);
interface Panel { title: string; targets?: Array<{ expr: string }> }
const dashboard = JSON.parse(read('deploy/monitoring/grafana-dashboard.json')) as {
  panels: Panel[]; templating: { list: Array<{ name: string; definition?: string }> };
};

describe('deploy/monitoring', () => {
  it('has the alerts docs/operations.md describes: no leader, failing and stuck rollouts, queue depth, retries, sync and API errors', () => {
    expect(rules.map((r) => r.alert)).toEqual([
      'DeploymentConfigControllerNoLeader', 'DeploymentConfigRolloutFailed', 'DeploymentConfigRolloutStuck',
      'DeploymentConfigControllerQueueBacklog', 'DeploymentConfigControllerRetries', 'DeploymentConfigControllerSyncErrors',
      'DeploymentConfigControllerApiErrors',
    ]);
    const docs = read('docs/operations.md');
    for (const r of rules) expect(docs).toContain(r.alert);
  });

  it('every alert expression parses and names exported metrics and labels', async () => {
    const exported = await exportedMetrics();
    for (const r of rules) expect({ alert: r.alert, ...checkPromQL(r.expr, exported) }).toMatchObject({ alert: r.alert, errors: [] });
  });

  it('every dashboard query parses and names exported metrics and labels; the job variable reads an exported metric', async () => {
    const exported = await exportedMetrics();
    const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
    expect(queries.length).toBeGreaterThan(15);
    for (const q of queries) expect({ panel: q.panel, ...checkPromQL(grafanaToPromQL(q.expr), exported) }).toMatchObject({ panel: q.panel, errors: [] });
    const job = dashboard.templating.list.find((v) => v.name === 'job');
    const m = /^label_values\((\w+), (\w+)\)$/.exec(job?.definition ?? '');
    expect(m && exported.get(m[1] as string)?.has(m[2] as string)).toBe(true);
  });

  it('the checker catches typos, unknown labels and syntax errors (so the checks above can fail)', async () => {
    const exported = await exportedMetrics();
    expect(checkPromQL('sum(dcctl_leaders)', exported).errors).toEqual(['unknown metric dcctl_leaders']);
    expect(checkPromQL('sum by (queue) (workqueue_depth)', exported).errors).toEqual(['label queue is not a label of workqueue_depth']);
    expect(checkPromQL('rate(workqueue_adds_total[5m]', exported).errors.length).toBeGreaterThan(0);
    expect(checkPromQL('histogram_quantile(0.9, sum by (le) (rate(dcctl_sync_duration_seconds_bucket[5m])))', exported).errors).toEqual([]);
  });
});

