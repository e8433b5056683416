#!/usr/bin/env node
// How kube-controller-manager's RC manager wrote RC status in each namespace of a bench audit log
// (docs/benchmarks.md, Findings: the deployer-pod side's requests at N=1000). For every namespace:
// its successful status writes, its 409s and GETs, and the gap between two consecutive status
// writes of it to the same RC (from one write's end to the next one's arrival). A short gap is the
// RC manager syncing an RC again before its informer delivered its own previous write, which it
// does when few RCs move at once; a long one is its queue folding pod changes into one sync.
// The audit log is the bench's (<cluster dir>/audit.log; it stays after the run).
//
//   node bench/rc-manager-audit.mjs [--prefix bench-] AUDIT_LOG
import { existsSync } from 'node:fs';
import { clientOf, percentile, readAudit } from './lib.mjs';

const usage = 'Usage: node bench/rc-manager-audit.mjs [--prefix bench-] AUDIT_LOG   (the namespaces whose names start with the prefix)';
const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  console.log(usage);
  process.exit(0);
}
let prefix = 'bench-';
const files = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--prefix' && argv[i + 1] !== undefined) prefix = argv[++i];
  else if (!argv[i].startsWith('--')) files.push(argv[i]);
  else {
    console.error(`bench/rc-manager-audit.mjs: unexpected "${argv[i]}"\n${usage}`);
    process.exit(2);
  }
}
if (files.length !== 1 || !existsSync(files[0])) {
  console.error(`bench/rc-manager-audit.mjs: want one audit log that exists, got ${JSON.stringify(files)}\n${usage}`);
  process.exit(2);
}

const byNamespace = new Map();
for (const e of readAudit(files[0], 0)) {
  const ref = e.objectRef;
  if (!ref?.namespace?.startsWith(prefix) || ref.resource !== 'replicationcontrollers' || clientOf(e.userAgent) !== 'kcm/replication-controller') continue;
  if (!byNamespace.has(ref.namespace)) byNamespace.set(ref.namespace, { writes: 0, conflicts: 0, gets: 0, lastWriteEnd: new Map(), gaps: [] });
  const ns = byNamespace.get(ref.namespace);
  if (e.verb === 'get') ns.gets++;
  if (e.verb !== 'update' || ref.subresource !== 'status') continue;
  const code = e.responseStatus?.code ?? 0;
  if (code === 409) ns.conflicts++;
  if (code >= 300) continue;
  ns.writes++;
  const previous = ns.lastWriteEnd.get(ref.name);
  if (previous !== undefined) ns.gaps.push(Date.parse(e.requestReceivedTimestamp) - previous);
  ns.lastWriteEnd.set(ref.name, Date.parse(e.stageTimestamp));
}
if (byNamespace.size === 0) console.log(`no status writes of the RC manager in namespaces starting with "${prefix}"`);
for (const [name, ns] of [...byNamespace].sort(([a], [b]) => a.localeCompare(b))) {
  const under100 = ns.gaps.filter((g) => g < 100).length;
  const gaps = ns.gaps.length
    ? `gap between two of its status writes to one RC: p25 ${percentile(ns.gaps, 25)} ms, p50 ${percentile(ns.gaps, 50)} ms, p75 ${percentile(ns.gaps, 75)} ms, ${Math.round((100 * under100) / ns.gaps.length)} % under 100 ms`
    : 'no RC written twice';
  console.log(`${name}: ${ns.writes} status writes, ${ns.conflicts} conflicts (409), ${ns.gets} GETs; ${gaps}`);
}
