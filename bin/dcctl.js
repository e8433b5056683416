#!/usr/bin/env node
// CommonJS (bin/package.json), as is the deployer's bundle: `deploy` runs once per rollout, and a
// process that loads no ES module links no module graph and builds no ES module facade of the
// builtins it uses (each reads every lazy export of its builtin, loading readline, fs/promises,
// worker_threads internals): ~10 ms of CPU and ~2 MiB of a deployer process (docs/design.md §6.1,
// test/integration/deployer-entry.test.ts). The deployer bundle declines anything but a plain
// invocation (src/deployer/main.ts), which the full CLI, an ES module, handles.
'use strict';
const argv = process.argv.slice(2);

async function run() {
  if (argv[0] === 'deploy') {
    const code = await require('../dist/deployer.cjs').deployMain(argv.slice(1));
    if (code !== undefined) return code;
  }
  const { main } = await import('../dist/dcctl.mjs');
  return main(argv);
}

run().then((code) => {
  process.exitCode = code;
});
