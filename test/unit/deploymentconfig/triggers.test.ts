import { describe, expect, it } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { DecodeError } from '../../../src/apis/encoded.js';
import { applyDefaults } from '../../../src/apps/defaults.js';
import { triggerActivated, updatedImages } from '../../../src/deploymentconfig/triggers.js';
import { imageTrigger, makeDc, rcFor, type DcOptions } from './fixtures.js';

const config = { message: 'config change', causes: [{ type: 'ConfigChange' }] };

describe('triggerActivated', () => {
  it.each<[string, DcOptions, (dc: DeploymentConfig) => void, boolean, unknown]>([
    ['paused', { paused: true }, () => {}, false, { trigger: false, skip: false }],
    ['no triggers', { triggers: [] }, () => {}, false, { trigger: false, skip: false }],
    ['initial with ConfigChange', {}, () => {}, false, { trigger: true, skip: false, details: config }],
    ['initial with unresolved image trigger → skip (wait)', { triggers: [imageTrigger('is:1', ['web'])] }, () => {}, false, { trigger: false, skip: true }],
    ['initial with one of two image triggers resolved → skip', { triggers: [imageTrigger('a:1', ['web'], 'img@1'), imageTrigger('b:1', ['web'])] }, () => {}, false, { trigger: false, skip: true }],
    ['initial with all image triggers resolved → ConfigChange cause', { triggers: [imageTrigger('is:1', ['web'], 'img@1')] }, () => {}, false, { trigger: true, skip: false, details: config }],
    ['latest RC missing → wait for creation', { latestVersion: 2 }, () => {}, false, { trigger: false, skip: false }],
    ['unchanged template', { latestVersion: 1 }, () => {}, true, { trigger: false, skip: false }],
    ['template label changed → config change', { latestVersion: 1 }, (dc) => { dc.spec.template!.metadata!.labels!.extra = 'x'; }, true, { trigger: true, skip: false, details: config }],
    ['replicas/strategy changes never trigger', { latestVersion: 1 }, (dc) => { dc.spec.replicas = 9; dc.spec.strategy = { type: 'Recreate' }; }, true, { trigger: false, skip: false }],
    // A server-side apply of an export stores `creationTimestamp: null`, which a create dropped: no change, as in OpenShift's typed comparison.
    ['a null field in the template is an absent one', { latestVersion: 1 }, (dc) => { (dc.spec.template!.metadata as Record<string, unknown>)['creationTimestamp'] = null; }, true, { trigger: false, skip: false }],
    // A server-side apply stores null for `resources: {}`, a client-side apply `{}`; OpenShift's API wrote both as {} and an empty list not at all.
    ['an empty list or object in the template is an absent one', { latestVersion: 1 }, (dc) => { Object.assign(dc.spec.template!.spec!.containers[0]!, { resources: { limits: {} }, args: [], securityContext: {} }); }, true, { trigger: false, skip: false }],
    ['image changed, image trigger → image change cause', { latestVersion: 1, triggers: [imageTrigger('is:1', ['web'], 'img@1')] }, (dc) => { dc.spec.template!.spec!.containers[0]!.image = 'img@2'; }, true,
      { trigger: true, skip: false, details: { message: 'image change', causes: [{ type: 'ImageChange', imageTrigger: { from: { kind: 'DockerImage', name: 'img@2' } } }] } }],
    ['image changed, ImageChange without ConfigChange: other template edits do not trigger', { latestVersion: 1, triggers: [imageTrigger('is:1', ['web'], 'img@1')] }, (dc) => { dc.spec.template!.metadata!.labels!.extra = 'x'; }, true, { trigger: false, skip: false }],
    ['init container image change is only a config change', { latestVersion: 1, triggers: [{ type: 'ConfigChange' }, imageTrigger('is:1', ['web'], 'img@1')] }, (dc) => { dc.spec.template!.spec!.initContainers = [{ name: 'i', image: 'x' }]; }, true, { trigger: true, skip: false, details: config }],
  ])('%s', (_l, opts, edit, latestExists, expected) => {
    const base = makeDc(opts);
    const rc = rcFor(base, opts.latestVersion ?? 1);
    const dc = applyDefaults(base);
    edit(dc);
    expect(triggerActivated(dc, latestExists, latestExists ? rc : undefined)).toEqual(expected);
  });

  it('manual edits of the RC template do not cause a config change, but image edits with an image trigger do', () => {
    const base = makeDc({ latestVersion: 1 });
    const rc = rcFor(base, 1);
    rc.spec!.template!.metadata!.labels!.hand = 'edited';
    expect(triggerActivated(applyDefaults(base), true, rc).trigger).toBe(false);

    const withImage = makeDc({ latestVersion: 1, triggers: [imageTrigger('is:1', ['web'], 'x')] });
    const rc2 = rcFor(withImage, 1);
    rc2.spec!.template!.spec!.containers[0]!.image = 'hand-edited';
    expect(triggerActivated(applyDefaults(withImage), true, rc2)).toMatchObject({ trigger: true, details: { message: 'image change' } });
  });

  it('a null field the RC\'s config kept and the DC dropped is no change either (an export applied server-side, then client-side)', () => {
    const base = makeDc({ latestVersion: 1 });
    (base.spec.template!.metadata as Record<string, unknown>)['creationTimestamp'] = null;
    const rc = rcFor(base, 1);
    const dc = applyDefaults(base);
    delete (dc.spec.template!.metadata as Record<string, unknown>)['creationTimestamp'];
    expect(triggerActivated(dc, true, rc).trigger).toBe(false);
    dc.spec.template!.metadata!.labels!.extra = 'x';
    expect(triggerActivated(dc, true, rc)).toMatchObject({ trigger: true, details: config });
  });

  it('a broken encoded config is thrown as DecodeError', () => {
    const base = makeDc({ latestVersion: 1 });
    const rc = rcFor(base, 1);
    rc.metadata!.annotations![Annotations.EncodedConfig] = '{"kind":"Pod"}';
    expect(() => triggerActivated(applyDefaults(base), true, rc)).toThrow(DecodeError);
  });

  it('an encoded config rewritten on the same RC is read again (the parsed template is not reused)', () => {
    const base = makeDc({ latestVersion: 1 });
    const rc = rcFor(base, 1, { uid: 'rewritten-rc-uid' });
    const dc = applyDefaults(base);
    expect(triggerActivated(dc, true, rc).trigger).toBe(false);
    const other = makeDc({ latestVersion: 1, image: 'nginx:2' });
    const rewritten = structuredClone(rc);
    rewritten.metadata!.annotations![Annotations.EncodedConfig] = rcFor(other, 1).metadata!.annotations![Annotations.EncodedConfig]!;
    expect(rewritten.metadata!.uid).toBe(rc.metadata!.uid);
    expect(triggerActivated(dc, true, rewritten)).toMatchObject({ trigger: true, details: config });
    expect(triggerActivated(dc, true, rc).trigger).toBe(false);
  });

  it('whitespace around a DC image does not re-trigger forever (RC images are trimmed)', () => {
    const base = makeDc({ latestVersion: 1, image: ' nginx:1 ' });
    expect(updatedImages(base, rcFor(base, 1))).toEqual([]);
  });
});
