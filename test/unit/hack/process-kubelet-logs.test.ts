import { describe, expect, it } from '@jest/globals';
import { ByteBudget, LineSplitter, initialLines, parseLogPath, parseLogQuery } from '../../../hack/process-kubelet/logs.mjs';

describe('process kubelet log endpoint (pure parts)', () => {
  it('parses the kubelet /containerLogs path and query the API server sends', () => {
    expect(parseLogPath('/containerLogs/ns1/web-1-deploy/deployment')).toEqual({ namespace: 'ns1', pod: 'web-1-deploy', container: 'deployment' });
    expect(parseLogPath('/pods')).toBeUndefined();
    const now = new Date('2026-11-30T12:00:00Z');
    expect(parseLogQuery(new URLSearchParams('follow=true&tailLines=3&timestamps=true&limitBytes=10&sinceSeconds=60'), now))
      .toEqual({ follow: true, previous: false, timestamps: true, tailLines: 3, limitBytes: 10, sinceMs: now.getTime() - 60_000 });
    expect(() => parseLogQuery(new URLSearchParams('tailLines=x'), now)).toThrow('tailLines must be an integer >= 0');
  });

  it('splits chunks into lines and keeps an unterminated tail until the end', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l));
    s.push(Buffer.from('a\nb'));
    s.push('c\n');
    s.push('d');
    expect(lines).toEqual(['a\n', 'bc\n']);
    s.end();
    expect(lines).toEqual(['a\n', 'bc\n', 'd']);
  });

  it('applies since, then tail, then timestamps; limitBytes cuts the output', () => {
    const entries = [{ time: 1000, text: 'one\n' }, { time: 2000, text: 'two\n' }, { time: 3000, text: 'three\n' }];
    expect(initialLines(entries, { follow: false, previous: false, timestamps: false, tailLines: 2 })).toEqual(['two\n', 'three\n']);
    expect(initialLines(entries, { follow: false, previous: false, timestamps: true, sinceMs: 2500 })).toEqual(['1970-01-01T00:00:03.000Z three\n']);
    expect(initialLines(entries, { follow: false, previous: false, timestamps: false, tailLines: 0 })).toEqual([]);
    const b = new ByteBudget(5);
    expect(b.take('one\n')).toBe('one\n');
    expect(b.take('two\n')).toBe('t');
    expect(b.exhausted).toBe(true);
  });
});
