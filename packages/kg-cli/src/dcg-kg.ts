#!/usr/bin/env node
// The dcg-kg command. Bundled by tsup into dist/dcg-kg.js (with the private @dcg/knowledge-graph,
// which checks each file locally before anything is sent); `pnpm dcg-kg` runs it from source.
import { EXIT, runCli } from './cli';

runCli(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`dcg-kg: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = EXIT.couldNotRun;
  },
);
