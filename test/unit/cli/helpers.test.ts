import { describe, it, expect, jest } from '@jest/globals';
import { parseDcName } from '../../../src/cli/names.js';
import { parseDryRun, parseDuration } from '../../../src/cli/flags.js';
import { humanDuration } from '../../../src/cli/humanize.js';
import { toYaml } from '../../../src/cli/output.js';
import { applyMergePatch, createMergePatch } from '../../../src/util/merge-patch.js';
import { generateRollback, undoDefaults } from '../../../src/apps/rollback.js';
import { deadline } from '../../../src/cli/watch.js';
import { makeDc } from './fixtures.js';

describe('parseDcName', () => {
  it.each([
    [['web'], 'web'], [['dc/web'], 'web'], [['deploymentconfigs/web'], 'web'],
    [['deploymentconfig.apps.openshift.io/web'], 'web'], [['DC', 'web'], 'web'],
  ])('%j → %s', (args, name) => { expect(parseDcName(args[0], args[1])).toBe(name); });

  it.each([[['rc/web-1']], [['dc/Web']], [['dc/web', 'x']], [['']]])('rejects %j', (args) => {
    expect(() => parseDcName(args[0], args[1])).toThrow();
  });
});

describe('flags', () => {
  it.each([['30s', 30000], ['0', 0], ['2', 2000], ['1m30s', 90000], ['500ms', 500], ['1h', 3600000]])('duration %s', (s, ms) => {
    expect(parseDuration(s)).toBe(ms);
  });
  it('rejects bad durations and dry-run values', () => {
    expect(() => parseDuration('5x')).toThrow('invalid argument "5x" for "--timeout" flag');
    expect(() => parseDryRun('maybe')).toThrow('Invalid dry-run value (maybe)');
    expect([parseDryRun(''), parseDryRun('client'), parseDryRun('none'), parseDryRun(undefined)]).toEqual([true, true, false, false]);
  });
});

describe('humanDuration (go-units)', () => {
  it.each([[500, 'Less than a second'], [1000, '1 second'], [42000, '42 seconds'], [60000, 'About a minute'],
    [5 * 60000, '5 minutes'], [3600000, 'About an hour'], [5 * 3600000, '5 hours'], [3 * 86400000, '3 days'],
    [20 * 86400000, '2 weeks'], [90 * 86400000, '3 months'], [800 * 86400000, '2 years']])('%i ms → %s', (ms, s) => {
    expect(humanDuration(ms)).toBe(s);
  });
});

describe('toYaml', () => {
  it('quotes strings YAML would misread and nests lists of maps', () => {
    expect(toYaml({ a: 'true', b: '10', c: 'x: y', d: 'img:1', e: [{ f: 1, g: [] }, 'h'], i: {}, j: null, k: undefined }))
      .toBe('a: "true"\nb: "10"\nc: "x: y"\nd: img:1\ne:\n- f: 1\n  g: []\n- h\ni: {}\nj: null\n');
  });
});

describe('createMergePatch', () => {
  it('nulls removed keys, recurses into maps, replaces arrays, and round-trips', () => {
    const a = { labels: { app: 'web', tier: 'x' }, containers: [{ name: 'c', image: '1' }], keep: 1 };
    const b = { labels: { app: 'web' }, containers: [{ name: 'c', image: '2' }], keep: 1, added: true };
    const patch = createMergePatch(a, b);
    expect(patch).toEqual({ labels: { tier: null }, containers: [{ name: 'c', image: '2' }], added: true });
    expect(applyMergePatch(a, patch)).toEqual(b);
    expect(createMergePatch(a, structuredClone(a))).toBeUndefined();
  });
});

describe('generateRollback', () => {
  it('copies only the selected parts, disables image triggers and bumps latestVersion', () => {
    const from = makeDc('web', { latestVersion: 4, image: 'new', replicas: 5, triggers: [{ type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['web'], from: { name: 'is:1' } } }] });
    from.spec.strategy = { type: 'Recreate' };
    const to = makeDc('web', { latestVersion: 2, image: 'old', replicas: 1, triggers: [{ type: 'ConfigChange' }] });
    to.spec.strategy = { type: 'Rolling' };
    const out = generateRollback(from, to, undoDefaults());
    expect(out.spec.template?.spec?.containers[0]?.image).toBe('old');
    expect(out.spec.replicas).toBe(5);
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
    expect(out.spec.triggers?.[0]?.imageChangeParams?.automatic).toBe(false);
    expect(out.status?.latestVersion).toBe(5);
    expect(from.spec.triggers?.[0]?.imageChangeParams?.automatic).toBe(true);
    const all = generateRollback(from, to, { revision: 0, includeTemplate: true, includeTriggers: true, includeStrategy: true, includeReplicationMeta: true });
    expect([all.spec.replicas, all.spec.strategy, all.spec.triggers]).toEqual([1, { type: 'Rolling' }, [{ type: 'ConfigChange' }]]);
  });
});

describe('deadline (--timeout)', () => {
  it('a --timeout longer than a Node timer holds (e.g. 800h) does not expire after 1 ms', async () => {
    jest.useFakeTimers();
    try {
      const long = parseDuration('800h');
      const timer = deadline(long);
      await jest.advanceTimersByTimeAsync(1000);
      expect([timer.expired(), timer.signal.aborted]).toEqual([false, false]);
      await jest.advanceTimersByTimeAsync(long - 1000);
      expect([timer.expired(), timer.signal.aborted]).toEqual([true, true]);
      timer.dispose();
    } finally {
      jest.useRealTimers();
    }
  });
});
