#!/usr/bin/env node
// kubectl plugin entry: `kubectl dc rollout latest web` is `dcctl rollout latest web`.
import { main } from '../dist/dcctl.mjs';
process.exitCode = await main(process.argv.slice(2), 'kubectl dc');
