import { describe, expect, it } from '@jest/globals';
import type { DeploymentConfig, DeploymentTriggerPolicy } from '../../../src/apis/deploymentconfig.js';
import type { ImageTagResolver } from '../../../src/image/resolve.js';
import { applyAutomaticTriggers, referencedImageStreams, resolveForInstantiate } from '../../../src/image/triggers.js';

const trigger = (name: string, containerNames: string[], o: { automatic?: boolean; last?: string; namespace?: string } = {}): DeploymentTriggerPolicy => ({
  type: 'ImageChange',
  imageChangeParams: {
    automatic: o.automatic ?? true, containerNames, from: { kind: 'ImageStreamTag', name, ...(o.namespace ? { namespace: o.namespace } : {}) },
    ...(o.last ? { lastTriggeredImage: o.last } : {}),
  },
});

function dc(triggers: DeploymentTriggerPolicy[], paused = false): DeploymentConfig {
  return {
    metadata: { name: 'app', namespace: 'ns' },
    spec: {
      paused,
      triggers,
      template: { spec: { initContainers: [{ name: 'init', image: ' ' }], containers: [{ name: 'web', image: ' ' }, { name: 'side', image: 'side:0' }] } },
    },
  };
}

const tags: Record<string, string> = { 'ns/web:latest': 'r/web:2', 'ns/side:1': 'r/side:1', 'shared/base:1': 'r/base:1' };
const resolve: ImageTagResolver = (ns, name) => tags[`${ns}/${name}`];
const images = (d: DeploymentConfig | undefined) => [
  ...(d?.spec.template?.spec?.initContainers ?? []), ...(d?.spec.template?.spec?.containers ?? []),
].map((c) => `${c.name}=${c.image}`);
const last = (d: DeploymentConfig | undefined) => (d?.spec.triggers ?? []).map((t) => t.imageChangeParams?.lastTriggeredImage);

describe('applyAutomaticTriggers (the DC reactor)', () => {
  it('writes each trigger\'s image into its containers and init containers, and lastTriggeredImage', () => {
    const input = dc([trigger('web:latest', ['web', 'init', 'nosuch']), trigger('side:1', ['side']), { type: 'ConfigChange' }]);
    const { dc: out, unresolved } = applyAutomaticTriggers(input, resolve);
    expect(unresolved).toEqual([]);
    expect(images(out)).toEqual(['init=r/web:2', 'web=r/web:2', 'side=r/side:1']);
    expect(last(out)).toEqual(['r/web:2', 'r/side:1', undefined]);
    expect(images(input)).toEqual(['init= ', 'web= ', 'side=side:0']);
    expect(applyAutomaticTriggers(out!, resolve)).toEqual({ unresolved: [] });
  });

  it('writes nothing while an automatic trigger was never resolved', () => {
    const { dc: out, unresolved } = applyAutomaticTriggers(dc([trigger('web:latest', ['web']), trigger('side:missing', ['side'])]), resolve);
    expect(out).toBeUndefined();
    expect(unresolved).toEqual(['ns/side:missing']);
  });

  it('keeps the last image of a trigger whose tag disappeared, and restores containers to it', () => {
    const input = dc([trigger('web:latest', ['web']), trigger('side:gone', ['side'], { last: 'r/side:old' })]);
    const { dc: out } = applyAutomaticTriggers(input, resolve);
    expect(images(out)).toEqual(['init= ', 'web=r/web:2', 'side=r/side:old']);
    expect(last(out)).toEqual(['r/web:2', 'r/side:old']);
  });

  it('skips non-automatic triggers, updates paused DCs, and honours from.namespace', () => {
    const input = dc([trigger('web:latest', ['web'], { automatic: false }), trigger('base:1', ['side'], { namespace: 'shared' })], true);
    const { dc: out } = applyAutomaticTriggers(input, resolve);
    expect(images(out)).toEqual(['init= ', 'web= ', 'side=r/base:1']);
    expect(out?.spec.paused).toBe(true);
    expect(referencedImageStreams(input)).toEqual(['ns/web', 'shared/base']);
  });
});

describe('resolveForInstantiate (§7.3 step 2)', () => {
  const manual = dc([trigger('web:latest', ['web', 'init'], { automatic: false }), trigger('side:1', ['side'], { last: 'r/side:1' })]);

  it('forced (rollout latest): resolves non-automatic triggers too, skipping unchanged ones', () => {
    const out = resolveForInstantiate(manual, resolve, { force: true, excludeImageChange: false });
    expect(images(out)).toEqual(['init=r/web:2', 'web=r/web:2', 'side=side:0']);
    expect(last(out)).toEqual(['r/web:2', 'r/side:1']);
  });

  it('not forced: only automatic triggers; excluded ImageChange or nothing new → undefined', () => {
    expect(resolveForInstantiate(manual, resolve, { force: false, excludeImageChange: false })).toBeUndefined();
    expect(resolveForInstantiate(manual, resolve, { force: true, excludeImageChange: true })).toBeUndefined();
    expect(resolveForInstantiate(dc([trigger('web:missing', ['web'], { automatic: false })]), resolve, { force: true, excludeImageChange: false })).toBeUndefined();
  });
});
