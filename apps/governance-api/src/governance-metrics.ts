import { type ComplianceState, ComplianceStateSchema } from '@dcg/contract-schema';
import type { CurrentResultSummary, Governance } from '@dcg/governance';
import { packageVersion, type ServiceMetrics } from '@dcg/http-kit';
import type { MarketplaceSearch } from '@dcg/marketplace-search';

const SCRAPE_READ_TIMEOUT_MS = 2_000;
/** One scrape reads the summary once for the two gauges built on it. */
const SUMMARY_REUSE_MS = 1_000;

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A gauge's value, or no sample when it could not be read. */
const valueOrNothing = (value: number | undefined) =>
  value === undefined ? [] : [{ labels: {}, value }];

/**
 * What the routes report to the metrics.
 *
 * @example
 * recorder.resultAccepted('violated');
 */
export interface GovernanceMetricsRecorder {
  /** A guardian's evaluation result was stored, in this state. */
  resultAccepted(state: ComplianceState): void;
}

/**
 * Registers the governance metrics on the app's registry (see the README's metrics section):
 * build info, store health, plans in progress and provisioning outcomes, evaluation results
 * received by outcome, data contracts per compliance state (and the time of the newest result)
 * per environment and policy, read from the store at scrape time, and the embedding queue and jobs.
 * Call once per registry.
 *
 * @example
 * const recorder = registerGovernanceMetrics(metrics, { governance, marketplaceSearch });
 */
export function registerGovernanceMetrics(
  metrics: ServiceMetrics,
  deps: { governance: Governance; marketplaceSearch?: MarketplaceSearch | undefined },
): GovernanceMetricsRecorder {
  const { governance } = deps;
  const { store } = governance;
  metrics.buildInfo({ version: packageVersion(new URL('../package.json', import.meta.url)) });
  metrics.gauge(
    'dcg_store_up',
    'The store answers a ping (1) or not (0)',
    ['storage'],
    async () => {
      const up = await withTimeout(store.ping(), SCRAPE_READ_TIMEOUT_MS).then(
        () => 1,
        () => 0,
      );
      return [{ labels: { storage: store.kind }, value: up }];
    },
  );
  // The provisioning queue: plans accepted and not finished (a count query at scrape time).
  // A store that does not answer leaves it out rather than failing the whole scrape (which would
  // hide dcg_store_up 0, the one series that says why).
  metrics.gauge('governance_plans_running', 'Provisioning plans in progress', [], async () => {
    const page = await withTimeout(
      governance.coordinator.listPlans({ status: 'running', limit: 1, offset: 0 }),
      SCRAPE_READ_TIMEOUT_MS,
    ).catch(() => undefined);
    return valueOrNothing(page?.meta.pagination.total);
  });
  const provisioned = metrics.counter(
    'governance_provisioning_completed_total',
    'Systems deployed or undeployed by the provisioning coordinator',
    ['event', 'environment'],
  );
  governance.events.on('system.deployed', (e) =>
    provisioned.inc({ event: 'deployed', environment: e.environment }),
  );
  governance.events.on('system.undeployed', (e) =>
    provisioned.inc({ event: 'undeployed', environment: e.environment }),
  );

  const received = metrics.counter(
    'governance_evaluation_results_total',
    'Evaluation results stored, by outcome (compliant, violated, unprocessable: cannot be processed)',
    ['outcome'],
  );
  // Every outcome from zero, so that rate() and alerts see a series before the first result.
  for (const outcome of ComplianceStateSchema.options) received.inc({ outcome }, 0);

  // One grouped read of the current pointers (rows: environments x policies x states), shared
  // by the two gauges of a scrape; a scrape that cannot read it reports neither (not zeros).
  let summary: { at: number; rows: Promise<CurrentResultSummary[]> } | undefined;
  const readSummary = () => {
    const at = Date.now();
    if (!summary || at - summary.at > SUMMARY_REUSE_MS) {
      summary = {
        at,
        rows: withTimeout(store.summarizeCurrentResults(), SCRAPE_READ_TIMEOUT_MS),
      };
      summary.rows.catch(() => {
        summary = undefined;
      });
    }
    // A failed read leaves the series out of this scrape (not zeros, not a failed scrape).
    return summary.rows.catch((): CurrentResultSummary[] => []);
  };
  metrics.gauge(
    'governance_contracts',
    'Data contracts whose current result under the policy in the environment is in this compliance state',
    ['environment', 'policy', 'state'],
    async () =>
      (await readSummary()).map((row) => ({
        labels: { environment: row.environment, policy: row.policyId, state: row.status },
        value: row.contracts,
      })),
  );
  metrics.gauge(
    'governance_last_result_timestamp_seconds',
    'When the newest current evaluation result of the policy in the environment arrived (Unix seconds): a guardian that stops reporting leaves it behind',
    ['environment', 'policy'],
    async () => {
      const newest = new Map<string, { environment: string; policy: string; at: number }>();
      for (const row of await readSummary()) {
        const at = Date.parse(row.lastReceivedAt) / 1000;
        if (!Number.isFinite(at)) continue;
        const key = `${row.environment}\u0000${row.policyId}`;
        const seen = newest.get(key);
        if (!seen || seen.at < at)
          newest.set(key, { environment: row.environment, policy: row.policyId, at });
      }
      return [...newest.values()].map(({ environment, policy, at }) => ({
        labels: { environment, policy },
        value: at,
      }));
    },
  );

  const search = deps.marketplaceSearch;
  if (search) {
    let status: { at: number; value: ReturnType<MarketplaceSearch['status']> } | undefined;
    const readStatus = () => {
      const at = Date.now();
      if (!status || at - status.at > SUMMARY_REUSE_MS) {
        status = { at, value: withTimeout(search.status(), SCRAPE_READ_TIMEOUT_MS) };
        status.value.catch(() => {
          status = undefined;
        });
      }
      return status.value.catch(() => undefined);
    };
    metrics.gauge(
      'governance_embeddings_pending',
      'Marketplace instances waiting for their embedding (the embedding queue depth)',
      [],
      async () => valueOrNothing((await readStatus())?.pending),
    );
    metrics.gauge(
      'governance_embeddings_embedded',
      'Marketplace instances with an embedding of the configured model',
      [],
      async () => valueOrNothing((await readStatus())?.embedded),
    );
    metrics.gauge(
      'governance_embedding_jobs_running',
      'Embedding jobs (rebuilds) running now',
      [],
      async () => valueOrNothing((await readStatus())?.runningJobs.length),
    );
    const jobs = metrics.timedEvents({
      total: [
        'governance_embedding_jobs_total',
        'Embedding jobs (rebuilds) this instance finished, by status (completed, failed)',
      ],
      duration: [
        'governance_embedding_job_duration_seconds',
        'Time from the start of an embedding job to its end, by status',
      ],
      labels: ['status'],
      buckets: [1, 5, 15, 60, 300, 900, 1800, 3600, 7200],
    });
    for (const status of ['completed', 'failed']) jobs.total.inc({ status }, 0);
    search.onJobFinished((job) => {
      const seconds = (Date.parse(job.finishedAt ?? '') - Date.parse(job.startedAt)) / 1000;
      // A job whose times do not read counts, untimed.
      if (Number.isFinite(seconds) && seconds >= 0) jobs.record({ status: job.status }, seconds);
      else jobs.total.inc({ status: job.status });
    });
  }
  return { resultAccepted: (state) => received.inc({ outcome: state }) };
}
