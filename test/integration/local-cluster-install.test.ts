/**
 * The first run explains itself: `hack/local-cluster.sh install` (run by `npm start` and
 * `npm test`) says up front that the cold build takes minutes, then names each component it
 * builds with the time spent, instead of sitting silent. Driven with a stand-in `go` on PATH
 * that answers the few commands install uses and "builds" each binary in ~2.5 s, and an empty
 * binary cache; the real build is what CI's first run does (measured in README).
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoDir } from '../support/kube.js';

const fakeGo = (modcache: string, gomod: string) => `#!/usr/bin/env bash
# Stand-in for go: just enough for hack/local-cluster.sh install.
out=""; prev=""
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
case "$1 $2" in
  "mod download") echo '{'; echo "  \\"GoMod\\": \\"${gomod}\\","; echo '}' ;;
  "env GOMODCACHE") echo "${modcache}" ;;
  "mod "*|"get "*) ;;
  "build "*)
    sleep 2.5
    if [ "\${out%/}" != "$out" ]; then
      for b in kube-apiserver kube-controller-manager kube-scheduler; do printf '#!/bin/sh\\necho Kubernetes v1.36.3\\n' > "$out$b"; chmod +x "$out$b"; done
    else
      printf '#!/bin/sh\\n' > "$out"; chmod +x "$out"
    fi ;;
  "install "*) sleep 2.5; printf '#!/bin/sh\\n' > "$GOBIN/kwok"; chmod +x "$GOBIN/kwok" ;;
  *) echo "fake go: unexpected: $*" >&2; exit 3 ;;
esac
`;

describe('hack/local-cluster.sh install on a cold cache', () => {
  it('says the cold build takes 7-14 minutes up front and reports each component with elapsed time', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dcctl-install-'));
    try {
      const bin = path.join(dir, 'bin');
      const modcache = path.join(dir, 'modcache');
      mkdirSync(bin);
      mkdirSync(path.join(modcache, 'sigs.k8s.io/kwok@v0.8.0/kustomize/stage/node'), { recursive: true });
      const gomod = path.join(dir, 'kubernetes.mod');
      // k8s.io/kubernetes' go.mod replaces its staging modules with ./staging (install maps them).
      writeFileSync(gomod, `module k8s.io/kubernetes\n\ngo 1.26\n\nreplace (\n${
        Array.from({ length: 25 }, (_, i) => `\tk8s.io/staging${i} => ./staging/src/k8s.io/staging${i}\n`).join('')})\n`);
      writeFileSync(path.join(bin, 'go'), fakeGo(modcache, gomod));
      chmodSync(path.join(bin, 'go'), 0o755);

      const env = { ...process.env, PATH: `${bin}:${process.env['PATH']}`, XDG_CACHE_HOME: path.join(dir, 'cache'), INSTALL_PROGRESS_SECONDS: '1' };
      const script = path.join(repoDir, 'hack/local-cluster.sh');
      const cold = spawnSync('bash', [script, 'install'], { encoding: 'utf8', env });
      expect({ status: cold.status, stderr: cold.stderr }).toMatchObject({ status: 0 });
      const lines = cold.stderr.split('\n');
      // Said before anything is built.
      const notice = lines.findIndex((l) => l.includes('A cold build takes 7-14 minutes on 2 cores'));
      expect(notice).toBeGreaterThanOrEqual(0);
      expect(lines.findIndex((l) => l.startsWith('[local-cluster] FIRST RUN'))).toBeLessThan(notice);
      expect(notice).toBeLessThan(lines.findIndex((l) => l.includes('etcd v3.6.16: building')));
      // Progress names the component and the time spent, for each build step.
      for (const what of ['etcd', 'kwok', 'kube-apiserver, kube-controller-manager, kube-scheduler']) {
        expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^\\[local-cluster\\] still building ${what}: 0m0\\ds \\(install running \\dm\\d\\ds\\)$`)));
        expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^\\[local-cluster\\] built ${what} in 0m0\\ds$`)));
      }
      expect(lines).toContainEqual(expect.stringMatching(/^\[local-cluster\] install done in \dm\d\ds$/));

      // Second run: the cache answers at once, in one line.
      const cached = spawnSync('bash', [script, 'install'], { encoding: 'utf8', env });
      expect(cached.status).toBe(0);
      expect(cached.stderr).toMatch(/^\[local-cluster\] control-plane binaries: cached in .*\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
