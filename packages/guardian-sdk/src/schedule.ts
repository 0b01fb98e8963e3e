import { parseDuration } from './duration';
import { GuardianSdkError } from './guardian-sdk-error';

/** When a contract is checked: every `intervalMs`, or at the times of a 5-field cron expression (UTC). */
export type Schedule = { intervalMs: number } | { cron: string };

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const;

function parseField(text: string, field: (typeof FIELDS)[number]): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) throw new Error(`cannot read the ${field.name} "${part}"`);
    const [, all, from, to, step] = match;
    const low = all === '*' ? field.min : Number(from);
    const high = all === '*' ? field.max : to !== undefined ? Number(to) : step ? field.max : low;
    const by = step ? Number(step) : 1;
    if (low < field.min || high > field.max || low > high || by < 1) {
      throw new Error(`the ${field.name} "${part}" is out of range ${field.min}-${field.max}`);
    }
    for (let v = low; v <= high; v += by)
      values.add(field.name === 'day of week' && v === 7 ? 0 : v);
  }
  return values;
}

/** A parsed cron expression: `next(after)` is the first matching minute after `after` (UTC). */
export interface CronExpression {
  next(after: Date): Date;
}

/**
 * Parses a 5-field cron expression (`minute hour day-of-month month day-of-week`, UTC; `*`,
 * lists, ranges and steps). Throws `GuardianSdkError` `invalid_schedule` naming the bad field.
 *
 * @example
 * parseCron('*\/15 * * * *').next(new Date('2026-01-01T00:07:00Z')); // 2026-01-01T00:15:00Z
 */
export function parseCron(expression: string): CronExpression {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) {
    throw new GuardianSdkError(
      'invalid_schedule',
      `a cron expression has 5 fields (minute hour day-of-month month day-of-week): "${expression.slice(0, 80)}"`,
    );
  }
  let sets: Set<number>[];
  try {
    sets = parts.map((part, i) => parseField(part, FIELDS[i] as (typeof FIELDS)[number]));
  } catch (error) {
    throw new GuardianSdkError(
      'invalid_schedule',
      `cron "${expression}": ${(error as Error).message}`,
    );
  }
  const [minutes, hours, days, months, weekdays] = sets as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  const anyDay = parts[2] === '*';
  const anyWeekday = parts[4] === '*';
  const dayMatches = (d: Date) => {
    const dom = days.has(d.getUTCDate());
    const dow = weekdays.has(d.getUTCDay());
    // Cron's rule: when both are restricted, either may match.
    if (anyDay) return dow;
    if (anyWeekday) return dom;
    return dom || dow;
  };
  return {
    next(after) {
      const t = new Date(after.getTime());
      t.setUTCSeconds(0, 0);
      t.setUTCMinutes(t.getUTCMinutes() + 1);
      const limit = after.getTime() + 5 * 366 * 86_400_000;
      while (t.getTime() <= limit) {
        if (!months.has(t.getUTCMonth() + 1)) {
          t.setUTCMonth(t.getUTCMonth() + 1, 1);
          t.setUTCHours(0, 0);
        } else if (!dayMatches(t)) {
          t.setUTCDate(t.getUTCDate() + 1);
          t.setUTCHours(0, 0);
        } else if (!hours.has(t.getUTCHours())) {
          t.setUTCHours(t.getUTCHours() + 1, 0);
        } else if (!minutes.has(t.getUTCMinutes())) {
          t.setUTCMinutes(t.getUTCMinutes() + 1);
        } else return t;
      }
      throw new GuardianSdkError('invalid_schedule', `cron "${expression}" never matches`);
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
