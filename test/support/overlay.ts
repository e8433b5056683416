/**
 * A copy of the repository's deploy/ and crds/ (and hack/ when asked) for the overlay tests, so that
 * the certificates they make never land in the worktree's certs/ folders. Registers its own
 * beforeAll/afterAll; `overlay()` is the path of `deploy/overlays/<name>` in the copy.
 */
import { afterAll, beforeAll } from '@jest/globals';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoDir } from './kube.js';

export function useOverlayCopy(name: string, opts: { withHack?: boolean } = {}): { root(): string; overlay(): string; certs(): string } {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), `overlay-${name}-`));
    cpSync(path.join(repoDir, 'deploy'), path.join(dir, 'deploy'), { recursive: true, filter: (src) => !src.includes(`${path.sep}certs${path.sep}`) });
    cpSync(path.join(repoDir, 'crds'), path.join(dir, 'crds'), { recursive: true });
    if (opts.withHack) cpSync(path.join(repoDir, 'hack'), path.join(dir, 'hack'), { recursive: true, filter: (src) => !src.includes('process-kubelet') });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const overlay = () => path.join(dir, 'deploy/overlays', name);
  return { root: () => dir, overlay, certs: () => path.join(overlay(), 'certs') };
}
