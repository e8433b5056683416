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
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageDefaults } from '../../../hack/process-kubelet/lib.mjs';
import { makeDeployerPod } from '../../../src/deployer-controller/pod.js';
import { makeDeployment, okDeploymentConfig } from '../deployer-controller/fixtures.js';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const image = imageDefaults(readFileSync(path.join(repoDir, 'Dockerfile'), 'utf8'));

/** The argv a container runtime starts for `container` in the image. */
function runs(container: V1Container): string[] {
  if (container.command && container.command.length > 0) return [...container.command, ...(container.args ?? [])];
  return [...image.entrypoint, ...(container.args && container.args.length > 0 ? container.args : image.cmd)];
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
    expect(runs(container)).toEqual(['node', '/app/bin/dcctl.js', 'deploy']);
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
