#!/usr/bin/env node
// kube-apiserver's CPU by kind of work, from CPU profiles taken during a bench run
// (bench.mjs --apiserver-profile DIR: consecutive /debug/pprof/profile chunks per result kind).
//   node bench/apiserver-profile.mjs DIR/dc-inline-100-*.pb.gz
// Needs `go` on PATH (`go tool pprof -traces` reads the profiles); returns undefined without it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Each sampled stack goes to the first category whose pattern matches one of its frames. The
 * order matters: authentication runs inside every request's stack, watches inside the CRD
 * handler for DC watches, so the narrower kinds of work come first.
 */
export const Categories = [
  ['authentication (client certificates, TLS handshakes)', /crypto\/x509\.|x509\.\(\*Authenticator\)|crypto\/tls\.\(\*Conn\)\.(Handshake|serverHandshake)|tls\.\(\*serverHandshakeState/],
  ['garbage collection (background)', /^runtime\.gcBgMarkWorker/],
  ['watch: DeploymentConfig events to watchers', /(handlers\.\(\*WatchServer\)|handlers\.handleWatch|watchEncoder).*apiextensions|apiextensions.*(handlers\.\(\*WatchServer\)|handlers\.handleWatch)/s],
  ['watch: other events to watchers', /handlers\.\(\*WatchServer\)|handlers\.handleWatch|watchEncoder|cacher\.\(\*cacheWatcher\)|cacher\.\(\*Cacher\)\.dispatch/],
  ['etcd watch: decoding stored objects', /etcd3\.\(\*watchChan\)/],
  ['DeploymentConfig status writes', /crdHandler\)\.serveStatus|customresource\.\(\*StatusREST\)/],
  ['other DeploymentConfig requests (create, patch, get, list)', /apiextensions-apiserver\/pkg\/(apiserver|registry)/],
  ['native writes (create, update, patch, delete: RCs, ReplicaSets, Deployments, pods, events)', /handlers\.(UpdateResource|PatchResource|CreateResource|DeleteResource|createHandler)|handlers\.\(\*patcher\)|finisher\.finishRequest|registry\.\(\*Store\)\.(Create|Update|Delete)/],
  ['native reads (get, list)', /handlers\.(ListResource|GetResource)|getResourceHandler|restfulListResource|restfulGetResource/],
  ['audit log', /k8s\.io\/apiserver\/pkg\/audit|plugin\/pkg\/audit/],
];
export const Other = 'other (request filters: authorization, priority and fairness; HTTP and TLS I/O; the etcd client)';

/** Seconds per category over the merged profiles, or undefined when `go` is missing. */
export function summarizeProfiles(files) {
  if (!files.length) return undefined;
  const r = spawnSync('go', ['tool', 'pprof', '-traces', ...files], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0 || !r.stdout) return undefined;
  const byCategory = {};
  let total = 0;
  for (const block of r.stdout.split(/^-+\+-+$/m).slice(1)) {
    const lines = block.split('\n').filter((l) => l.trim());
    if (!lines.length) continue;
    const m = /^\s*([\d.]+)(ns|us|µs|ms|s)\s+(.*)$/.exec(lines[0]);
    if (!m) continue;
    const seconds = Number(m[1]) * { ns: 1e-9, us: 1e-6, 'µs': 1e-6, ms: 1e-3, s: 1 }[m[2]];
    const frames = [m[3].trim(), ...lines.slice(1).map((l) => l.trim())];
    const stack = frames.join('\n');
    const hit = Categories.find(([, re]) => (re.source.startsWith('^') ? frames.some((f) => re.test(f)) : re.test(stack)));
    const name = hit ? hit[0] : Other;
    byCategory[name] = (byCategory[name] ?? 0) + seconds;
    total += seconds;
  }
  return { total, byCategory };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s = summarizeProfiles(process.argv.slice(2));
  if (!s) {
    console.error('no profile read (is go on PATH?)');
    process.exit(1);
  }
  console.log(`total sampled ${s.total.toFixed(2)} s`);
  for (const [k, v] of Object.entries(s.byCategory).sort((a, b) => b[1] - a[1])) {
    console.log(`${v.toFixed(2).padStart(7)} s ${((v / s.total) * 100).toFixed(1).padStart(5)}%  ${k}`);
  }
}
