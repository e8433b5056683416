/**
 * Template parameter values from the command line: `--param NAME=value` (repeatable) and
 * `--param-file F` (one `NAME=value` per line). `--param` overrides the file.
 */

/** A malformed parameter argument or file line. */
export class ParamError extends Error {
  override readonly name = 'ParamError';
}

const nameExp = /^[a-zA-Z0-9_]+$/;

function split(item: string, where: string): [string, string] {
  const eq = item.indexOf('=');
  if (eq <= 0) {
    // Echo only what reads as a bare name: anything else may be a value (a password) given without its name.
    const shown = nameExp.test(item.trim()) ? `"${item.trim()}" with no =value` : 'no NAME= before the value (not shown)';
    throw new ParamError(`${where}: expected NAME=value, got ${shown}`);
  }
  const name = item.slice(0, eq).trim();
  if (!nameExp.test(name)) throw new ParamError(`${where}: invalid parameter name "${name}": use letters, digits and _`);
  return [name, item.slice(eq + 1)];
}

/** `--param` values; a name given twice is an error (which one was meant is ambiguous). */
export function parseParamArgs(items: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of items) {
    const [name, value] = split(item, '--param');
    if (out.has(name)) throw new ParamError(`--param: parameter ${name} is given more than once`);
    out.set(name, value);
  }
  return out;
}

/**
 * A parameter file: blank lines and `#` comments are ignored; the value is the rest of the line
 * after the first `=`, verbatim, unless it is wholly in double quotes (JSON escapes such as `\n`
 * apply) or single quotes (taken literally).
 */
export function parseParamFile(text: string, source: string): Map<string, string> {
  const out = new Map<string, string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trimStart();
    if (line === '' || line.startsWith('#')) return;
    const where = `${source}:${i + 1}`;
    const [name, rawValue] = split(line, where);
    let value = rawValue;
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      try {
        value = JSON.parse(value) as string;
      } catch {
        // Never the value: parameter files hold passwords, and this error goes to logs.
        throw new ParamError(`${where}: parameter ${name}: the double-quoted value is not a valid JSON string (value not shown)`);
      }
    } else if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) {
      value = value.slice(1, -1);
    }
    if (out.has(name)) throw new ParamError(`${where}: parameter ${name} is given more than once`);
    out.set(name, value);
  });
  return out;
}

/** File values overridden by command-line values. */
export function mergeParams(file: ReadonlyMap<string, string>, args: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...file, ...args]);
}
