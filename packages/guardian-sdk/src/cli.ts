#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { runCli } from './cli-run';

process.exitCode = await runCli(process.argv.slice(2), {
  readFile: (path) => readFile(path, 'utf8'),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
