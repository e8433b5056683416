#!/usr/bin/env node
// CommonJS (bin/package.json), as is the deployer's bundle: `deploy` runs once per rollout, and a
// process that loads no ES module never starts Node's ES module loader, ~10 ms of CPU and ~2 MiB
// of a deployer process (docs/design.md §6.1). The deployer bundle declines anything but a plain
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
