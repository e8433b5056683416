#!/usr/bin/env node
// Prints the functions with the most self time in a V8 .cpuprofile (bench.mjs --cpu-prof):
//   node bench/profile-top.mjs /tmp/prof/CPU.*.cpuprofile [count]
import { readFileSync } from 'node:fs';

const [file, count = '25'] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) {
  const n = byId.get(prof.samples[i]);
  const f = n.callFrame;
  const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log(`total sampled ${(total / 1e6).toFixed(2)} s`);
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
  console.log(`${(us / 1e3).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
}
