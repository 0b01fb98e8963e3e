import { KnowledgeGraphError } from './errors';
import type { GraphInfo, KnowledgeBase } from './knowledge-base';
import { type PullOptions, pullSourceGraph } from './pull-graph';
import type { SourceConfig } from './source-config';

/** Where {@link SourceIngestion} reports what it did (the structured logger of an app fits). */
export interface IngestionLog {
  info(message: string, fields: Record<string, unknown>): void;
  warn(message: string, fields: Record<string, unknown>): void;
}

/**
 * Pulls sources' graphs from their adapters into the knowledge base (on demand and on schedule).
 * Two pulls of the same source at once share one run; a pull that brings no triples changes
 * nothing (`upstream_malformed`): an adapter that answers `{}` must not wipe the graph it serves.
 *
 * @example
 * const ingestion = new SourceIngestion(kb, { timeoutMs: 120_000, maxBytes: 512 * 2 ** 20 }, logger);
 * await ingestion.pull('demo');
 */
export class SourceIngestion {
  readonly #kb: KnowledgeBase;
  readonly #options: PullOptions;
  readonly #log: IngestionLog;
  readonly #running = new Map<string, Promise<GraphInfo>>();

  constructor(kb: KnowledgeBase, options: PullOptions, log: IngestionLog) {
    this.#kb = kb;
    this.#options = options;
    this.#log = log;
  }

  /** Pulls from upstream sources in progress now. */
  get running(): number {
    return this.#running.size;
  }

  /** Pulls `sourceId` now and replaces its graph; joins the pull of that source in progress. */
  pull(sourceId: string): Promise<GraphInfo> {
    const running = this.#running.get(sourceId);
    if (running) return running;
    const task = this.#pullNow(sourceId);
    this.#running.set(sourceId, task);
    void task
      .catch((error) => {
        this.#log.warn('source ingestion failed', {
          sourceId,
          code: KnowledgeGraphError.isInstance(error) ? error.code : undefined,
          error: error instanceof Error ? error.message : String(error),
        });
      })
      .finally(() => this.#running.delete(sourceId));
    return task;
  }

  async #pullNow(sourceId: string): Promise<GraphInfo> {
    const source = this.#kb.source(sourceId);
    const started = performance.now();
    const quads = await pullSourceGraph(source, this.#options);
    if (quads.length === 0)
      throw new KnowledgeGraphError(
        'upstream_malformed',
        `source "${sourceId}" sent a graph with no triples; nothing was changed (remove the graph to empty it)`,
      );
    const info = await this.#kb.replaceGraph(sourceId, quads);
    this.#log.info('source ingested', {
      sourceId,
      triples: info.triples,
      durationMs: Math.round(performance.now() - started),
    });
    return info;
  }
}

/**
 * The sources pulled on a schedule: ingestion enabled, a `schedule`, and a `baseUrl` to pull
 * from. A source with a schedule but no `baseUrl` is `unschedulable` (its graph is uploaded).
 *
 * @example
 * const { scheduled, unschedulable } = scheduledSources(config.sources);
 */
export function scheduledSources(sources: readonly SourceConfig[]): {
  scheduled: Array<{ sourceId: string; schedule: string }>;
  unschedulable: string[];
} {
  const scheduled: Array<{ sourceId: string; schedule: string }> = [];
  const unschedulable: string[] = [];
  for (const source of sources) {
    const schedule = source.modes.ingestion.schedule;
    if (!source.modes.ingestion.enabled || !schedule) continue;
    if (source.baseUrl) scheduled.push({ sourceId: source.id, schedule });
    else unschedulable.push(source.id);
  }
  return { scheduled, unschedulable };
}
