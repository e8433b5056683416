/**
 * The nesting of a JSON text, measured without parsing it: the check that comes before a parse of
 * a text someone else wrote (an RC annotation, a request body), kept free of imports because the
 * deployer process loads it. Pure.
 */

/**
 * How deep a document may nest. A DeploymentConfig nests about 15 levels, a pod template's
 * deepest field (affinity terms) about 12; the recursive walks overflow the stack at a few
 * thousand levels.
 */
export const MaxNestingDepth = 100;

/** The deepest nesting of objects and arrays in a JSON text, without recursion. */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return max;
}
