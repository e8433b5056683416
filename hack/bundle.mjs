// Bundles the compiled CLI (dist/cli/index.js and everything it loads) into ESM files, the entry
// dist/dcctl.mjs and the chunks it imports on demand (dist/dcctl-chunk-*.mjs), and the deployer process alone (dist/deployer/main.js) into one CommonJS file,
// dist/deployer.cjs.
// Why: every rollout starts a deployer process; loading thousands of small
// modules (mostly @kubernetes/client-node's generated API) cost ~0.8 s CPU and ~120 MiB per
// process, the bundle ~0.15 s and ~70 MiB. pino stays external: its transports (pino-pretty)
// run in worker threads that resolve files next to pino itself. selfsigned (and its X.509
// stack) stays external too: only a controller with --metrics-secure loads it, never a deployer.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['pino', 'pino-pretty', 'thread-stream', 'selfsigned'],
  // CommonJS dependencies inside an ESM bundle still call require().
  banner: { js: "import { createRequire as __dcctlCreateRequire } from 'node:module'; const require = __dcctlCreateRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
};
// Whitespace and syntax minification (names stay, for readable stack traces): V8 keeps the
// whole source of a script in the heap for lazy compilation, so for the long-running controller
// the bundle's size is resident memory. Without comments the bundle is also pure ASCII; one
// non-ASCII character in a comment made V8 store all of it as a two-byte string (15 MiB of the
// idle controller's 30 MiB heap, docs/design.md §1.1).
const minified = { minifyWhitespace: true, minifySyntax: true };
// Split into chunks: what a command imports on demand (the controller, the API server, a rollout
// verb's client) is its own file, loaded only by the commands that import it. The controller
// talks through src/kube/rest.ts and imports client-node only for the kubeconfigs that need it:
// in one file, the source of client-node (about half of the bundle) stayed resident in every
// controller anyway (docs/design.md §1.1). The chunks sit next to the entry, so that
// import.meta.url resolves `../package.json` as it does from dist/*.js.
const dist = path.join(repo, 'dist');
for (const f of readdirSync(dist)) if (/^dcctl-chunk-.*\.mjs$/.test(f)) rmSync(path.join(dist, f));
await build({
  ...common, ...minified,
  entryPoints: { dcctl: path.join(dist, 'cli/index.js') },
  outdir: dist,
  splitting: true,
  chunkNames: 'dcctl-chunk-[hash]',
  outExtension: { '.js': '.mjs' },
});
// The deployer process alone (bin/dcctl.js runs it for `deploy`): no yargs, no other command,
// and no client-node: it talks through src/kube/rest.ts; the client-node ports
// (dist/kube/deployer-client-node.js, imported on demand by src/deployer/command.ts for the
// full CLI) stay out, so the bundle is ~0.1 MB instead of ~2.3 MB. Whitespace and syntax
// minification shorten parsing; names stay for readable stack traces. CommonJS, loaded by the
// CommonJS bin/dcctl.js: a deployer process then links no ES module graph and builds no ES module
// facade of the builtins it imports (~10 ms of CPU and ~2 MiB per rollout,
// docs/design.md §6.1). import.meta.url, which CommonJS lacks, is the file's own URL.
await build({
  ...common,
  format: 'cjs',
  banner: { js: "const __dcctlModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__dcctlModuleUrl' },
  external: [...common.external, '../kube/deployer-client-node.js'],
  entryPoints: [path.join(repo, 'dist/deployer/main.js')],
  outfile: path.join(repo, 'dist/deployer.cjs'),
  minifyWhitespace: true,
  minifySyntax: true,
});
