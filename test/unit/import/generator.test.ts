import { describe, it, expect } from '@jest/globals';
import { GeneratorError, generateExpression, type RandomInt } from '../../../src/import/generator.js';

/** Cycles through 0..n-1 so every character of the set shows up. */
const cycling = (): RandomInt => { let i = 0; return (n) => (i++) % n; };
const charsOf = (from: string, count: number) => new Set(generateExpression(`${from}{${count}}`, cycling()));

describe('expression generator (oc process "generate: expression")', () => {
  it('replaces each [ranges]{n} with n characters and keeps the literal text around it', () => {
    const v = generateExpression('user[\\d]{4}-[a-f]{2}x', cycling());
    expect(v).toMatch(/^user\d{4}-[a-f]{2}x$/);
  });

  it('generates [a-zA-Z0-9]{12} with the inclusive ranges', () => {
    expect(generateExpression('[a-zA-Z0-9]{12}', (n) => Math.floor(Math.random() * n))).toMatch(/^[a-zA-Z0-9]{12}$/);
    const set = charsOf('[a-zA-Z0-9]', 62);
    expect(set.size).toBe(62);
    expect(set.has('z') && set.has('Z') && set.has('9')).toBe(true);
  });

  it('knows the \\w \\d \\a \\A classes as oc defines them', () => {
    expect(charsOf('[\\w]', 63)).toEqual(new Set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'));
    expect(charsOf('[\\d]', 10)).toEqual(new Set('0123456789'));
    // oc's \a is letters AND digits.
    expect(charsOf('[\\a]', 62)).toEqual(new Set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'));
    const punct = charsOf('[\\A]', 32);
    expect([...punct].every((c) => !/[a-zA-Z0-9]/.test(c))).toBe(true);
    expect(punct.has('!') && punct.has('~')).toBe(true);
  });

  it('rejects lengths outside 1..255, reversed ranges and malformed sets', () => {
    expect(() => generateExpression('[a-z]{0}', cycling())).toThrow(new GeneratorError('range must be within [1-255] characters (0)'));
    expect(() => generateExpression('[a-z]{256}', cycling())).toThrow(/range must be within \[1-255\]/);
    expect(() => generateExpression('[z-a]{3}', cycling())).toThrow('invalid range specified: z-a');
    expect(() => generateExpression('[abc]{3}', cycling())).toThrow(/malformed expression syntax/);
  });

  it('leaves text without a generator construct alone', () => {
    expect(generateExpression('plain-[value]', cycling())).toBe('plain-[value]');
    expect(generateExpression('[a-z_]{3}', cycling())).toBe('[a-z_]{3}');
  });
});
