/**
 * The benchmark scripts start a control plane (bench.mjs) or write thousands of objects on the
 * current cluster (apiserver.mjs, events-watch.mjs) and bench.mjs rewrites the committed report, so an option they do not
 * know must stop them before anything runs: `--help` once started a full run.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function bench(script: string, args: string[]) {
  // A kubeconfig that does not exist: should a script get past its options, it fails at once.
  return spawnSync(process.execPath, [path.join(repoDir, 'bench', script), ...args], {
    env: { PATH: process.env.PATH ?? '', KUBECONFIG: '/nonexistent/kubeconfig' },
    encoding: 'utf8',
    timeout: 20_000,
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
  });
});
