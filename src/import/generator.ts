/**
 * The `expression` parameter generator of OpenShift Templates (library-go
 * `template/generator/expressionvalue.go`): every `[ranges]{n}` construct in `from` is replaced
 * by n random characters drawn from the ranges; the rest of `from` is kept literally.
 *
 * Ranges: `a-z`, `A-Z`, `0-9` (any two letters/digits in ASCII order), a single letter or
 * digit, `\w` (letters, digits, `_`), `\d` (digits), `\a` (letters and digits, as oc defines it)
 * and `\A` (ASCII punctuation). Length must be 1..255. Deliberate deviation: oc's range slice
 * drops the upper bound (`[a-z]` never yields `z`, `[0-1]` only `0`); ranges here are inclusive.
 */

/** Picks an integer in [0, n). Production uses crypto.randomInt; tests inject a sequence. */
export type RandomInt = (n: number) => number;

const Alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const Numerals = '0123456789';
const Symbols = '~!@#$%^&*()-_+={}[]\\|<,>.?/"\';:`';
const Ascii = Alphabet + Numerals + Symbols;

// Same construct and validation expressions as oc, so the same `from` strings are accepted.
const generatorsExp = /\[([a-zA-Z0-9\-\\]+)\]\{([0-9]+)\}/;
const expressionExp = /\[(\\w|\\d|\\a|\\A)|([a-zA-Z0-9]-[a-zA-Z0-9])+\]/;

/** A `from` expression that cannot generate a value; the message is oc's. */
export class GeneratorError extends Error {
  override readonly name = 'GeneratorError';
}

/** Generates a value from an `expression` generator's `from` string. */
export function generateExpression(from: string, random: RandomInt): string {
  let rest = from;
  let out = '';
  for (let m = generatorsExp.exec(rest); m; m = generatorsExp.exec(rest)) {
    const bracket = `[${m[1] ?? ''}]`;
    if (!expressionExp.test(bracket)) throw new GeneratorError(`malformed expression syntax: ${bracket}`);
    const length = Number(m[2]);
    if (!(length > 0 && length <= 255)) throw new GeneratorError(`range must be within [1-255] characters (${length})`);
    const alphabet = charset(m[1] ?? '');
    if (alphabet.length === 0) throw new GeneratorError(`empty character set: ${bracket}`);
    let generated = '';
    for (let i = 0; i < length; i++) generated += alphabet[random(alphabet.length)] ?? '';
    // Generated text is never re-scanned: a `\A` value containing "[a-z]{2}" stays as generated.
    out += rest.slice(0, m.index) + generated;
    rest = rest.slice(m.index + m[0].length);
  }
  return out + rest;
}

function charset(ranges: string): string {
  const chars = new Set<string>();
  const add = (s: string) => { for (const c of s) chars.add(c); };
  let i = 0;
  while (i < ranges.length) {
    const c = ranges[i] as string;
    if (c === '\\') {
      const cls = ranges[i + 1];
      switch (cls) {
        case 'w': add(Alphabet + Numerals + '_'); break;
        case 'd': add(Numerals); break;
        case 'a': add(Alphabet + Numerals); break;
        case 'A': add(Symbols); break;
        default: throw new GeneratorError(`malformed expression syntax: unknown class \\${cls ?? ''}`);
      }
      i += 2;
    } else if (ranges[i + 1] === '-' && i + 2 < ranges.length && ranges[i + 2] !== '\\') {
      const to = ranges[i + 2] as string;
      const left = Ascii.indexOf(c);
      const right = Ascii.lastIndexOf(to);
      if (left < 0 || right < 0 || left > right) throw new GeneratorError(`invalid range specified: ${c}-${to}`);
      add(Ascii.slice(left, right + 1));
      i += 3;
    } else if (c === '-') {
      throw new GeneratorError(`malformed expression syntax: [${ranges}]`);
    } else {
      add(c);
      i += 1;
    }
  }
  return [...chars].join('');
}
