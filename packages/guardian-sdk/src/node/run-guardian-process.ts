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
  /** Where `--once` says why it could not run (default: standard error). */
  stderr?: (text: string) => void;
}

/** What the process side needs of a guardian: {@link RunningGuardian} or a `Guardian`. */
export interface StoppableGuardian {
  runOnce(): Promise<RunSummary>;
  stop(deadlineMs?: number): Promise<void>;
}

/** The lines `--once` prints for the runs that gave no verdict (and for nothing to check). */
export function explainSummary(summary: RunSummary, nothingToCheck: string): string[] {
  if (summary.reports.length === 0) return [`could not run: ${nothingToCheck}`];
  return summary.reports
    .filter((r) => r.outcome === 'could_not_run' || r.outcome === 'abandoned')
    .map(
      (r) =>
        `${r.outcome === 'abandoned' ? 'abandoned' : 'could not run'}: ${r.resourceId} (${r.environment}): ${r.reason ?? 'no reason given'}`,
    );
}

/**
 * `--once`: checks every contract once, prints why a contract had no verdict, and resolves with
 * the exit code (0 compliant, 1 violated, 2 could not run). SIGTERM or SIGINT meanwhile abandons
 * the run at once (its checks are aborted, so a query is cancelled, and nothing is sent): exit 2.
 */
export async function runOnceAsProcess(
  guardian: StoppableGuardian,
  options: {
    nothingToCheck: string;
    stderr: (text: string) => void;
    onStop?: (() => void | Promise<void>) | undefined;
    /** Whether a check that ignores the abort may make the process exit 2 on its own, 5 s after the signal. */
    exit: boolean;
  },
): Promise<{ summary: RunSummary; exitCode: 0 | 1 | 2 }> {
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = signal;
    options.stderr(`${signal}: abandoning the run, nothing is sent\n`);
    void guardian.stop(0);
    if (options.exit) {
      // A check that ignores its abort signal must not keep the process alive.
      setTimeout(() => {
        options.stderr('the run did not stop within 5 s: exiting\n');
        process.exit(2);
      }, 5000).unref();
    }
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  let summary: RunSummary;
  try {
    summary = await guardian.runOnce();
  } finally {
    await guardian.stop(0);
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    await options.onStop?.();
  }
  for (const line of explainSummary(summary, options.nothingToCheck)) {
    options.stderr(`${line}\n`);
  }
  return { summary, exitCode: interrupted ? 2 : summary.exitCode };
}

/**
 * Stops a scheduled guardian on the first SIGTERM or SIGINT: a run in flight may finish within
 * `deadlineMs`, then `onStop`, then `exit(0)`.
 */
export function stopOnSignals(
  guardian: StoppableGuardian,
  options: {
    deadlineMs: number;
    onStop?: (() => void | Promise<void>) | undefined;
    log?: ((signal: NodeJS.Signals) => void) | undefined;
    exit: boolean;
  },
): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    options.log?.(signal);
    await guardian.stop(options.deadlineMs);
    await options.onStop?.();
    if (options.exit) process.exit(0);
  };
  process.once('SIGTERM', (s) => void stop(s));
  process.once('SIGINT', (s) => void stop(s));
}

/**
 * Runs a guardian's scheduler as a process (the lower-level door; `startGuardian` builds, serves
 * and runs a whole guardian): with `--once`, checks every contract once, prints to standard error
 * why any could not run, and exits 0 (all compliant), 1 (a contract violated) or 2 (could not
 * run, nothing to check, or interrupted); otherwise runs on schedule until SIGTERM or SIGINT, lets
 * the run in flight finish within `stopDeadlineMs` (then abandons it: no result is half-sent),
 * calls `onStop` and exits 0.
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
    const { summary, exitCode } = await runOnceAsProcess(guardian, {
      nothingToCheck: 'no contract to check',
      stderr: options.stderr ?? ((text) => process.stderr.write(text)),
      onStop: options.onStop,
      exit,
    });
    if (exit) process.exit(exitCode);
    return { guardian, summary };
  }
  const guardian = runGuardian(options);
  stopOnSignals(guardian, {
    deadlineMs: options.stopDeadlineMs ?? 10_000,
    onStop: options.onStop,
    log: (signal) =>
      options.hooks?.log?.('info', 'stopping the guardian', { signal, running: guardian.running }),
    exit,
  });
  return { guardian };
}
