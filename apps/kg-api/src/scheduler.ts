import type { Logger } from '@dcg/http-kit';
import { type SourceConfig, type SourceIngestion, scheduledSources } from '@dcg/knowledge-graph';
import { Cron } from 'croner';

/**
 * Pulls every source that `@dcg/knowledge-graph`'s `scheduledSources` schedules (cron, UTC, in
 * `modes.ingestion.schedule`) on its schedule, and once at start when it has no graph yet (rather
 * than waiting hours for the first run). A run that is still going when the next is due is
 * skipped (`protect`). Returns a function that stops all.
 *
 * @example
 * const stop = scheduleIngestion(config.sources, ingestion, logger, (id) => kb.graphInfo(id).triples > 0);
 * stop();
 */
export function scheduleIngestion(
  sources: readonly SourceConfig[],
  ingestion: Pick<SourceIngestion, 'pull'>,
  logger: Logger,
  hasGraph: (sourceId: string) => boolean = () => true,
): () => void {
  const jobs: Cron[] = [];
  const { scheduled, unschedulable } = scheduledSources(sources);
  for (const sourceId of unschedulable) {
    logger.warn('source has a schedule but no baseUrl; not scheduled', { sourceId });
  }
  for (const { sourceId, schedule } of scheduled) {
    const job = new Cron(
      schedule,
      { protect: true, timezone: 'UTC', name: `ingest:${sourceId}` },
      async () => {
        // Failures are logged by the ingestion; the next run tries again.
        await ingestion.pull(sourceId).catch(() => undefined);
      },
    );
    jobs.push(job);
    if (!hasGraph(sourceId)) {
      // Failures are logged by the ingestion; the schedule tries again.
      void ingestion.pull(sourceId).catch(() => undefined);
    }
    logger.info('ingestion scheduled', {
      sourceId,
      schedule,
      next: job.nextRun()?.toISOString(),
    });
  }
  return () => {
    for (const job of jobs) job.stop();
  };
}
