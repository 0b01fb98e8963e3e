import { Cron } from 'croner';
import { parseDuration } from './duration';
import { GuardianSdkError } from './guardian-sdk-error';

/** When a contract is checked: every `intervalMs`, or at the times of a 5-field cron expression (UTC). */
export type Schedule = { intervalMs: number } | { cron: string };

/** A parsed cron expression: `next(after)` is the first matching minute after `after` (UTC). */
export interface CronExpression {
  next(after: Date): Date;
}

/**
 * Parses a 5-field cron expression (`minute hour day-of-month month day-of-week`, UTC; `*`,
 * lists, ranges, steps and names such as `MON`), with croner, the cron library kg-api uses too.
 * Throws `GuardianSdkError` `invalid_schedule` saying what is wrong.
 *
 * @example
 * parseCron('*\/15 * * * *').next(new Date('2026-01-01T00:07:00Z')); // 2026-01-01T00:15:00Z
 */
export function parseCron(expression: string): CronExpression {
  const text = expression.trim();
  // croner also reads 6 and 7 fields (seconds, years): a guard's schedule is classic cron.
  if (text.split(/\s+/).length !== 5) {
    throw new GuardianSdkError(
      'invalid_schedule',
      `a cron expression has 5 fields (minute hour day-of-month month day-of-week): "${expression.slice(0, 80)}"`,
    );
  }
  let cron: Cron;
  try {
    // Paused, no function: only computes times. legacyMode: when day-of-month and day-of-week
    // are both restricted, either may match (cron's rule).
    cron = new Cron(text, { paused: true, timezone: 'Etc/UTC', legacyMode: true });
  } catch (error) {
    throw new GuardianSdkError(
      'invalid_schedule',
      `cron "${expression.slice(0, 80)}": ${(error as Error).message}`,
    );
  }
  return {
    next(after) {
      const next = cron.nextRun(after);
      if (next === null) {
        throw new GuardianSdkError('invalid_schedule', `cron "${expression}" never matches`);
      }
      return next;
    },
  };
}

/**
 * The schedule a guard's `monitoringResultScheduling` asks for, or `undefined` when it names none.
 * Read: a string (a cron expression, or a duration such as `15m`), or an object with `cron` /
 * `cronExpression` (string) or `interval` / `every` (duration) or `intervalSeconds` /
 * `intervalMinutes` (number). Throws `invalid_schedule` for a value it cannot read.
 *
 * @example
 * scheduleFromGuard({ cron: '0 * * * *' }); // { cron: '0 * * * *' }
 * scheduleFromGuard({ interval: '10m' }); // { intervalMs: 600000 }
 */
export function scheduleFromGuard(value: unknown): Schedule | undefined {
  if (value === undefined || value === null) return undefined;
  const fromText = (text: string): Schedule => {
    if (text.trim().split(/\s+/).length === 5) {
      parseCron(text);
      return { cron: text.trim() };
    }
    const ms = parseDuration(text);
    if (ms === undefined || ms < 1000) {
      throw new GuardianSdkError(
        'invalid_schedule',
        `cannot read the schedule "${text.slice(0, 80)}"`,
      );
    }
    return { intervalMs: ms };
  };
  if (typeof value === 'string') return fromText(value);
  if (typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const cron = record.cron ?? record.cronExpression;
    if (typeof cron === 'string') return fromText(cron);
    const interval = record.interval ?? record.every;
    if (typeof interval === 'string') return fromText(interval);
    for (const [key, unit] of [
      ['intervalSeconds', 's'],
      ['intervalMinutes', 'm'],
    ] as const) {
      const n = record[key];
      if (typeof n === 'number' && n > 0) return { intervalMs: parseDuration(n, unit) as number };
    }
    if (Object.keys(record).length === 0) return undefined;
  }
  throw new GuardianSdkError(
    'invalid_schedule',
    `cannot read monitoringResultScheduling ${JSON.stringify(value).slice(0, 120)}`,
  );
}

/** Milliseconds from `now` to the next run of `schedule` (an interval counts from `now`). */
export function delayUntilNext(schedule: Schedule, now: Date): number {
  if ('intervalMs' in schedule) return schedule.intervalMs;
  return parseCron(schedule.cron).next(now).getTime() - now.getTime();
}
