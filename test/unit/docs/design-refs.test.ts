import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Code comments and tests cite docs/design.md as `§N.M`; a citation a reader cannot follow is a
// bug. Every § in src/ and test/ must name a heading of design.md.

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** `## 8. Rollback` → 8, `### 4.2 Sync steps` → 4.2. */
function designSections(markdown: string): Set<string> {
  const ids = new Set<string>();
  for (const match of markdown.matchAll(/^#{2,4} ([0-9]+(?:\.[0-9]+)*)\.? /gm)) ids.add(match[1]!);
  return ids;
}

/** Every `§N.M` in `text`, with its line number. */
function sectionRefs(text: string): Array<{ id: string; line: number }> {
  const refs: Array<{ id: string; line: number }> = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/§([0-9]+(?:\.[0-9]+)*)/g)) refs.push({ id: match[1]!, line: index + 1 });
  });
  return refs;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|mjs|js)$/.test(name) ? [full] : [];
  });
}

describe('docs/design.md section references', () => {
  const sections = designSections(readFileSync(path.join(repo, 'docs/design.md'), 'utf8'));

  it('reads the numbered headings', () => {
    expect(designSections('## 4. Controller\n### 4.2 Sync steps\n#### 10.1 Quirks\n## Notes\n')).toEqual(new Set(['4', '4.2', '10.1']));
    expect(sectionRefs('see §4.2 step 9\nand (§10.1 item 1, §3)')).toEqual([
      { id: '4.2', line: 1 }, { id: '10.1', line: 2 }, { id: '3', line: 2 },
    ]);
    expect(sections.size).toBeGreaterThan(40);
  });

  it('every § in src/ and test/ names a section of design.md', () => {
    const files = [...sourceFiles(path.join(repo, 'src')), ...sourceFiles(path.join(repo, 'test'))];
    const refs = files.flatMap((file) => sectionRefs(readFileSync(file, 'utf8')).map((ref) => ({ ...ref, file: path.relative(repo, file) })));
    expect(refs.length).toBeGreaterThan(50);
    const dangling = refs.filter((ref) => !sections.has(ref.id)).map((ref) => `${ref.file}:${ref.line} §${ref.id}`);
    expect(dangling).toEqual([]);
  });
});
