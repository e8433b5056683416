import { describe, it, expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { cobraCompletions, completionScript, executableName } from '../../../src/cli/completion.js';
import { main } from '../../../src/cli/index.js';
import { Output } from '../../support/output.js';

const bashSyntaxOk = (script: string): boolean => {
  execFileSync('bash', ['-n'], { input: script });
  return true;
};

describe('completion scripts', () => {
  it('name the kubectl plugin by its executable (no space in the function or complete target)', () => {
    const script = completionScript('kubectl dc');
    expect(executableName('kubectl dc')).toBe('kubectl-dc');
    expect(script).toContain('_kubectl_dc_completions()');
    expect(script).toContain('kubectl-dc --get-yargs-completions');
    expect(script).toMatch(/^complete -o bashdefault -o default -F _kubectl_dc_completions kubectl-dc$/m);
    expect(script).not.toMatch(/_kubectl dc/);
    expect(bashSyntaxOk(script)).toBe(true);
  });

  it('are valid bash for dcctl, and zsh registers a compdef', () => {
    expect(bashSyntaxOk(completionScript('dcctl'))).toBe(true);
    const zsh = completionScript('kubectl dc', 'zsh');
    expect(zsh).toMatch(/^#compdef kubectl-dc$/m);
    expect(zsh).toContain('compdef _kubectl_dc_completions kubectl-dc');
  });

  it('`kubectl dc completion` prints the plugin script through main', async () => {
    const out = new Output();
    expect(await main(['completion'], 'kubectl dc', { out, err: new Output() })).toBe(0);
    expect(out.text).toBe(completionScript('kubectl dc'));
  });

  it('answers kubectl plugin completion in Cobra format, filtered by the current word', () => {
    expect(cobraCompletions(['latest', 'undo', '', 'latest'], 'la')).toBe('latest\n:4\n');
    expect(cobraCompletions(['a'], 'zz')).toBe(':4\n');
  });
});
