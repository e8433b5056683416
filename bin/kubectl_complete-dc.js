#!/usr/bin/env node
// kubectl's plugin completion (kubectl >= 1.26): `kubectl dc <TAB>` runs
// `kubectl_complete-dc __complete <words...>` and reads Cobra's format (candidates, then ":4").
import { completionCandidates } from '../dist/dcctl.mjs';
process.stdout.write(await completionCandidates(process.argv.slice(2)));
