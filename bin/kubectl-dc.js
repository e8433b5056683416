#!/usr/bin/env node
// kubectl plugin entry: `kubectl dc rollout latest web` is `dcctl rollout latest web`.
// CommonJS, as every file of bin/ (bin/package.json, see bin/dcctl.js).
'use strict';
import('../dist/dcctl.mjs')
  .then(({ main }) => main(process.argv.slice(2), 'kubectl dc'))
  .then((code) => {
    process.exitCode = code;
  });
