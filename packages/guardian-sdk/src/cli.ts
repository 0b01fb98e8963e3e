#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { runCli } from './cli-run';

// ../package.json is the package root both from src/ and from dist/.
const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

process.exitCode = await runCli(process.argv.slice(2), {
  readFile: (path) => readFile(path, 'utf8'),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  version,
});
