import type { Logger } from '@dcg/http-kit';
import type { SourceConfig } from '@dcg/knowledge-graph';
import { Cron } from 'croner';
import type { IngestionService } from './ingestion-service';

/**
 * Pulls every source that has `modes.ingestion.schedule` (cron, UTC) on its schedule, and once
 * at start when it has no graph yet (rather than waiting hours for the first run). A run that is
 * still going when the next is due is skipped (`protect`). Returns a function that stops all.
 *
 * @example
 * const stop = scheduleIngestion(config.sources, ingestion, logger, (id) => kb.graphInfo(id).triples > 0);
 * stop();
 */
export function scheduleIngestion(
  sources: readonly SourceConfig[],
  ingestion: IngestionService,
  logger: Logger,
  hasGraph: (sourceId: string) => boolean = () => true,
): () => void {
  const jobs: Cron[] = [];
  for (const source of sources) {
    const schedule = source.modes.ingestion.schedule;
    if (!source.modes.ingestion.enabled || !schedule) continue;
    if (!source.baseUrl) {
      logger.warn('source has a schedule but no baseUrl; not scheduled', { sourceId: source.id });
      continue;
    }
    jobs.push(
      new Cron(
        schedule,
        { protect: true, timezone: 'UTC', name: `ingest:${source.id}` },
        async () => {
          // Failures are logged by the ingestion service; the next run tries again.
          await ingestion.pull(source.id).catch(() => undefined);
        },
      ),
    );
    if (!hasGraph(source.id)) {
      // Failures are logged by the ingestion service; the schedule tries again.
      void ingestion.pull(source.id).catch(() => undefined);
    }
    logger.info('ingestion scheduled', {
      sourceId: source.id,
      schedule,
      next: jobs.at(-1)?.nextRun()?.toISOString(),
    });
  }
  return () => {
    for (const job of jobs) job.stop();
  };
}
