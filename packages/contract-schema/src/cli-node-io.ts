import { readFile } from 'node:fs/promises';
import type { CliIo } from './cli-run';

/**
 * The real process environment of `dcg-contract`: files, stdin, stdout and stderr.
 *
 * @example
 * const code = await run(process.argv.slice(2), nodeCliIo());
 */
export function nodeCliIo(): CliIo {
  return {
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
