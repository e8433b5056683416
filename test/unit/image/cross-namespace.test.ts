/**
 * Issue 14 item 3: a user with rights only in namespace A wrote an ImageStream spec tag pointing
 * at `B/app:prod`, or a DC ImageChange trigger naming namespace B, and the controllers copied B's
 * image reference into A and rolled it out. Admission now checks the writer
 * (deploy/image-policy.yaml, proven on the real plane in test/e2e/cross-namespace-images.test.ts);
 * these tests guard the controllers' side: they follow a reference into another namespace only
 * when admission vouched for it, and otherwise copy nothing and say why.
 */
import { describe, expect, it } from '@jest/globals';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import type { ImageStream } from '../../../src/apis/imagestream.js';
import { WorkQueue } from '../../../src/controller/workqueue.js';
import { syncDeploymentConfig } from '../../../src/deploymentconfig/sync.js';
import { requeueCrossNamespaceReferences } from '../../../src/image/controller.js';
import {
  AdmissionPropagationSeconds, admissionRefusal, allowAllCrossNamespace, denyAllCrossNamespace, policyState,
  type CrossNamespaceGate, type PolicyState,
} from '../../../src/image/cross-namespace.js';
import { gatedTagResolver, tagResolverFor } from '../../../src/image/resolve.js';
import { computeImageStreamStatus } from '../../../src/image/status.js';
import { syncImageTriggerKey } from '../../../src/image/sync.js';
import { imageTrigger, makeDc, NS } from '../deploymentconfig/fixtures.js';
import { dockerTag, stream } from '../../support/builders.js';
import { newFakeCluster } from '../../support/fakes.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const secret = `registry.internal/b/secret@sha256:${'b'.repeat(64)}`;
const name = 'dcctl-cross-namespace-image-references';
const binding = (extra: Record<string, unknown> = {}) => ({
  metadata: { creationTimestamp: '2026-01-01T10:00:00Z' },
  spec: { policyName: name, validationActions: ['Deny'] },
  ...extra,
});
const inForceSince = (iso: string): PolicyState => ({ inForce: true, since: new Date(iso) });

describe('policyState: is the admission policy in force, and since when', () => {
  it('in force when the binding denies every match and the policy fails closed; since its last write plus the propagation delay', () => {
    expect(policyState(name, { spec: { failurePolicy: 'Fail' } }, binding())).toEqual(
      inForceSince(new Date(Date.parse('2026-01-01T10:00:00Z') + AdmissionPropagationSeconds * 1000).toISOString()));
    // Edited later (for example to Warn and back to Deny): objects created before the edit may
    // never have been checked, so the line moves to the newest server-set write time.
    const edited = binding({ metadata: { creationTimestamp: '2026-01-01T10:00:00Z', managedFields: [{ time: '2026-01-01T12:00:00Z' }, { time: '2026-01-01T11:00:00Z' }] } });
    expect(policyState(name, {}, edited)).toEqual(inForceSince('2026-01-01T12:00:05.000Z'));
  });

  it.each([
    ['no policy', undefined, binding(), `the ValidatingAdmissionPolicy "${name}" does not exist (kubectl apply -f deploy/base/image-policy.yaml)`],
    ['no binding', {}, undefined, `the ValidatingAdmissionPolicyBinding "${name}" does not exist (kubectl apply -f deploy/base/image-policy.yaml)`],
    ['a binding of another policy', {}, binding({ spec: { policyName: 'other', validationActions: ['Deny'] } }), `the binding "${name}" does not bind the policy "${name}"`],
    ['a binding that only warns', {}, binding({ spec: { policyName: name, validationActions: ['Warn', 'Audit'] } }), `the binding "${name}" does not deny (spec.validationActions lacks Deny)`],
    ['a narrowed binding', {}, binding({ spec: { policyName: name, validationActions: ['Deny'], matchResources: { namespaceSelector: {} } } }), `the binding "${name}" sets spec.matchResources, so some objects are not checked`],
    ['a policy that fails open', { spec: { failurePolicy: 'Ignore' } }, binding(), `the policy "${name}" does not fail closed (spec.failurePolicy is not Fail)`],
  ])('not in force with %s', (_what, policy, b, reason) => {
    expect(policyState(name, policy, b)).toEqual({ inForce: false, reason });
  });
});

describe('admissionRefusal', () => {
  const dc = (created?: string) => ({ kind: 'DeploymentConfig', metadata: { namespace: 'a', name: 'web', creationTimestamp: created } });

  it('follows references of objects created a full second after the policy was in force', () => {
    const state = inForceSince('2026-01-01T10:00:05Z');
    expect(admissionRefusal(state, name, dc('2026-01-01T10:00:06Z'), 'b')).toBeUndefined();
  });

  it('refuses objects created before (or in the same second), and objects without a creation time', () => {
    const state = inForceSince('2026-01-01T10:00:05Z');
    const expected = 'reference from DeploymentConfig "a/web" to images in namespace "b" refused: the DeploymentConfig was created before '
      + `the admission policy "${name}" was in force (2026-01-01T10:00:05.000Z), so nobody checked that its writer may read images there; re-create it`;
    for (const created of ['2026-01-01T09:00:00Z', '2026-01-01T10:00:05Z', undefined]) expect(admissionRefusal(state, name, dc(created), 'b')).toBe(expected);
  });

  it('refuses everything, with the reason, while the policy is not in force', () => {
    expect(admissionRefusal({ inForce: false, reason: 'the binding is gone' }, name, dc('2030-01-01T00:00:00Z'), 'b'))
      .toBe('reference from DeploymentConfig "a/web" to images in namespace "b" refused: the binding is gone');
  });

  it('--cross-namespace-images=deny refuses all, allow none', () => {
    expect(denyAllCrossNamespace.refusal(dc(), 'b')).toBe('reference from DeploymentConfig "a/web" to images in namespace "b" refused: the controller runs with --cross-namespace-images=deny');
    expect(allowAllCrossNamespace.refusal(dc(), 'b')).toBeUndefined();
  });
});

describe('ImageStream status tags that point into another namespace', () => {
  const source = computeImageStreamStatus(stream('app', [dockerTag('prod', secret)], 'b'), T0);
  const sourceStream: ImageStream = { ...stream('app', [dockerTag('prod', secret)], 'b'), status: source };
  const get = (ns: string, n: string) => (ns === 'b' && n === 'app' ? sourceStream : undefined);
  const thief = stream('copy', [
    { name: 'tag', from: { kind: 'ImageStreamTag', name: 'app:prod', namespace: 'b' } },
    { name: 'image', from: { kind: 'ImageStreamImage', name: `app@sha256:${'b'.repeat(64)}`, namespace: 'b' } },
    // No "stream:": the stream of the referring stream's own name, in b.
    { name: 'bare', from: { kind: 'ImageStreamTag', name: 'prod', namespace: 'b' } },
  ], 'a');
  thief.metadata.name = 'app';

  it('copies nothing when the gate refuses, and says why in ImportSuccess=False/Forbidden', () => {
    const status = computeImageStreamStatus(thief, T0, get, denyAllCrossNamespace);
    expect(status.tags?.map((t) => [t.tag, t.items, t.conditions?.[0]?.reason])).toEqual([
      ['tag', [], 'Forbidden'], ['image', [], 'Forbidden'], ['bare', [], 'Forbidden'],
    ]);
    expect(status.tags?.[0]?.conditions?.[0]?.message).toBe('reference from ImageStream "a/app" to images in namespace "b" refused: the controller runs with --cross-namespace-images=deny');
    expect(JSON.stringify(status)).not.toContain('secret');
  });

  it('copies when the gate allows; what was copied stays in the history once refused', () => {
    const allowed = computeImageStreamStatus(thief, T0, get, allowAllCrossNamespace);
    expect(allowed.tags?.map((t) => t.items?.[0]?.dockerImageReference)).toEqual([secret, secret, secret]);
    const later = computeImageStreamStatus({ ...thief, status: allowed }, T0, get, denyAllCrossNamespace);
    expect(later.tags?.map((t) => [t.items?.[0]?.dockerImageReference, t.conditions?.[0]?.reason])).toEqual([
      [secret, 'Forbidden'], [secret, 'Forbidden'], [secret, 'Forbidden'],
    ]);
  });

  it('never asks the gate about tags of its own namespace', () => {
    const asked: string[] = [];
    const gate: CrossNamespaceGate = { refusal: (_o, ns) => { asked.push(ns); return 'no'; } };
    computeImageStreamStatus(stream('web', [
      { name: 'x', from: { kind: 'ImageStreamTag', name: 'other:1' } },
      { name: 'y', from: { kind: 'ImageStreamTag', name: 'other:1', namespace: 'a' } },
      { name: 'z', from: { kind: 'DockerImage', name: 'r/x:1', namespace: 'b' } },
    ], 'a'), T0, () => undefined, gate);
    expect(asked).toEqual([]);
  });
});

describe('DC ImageChange triggers that name another namespace', () => {
  const crossDc = (): DeploymentConfig => {
    const dc = makeDc({ image: ' ', triggers: [imageTrigger('app:prod', ['web'])] });
    dc.spec.triggers![0]!.imageChangeParams!.from.namespace = 'b';
    return dc;
  };
  const setup = () => {
    const f = newFakeCluster();
    f.streams.put({ ...stream('app', [dockerTag('prod', secret)], 'b'), status: computeImageStreamStatus(stream('app', [dockerTag('prod', secret)], 'b'), T0) });
    f.dcs.put(crossDc());
    return f;
  };

  it('gatedTagResolver: refused tags resolve to nothing and are reported; own-namespace tags pass', () => {
    const f = setup();
    const reported: string[] = [];
    const resolve = gatedTagResolver(tagResolverFor((ns, n) => f.streamLister.get(ns, n)), crossDc(), denyAllCrossNamespace, (m) => reported.push(m));
    expect(resolve('b', 'app:prod')).toBeUndefined();
    expect(reported).toEqual([`reference from DeploymentConfig "${NS}/app" to images in namespace "b" refused: the controller runs with --cross-namespace-images=deny`]);
    expect(gatedTagResolver(tagResolverFor((ns, n) => f.streamLister.get(ns, n)), crossDc(), allowAllCrossNamespace)('b', 'app:prod')).toBe(secret);
  });

  it('the image trigger controller writes nothing and leaves a CrossNamespaceImageRefused event when refused', async () => {
    const f = setup();
    await syncImageTriggerKey({ ...f, crossNamespace: denyAllCrossNamespace }, `deploymentconfig:${NS}/app`);
    expect(f.api.writes().filter((w) => w.resource === 'deploymentconfigs')).toEqual([]);
    expect(f.dcs.get(NS, 'app')?.spec.template?.spec?.containers[0]?.image).toBe(' ');
    expect(f.recorder.events.map((e) => [e.object.name, e.type, e.reason])).toEqual([['app', 'Warning', 'CrossNamespaceImageRefused']]);

    await syncImageTriggerKey({ ...f, crossNamespace: allowAllCrossNamespace }, `deploymentconfig:${NS}/app`);
    expect(f.dcs.get(NS, 'app')?.spec.template?.spec?.containers[0]?.image).toBe(secret);
  });

  it('rollout latest (instantiate with latest) does not resolve a refused trigger either', async () => {
    const f = setup();
    const dc = crossDc();
    dc.spec.triggers![0]!.imageChangeParams!.automatic = false;
    dc.metadata.annotations = { 'deploy.dcctl.io/instantiate': JSON.stringify({ id: '1', latest: true, force: true }) };
    f.dcs.put(dc);
    await syncDeploymentConfig({ ...f, resolveImageTag: tagResolverFor((ns, n) => f.streamLister.get(ns, n)), crossNamespace: denyAllCrossNamespace }, `${NS}/app`);
    expect(f.dcs.get(NS, 'app')?.spec.template?.spec?.containers[0]?.image).toBe(' ');
    expect(f.recorder.reasons()).toContain('CrossNamespaceImageRefused');
  });
});

describe('requeueCrossNamespaceReferences (the gate changed)', () => {
  it('enqueues exactly the streams and DCs that take images from another namespace', async () => {
    const queue = new WorkQueue({ name: 't' });
    const cross = makeDc({ triggers: [imageTrigger('app:prod', ['web'])] });
    cross.spec.triggers![0]!.imageChangeParams!.from.namespace = 'b';
    const local = { ...makeDc({ triggers: [imageTrigger('app:prod', ['web'])] }), metadata: { name: 'local', namespace: NS } };
    requeueCrossNamespaceReferences({
      queue,
      dcs: [cross, local],
      streams: [
        stream('x', [{ name: 't', from: { kind: 'ImageStreamTag', name: 'app:prod', namespace: 'b' } }]),
        stream('y', [{ name: 't', from: { kind: 'ImageStreamTag', name: 'app:prod' } }]),
      ],
    });
    const keys: string[] = [];
    while (queue.len() > 0) { const k = await queue.get(); if (k) { keys.push(k); queue.done(k); } }
    expect(keys.sort()).toEqual([`deploymentconfig:${NS}/app`, `imagestream:${NS}/x`]);
    queue.shutDown();
  });
});
