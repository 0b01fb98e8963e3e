import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import type { CliIo } from './cli-run';

const DOCUMENTS = '**/*.{json,yaml,yml}';

/**
 * FILE arguments as files (see `CliIo.expandPaths`): `-` and plain files stay as given, a folder
 * becomes the JSON and YAML files under it (no hidden folders, no node_modules), a glob the files
 * it matches; each list sorted, each file once.
 *
 * @example
 * await expandPaths(['contracts/', 'extra/*.yaml']); // { files: ['contracts/a.json', …], unmatched: [] }
 */
export async function expandPaths(
  args: readonly string[],
): Promise<{ files: string[]; unmatched: string[] }> {
  const files: string[] = [];
  const unmatched: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    files.push(file);
  };
  for (const arg of args) {
    if (arg === '-') {
      add(arg);
      continue;
    }
    const isFolder = await stat(arg).then(
      (info) => info.isDirectory(),
      () => false,
    );
    if (!isFolder && !isDynamicPattern(arg)) {
      add(arg); // a missing file is reported by the command, as unreadable
      continue;
    }
    // A glob is matched from its static folder, so that absolute patterns work as relative ones
    // do and the answers keep the folder as it was written.
    const parts = arg.split('/');
    const dynamic = isFolder ? parts.length : parts.findIndex((part) => isDynamicPattern(part));
    const base = parts.slice(0, dynamic).join('/') || (arg.startsWith('/') ? '/' : '.');
    const pattern = isFolder ? DOCUMENTS : parts.slice(dynamic).join('/');
    const matches = (
      await glob(pattern, {
        cwd: base,
        onlyFiles: true,
        ignore: ['**/node_modules/**'],
        expandDirectories: false,
      })
    ).map((file) => join(base, file));
    if (matches.length === 0) unmatched.push(arg);
    for (const file of matches.sort()) add(file);
  }
  return { files, unmatched };
}

/**
 * The real process environment of `dcg-contract`: files, stdin, stdout and stderr.
 *
 * @example
 * const code = await run(process.argv.slice(2), nodeCliIo());
 */
export function nodeCliIo(): CliIo {
  // ../package.json is the package root both from src/ and from dist/.
  const { version } = createRequire(import.meta.url)('../package.json') as { version: string };
  return {
    version,
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readFile: (path) => readFile(path, 'utf8'),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    expandPaths,
  };
}
