import { describe, expect, it } from '@jest/globals';
import { BoundedDecodeError, expansionLimit, loadAllYamlBounded, loadYamlBounded, parseJsonBounded } from '../../../src/util/bounded-decode.js';

/** Nine anchors, each a list of nine aliases of the one before: 9^9 strings in about 440 bytes. */
function billionLaughs(levels = 9): string {
  let doc = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i < levels; i++) doc += `a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
  return doc;
}

describe('decoding text someone else wrote, within bounds', () => {
  it('refuses YAML whose aliases expand past 16 MiB (or four times its length), in one walk of the shared nodes', () => {
    expect(billionLaughs().length).toBeLessThan(500);
    expect(() => loadYamlBounded(billionLaughs())).toThrow(new BoundedDecodeError('with its aliases expanded it is larger than 16777216 bytes'));
    expect(() => loadAllYamlBounded(`a: 1\n---\n${billionLaughs()}`)).toThrow(BoundedDecodeError);
    expect(expansionLimit('x'.repeat(10 << 20))).toBe(40 << 20);
  });

  it('takes anchors as hand-written files use them: aliases that expand modestly, merge keys', () => {
    const doc = loadYamlBounded(`${billionLaughs(5)}env: &env [{name: A, value: "1"}]\nbase: &base {image: x}\nc: [{<<: *base, name: a, env: *env}, {<<: *base, name: b, env: *env}]\n`) as { c: unknown[]; a4: unknown[] };
    expect(doc.c).toEqual([{ image: 'x', name: 'a', env: [{ name: 'A', value: '1' }] }, { image: 'x', name: 'b', env: [{ name: 'A', value: '1' }] }]);
    expect((doc.a4 as unknown[]).flat(4)).toHaveLength(9 ** 5);
  });

  it('refuses nesting deeper than 100 levels: in JSON before parsing, in YAML also where only aliases nest it', () => {
    const deepJson = `${'['.repeat(101)}${']'.repeat(101)}`;
    expect(() => parseJsonBounded(deepJson)).toThrow(new BoundedDecodeError('nested deeper than 100 levels'));
    expect(parseJsonBounded(`${'['.repeat(100)}"[[[["${']'.repeat(100)}`)).toBeDefined();
    // Each anchor holds the one before: 120 levels from text that js-yaml parses 2 deep.
    let chain = 'l0: &l0 [1]\n';
    for (let i = 1; i < 120; i++) chain += `l${i}: &l${i} [*l${i - 1}]\n`;
    expect(() => loadYamlBounded(chain)).toThrow(new BoundedDecodeError('nested deeper than 100 levels'));
    expect(() => loadYamlBounded(`${'['.repeat(150)}${']'.repeat(150)}`)).toThrow(/nesting exceeded maxDepth/);
  });
});
