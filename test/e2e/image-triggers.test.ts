import { describe, expect, it } from '@jest/globals';
import { Annotations, Group } from '../../src/apis/constants.js';
import type { DeploymentConfig, DeploymentTriggerPolicy, LifecycleHook } from '../../src/apis/deploymentconfig.js';
import type { ImageStream } from '../../src/apis/imagestream.js';
import { dcManifest, useDeployerTestEnv } from '../support/dc.js';
import { apis, dcctl, kubectl, waitFor } from '../support/kube.js';

// ImageChange triggers on ImageStreamTags end to end (design.md §7.2, §7.3, §8, §6.6): the real
// controller (DC, deployer and image trigger controllers) against the local control plane, with
// deployer and hook pods run by the process kubelet. Needs `npm run build`.


const env = useDeployerTestEnv('image-triggers');
const { custom } = apis();

const imageTrigger = (tag: string, containerNames: string[], automatic = true): DeploymentTriggerPolicy =>
  ({ type: 'ImageChange', imageChangeParams: { automatic, containerNames, from: { kind: 'ImageStreamTag', name: tag } } });

/** A Recreate DC with an init container, whose images come from `triggers` (empty to begin with). */
function triggeredDc(name: string, triggers: DeploymentTriggerPolicy[], post?: LifecycleHook): DeploymentConfig {
  const dc = dcManifest({ name, replicas: 1, image: ' ', strategy: { type: 'Recreate', recreateParams: { timeoutSeconds: 60, ...(post ? { post } : {}) } } });
  dc.spec.triggers = triggers;
  dc.spec.template!.spec!.initContainers = [{ name: 'init', image: ' ', command: ['true'] }];
  return dc;
}

const run = (...args: string[]) => dcctl([...args, '-n', env.ns]);
const getStream = async (name: string): Promise<ImageStream> =>
  (await custom.getNamespacedCustomObject({ group: 'image.openshift.io', version: 'v1', namespace: env.ns, plural: 'imagestreams', name })) as ImageStream;
const images = (dc: DeploymentConfig) => [...(dc.spec.template?.spec?.initContainers ?? []), ...(dc.spec.template?.spec?.containers ?? [])].map((c) => c.image);
const reason = async (rc: string) => (await env.dc.rc(rc))?.metadata?.annotations?.[Annotations.StatusReason];

/** Moves a tag with plain kubectl (no dcctl): a JSON patch of the stream's spec tag. */
function kubectlRetag(stream: string, index: number, image: string): void {
  kubectl(['patch', '-n', env.ns, `imagestream.image.openshift.io/${stream}`, '--type', 'json', '-p',
    JSON.stringify([{ op: 'replace', path: `/spec/tags/${index}/from`, value: { kind: 'DockerImage', name: image } }])]);
}

/**
 * Asserts the DC stays at `version` for a while: a negative check, made only after the controller
 * has observably handled the change (it cannot pass for a controller that has not started).
 */
async function staysAt(name: string, version: number, ms = 3000): Promise<DeploymentConfig> {
  await new Promise((r) => setTimeout(r, ms));
  const dc = await env.dc.get(name);
  expect(dc.status?.latestVersion ?? 0).toBe(version);
  return dc;
}

describe('ImageChange triggers (e2e)', () => {
  it('waits for the tag, rolls out when it appears and again with "image change" when it moves; undo switches the trigger off', async () => {
    await env.dc.create(triggeredDc('web', [imageTrigger('web:latest', ['web', 'init']), { type: 'ConfigChange' }]));
    // Waits for the controller's own word (the condition), not for a fixed time after its start:
    // under load a controller may take longer than any fixed delay to sync for the first time.
    const waiting = await env.dc.waitForConditions({ Progressing: { status: 'Unknown', reason: 'WaitingForImages' } }, 'web', 60_000);
    expect(waiting.status?.latestVersion ?? 0).toBe(0);

    const tag = await run('tag', 'registry.local/web:1', 'web:latest');
    expect(tag).toMatchObject({ code: 0, stdout: 'Tag web:latest set to registry.local/web:1.\n' });
    const first = await env.dc.waitForLatestVersion(1);
    expect(images(first)).toEqual(['registry.local/web:1', 'registry.local/web:1']);
    expect(first.spec.triggers?.[0]?.imageChangeParams?.lastTriggeredImage).toBe('registry.local/web:1');
    await env.dc.waitForPhase('web-1', 'Complete');
    expect(await reason('web-1')).toBe('config change');
    const stream = await getStream('web');
    expect(stream.status?.tags?.[0]).toMatchObject({ tag: 'latest', items: [{ dockerImageReference: 'registry.local/web:1' }] });

    kubectlRetag('web', 0, 'registry.local/web:2');
    const second = await env.dc.waitForLatestVersion(2);
    expect(second.status?.details).toEqual({
      message: 'image change', causes: [{ type: 'ImageChange', imageTrigger: { from: { kind: 'DockerImage', name: 'registry.local/web:2' } } }],
    });
    expect(images(second)).toEqual(['registry.local/web:2', 'registry.local/web:2']);
    await env.dc.waitForPhase('web-2', 'Complete');
    expect(await reason('web-2')).toBe('image change');
    expect((await getStream('web')).status?.tags?.[0]?.items?.map((i) => i.dockerImageReference)).toEqual(['registry.local/web:2', 'registry.local/web:1']);

    // rollout undo (§8): back to revision 1's template with every image trigger made manual, so
    // moving the tag no longer rolls out.
    const undo = await run('rollout', 'undo', 'dc/web');
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain(`deploymentconfig.${Group}/web rolled back\n`);
    expect(undo.stdout).toContain('the following images triggers were disabled: web:latest');
    const undone = await env.dc.waitForLatestVersion(3);
    expect(undone.spec.triggers?.[0]?.imageChangeParams?.automatic).toBe(false);
    expect(images(undone)).toEqual(['registry.local/web:1', 'registry.local/web:1']);
    await env.dc.waitForPhase('web-3', 'Complete');
    kubectlRetag('web', 0, 'registry.local/web:3');
    await waitFor('tag moved to :3', async () => (await getStream('web')).status?.tags?.[0]?.items?.[0]?.dockerImageReference === 'registry.local/web:3');
    const after = await staysAt('web', 3);
    expect(images(after)).toEqual(['registry.local/web:1', 'registry.local/web:1']);
  }, 240_000);

  it('automatic: false waits for rollout latest, which resolves every trigger (several per DC)', async () => {
    expect((await run('tag', 'registry.local/app:1', 'app:latest')).code).toBe(0);
    expect((await run('tag', 'registry.local/init:1', 'tools:init')).code).toBe(0);
    await waitFor('streams resolved', async () => (await getStream('tools')).status?.tags?.[0]?.items?.length === 1);
    await env.dc.create(triggeredDc('manual', [imageTrigger('app:latest', ['web'], false), imageTrigger('tools:init', ['init'], false)]));
    const waiting = await env.dc.waitForConditions({ Progressing: { status: 'Unknown', reason: 'WaitingForImages' } }, 'manual', 60_000);
    expect(waiting.status?.latestVersion ?? 0).toBe(0);
    expect(images(waiting)).toEqual([' ', ' ']);

    const latest = await run('rollout', 'latest', 'dc/manual');
    expect(latest).toMatchObject({ code: 0, stdout: `deploymentconfig.${Group}/manual rolled out\n` });
    const rolled = await env.dc.get('manual');
    expect(rolled.status?.latestVersion).toBe(1);
    expect(images(rolled)).toEqual(['registry.local/init:1', 'registry.local/app:1']);
    expect(rolled.spec.triggers?.map((t) => t.imageChangeParams?.lastTriggeredImage)).toEqual(['registry.local/app:1', 'registry.local/init:1']);
    await env.dc.waitForPhase('manual-1', 'Complete');
    expect(await reason('manual-1')).toBe('manual change');
  }, 180_000);

  it('a tagImages post hook tags the deployed image into an ImageStreamTag', async () => {
    const post: LifecycleHook = { failurePolicy: 'Abort', tagImages: [{ containerName: 'web', to: { kind: 'ImageStreamTag', name: 'web:deployed' } }] };
    const dc = triggeredDc('hooked', [{ type: 'ConfigChange' }], post);
    dc.spec.template!.spec!.containers[0]!.image = 'registry.local/web:7';
    dc.spec.template!.spec!.initContainers![0]!.image = 'registry.local/init:7';
    await env.dc.create(dc);
    await env.dc.waitForPhase('hooked-1', 'Complete', 120_000);
    const stream = await waitFor('web:deployed resolved', async () => {
      const s = await getStream('web');
      return s.status?.tags?.find((t) => t.tag === 'deployed')?.items?.length ? s : undefined;
    });
    expect(stream.spec?.tags?.find((t) => t.name === 'deployed')?.from).toEqual({ kind: 'DockerImage', name: 'registry.local/web:7' });
    expect(await env.dc.eventTexts('hooked')).toContain('Normal Completed: The post-hook for rc ' + `${env.ns}/hooked-1 completed successfully`);
  }, 180_000);
});
