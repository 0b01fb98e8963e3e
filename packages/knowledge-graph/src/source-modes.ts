import { KnowledgeGraphError } from './errors';
import type { SourceConfig } from './source-config';

/**
 * A source takes graphs (uploads and pulls) only when its ingestion mode is enabled:
 * `ingestion_disabled` otherwise.
 *
 * @example
 * requireIngestion(kb.source('thesaurus')); // throws when only passthrough is enabled
 */
export function requireIngestion(source: SourceConfig): void {
  if (!source.modes.ingestion.enabled) {
    throw new KnowledgeGraphError(
      'ingestion_disabled',
      `ingestion is not enabled for source "${source.id}"`,
    );
  }
}
