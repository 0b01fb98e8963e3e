import {
  type RunGuardianOptions,
  type RunningGuardian,
  type RunSummary,
  runGuardian,
} from '../run-guardian';

/** Options of {@link runGuardianProcess}. */
export interface RunGuardianProcessOptions extends RunGuardianOptions {
  /** Command-line arguments (default `process.argv.slice(2)`); `--once` runs every contract once and exits. */
  argv?: ReadonlyArray<string>;
  /** How long a run in flight may take to finish after SIGTERM / SIGINT (default 10 000 ms). */
  stopDeadlineMs?: number;
  /** Called once the guardian stopped (after a signal), before the process exits; close servers and pools here. */
  onStop?: () => void | Promise<void>;
  /** Whether to call `process.exit` (default true). */
  exit?: boolean;
}

/**
 * Runs a guardian as a process: with `--once`, checks every contract once and exits 0 (all
 * compliant), 1 (a contract violated) or 2 (could not run); otherwise runs on schedule until
 * SIGTERM or SIGINT, lets the run in flight finish within `stopDeadlineMs` (then abandons it: no
 * result is half-sent), calls `onStop` and exits 0.
 *
 * @example
 * await runGuardianProcess({ contracts, checks, client, onStop: () => pool.end() });
 */
export async function runGuardianProcess(
  options: RunGuardianProcessOptions,
): Promise<{ guardian: RunningGuardian; summary?: RunSummary }> {
  const argv = options.argv ?? process.argv.slice(2);
  const exit = options.exit ?? true;
  if (argv.includes('--once')) {
    const guardian = runGuardian({ ...options, scheduled: false });
    let summary: RunSummary;
    try {
      summary = await guardian.runOnce();
    } finally {
      await guardian.stop(0);
      await options.onStop?.();
    }
    if (exit) process.exit(summary.exitCode);
    return { guardian, summary };
  }
  const guardian = runGuardian(options);
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    options.hooks?.log?.('info', 'stopping the guardian', { signal, running: guardian.running });
    await guardian.stop(options.stopDeadlineMs ?? 10_000);
    await options.onStop?.();
    if (exit) process.exit(0);
  };
  process.once('SIGTERM', (s) => void stop(s));
  process.once('SIGINT', (s) => void stop(s));
  return { guardian };
}
