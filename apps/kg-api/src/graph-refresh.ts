import type { Logger } from '@dcg/http-kit';
import type { KnowledgeBase } from '@dcg/knowledge-graph';

/**
 * Every `intervalMs`, loads the graphs that other instances sharing this one's storage saved
 * (`KnowledgeBase.refresh`); one refresh at a time, a failure logged and retried at the next
 * tick (reads go on from memory). Returns the function that stops it.
 *
 * @example
 * const stop = refreshSharedGraphs(kb, 2_000, logger);
 */
export function refreshSharedGraphs(
  kb: KnowledgeBase,
  intervalMs: number,
  logger: Logger,
): () => void {
  if (intervalMs === 0) return () => undefined;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    kb.refresh()
      .catch((error: unknown) =>
        logger.warn('could not look for graphs saved by other instances', {
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
