import { RUN_OUTCOMES, type RunReport } from '@dcg/guardian-sdk';
import { ServiceMetrics } from '@dcg/http-kit';
import { guardianRunMetrics } from '../run-metrics';

/**
 * A `/metrics` scrape of postgres-guardian's registry (process metrics, build info and run
 * metrics) after one run of each outcome, so that every family has samples.
 *
 * @example
 * const text = await postgresGuardianScrape();
 */
export async function postgresGuardianScrape(): Promise<string> {
  const metrics = new ServiceMetrics({ service: 'postgres-guardian' });
  metrics.buildInfo({ version: '0.0.0-test' });
  const recordRun = guardianRunMetrics(metrics);
  RUN_OUTCOMES.forEach((outcome, i) => {
    const report: RunReport = {
      resourceId: 'urn:dmb:dp:orders:0',
      policyId: 'orders-freshness',
      environment: 'production',
      outcome,
      startedAt: new Date(),
      durationMs: 40 * (i + 1),
      checksMs: 30 * (i + 1),
      submitMs: 10 * (i + 1),
      violations: outcome === 'violated' ? 1 : 0,
      notChecked: 0,
      warnings: 0,
    };
    recordRun(report);
  });
  const app = metrics.routes({ config: { enabled: true, requireKey: false }, keys: [] });
  const response = await app.request('/metrics');
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  return await response.text();
}
