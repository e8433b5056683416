/**
 * The benchmark scripts start a control plane (bench.mjs) or write thousands of objects on the
 * current cluster (apiserver.mjs, events-watch.mjs; dc-floor.mjs starts a plane too) and bench.mjs rewrites the committed report, so an option they do not
 * know must stop them before anything runs: `--help` once started a full run. Also what the
 * scripts that need no cluster print: a report re-rendered from recorded results, and the RC
 * manager's figures from an audit log.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Runs bench/<script> of `root` (the repository, or a scratch copy of its scripts). */
function bench(script: string, args: string[], root = repoDir, timeout = 20_000) {
  // A kubeconfig that does not exist: should a script get past its options, it fails at once.
  return spawnSync(process.execPath, [path.join(root, 'bench', script), ...args], {
    env: { PATH: process.env.PATH ?? '', KUBECONFIG: '/nonexistent/kubeconfig' },
    encoding: 'utf8',
    timeout,
  });
}

describe('the benchmark scripts', () => {
  it('print their options for --help and run nothing', () => {
    const main = bench('bench.mjs', ['--help']);
    expect(main.status).toBe(0);
    expect(main.stdout).toContain('--sizes 10,100,1000');
    expect(main.stderr).toBe('');
    const api = bench('apiserver.mjs', ['--help']);
    expect(api.status).toBe(0);
    expect(api.stdout).toContain('--dcs');
    const events = bench('events-watch.mjs', ['--help']);
    expect(events.status).toBe(0);
    expect(events.stdout).toContain('--writes');
    const audit = bench('rc-manager-audit.mjs', ['--help']);
    expect(audit.status).toBe(0);
    expect(audit.stdout).toContain('AUDIT_LOG');
    const floor = bench('dc-floor.mjs', ['--help']);
    expect(floor.status).toBe(0);
    expect(floor.stdout).toContain('--repeat');
  });

  it('refuse an option they do not know, with the usage', () => {
    const main = bench('bench.mjs', ['--sizez', '10']);
    expect(main.status).toBe(2);
    expect(main.stderr).toContain('unknown option --sizez');
    expect(main.stderr).toContain('Usage: node bench/bench.mjs');
    expect(bench('bench.mjs', ['10']).stderr).toContain('unexpected argument "10"');
    const warmup = bench('bench.mjs', ['--warmup', 'some']);
    expect(warmup.status).toBe(2);
    expect(warmup.stderr).toContain('--warmup some: want a whole number >= 0');
    const api = bench('apiserver.mjs', ['--dc', '10']);
    expect(api.status).toBe(2);
    expect(api.stderr).toContain('unexpected "--dc 10"');
    const events = bench('events-watch.mjs', ['--write', '10']);
    expect(events.status).toBe(2);
    expect(events.stderr).toContain('unexpected "--write 10"');
    const audit = bench('rc-manager-audit.mjs', ['--prefx', 'x', 'audit.log']);
    expect(audit.status).toBe(2);
    expect(audit.stderr).toContain('unexpected "--prefx"');
    expect(bench('rc-manager-audit.mjs', ['/nonexistent/audit.log']).stderr).toContain('want one audit log that exists');
    const floor = bench('dc-floor.mjs', ['--repeats', '2']);
    expect(floor.status).toBe(2);
    expect(floor.stderr).toContain('unexpected "--repeats 2"');
  });

  it('re-render a run with the machine that ran it, not the one re-rendering it', () => {
    // A copy of the scripts and the committed N=10/100 results in a scratch tree: --report-only
    // writes the report next to the scripts, and the committed docs must not change.
    const tree = mkdtempSync(path.join(os.tmpdir(), 'bench-report-'));
    try {
      for (const dir of ['bench', 'hack', 'deploy']) cpSync(path.join(repoDir, dir), path.join(tree, dir), { recursive: true });
      mkdirSync(path.join(tree, 'docs'));
      symlinkSync(path.join(repoDir, 'node_modules'), path.join(tree, 'node_modules'));
      const results = JSON.parse(readFileSync(path.join(repoDir, 'bench/last-results.json'), 'utf8'));
      results.machine = { cpus: 2, cpuModel: 'Recorded CPU 9000', memGiB: 24, benchNode: 'v20.0.0' };
      writeFileSync(path.join(tree, 'bench/last-results-t.json'), JSON.stringify(results));
      const run = bench('bench.mjs', ['--report-only', 'true', '--out', 'benchmarks-t'], tree, 60_000);
      expect(run.stderr).toBe('');
      const header = readFileSync(path.join(tree, 'docs/benchmarks-t.md'), 'utf8').split('\n')[2];
      expect(header).toContain('2 CPUs (Recorded CPU 9000), 24 GiB');
      expect(header).toContain('the bench driver and the process kubelet ran v20.0.0');
      expect(header).not.toContain(os.cpus()[0]?.model ?? 'no model');
      // The results file it rewrites keeps the recorded machine.
      expect(JSON.parse(readFileSync(path.join(tree, 'bench/last-results-t.json'), 'utf8')).machine.cpuModel).toBe('Recorded CPU 9000');
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('count the RC manager\'s status writes, conflicts and the gaps between its writes to one RC', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rc-audit-'));
    try {
      const rcm = 'kube-controller-manager/v1.36.3 (linux/amd64) kubernetes/$Format/replication-controller';
      let id = 0;
      const entry = (ns: string, name: string, verb: string, code: number, received: number, done: number, userAgent = rcm) =>
        JSON.stringify({
          auditID: `a${++id}`, stage: 'ResponseComplete', verb, userAgent, responseStatus: { code },
          objectRef: { resource: 'replicationcontrollers', namespace: ns, name, ...(verb === 'update' ? { subresource: 'status' } : {}) },
          requestReceivedTimestamp: new Date(received).toISOString(), stageTimestamp: new Date(done).toISOString(),
        });
      const t = Date.parse('2026-12-04T04:41:00Z');
      const lines = [
        // rc-a: written at once again (50 ms), a conflict and its GET, then 2 s later
        entry('bench-dc-1', 'rc-a', 'update', 200, t, t + 10),
        entry('bench-dc-1', 'rc-a', 'update', 200, t + 60, t + 70),
        entry('bench-dc-1', 'rc-a', 'update', 409, t + 80, t + 90),
        entry('bench-dc-1', 'rc-a', 'get', 200, t + 95, t + 100),
        entry('bench-dc-1', 'rc-a', 'update', 200, t + 2070, t + 2080),
        // another client's write and another namespace do not count
        entry('bench-dc-1', 'rc-a', 'update', 200, t + 100, t + 110, 'deploymentconfig-controller/v1'),
        entry('other', 'rc-b', 'update', 200, t, t + 10),
        entry('bench-dc-inline-1', 'rc-c', 'update', 200, t, t + 10),
      ];
      const log = path.join(dir, 'audit.log');
      writeFileSync(log, `${lines.join('\n')}\n`);
      const run = bench('rc-manager-audit.mjs', [log]);
      expect(run.stderr).toBe('');
      expect(run.stdout.split('\n')).toEqual([
        'bench-dc-1: 3 status writes, 1 conflicts (409), 1 GETs; gap between two of its status writes to one RC: p25 50 ms, p50 50 ms, p75 2000 ms, 50 % under 100 ms',
        'bench-dc-inline-1: 1 status writes, 0 conflicts (409), 0 GETs; no RC written twice',
        '',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
