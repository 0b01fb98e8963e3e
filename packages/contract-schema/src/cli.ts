#!/usr/bin/env node
import { nodeCliIo } from './cli-node-io';
import { run } from './cli-run';

// Set exitCode instead of calling exit() so buffered stdout is flushed to pipes.
process.exitCode = await run(process.argv.slice(2), nodeCliIo());
