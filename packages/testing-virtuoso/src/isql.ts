import { execFile } from 'node:child_process';
import { VirtuosoError } from './errors';

/** How to reach the SQL port of a running Virtuoso with `isql-vt`. */
export interface IsqlTarget {
  readonly isqlBin: string;
  readonly sqlPort: number;
  readonly user?: string;
  readonly password?: string;
  readonly timeoutMs?: number;
}

/**
 * Runs SQL statements (separated by `;`) through `isql-vt … exec="…"` and resolves with its
 * standard output. isql exits 0 even when a statement fails, so its `*** Error` lines are what
 * turns into a rejected promise.
 *
 * @example
 * const out = await runIsql({ isqlBin: 'isql-vt', sqlPort: 1111 }, "SPARQL CLEAR GRAPH <https://example.org/g>;");
 */
export function runIsql(target: IsqlTarget, statements: string): Promise<string> {
  const args = [
    `127.0.0.1:${target.sqlPort}`,
    target.user ?? 'dba',
    target.password ?? 'dba',
    `exec=${statements}`,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      target.isqlBin,
      args,
      { timeout: target.timeoutMs ?? 600_000, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const failure = /\*\*\* Error[^\n]*(?:\n(?!\n)[^\n]*)*/.exec(`${stderr}\n${stdout}`);
        if (error || failure) {
          const detail = failure?.[0] ?? (stderr.trim() || error?.message || 'unknown failure');
          reject(
            new VirtuosoError('sql_failed', `isql on port ${target.sqlPort} failed: ${detail}`, {
              cause: error ?? undefined,
            }),
          );
          return;
        }
        resolve(stdout);
      },
    );
  });
}

/**
 * Quotes a value as a Virtuoso SQL string literal. Values with a quote, a backslash or a control
 * character are refused rather than escaped: every value we pass (paths we created, validated IRIs)
 * never needs them, and refusing is safer than guessing Virtuoso's escape rules.
 *
 * @example
 * sqlString('/tmp/dir'); // "'/tmp/dir'"
 */
export function sqlString(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/['\\\u0000-\u001f]/.test(value)) {
    throw new VirtuosoError(
      'invalid_input',
      `value ${JSON.stringify(value)} contains a quote, backslash or control character`,
    );
  }
  return `'${value}'`;
}
