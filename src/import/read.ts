/**
 * Reading of `-f` arguments: a file, a directory (its *.yaml, *.yml and *.json files, sorted,
 * not recursive, like kubectl without -R) or `-` for stdin.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ImportInput } from './pipeline.js';
import { ImportInputError, type InputProblem } from './types.js';

const manifestExt = /\.(ya?ml|json)$/i;

/** Reads every `-f` argument; missing or unreadable paths are reported together. */
export async function readInputs(files: readonly string[], readStdin: () => Promise<string>): Promise<ImportInput[]> {
  const inputs: ImportInput[] = [];
  const problems: InputProblem[] = [];
  let stdinUsed = false;
  for (const f of files) {
    try {
      if (f === '-') {
        if (stdinUsed) throw new Error('stdin ("-") can be given only once');
        stdinUsed = true;
        inputs.push({ source: '<stdin>', text: await readStdin() });
        continue;
      }
      if ((await stat(f)).isDirectory()) {
        const names = (await readdir(f)).filter((n) => manifestExt.test(n)).sort();
        if (names.length === 0) throw new Error('directory has no .yaml, .yml or .json files');
        for (const n of names) {
          const p = path.join(f, n);
          if ((await stat(p)).isFile()) inputs.push({ source: p, text: await readFile(p, 'utf8') });
        }
      } else {
        inputs.push({ source: f, text: await readFile(f, 'utf8') });
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      problems.push({ origin: { source: f }, message: code === 'ENOENT' ? 'no such file or directory' : (err as Error).message });
    }
  }
  if (problems.length > 0) throw new ImportInputError(problems);
  return inputs;
}

/** All of process.stdin as text. */
export async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
