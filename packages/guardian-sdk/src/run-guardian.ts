import {
  type EvaluationResultSubmission,
  requirementTally,
  type ValidationRecord,
} from '@dcg/contract-schema';
import type { DataContract } from './data-contract';
import type { SubmissionReceipt, SubmitInput } from './governance-client';
import type { GuardedContract, GuardedPart } from './guarded-contracts';
import { GuardianSdkError } from './guardian-sdk-error';
import { buildSubmission } from './result-builder';
import { delayUntilNext, type Schedule, scheduleFromGuard } from './schedule';

/** A guarded contract with where its results go. */
export interface MonitoredContract extends GuardedContract {
  policyId: string;
  environment: string;
}

/** What a check receives: one part (target key) of one contract. */
export interface CheckContext {
  target: MonitoredContract;
  part: GuardedPart;
  contract: DataContract;
  /** Aborted when the guardian stops and the run is abandoned. */
  signal: AbortSignal;
}

/**
 * A check: a plain function from one contract part to A4 records (requirements or sections).
 * A check that throws could not run (the database is down, a statement timed out): the run then
 * sends nothing, so the contract's last real state stays, and its report says why. A check that
 * finds a problem returns a violated requirement instead.
 */
export type Check = ((
  context: CheckContext,
) => ValidationRecord | ValidationRecord[] | Promise<ValidationRecord | ValidationRecord[]>) & {
  checkName?: string;
};

/**
 * Names a check: the name shown when it could not run (otherwise the
 * function's own name, which bundlers may change).
 *
 * @example
 * const rowCount = defineCheck('row_count', async ({ contract }) => requirement('rows').compliant());
 */
export function defineCheck(name: string, check: Check): Check {
  return Object.assign(check, { checkName: name });
}

/** Where results are sent (a `GovernanceClient`, or anything with its `submit`). */
export interface ResultSink {
  submit(input: SubmitInput): Promise<SubmissionReceipt>;
}

/**
 * Every way a run can end: a verdict that was sent (`compliant`, `violated`), `could_not_run` (a
 * check threw, or the submission failed: nothing was accepted, see `reason`), or `abandoned` (the
 * guardian stopped during the run: nothing was sent).
 *
 * @example
 * for (const outcome of RUN_OUTCOMES) runs.inc({ outcome }, 0);
 */
export const RUN_OUTCOMES = ['compliant', 'violated', 'could_not_run', 'abandoned'] as const;
/** How a run ended (one of {@link RUN_OUTCOMES}). */
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

const NOTHING_COUNTED = { violations: 0, notChecked: 0, warnings: 0 };

/** The outcome of one run of one contract. */
export interface RunReport {
  resourceId: string;
  policyId: string;
  environment: string;
  outcome: RunOutcome;
  /** For `could_not_run`: where it failed (`check`: nothing was sent; `submit`: the result was not accepted). */
  stage?: 'check' | 'submit';
  /** For `could_not_run` and `abandoned`: why, in words. */
  reason?: string;
  startedAt: Date;
  durationMs: number;
  /** Time spent inside the checks. */
  checksMs: number;
  /** Time spent submitting. */
  submitMs: number;
  /** Failing requirements of a blocking severity: those that make the contract violated. */
  violations: number;
  /** Requirements reported as not checked (never counted as violations or as compliant). */
  notChecked: number;
  /** Failing requirements of a non-blocking severity. */
  warnings: number;
  error?: unknown;
  body?: EvaluationResultSubmission;
}

/** Hooks for logs and metrics. */
export interface GuardianHooks {
  onRunStart?(target: MonitoredContract): void;
  onRunEnd?(report: RunReport): void;
  log?(
    level: 'debug' | 'info' | 'warn' | 'error',
    message: string,
    fields?: Record<string, unknown>,
  ): void;
}

/** Options of {@link runGuardian}. */
export interface RunGuardianOptions {
  /** The contracts to monitor, or a function asked before every scheduling round (contracts may come and go). */
  contracts: ReadonlyArray<MonitoredContract> | (() => ReadonlyArray<MonitoredContract>);
  checks: ReadonlyArray<Check>;
  client: ResultSink;
  /** Default schedule for guards without `monitoringResultScheduling` (default every 5 minutes). */
  schedule?: Schedule;
  /** A random delay of up to this much is added before each run (default 10 % of the interval, at most 30 s). */
  jitterMs?: number;
  /** Contracts checked at the same time (default 4). */
  concurrency?: number;
  /** How often the list of contracts is looked at (default 1000 ms; also whenever a run ends). */
  tickMs?: number;
  /** `false`: nothing runs on a schedule, only {@link RunningGuardian.runOnce} (default true). */
  scheduled?: boolean;
  hooks?: GuardianHooks;
}

/** Summary of {@link RunningGuardian.runOnce}. */
export interface RunSummary {
  reports: RunReport[];
  compliant: number;
  violated: number;
  /** Runs that could not run (a check threw, or the submission failed). */
  couldNotRun: number;
  /** Runs abandoned because the guardian stopped. */
  abandoned: number;
  /** `couldNotRun + abandoned`: runs without an accepted verdict. */
  errors: number;
  /** 0 all compliant, 1 some violated, 2 some could not run (or nothing to check); 2 wins over 1. */
  exitCode: 0 | 1 | 2;
}

/** A started guardian. */
export interface RunningGuardian {
  /** Starts running on schedule (when created with `scheduled: false`); does nothing when already started or stopped. */
  start(): void;
  /** Checks every contract now (the `--once` mode) and reports. Skips a contract already running. */
  runOnce(): Promise<RunSummary>;
  /**
   * Stops scheduling; a run in flight may finish within `deadlineMs` (default 10 000), after which it
   * is abandoned: its checks are aborted and its result is never sent.
   */
  stop(deadlineMs?: number): Promise<void>;
  /** Runs in flight now. */
  readonly running: number;
}

function keyOf(target: MonitoredContract): string {
  return `${target.policyId}\u0000${target.environment}\u0000${target.resourceId}`;
}

/** A check that threw: the run could not produce a verdict. */
class CheckCouldNotRun extends Error {
  constructor(
    readonly check: string,
    readonly error: unknown,
  ) {
    super(`the check ${check} could not run: ${(error as Error)?.message ?? String(error)}`, {
      cause: error,
    });
  }
}

function checkName(check: Check, index: number): string {
  if (check.checkName) return check.checkName;
  return check.name && check.name !== 'anonymous' ? check.name : `check_${index + 1}`;
}

const DEFAULT_SCHEDULE: Schedule = { intervalMs: 5 * 60_000 };

/**
 * Runs a guardian: each monitored contract is checked on its schedule (the guard's
 * `monitoringResultScheduling` when present, otherwise `schedule`), with jitter, never twice at
 * once; each run's records are built into an A3 submission and sent. A check that throws means
 * the run could not run: nothing is sent, the report says why (`could_not_run`), and the contract
 * is tried again at its next time. Runtime-neutral: signals and exit codes are in
 * `@dcg/guardian-sdk/node`.
 *
 * @example
 * const guardian = runGuardian({
 *   contracts: [{ ...guarded, policyId, environment: 'production' }],
 *   checks: [rowCountCheck],
 *   client: new GovernanceClient({ baseUrl, apiKey }),
 *   schedule: { cron: '*\/15 * * * *' },
 * });
 * await guardian.stop();
 */
export function runGuardian(options: RunGuardianOptions): RunningGuardian {
  const hooks = options.hooks ?? {};
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const tickMs = options.tickMs ?? 1000;
  const abandon = new AbortController();
  const inFlight = new Map<string, Promise<RunReport>>();
  const nextAt = new Map<string, number>();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const list = () =>
    typeof options.contracts === 'function' ? options.contracts() : options.contracts;

  // Schedules read once per contract (and again only when its scheduling changes), so an
  // unreadable one is reported once.
  const schedules = new Map<string, { raw: unknown; schedule: Schedule }>();
  const scheduleOf = (key: string, target: MonitoredContract): Schedule => {
    const known = schedules.get(key);
    if (known && known.raw === target.scheduling) return known.schedule;
    let schedule: Schedule;
    try {
      schedule = scheduleFromGuard(target.scheduling) ?? options.schedule ?? DEFAULT_SCHEDULE;
    } catch (error) {
      hooks.log?.('warn', 'unreadable monitoringResultScheduling: default schedule used', {
        resourceId: target.resourceId,
        error: (error as Error).message,
      });
      schedule = options.schedule ?? DEFAULT_SCHEDULE;
    }
    schedules.set(key, { raw: target.scheduling, schedule });
    return schedule;
  };
  const jitter = (schedule: Schedule) => {
    const base = 'intervalMs' in schedule ? schedule.intervalMs : 60_000;
    const max = options.jitterMs ?? Math.min(30_000, base * 0.1);
    return Math.random() * max;
  };

  async function checkPart(
    target: MonitoredContract,
    part: GuardedPart,
  ): Promise<ValidationRecord[]> {
    const records: ValidationRecord[] = [];
    for (const [index, check] of options.checks.entries()) {
      if (abandon.signal.aborted) break;
      try {
        const out = await check({ target, part, contract: part.contract, signal: abandon.signal });
        if (out === undefined || out === null) {
          throw new GuardianSdkError(
            'check_failed',
            'it returned nothing; a check returns a requirement, a section or an array of them',
          );
        }
        records.push(...(Array.isArray(out) ? out : [out]));
      } catch (error) {
        // Not a verdict: the whole run sends nothing rather than a partial or a false "violated".
        throw new CheckCouldNotRun(checkName(check, index), error);
      }
    }
    return records;
  }

  async function runContract(target: MonitoredContract): Promise<RunReport> {
    const startedAt = new Date();
    const t0 = performance.now();
    hooks.onRunStart?.(target);
    const base = {
      resourceId: target.resourceId,
      policyId: target.policyId,
      environment: target.environment,
      startedAt,
    };
    let checksMs = 0;
    let submitMs = 0;
    let stage: 'check' | 'submit' = 'check';
    let report: RunReport;
    // A run that sent nothing has counted nothing.
    const ended = (
      how: Pick<RunReport, 'outcome' | 'stage' | 'reason' | 'body' | 'error'>,
      counts: Pick<RunReport, 'violations' | 'notChecked' | 'warnings'> = NOTHING_COUNTED,
    ): RunReport => ({
      ...base,
      ...how,
      durationMs: performance.now() - t0,
      checksMs,
      submitMs,
      ...counts,
    });
    try {
      const results: Record<string, ValidationRecord[]> = {};
      for (const part of target.parts) results[part.key] = await checkPart(target, part);
      checksMs = performance.now() - t0;
      if (abandon.signal.aborted) {
        report = ended({
          outcome: 'abandoned',
          reason: 'the guardian stopped during the run: nothing was sent',
        });
      } else {
        const body = buildSubmission({
          resource: { id: target.resourceId, displayName: target.displayName },
          results,
        });
        const tally = requirementTally(Object.values(results).flat());
        const s0 = performance.now();
        stage = 'submit';
        await options.client.submit({
          policyId: target.policyId,
          environment: target.environment,
          body,
          signal: abandon.signal,
        });
        submitMs = performance.now() - s0;
        report = ended(
          { outcome: body[0]?.result.satisfiesPolicy ? 'compliant' : 'violated', body },
          {
            violations: tally.failing,
            notChecked: tally.notChecked ?? 0,
            warnings: tally.warnings ?? 0,
          },
        );
      }
    } catch (error) {
      if (stage === 'check') checksMs = performance.now() - t0;
      const abandoned = abandon.signal.aborted;
      const message = (error as Error)?.message ?? String(error);
      const reason = abandoned
        ? 'the guardian stopped during the run: nothing was sent'
        : stage === 'check'
          ? `${message}; nothing was sent`
          : `the result could not be submitted: ${message}`;
      report = ended({
        outcome: abandoned ? 'abandoned' : 'could_not_run',
        ...(abandoned ? {} : { stage }),
        reason,
        error: error instanceof CheckCouldNotRun ? error.error : error,
      });
      if (!abandoned) {
        hooks.log?.('warn', 'could not run', {
          resourceId: target.resourceId,
          environment: target.environment,
          stage,
          reason,
        });
      }
    }
    hooks.onRunEnd?.(report);
    return report;
  }

  function start(target: MonitoredContract): Promise<RunReport> {
    const key = keyOf(target);
    const existing = inFlight.get(key);
    if (existing) return existing;
    const run = runContract(target).finally(() => {
      inFlight.delete(key);
      // A slot is free: look for due contracts now rather than at the next tick.
      if (scheduled && !stopped) {
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(tick, 0);
      }
    });
    inFlight.set(key, run);
    return run;
  }

  function tick(): void {
    timer = undefined;
    if (stopped) return;
    const now = Date.now();
    const current = list();
    const seen = new Set<string>();
    for (const target of current) {
      const key = keyOf(target);
      seen.add(key);
      const schedule = scheduleOf(key, target);
      let due = nextAt.get(key);
      if (due === undefined) {
        due = now + jitter(schedule);
        nextAt.set(key, due);
      }
      if (due > now || inFlight.has(key) || inFlight.size >= concurrency) continue;
      nextAt.set(key, now + delayUntilNext(schedule, new Date(now)) + jitter(schedule));
      void start(target);
    }
    for (const key of nextAt.keys()) {
      if (!seen.has(key)) {
        nextAt.delete(key);
        schedules.delete(key);
      }
    }
    timer = setTimeout(tick, tickMs);
  }

  let scheduled = options.scheduled ?? true;
  if (scheduled) timer = setTimeout(tick, 0);

  return {
    get running() {
      return inFlight.size;
    },
    start() {
      if (scheduled || stopped) return;
      scheduled = true;
      timer = setTimeout(tick, 0);
    },
    async runOnce() {
      const targets = [...list()];
      const reports: RunReport[] = [];
      let next = 0;
      const worker = async () => {
        while (next < targets.length && !abandon.signal.aborted) {
          const target = targets[next++] as MonitoredContract;
          reports.push(await start(target));
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
      const count = (outcome: RunOutcome) => reports.filter((r) => r.outcome === outcome).length;
      const compliant = count('compliant');
      const violated = count('violated');
      const errors = reports.length - compliant - violated;
      return {
        reports,
        compliant,
        violated,
        couldNotRun: count('could_not_run'),
        abandoned: count('abandoned'),
        errors,
        exitCode: errors > 0 || reports.length === 0 ? 2 : violated > 0 ? 1 : 0,
      };
    },
    async stop(deadlineMs = 10_000) {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      const pending = [...inFlight.values()];
      if (pending.length === 0) return;
      let deadline: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<'expired'>((resolve) => {
        deadline = setTimeout(() => resolve('expired'), deadlineMs);
      });
      const outcome = await Promise.race([Promise.allSettled(pending), expired]);
      clearTimeout(deadline);
      if (outcome === 'expired') {
        abandon.abort(new Error('the guardian stopped: run abandoned'));
        // Abandoned runs never submit; give their checks a moment to notice the abort, no more.
        let grace: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          Promise.allSettled(pending),
          new Promise((resolve) => {
            grace = setTimeout(resolve, Math.max(deadlineMs, 1000));
          }),
        ]);
        clearTimeout(grace);
      }
    },
  };
}
