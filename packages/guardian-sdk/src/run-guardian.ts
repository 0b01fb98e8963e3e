import type { EvaluationResultSubmission, ValidationRecord } from '@dcg/contract-schema';
import type { DataContract } from './data-contract';
import type { SubmissionReceipt, SubmitInput } from './governance-client';
import type { GuardedContract, GuardedPart } from './guarded-contracts';
import { buildSubmission, requirement, requirementsOf } from './result-builder';
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
 * A check that throws becomes a violated requirement carrying the error; the run goes on.
 */
export type Check = ((
  context: CheckContext,
) => ValidationRecord | ValidationRecord[] | Promise<ValidationRecord | ValidationRecord[]>) & {
  checkName?: string;
};

/**
 * Names a check: the name is the key of the requirement reported when it throws (otherwise the
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

/** The outcome of one run of one contract. */
export interface RunReport {
  resourceId: string;
  policyId: string;
  environment: string;
  outcome: 'compliant' | 'violated' | 'error' | 'abandoned';
  startedAt: Date;
  durationMs: number;
  /** Time spent inside the checks. */
  checksMs: number;
  /** Time spent submitting. */
  submitMs: number;
  /** Failing requirements. */
  violations: number;
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
  errors: number;
  /** 0 all compliant, 1 some violated, 2 some could not run (or nothing to check). */
  exitCode: 0 | 1 | 2;
}

/** A started guardian. */
export interface RunningGuardian {
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

function checkName(check: Check, index: number): string {
  if (check.checkName) return check.checkName;
  return check.name && check.name !== 'anonymous' ? check.name : `check_${index + 1}`;
}

const DEFAULT_SCHEDULE: Schedule = { intervalMs: 5 * 60_000 };

/**
 * Runs a guardian: each monitored contract is checked on its schedule (the guard's
 * `monitoringResultScheduling` when present, otherwise `schedule`), with jitter, never twice at
 * once; each run's records are built into an A3 submission and sent. A check that throws becomes
 * a violated requirement. Runtime-neutral: signals and exit codes are in `@dcg/guardian-sdk/node`.
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
      const name = checkName(check, index);
      try {
        const out = await check({ target, part, contract: part.contract, signal: abandon.signal });
        records.push(...(Array.isArray(out) ? out : [out]));
      } catch (error) {
        records.push(
          requirement(name, name).violated(
            `the check ${name} could not run: ${(error as Error)?.message ?? String(error)}`,
          ),
        );
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
    let report: RunReport;
    try {
      const results: Record<string, ValidationRecord[]> = {};
      for (const part of target.parts) results[part.key] = await checkPart(target, part);
      checksMs = performance.now() - t0;
      if (abandon.signal.aborted) {
        report = {
          ...base,
          outcome: 'abandoned',
          durationMs: performance.now() - t0,
          checksMs,
          submitMs,
          violations: 0,
        };
      } else {
        const body = buildSubmission({
          resource: { id: target.resourceId, displayName: target.displayName },
          results,
        });
        const violations = requirementsOf(Object.values(results).flat()).filter(
          (r) => r.compliant === false,
        ).length;
        const s0 = performance.now();
        await options.client.submit({
          policyId: target.policyId,
          environment: target.environment,
          body,
          signal: abandon.signal,
        });
        submitMs = performance.now() - s0;
        report = {
          ...base,
          outcome: body[0]?.result.satisfiesPolicy ? 'compliant' : 'violated',
          durationMs: performance.now() - t0,
          checksMs,
          submitMs,
          violations,
          body,
        };
      }
    } catch (error) {
      report = {
        ...base,
        outcome: abandon.signal.aborted ? 'abandoned' : 'error',
        durationMs: performance.now() - t0,
        checksMs,
        submitMs,
        violations: 0,
        error,
      };
      if (!abandon.signal.aborted) {
        hooks.log?.('error', 'guardian run failed', {
          resourceId: target.resourceId,
          error: (error as Error)?.message ?? String(error),
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
        const scheduled = options.scheduled ?? true;
        if (scheduled) timer = setTimeout(tick, 0);
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

  const scheduled = options.scheduled ?? true;
  if (scheduled) timer = setTimeout(tick, 0);

  return {
    get running() {
      return inFlight.size;
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
      const compliant = reports.filter((r) => r.outcome === 'compliant').length;
      const violated = reports.filter((r) => r.outcome === 'violated').length;
      const errors = reports.length - compliant - violated;
      return {
        reports,
        compliant,
        violated,
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
