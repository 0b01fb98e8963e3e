import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration';
import { GuardianSdkError } from './guardian-sdk-error';
import { parseCron, scheduleFromGuard } from './schedule';

describe('schedules and durations', () => {
  it('computes the next cron time in UTC', () => {
    const at = (s: string) => new Date(s);
    expect(parseCron('*/15 * * * *').next(at('2026-01-01T00:07:30Z')).toISOString()).toBe(
      '2026-01-01T00:15:00.000Z',
    );
    expect(parseCron('0 3 * * 1').next(at('2026-01-01T00:00:00Z')).toISOString()).toBe(
      '2026-01-05T03:00:00.000Z',
    );
    expect(parseCron('30 12 1 */3 *').next(at('2026-01-02T00:00:00Z')).toISOString()).toBe(
      '2026-04-01T12:30:00.000Z',
    );
    expect(() => parseCron('* * *')).toThrow(/5 fields/);
    expect(() => parseCron('61 * * * *')).toThrow(/Invalid value for minute: 61/);
    expect(() => parseCron('0 0 31 2 *').next(new Date())).toThrow(/never matches/);
    // Cron's rule, kept with croner: day-of-month and day-of-week both restricted, either matches.
    expect(parseCron('0 0 1 * 1').next(at('2026-01-02T00:00:00Z')).toISOString()).toBe(
      '2026-01-05T00:00:00.000Z',
    );
    expect(parseCron('0 9 * * MON-FRI').next(at('2026-01-03T12:00:00Z')).toISOString()).toBe(
      '2026-01-05T09:00:00.000Z',
    );
    // Classic cron only: croner's seconds and years fields are refused.
    expect(() => parseCron('0 0 0 * * *')).toThrow(/5 fields/);
    try {
      parseCron('x * * * *');
      expect.unreachable();
    } catch (error) {
      expect(GuardianSdkError.isInstance(error) && error.code).toBe('invalid_schedule');
    }
  });

  it('reads monitoringResultScheduling', () => {
    expect(scheduleFromGuard(undefined)).toBeUndefined();
    expect(scheduleFromGuard({ cron: '0 * * * *' })).toEqual({ cron: '0 * * * *' });
    expect(scheduleFromGuard({ interval: '10m' })).toEqual({ intervalMs: 600_000 });
    expect(scheduleFromGuard('PT1H')).toEqual({ intervalMs: 3_600_000 });
    expect(scheduleFromGuard({ intervalSeconds: 30 })).toEqual({ intervalMs: 30_000 });
    expect(() => scheduleFromGuard({ cron: 'x' })).toThrow(/cannot read the schedule/);
    expect(() => scheduleFromGuard([1])).toThrow(/monitoringResultScheduling/);
  });

  it('parses and formats durations', () => {
    expect(parseDuration('2 hours')).toBe(7_200_000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('P1DT2H')).toBe(93_600_000);
    expect(parseDuration(4, 'd')).toBe(345_600_000);
    expect(parseDuration('soon')).toBeUndefined();
    expect(parseDuration('1', 'fortnight')).toBeUndefined();
    expect(formatDuration(18_180_000)).toBe('5 h 3 min');
  });
});
