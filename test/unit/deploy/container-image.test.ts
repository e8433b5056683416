/**
 * What the project's one container image runs for each pod that uses it, as a container runtime
 * decides it from the Dockerfile's ENTRYPOINT and CMD and the container's `command` and `args`:
 * a `command` replaces both; `args` replace CMD only. A deployer pod is built like OpenShift's
 * (no command, no args, so that OpenShift's own deployer image works as --deployer-image too), so
 * the image's defaults must run the deployer; the install manifests name their subcommand.
 */
import { describe, expect, it } from '@jest/globals';
import type { V1Container } from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageDefaults } from '../../../hack/process-kubelet/lib.mjs';
import { makeDeployerPod } from '../../../src/deployer-controller/pod.js';
import { makeDeployment, okDeploymentConfig } from '../deployer-controller/fixtures.js';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const image = imageDefaults(readFileSync(path.join(repoDir, 'Dockerfile'), 'utf8'));

/**
 * What the image's entry point (bin/dcctl-entrypoint) execs for `args`: the script itself, run
 * with a `node` on its PATH that prints its arguments; the repository's bin/ shows as the image's.
 */
function entrypointExecs(args: string[]): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'entrypoint-'));
  try {
    writeFileSync(path.join(dir, 'node'), '#!/bin/sh\nfor a in "$@"; do printf \'%s\\n\' "$a"; done\n', { mode: 0o755 });
    const run = spawnSync(path.join(repoDir, 'bin/dcctl-entrypoint'), args, { env: { PATH: `${dir}:/usr/bin:/bin` }, encoding: 'utf8' });
    expect(run.status).toBe(0);
    return ['node', ...run.stdout.split('\n').slice(0, -1).map((a) => a.replace(`${repoDir}/bin/`, '/app/bin/'))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The argv a container runtime starts for `container` in the image, through its entry point. */
function runs(container: V1Container): string[] {
  if (container.command && container.command.length > 0) return [...container.command, ...(container.args ?? [])];
  const argv = [...image.entrypoint, ...(container.args && container.args.length > 0 ? container.args : image.cmd)];
  return argv[0] === '/app/bin/dcctl-entrypoint' ? entrypointExecs(argv.slice(1)) : argv;
}

interface Workload { kind?: string; spec?: { template?: { spec?: { containers?: V1Container[] } } } }
function containerOf(file: string, kind: string): V1Container {
  const docs = loadAll(readFileSync(path.join(repoDir, file), 'utf8')) as Workload[];
  const container = docs.find((d) => d?.kind === kind)?.spec?.template?.spec?.containers?.[0];
  if (!container) throw new Error(`${file}: no ${kind} container`);
  return container;
}

describe('the container image', () => {
  it('runs the deployer in a deployer pod as the controller builds it (no command, no args)', () => {
    const dc = okDeploymentConfig(1);
    const pod = makeDeployerPod(makeDeployment(dc, new Date('2024-01-02T03:04:05Z')), dc, { deployerImage: 'deploymentconfig-controller:latest' });
    const container = pod.spec!.containers[0]!;
    expect(container.command).toBeUndefined();
    expect(container.args).toBeUndefined();
    // With OpenSSL's CA store, not Node.js's bundled one, which a deployer never uses (bin/dcctl-entrypoint).
    expect(runs(container)).toEqual(['node', '--use-openssl-ca', '/app/bin/dcctl.js', 'deploy']);
  });

  it("keeps Node.js's bundled CA store for every other command, and passes arguments unchanged", () => {
    expect(entrypointExecs(['rollout', 'status', 'dc/a b', 'deploy'])).toEqual(['node', '/app/bin/dcctl.js', 'rollout', 'status', 'dc/a b', 'deploy']);
    expect(entrypointExecs(['deploy', '--until', '50%'])).toEqual(['node', '--use-openssl-ca', '/app/bin/dcctl.js', 'deploy', '--until', '50%']);
    expect(image.entrypoint).toEqual(['/app/bin/dcctl-entrypoint']);
  });

  it("gives a deployer pod the deployer's compiled code, filled as the user the pod runs as", () => {
    // Node.js keys its compile cache by UID: filled as root, a deployer (UID 1001) would compile
    // the deployer again on every rollout. bin/dcctl.js loads dist/deployer.cjs for `deploy`.
    const lastStage = readFileSync(path.join(repoDir, 'Dockerfile'), 'utf8').replace(/\\\r?\n/g, ' ').split(/^FROM /m).at(-1)!;
    const cacheDir = image.env.NODE_COMPILE_CACHE;
    expect(cacheDir).toMatch(/^\/app\//);
    expect(readFileSync(path.join(repoDir, 'bin/dcctl.js'), 'utf8')).toContain("require('../dist/deployer.cjs')");
    const user = lastStage.search(/^USER 1001:0$/m);
    const fill = lastStage.search(/^RUN node .*import\('\/app\/dist\/deployer\.cjs'\)/m);
    expect(user).toBeGreaterThan(0);
    expect(fill).toBeGreaterThan(user);
    expect(lastStage.slice(fill)).toContain(`chmod -R a-w ${cacheDir}`);
  });

  it('runs the controller and the aggregated API server where the install manifests use it', () => {
    expect(runs(containerOf('deploy/base/controller.yaml', 'Deployment')).slice(0, 3)).toEqual(['node', '/app/bin/dcctl.js', 'controller']);
    expect(runs(containerOf('deploy/overlays/aggregated/apiserver.yaml', 'Deployment')).slice(0, 3)).toEqual(['node', '/app/bin/dcctl.js', 'apiserver']);
  });
});
