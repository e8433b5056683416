// Shell completion as a user gets it: the real bash sourcing `kubectl dc completion`, and the real
// kubectl completing `kubectl dc ...` through bin/kubectl_complete-dc.js (needs `npm run build`).
import { describe, it, expect, afterAll } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { repoDir as repo } from '../support/kube.js';

describe('completion (real bash and kubectl)', () => {
  const bin = mkdtempSync(path.join(tmpdir(), 'dcctl-completion-'));
  symlinkSync(path.join(repo, 'bin/kubectl-dc.js'), path.join(bin, 'kubectl-dc'));
  symlinkSync(path.join(repo, 'bin/kubectl_complete-dc.js'), path.join(bin, 'kubectl_complete-dc'));
  const env = { ...process.env, PATH: `${bin}:${process.env['PATH']}` };
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  it('bash completes `kubectl-dc rollout la` to latest after sourcing `kubectl dc completion`', () => {
    const out = execFileSync('bash', ['-c',
      'source <(kubectl-dc completion) && COMP_WORDS=(kubectl-dc rollout la) && COMP_CWORD=2 && _kubectl_dc_completions && printf "%s\\n" "${COMPREPLY[@]}"'],
    { env, encoding: 'utf8' });
    expect(out).toBe('latest\n');
  });

  it('kubectl completes `kubectl dc rollout la` through kubectl_complete-dc', () => {
    const out = execFileSync('kubectl', ['__complete', 'dc', 'rollout', 'la'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(out).toBe('latest\n:4\n');
  });
});
