import { runCli } from './cli';

// The dcg-kg process: bin/dcg-kg.mjs runs this file from source, and @dcg/kg-cli bundles it.
runCli(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`dcg-kg: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 2; // no verdict: see EXIT in cli.ts
  },
);
