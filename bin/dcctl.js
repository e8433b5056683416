#!/usr/bin/env node
import { main } from '../dist/dcctl.mjs';
process.exitCode = await main(process.argv.slice(2));
