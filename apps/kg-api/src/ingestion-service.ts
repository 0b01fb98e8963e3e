import type { Logger } from '@dcg/http-kit';
import {
  type GraphInfo,
  type KnowledgeBase,
  KnowledgeGraphError,
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
  readonly #options: { timeoutMs: number; maxBytes: number };
  readonly #logger: Logger;
  readonly #running = new Map<string, Promise<GraphInfo>>();

  constructor(kb: KnowledgeBase, options: { timeoutMs: number; maxBytes: number }, logger: Logger) {
    this.#kb = kb;
    this.#options = options;
    this.#logger = logger;
  }

  /** Pulls `sourceId` now and replaces its graph. */
  pull(sourceId: string): Promise<GraphInfo> {
    const running = this.#running.get(sourceId);
    if (running) return running;
    const task = (async () => {
      const source = this.#kb.source(sourceId);
      const started = performance.now();
      const quads = await pullSourceGraph(source, this.#options);
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
