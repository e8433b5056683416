/**
 * What a deployer pod's process loads before its first request (docs/design.md §6.1): the built
 * `bin/dcctl.js deploy` runs the CommonJS deployer bundle, so it never imports a builtin as an ES
 * module. Such an import builds the builtin's ES module facade, which reads every lazy export
 * and loads internals the deployer never calls (readline's interface, fs/promises): measured
 * ~10 ms of CPU and ~2 MiB on every rollout. Once it takes the invocation it runs with V8's
 * compilers off (src/deployer/main.ts interpretOnly): less memory for a one-rollout process.
 * Run against the build (`npm test` builds first).
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeUnreachableKubeconfig } from '../support/kubeconfig.js';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the deployer process', () => {
  it('runs the deployer bundle without building ES module facades of builtins', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deployer-entry-'));
    try {
      const report = path.join(dir, 'modules.json');
      const preload = path.join(dir, 'report.cjs');
      writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)));\n`);
      const missing = path.join(dir, 'no-such-kubeconfig');
      const run = spawnSync(process.execPath, ['--require', preload, path.join(repoDir, 'bin/dcctl.js'), 'deploy', '--deployment', 'app-1', '--namespace', 'ns1'], {
        env: { PATH: process.env.PATH ?? '', KUBECONFIG: missing },
        encoding: 'utf8',
      });
      // The deployer's own error for its kubeconfig: the bundle ran and stopped before any request.
      expect(run.stderr).toContain(`no file of KUBECONFIG=${missing} exists`);
      expect(run.status).toBe(1);
      const loaded = (JSON.parse(readFileSync(report, 'utf8')) as string[]).map((m) => m.replace(/^NativeModule /, ''));
      expect(loaded).toContain('https');
      expect(loaded).not.toContain('internal/readline/interface');
      expect(loaded).not.toContain('internal/fs/promises');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** The files a `bin/dcctl.js deploy` run with `kubeconfig` loaded through require, at its exit. */
  function requiredFiles(dir: string, kubeconfig: string): { files: string[]; stderr: string } {
    const report = path.join(dir, 'required.json');
    const preload = path.join(dir, 'required.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache))));\n`);
    const run = spawnSync(process.execPath, ['--require', preload, path.join(repoDir, 'bin/dcctl.js'), 'deploy', '--deployment', 'app-1', '--namespace', 'ns1'], {
      env: { PATH: process.env.PATH ?? '', KUBECONFIG: kubeconfig },
      encoding: 'utf8',
    });
    return { files: JSON.parse(readFileSync(report, 'utf8')) as string[], stderr: run.stderr };
  }

  it('loads the YAML parser only when its kubeconfig is YAML: the bundle does not carry it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deployer-entry-'));
    try {
      const json = writeUnreachableKubeconfig(dir);
      const yaml = path.join(dir, 'kubeconfig.yaml');
      writeFileSync(yaml, [
        'apiVersion: v1', 'kind: Config', 'current-context: x',
        'clusters: [{name: c, cluster: {server: "http://127.0.0.1:1"}}]',
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: x, context: {cluster: c, user: u}}]', '',
      ].join('\n'));
      // Bundled, the parser would be evaluated when the bundle loads, whatever the kubeconfig.
      expect(readFileSync(path.join(repoDir, 'dist/deployer.cjs'), 'utf8')).not.toContain('YAMLException');
      const isYamlParser = (f: string): boolean => f.includes(`${path.sep}js-yaml${path.sep}`);
      // Both runs got as far as their first request: the kubeconfig was read either way.
      const fromJson = requiredFiles(dir, json);
      expect(fromJson.stderr).toContain("couldn't get deployment app-1");
      expect(fromJson.files.filter(isYamlParser)).toEqual([]);
      const fromYaml = requiredFiles(dir, yaml);
      expect(fromYaml.stderr).toContain("couldn't get deployment app-1");
      expect(fromYaml.files.some(isYamlParser)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /**
   * Whether V8 would still optimize a function in the process `args` start (`bin/dcctl.js` and its
   * arguments), asked at its exit through V8's natives syntax (a test-only flag). Bit 1 of the
   * status is V8's "never optimize".
   */
  function optimizesAtExit(args: string[], env: NodeJS.ProcessEnv): { optimizes: boolean; stderr: string; status: number | null } {
    const dir = mkdtempSync(path.join(tmpdir(), 'deployer-entry-'));
    try {
      const report = path.join(dir, 'status.json');
      const preload = path.join(dir, 'report.cjs');
      writeFileSync(preload, [
        "process.on('exit', () => {",
        '  function hot(x) { return x * 2 + 1; }',
        '  %PrepareFunctionForOptimization(hot); hot(1); hot(2);',
        '  %OptimizeFunctionOnNextCall(hot); hot(3);',
        `  require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(%GetOptimizationStatus(hot)));`,
        '});',
        '',
      ].join('\n'));
      const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--require', preload, path.join(repoDir, 'bin/dcctl.js'), ...args], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
      const status = JSON.parse(readFileSync(report, 'utf8')) as number;
      return { optimizes: (status & 0b10) === 0, stderr: run.stderr, status: run.status };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('runs a rollout with V8\'s compilers off, and leaves them on for the full CLI it falls back to', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deployer-entry-'));
    try {
      const kubeconfig = writeUnreachableKubeconfig(dir);
      const rollout = optimizesAtExit(['deploy', '--deployment', 'app-1', '--namespace', 'ns1'], { KUBECONFIG: kubeconfig });
      expect(rollout.stderr).toContain("couldn't get deployment app-1");
      expect(rollout.status).toBe(1);
      expect(rollout.optimizes).toBe(false);
      // `deploy --help` is the full CLI's: it keeps the compilers.
      const help = optimizesAtExit(['deploy', '--help'], { KUBECONFIG: kubeconfig });
      expect(help.status).toBe(0);
      expect(help.optimizes).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
