import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { CliIo } from './cli-run';

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
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readFile: (path) => readFile(path, 'utf8'),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
