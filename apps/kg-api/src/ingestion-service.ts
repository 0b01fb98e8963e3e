import type { Logger } from '@dcg/http-kit';
import {
  type GraphInfo,
  type KnowledgeBase,
  KnowledgeGraphError,
  type PullOptions,
  pullSourceGraph,
} from '@dcg/knowledge-graph';

/**
 * Pulls sources' graphs from their adapters into the knowledge base (on demand and on schedule).
 * Two pulls of the same source at once share one run.
 *
 * @example
 * const ingestion = new IngestionService(kb, { timeoutMs: 120_000, maxBytes: 512 * 2 ** 20 }, logger);
 * await ingestion.pull('demo');
 */
export class IngestionService {
  readonly #kb: KnowledgeBase;
  readonly #options: PullOptions;
  readonly #logger: Logger;
  readonly #running = new Map<string, Promise<GraphInfo>>();

  constructor(kb: KnowledgeBase, options: PullOptions, logger: Logger) {
    this.#kb = kb;
    this.#options = options;
    this.#logger = logger;
  }

  /** Pulls from upstream sources in progress now (the `kg_pulls_running` metric). */
  get running(): number {
    return this.#running.size;
  }

  /** Pulls `sourceId` now and replaces its graph. */
  pull(sourceId: string): Promise<GraphInfo> {
    const running = this.#running.get(sourceId);
    if (running) return running;
    const task = (async () => {
      const source = this.#kb.source(sourceId);
      const started = performance.now();
      const quads = await pullSourceGraph(source, this.#options);
      if (quads.length === 0)
        // An adapter that answers `{}` or `null` must not wipe the graph it serves.
        throw new KnowledgeGraphError(
          'UPSTREAM_MALFORMED',
          `source "${sourceId}" sent a graph with no triples; nothing was changed (DELETE the graph to empty it)`,
        );
      const info = await this.#kb.replaceGraph(sourceId, quads);
      this.#logger.info('source ingested', {
        sourceId,
        triples: info.triples,
        durationMs: Math.round(performance.now() - started),
      });
      return info;
    })();
    this.#running.set(sourceId, task);
    void task
      .catch((error) => {
        this.#logger.warn('source ingestion failed', {
          sourceId,
          code: KnowledgeGraphError.is(error) ? error.code : undefined,
          error: error instanceof Error ? error.message : String(error),
        });
      })
      .finally(() => this.#running.delete(sourceId));
    return task;
  }
}
