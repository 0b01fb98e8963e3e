#!/usr/bin/env node
// dcg-kg runs from source: it re-executes Node with tsx and the @dcg/source condition.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../src/cli-main.ts', import.meta.url));
const result = spawnSync(
  process.execPath,
  [
    '--conditions=@dcg/source',
    '--import',
    import.meta.resolve('tsx'),
    cli,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', cwd: process.cwd() },
);
process.exit(result.status ?? 1);
