#!/usr/bin/env node
// Prints the functions with the most self time in V8 .cpuprofile files (bench.mjs --cpu-prof, or
// node --cpu-prof), summed over all files given; the idle time of the processes (waiting on I/O)
// is counted apart from the busy time the percentages are of:
//   node bench/profile-top.mjs /tmp/prof/CPU.*.cpuprofile [--top 25]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const count = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const files = args.filter((_, i) => i !== topAt && i !== topAt + 1);
if (files.length === 0 || !Number.isInteger(count) || count < 1) {
  console.error('Usage: node bench/profile-top.mjs FILE.cpuprofile... [--top 25]');
  process.exit(2);
}
const self = new Map();
let idle = 0;
for (const file of files) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const dt = prof.timeDeltas;
  for (let i = 0; i < prof.samples.length; i++) {
    const f = byId.get(prof.samples[i]).callFrame;
    if (f.functionName === '(idle)') {
      idle += dt[i] ?? 0;
      continue;
    }
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
  }
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const per = files.length > 1 ? ` (${(total / 1e3 / files.length).toFixed(1)} ms per file)` : '';
console.log(`${files.length} profile(s): busy ${(total / 1e6).toFixed(2)} s${per}, idle ${(idle / 1e6).toFixed(2)} s`);
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, count)) {
  console.log(`${(us / 1e3).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
}
