#!/usr/bin/env node
// `deploy` runs once per rollout: try the deployer's own small bundle first (see
// src/deployer/main.ts); it declines anything but a plain invocation, which the full CLI handles.
const argv = process.argv.slice(2);
if (argv[0] === 'deploy') {
  const { deployMain } = await import('../dist/deployer.mjs');
  const code = await deployMain(argv.slice(1));
  if (code !== undefined) {
    process.exitCode = code;
  } else {
    const { main } = await import('../dist/dcctl.mjs');
    process.exitCode = await main(argv);
  }
} else {
  const { main } = await import('../dist/dcctl.mjs');
  process.exitCode = await main(argv);
}
