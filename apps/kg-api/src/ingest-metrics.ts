import { ProblemError, type ServiceMetrics } from '@dcg/http-kit';
import { KnowledgeGraphError } from '@dcg/knowledge-graph';

/** How a graph came in: a pull asked over the API, a scheduled pull, or an upload. */
export type IngestMode = 'pull' | 'scheduled_pull' | 'upload';

const INGEST_DURATION_HELP =
  'Time of a graph ingest, from the request or the schedule to the stored graph, by source, mode and outcome';

/** Seconds, from a small upload to the longest pull (`ingestion.pullTimeoutMs` allows 10 min). */
const INGEST_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/**
 * Ingests per source, mode and outcome, with their duration: `kg_ingests_total` and
 * `kg_ingest_duration_seconds`. The outcome is `ok`, the knowledge-graph error code
 * (`upstream_timeout`, `upstream_malformed`, `document_too_costly`, …), `rejected` (a client
 * error such as an RDF syntax error) or `error`. Only configured sources are counted, so the
 * series stay bounded whatever ids clients send (an unknown one is a 404 in the HTTP metrics).
 *
 * @example
 * const ingests = new IngestMetrics(metrics, () => kb.sources().map((s) => s.id));
 * await ingests.track('vocab', 'upload', () => kb.replaceGraph('vocab', quads));
 */
export class IngestMetrics {
  readonly #ingests;
  readonly #sourceIds: () => readonly string[];

  constructor(metrics: ServiceMetrics, sourceIds: () => readonly string[]) {
    this.#sourceIds = sourceIds;
    this.#ingests = metrics.timedEvents({
      labels: ['source', 'mode', 'outcome'],
      buckets: INGEST_BUCKETS,
      total: ['kg_ingests_total', 'Graph ingests (pulls and uploads) by source, mode and outcome'],
      duration: ['kg_ingest_duration_seconds', INGEST_DURATION_HELP],
    });
  }

  /** Runs `ingest` and counts it (when the source is configured); its result or error passes on. */
  async track<T>(sourceId: string, mode: IngestMode, ingest: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let outcome = 'ok';
    try {
      return await ingest();
    } catch (error) {
      outcome = KnowledgeGraphError.isInstance(error)
        ? error.code
        : ProblemError.isInstance(error)
          ? 'rejected'
          : 'error';
      throw error;
    } finally {
      if (this.#sourceIds().includes(sourceId)) {
        const labels = { source: sourceId, mode, outcome };
        this.#ingests.record(labels, (performance.now() - started) / 1000);
      }
    }
  }
}
