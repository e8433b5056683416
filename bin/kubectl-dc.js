#!/usr/bin/env node
// kubectl plugin entry: `kubectl dc rollout latest web` is `dcctl rollout latest web`.
import { main } from '../dist/cli/index.js';
process.exitCode = await main(process.argv.slice(2), 'kubectl dc');
