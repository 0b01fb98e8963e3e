import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { ContractRegistry } from '../contract-registry';
import { type CreateGuardianOptions, createGuardian, type Guardian } from '../create-guardian';
import type { RunSummary } from '../run-guardian';
import { openFileContractRegistry } from './file-contract-registry';
import { runOnceAsProcess, stopOnSignals } from './run-guardian-process';

/** Options of {@link startGuardian}: those of `createGuardian`, and how the process runs. */
export interface StartGuardianOptions extends CreateGuardianOptions {
  /**
   * Where the guardian keeps the contracts it is provisioned with, `<dataDir>/contracts.json`, so
   * a restart and `--once` in a new process find them (default `.dcg-data/guardian`, relative to
   * the working directory). Not used when `registry` is given.
   */
  dataDir?: string;
  /** Port of the tech adapter and probes (default 8093; 0 picks a free one). */
  port?: number;
  /** Interface to listen on (default `127.0.0.1`). */
  hostname?: string;
  /** What to serve instead of `guardian.fetch` (e.g. the guardian's app behind your metrics). */
  fetch?: (guardian: Guardian) => (request: Request) => Response | Promise<Response>;
  /** Command-line arguments (default `process.argv.slice(2)`); `--once` checks once and exits 0 / 1 / 2. */
  argv?: ReadonlyArray<string>;
  /** After SIGTERM / SIGINT, how long a run in flight may take before it is abandoned (default 10 000 ms). */
  stopDeadlineMs?: number;
  /** Called once the guardian stopped and its server closed; close pools here. */
  onStop?: () => void | Promise<void>;
  /** Called once the server listens. */
  onListen?: (url: string) => void;
  /** Whether to call `process.exit` when done (default true). */
  exit?: boolean;
  /** Where `--once` says why it could not run (default: standard error). */
  stderr?: (text: string) => void;
}

/** What {@link startGuardian} started. */
export interface StartedGuardian {
  guardian: Guardian;
  /** The server's URL (not with `--once`). */
  url?: string;
  /** With `--once`: the summary (when `exit` is false). */
  summary?: RunSummary;
  /** With `--once`: the exit code (when `exit` is false). */
  exitCode?: 0 | 1 | 2;
}

/**
 * Starts a guardian on Node: builds it with `createGuardian`, keeps its contracts in
 * `<dataDir>/contracts.json`, serves the tech adapter with `/health` and `/ready`, checks on
 * schedule and stops on SIGTERM or SIGINT (the run in flight may finish within `stopDeadlineMs`,
 * the server closes, `onStop` runs, exit 0). With `--once` it serves nothing: it checks every
 * contract it was provisioned with once, prints why any could not run, and exits 0 (compliant),
 * 1 (violated) or 2 (could not run, nothing to check, or interrupted).
 *
 * @example
 * await startGuardian({
 *   checks: [postgresContractCheck({ pool })],
 *   governance: { baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.DCG_API_KEY },
 *   onStop: () => pool.end(),
 * });
 */
export async function startGuardian(options: StartGuardianOptions): Promise<StartedGuardian> {
  const dataDir = options.dataDir ?? '.dcg-data/guardian';
  const file = join(dataDir, 'contracts.json');
  const registry: ContractRegistry =
    options.registry ?? openFileContractRegistry(file, { defaultEnvironment: options.environment });
  const guardian = createGuardian({ ...options, registry });
  const argv = options.argv ?? process.argv.slice(2);
  const exit = options.exit ?? true;
  const stderr = options.stderr ?? ((text: string) => process.stderr.write(text));

  if (argv.includes('--once')) {
    const { summary, exitCode } = await runOnceAsProcess(guardian, {
      nothingToCheck: `no contract to check: the guardian has not been provisioned${options.registry ? '' : ` (registry ${file})`}`,
      stderr,
      onStop: options.onStop,
      exit,
    });
    if (exit) process.exit(exitCode);
    return { guardian, summary, exitCode };
  }

  const fetch = options.fetch?.(guardian) ?? guardian.fetch;
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve(
      { fetch, port: options.port ?? 8093, hostname: options.hostname ?? '127.0.0.1' },
      () => resolve(started),
    );
    started.once('error', reject);
  });
  const address = server.address();
  const url =
    typeof address === 'object' && address !== null
      ? `http://${options.hostname ?? '127.0.0.1'}:${address.port}`
      : String(address);
  options.onListen?.(url);
  guardian.start();
  stopOnSignals(guardian, {
    deadlineMs: options.stopDeadlineMs ?? 10_000,
    onStop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if ('closeAllConnections' in server) server.closeAllConnections();
      await closed;
      await options.onStop?.();
    },
    log: (signal) => options.hooks?.log?.('info', 'stopping the guardian', { signal }),
    exit,
  });
  return { guardian, url };
}
