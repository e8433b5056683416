#!/usr/bin/env node
// kubectl's plugin completion (kubectl >= 1.26): `kubectl dc <TAB>` runs
// `kubectl_complete-dc __complete <words...>` and reads Cobra's format (candidates, then ":4").
// CommonJS, as every file of bin/ (bin/package.json, see bin/dcctl.js).
'use strict';
import('../dist/dcctl.mjs')
  .then(({ completionCandidates }) => completionCandidates(process.argv.slice(2)))
  .then((text) => {
    process.stdout.write(text);
  });
