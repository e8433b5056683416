/**
 * What a deployer pod's process loads before its first request (docs/design.md §6.1): the built
 * `bin/dcctl.js deploy` runs the CommonJS deployer bundle, so it never imports a builtin as an ES
 * module. Such an import builds the builtin's ES module facade, which reads every lazy export
 * and loads internals the deployer never calls (readline's interface, fs/promises): measured
 * ~10 ms of CPU and ~2 MiB on every rollout. Run against the build (`npm test` builds first).
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
});
