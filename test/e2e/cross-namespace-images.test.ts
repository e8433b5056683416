/**
 * Issue 14 item 3, the attack as a test: a user with rights only in namespace A writes an
 * ImageStream spec tag pointing at `B/app:prod`, or a DC whose ImageChange trigger names
 * namespace B. Before, the controllers copied B's image reference (registry, repository, digest)
 * into A and rolled it out. Now, as on OpenShift, the WRITER must be allowed `get` on
 * `imagestreams/layers` in B: deploy/base/image-policy.yaml (applied by the global setup) asks the
 * real authorizer at admission, and the controllers follow only references that admission checked
 * (docs/image-triggers.md "Cross-namespace references"). Users are impersonated (`kubectl --as`),
 * with RBAC only where the test grants it.
 *
 * The controllers here watch every namespace (a reference into B resolves only then), which is
 * safe because the integration suite runs its files one at a time (`--runInBand`). Needs
 * `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DeploymentConfig } from '../../src/apis/deploymentconfig.js';
import type { ImageStream } from '../../src/apis/imagestream.js';
import { DcClient, dcManifest } from '../support/dc.js';
import { apis, createNamespace, deleteNamespace, kubectl, repoDir, startController, waitFor, type ControllerProcess } from '../support/kube.js';

const { custom } = apis();
const suffix = Math.random().toString(16).slice(2, 8);
const editor = `dcctl-test-xns-editor-${suffix}`;
const layers = `dcctl-test-xns-layers-${suffix}`;
const testPolicy = `dcctl-test-xns-policy-${suffix}`;
const secret = `registry.internal/team-b/secret-app@sha256:${'b'.repeat(64)}`;
const policyFile = path.join(repoDir, 'deploy/base/image-policy.yaml');
let a = '';
let b = '';
let controller: ControllerProcess | undefined;

/** kubectl as `user` (impersonation): exit code and stdout, or stderr on failure. */
function as(user: string, args: string[], input?: string): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync('kubectl', [`--as=${user}`, ...args], { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], env: process.env }) };
  } catch (err) {
    const e = err as { status?: number; stderr?: string };
    return { code: e.status ?? 1, out: e.stderr ?? '' };
  }
}

const streamJson = (ns: string, name: string, tags: unknown[]) => JSON.stringify({
  apiVersion: 'image.openshift.io/v1', kind: 'ImageStream', metadata: { name, namespace: ns }, spec: { tags },
});
const fromB = (tag: string) => ({ name: tag, from: { kind: 'ImageStreamTag', name: 'app:prod', namespace: b } });
const getStream = async (ns: string, name: string) =>
  (await custom.getNamespacedCustomObject({ group: 'image.openshift.io', version: 'v1', namespace: ns, plural: 'imagestreams', name })) as ImageStream;
/** A DC in A whose only image comes from an ImageChange trigger on B/app:prod. */
function triggeredFromB(name: string): DeploymentConfig {
  const dc = dcManifest({ name, replicas: 1, image: ' ' });
  dc.metadata.namespace = a;
  dc.spec.triggers = [{ type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['web'], from: { kind: 'ImageStreamTag', name: 'app:prod', namespace: b } } }];
  return dc;
}
const image = (dc: DeploymentConfig) => dc.spec.template?.spec?.containers[0]?.image;

/** The policy and binding of deploy/, renamed: the test owns it, so it can install it late. */
const renamedPolicy = () => readFileSync(policyFile, 'utf8').replaceAll('dcctl-cross-namespace-image-references', testPolicy);

/**
 * Waits until objects created now count as admitted by the binding `name`: its newest write
 * time plus the controllers' propagation allowance (5 s) and one second of timestamp precision.
 */
async function waitPastBinding(name: string): Promise<void> {
  const binding = JSON.parse(kubectl(['get', 'validatingadmissionpolicybinding', name, '-o', 'json'])) as {
    metadata: { creationTimestamp: string; managedFields?: Array<{ time?: string }> };
  };
  const newest = Math.max(...[binding.metadata.creationTimestamp, ...(binding.metadata.managedFields ?? []).map((f) => f.time)]
    .filter((t): t is string => !!t).map((t) => Date.parse(t)));
  const wait = newest + 7_000 - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}

beforeAll(async () => {
  a = await createNamespace('xns-a');
  b = await createNamespace('xns-b');
  // alice and bob may edit DCs and ImageStreams in A; only bob may read image layers in B.
  kubectl(['create', 'clusterrole', editor, '--verb=*', '--resource=deploymentconfigs.apps.openshift.io,imagestreams.image.openshift.io']);
  kubectl(['create', 'clusterrole', layers, '--verb=get', '--resource=imagestreams.image.openshift.io/layers']);
  for (const user of ['alice', 'bob']) kubectl(['-n', a, 'create', 'rolebinding', `${editor}-${user}`, `--clusterrole=${editor}`, `--user=${user}`]);
  kubectl(['-n', b, 'create', 'rolebinding', `${layers}-bob`, `--clusterrole=${layers}`, '--user=bob']);
  kubectl(['apply', '-f', '-'], streamJson(b, 'app', [{ name: 'prod', from: { kind: 'DockerImage', name: secret } }]));
  await waitPastBinding('dcctl-cross-namespace-image-references');
});

afterAll(async () => {
  await controller?.stop();
  kubectl(['delete', 'clusterrole', editor, layers, '--ignore-not-found']);
  kubectl(['delete', 'validatingadmissionpolicybinding,validatingadmissionpolicy', testPolicy, '--ignore-not-found']);
  await deleteNamespace(a);
  await deleteNamespace(b);
});

describe('cross-namespace image references need get imagestreams/layers in the source namespace (e2e)', () => {
  it('admission refuses alice (no rights in B) a stream tag and a DC trigger into B, naming the field', () => {
    const tag = as('alice', ['create', '-f', '-'], streamJson(a, 'stolen', [{ name: 'ok', from: { kind: 'DockerImage', name: 'r/x:1' } }, fromB('prod')]));
    expect(tag.code).not.toBe(0);
    expect(tag.out).toContain(`user "alice" may not take images from another namespace without get on imagestreams/layers of that image stream there: `
      + `spec.tags[1].from refers to imagestream "app" in namespace "${b}"`);

    const trigger = as('alice', ['create', '-f', '-'], JSON.stringify(triggeredFromB('thief')));
    expect(trigger.code).not.toBe(0);
    expect(trigger.out).toContain(`user "alice" may not take images from another namespace without get on imagestreams/layers of that image stream there: `
      + `spec.triggers[0].imageChangeParams.from refers to imagestream "app" in namespace "${b}"`);

    // A tag without "stream:" names the referring stream's own name in B: checked as B/app too.
    const bare = as('alice', ['create', '-f', '-'], streamJson(a, 'app', [{ name: 'prod', from: { kind: 'ImageStreamTag', name: 'prod', namespace: b } }]));
    expect(bare.out).toContain(`spec.tags[0].from refers to imagestream "app" in namespace "${b}"`);

    // References within her own namespace need nothing more than her rights there.
    expect(as('alice', ['create', '-f', '-'], streamJson(a, 'local', [{ name: 'x', from: { kind: 'ImageStreamTag', name: 'other:1', namespace: a } }])).code).toBe(0);
  });

  it('bob (get imagestreams/layers in B) may: the stream resolves and the DC rolls out B\'s image', async () => {
    controller = startController('');
    expect(as('bob', ['create', '-f', '-'], streamJson(a, 'shared', [fromB('prod')])).code).toBe(0);
    const resolved = await waitFor('A/shared:prod resolved', async () => (await getStream(a, 'shared')).status?.tags?.[0]?.items?.[0]);
    expect(resolved.dockerImageReference).toBe(secret);

    expect(as('bob', ['create', '-f', '-'], JSON.stringify(triggeredFromB('web'))).code).toBe(0);
    const dcs = new DcClient(a);
    const rolled = await dcs.waitForLatestVersion(1, 'web', 90_000);
    expect(image(rolled)).toBe(secret);
    await dcs.waitForPhase('web-1', 'Complete', 120_000);
  }, 240_000);

  it('others may still edit what bob wrote; once bob loses access to B he may not add a reference', () => {
    expect(as('alice', ['-n', a, 'label', 'imagestream.image.openshift.io/shared', 'team=x']).code).toBe(0);
    kubectl(['-n', b, 'delete', 'rolebinding', `${layers}-bob`]);
    const again = as('bob', ['apply', '-f', '-'], streamJson(a, 'shared', [fromB('prod'), { name: 'dev', from: { kind: 'ImageStreamTag', name: 'app:dev', namespace: b } }]));
    expect(again.code).not.toBe(0);
    expect(again.out).toContain(`user "bob" may not take images from another namespace without get on imagestreams/layers of that image stream there: spec.tags[1].from`);
  });

  it('fails closed: without its admission policy the controller copies nothing and says why; objects from before the policy stay refused', async () => {
    await controller?.stop();
    // The controller trusts only the test's own policy, which is not installed yet: the
    // cluster-wide one still admits these objects (the admin may read B), as an object written
    // before any policy existed would have been.
    controller = startController('', [`--cross-namespace-policy=${testPolicy}`]);
    kubectl(['create', '-f', '-'], streamJson(a, 'early', [fromB('prod')]));
    kubectl(['create', '-f', '-'], JSON.stringify(triggeredFromB('early')));
    const dcs = new DcClient(a);

    const refused = await waitFor('A/early:prod refused', async () => (await getStream(a, 'early')).status?.tags?.[0]?.conditions?.[0]);
    expect(refused).toMatchObject({ type: 'ImportSuccess', status: 'False', reason: 'Forbidden' });
    expect(refused.message).toBe(`reference from ImageStream "${a}/early" to images in namespace "${b}" refused: `
      + `the ValidatingAdmissionPolicy "${testPolicy}" does not exist (kubectl apply -f deploy/base/image-policy.yaml)`);
    expect(JSON.stringify((await getStream(a, 'early')).status)).not.toContain('secret-app');
    await waitFor('the CrossNamespaceImageRefused event', async () => (await dcs.eventTexts('early'))
      .find((t) => t.startsWith(`Warning CrossNamespaceImageRefused: reference from DeploymentConfig "${a}/early" to images in namespace "${b}" refused`)));
    const waiting = await dcs.waitForConditions({ Progressing: { status: 'Unknown', reason: 'WaitingForImages' } }, 'early');
    expect(waiting.status?.latestVersion ?? 0).toBe(0);
    expect(image(waiting)).toBe(' ');

    // Installing the policy now does not vouch for what was written before it.
    kubectl(['apply', '-f', '-'], renamedPolicy());
    await waitFor('A/early:prod refused as older than the policy', async () =>
      (await getStream(a, 'early')).status?.tags?.[0]?.conditions?.[0]?.message?.includes('was created before the admission policy'), { timeoutMs: 40_000 });
    expect(image(await dcs.get('early'))).toBe(' ');
    // What is created after it is followed.
    await waitPastBinding(testPolicy);
    kubectl(['create', '-f', '-'], streamJson(a, 'late', [fromB('prod')]));
    expect((await waitFor('A/late:prod resolved', async () => (await getStream(a, 'late')).status?.tags?.[0]?.items?.[0])).dockerImageReference).toBe(secret);
    expect(image(await dcs.get('early'))).toBe(' ');

    // --cross-namespace-images=deny: nothing more comes from B, even for admitted objects; what
    // was copied stays in the history.
    await controller.stop();
    controller = startController('', ['--cross-namespace-images=deny']);
    kubectl(['create', '-f', '-'], streamJson(a, 'denied', [fromB('prod')]));
    const denied = await waitFor('A/denied:prod refused', async () => (await getStream(a, 'denied')).status?.tags?.[0]?.conditions?.[0]);
    expect(denied).toMatchObject({ reason: 'Forbidden', message: `reference from ImageStream "${a}/denied" to images in namespace "${b}" refused: the controller runs with --cross-namespace-images=deny` });
    const late = await waitFor('A/late:prod refused', async () => {
      const tag = (await getStream(a, 'late')).status?.tags?.[0];
      return tag?.conditions?.[0]?.reason === 'Forbidden' ? tag : undefined;
    });
    expect(late.items?.[0]?.dockerImageReference).toBe(secret);
  }, 180_000);
});
