/**
 * A small port of Go's text/tabwriter for the two configurations oc uses: tab padding
 * (`rollout history`: minwidth 0, tabwidth 8, padding 1, padchar '\t') and space padding
 * (`describe`: minwidth 0, tabwidth 8, padding 2, padchar ' '). Matching it keeps the output
 * byte-compatible with oc for scripts that parse it.
 */
export interface TabwriterOptions {
  readonly padding: number;
  readonly padChar: ' ' | '\t';
  readonly tabWidth?: number;
}

/**
 * Aligns `\t`-separated cells. As in Go, a column block is a run of consecutive lines that all
 * have a cell in that column; the last cell of a line is never padded.
 */
export function tabwrite(text: string, opts: TabwriterOptions): string {
  const tabWidth = opts.tabWidth ?? 8;
  const lines = text.split('\n').map((l) => l.split('\t'));
  const widths: number[][] = lines.map((cells) => cells.map(() => 0));
  const formatColumn = (start: number, end: number, col: number): void => {
    let i = start;
    while (i < end) {
      const cells = lines[i] ?? [];
      if (cells.length - 1 <= col) { i++; continue; }
      let j = i;
      let width = 0;
      while (j < end && (lines[j]?.length ?? 0) - 1 > col) {
        width = Math.max(width, (lines[j]?.[col] ?? '').length + opts.padding);
        j++;
      }
      if (opts.padChar === '\t') width = Math.ceil(width / tabWidth) * tabWidth;
      for (let k = i; k < j; k++) (widths[k] as number[])[col] = width;
      formatColumn(i, j, col + 1);
      i = j;
    }
  };
  formatColumn(0, lines.length, 0);
  return lines
    .map((cells, li) => cells.map((cell, ci) => {
      if (ci === cells.length - 1) return cell;
      const w = widths[li]?.[ci] ?? 0;
      const n = w - cell.length;
      if (opts.padChar === '\t') return cell + '\t'.repeat(Math.max(1, Math.ceil(n / tabWidth)));
      return cell + ' '.repeat(Math.max(0, n));
    }).join(''))
    .join('\n');
}
