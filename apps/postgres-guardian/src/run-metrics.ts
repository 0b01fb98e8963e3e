import { RUN_OUTCOMES, type RunReport } from '@dcg/guardian-sdk';
import type { ServiceMetrics } from '@dcg/http-kit';

/**
 * The guardian's run metrics on `metrics`: `guardian_runs_total{outcome}` (compliant, violated,
 * could_not_run: nothing sent, the reason is logged; abandoned) and
 * `guardian_run_duration_seconds{outcome}` (one contract check, submission included). Answers the
 * `onRunEnd` hook that records a run.
 *
 * @example
 * const recordRun = guardianRunMetrics(metrics);
 * startGuardian({ hooks: { onRunEnd: recordRun } });
 */
export function guardianRunMetrics(metrics: ServiceMetrics): (report: RunReport) => void {
  const runs = metrics.timedEvents({
    total: ['guardian_runs_total', 'Contract checks finished, by outcome'],
    duration: [
      'guardian_run_duration_seconds',
      'Time of one contract check, submission included, by outcome',
    ],
    labels: ['outcome'],
    // A check runs queries against a live database: up to its statement timeout and beyond.
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  });
  // Every outcome has a series from the first scrape on.
  for (const outcome of RUN_OUTCOMES) runs.total.inc({ outcome }, 0);
  return (report) => runs.record({ outcome: report.outcome }, report.durationMs / 1000);
}
