import type { SearchIndexData } from './search/search-index-data';
import type { TripleStore } from './store/triple-store';

/** A source's stored graph, as {@link GraphPersistence.load} gives it back. */
export interface StoredGraph {
  store: TripleStore;
  /** The generation given by the `save` that stored it. */
  generation: string;
  /** When it was saved, if known (ISO 8601). */
  savedAt?: string | undefined;
  /** Where it came from: a binary snapshot, or a re-parse of the stored triples. */
  from: 'snapshot' | 'triples';
  /** The search index saved with it, when the snapshot holds one (older ones do not). */
  searchIndex?: SearchIndexData | undefined;
}

/** Options of {@link GraphPersistence.load}. */
export interface LoadGraphOptions {
  /** The memory the graph may take when it must be rebuilt from triples (`graph_too_large`). */
  maxBytes?: number | undefined;
  /**
   * Told when a snapshot is refused (foreign, damaged, another format, stale) and the graph is
   * rebuilt from its stored triples instead, or, where no triples are kept, left to re-ingestion.
   */
  onSnapshotRefused?: ((sourceId: string, reason: string) => void) | undefined;
}

/**
 * Where a knowledge base keeps each source's graph. `save` must be durable when it resolves
 * (acknowledged means durable) and atomic (a reader after a crash sees the old graph or the new
 * one, never a mix). Each save gives the graph a new generation: several instances that share a
 * persistence compare {@link generations} with what they loaded to see another's writes.
 *
 * @example
 * const persistence: GraphPersistence = new FileGraphPersistence('./data'); // from '@dcg/knowledge-graph/node'
 * const generation = await persistence.save('demo', store);
 */
export interface GraphPersistence {
  /**
   * Stores `store` as the graph of `sourceId`, with its search index when given (so that loading
   * need not rebuild it); resolves with its new generation.
   */
  save(sourceId: string, store: TripleStore, searchIndex?: SearchIndexData): Promise<string>;
  remove(sourceId: string): Promise<void>;
  /** The generation of every stored graph, by source id. */
  generations(): Promise<Map<string, string>>;
  /** The stored graph of a source (`undefined` when none is stored or none could be read). */
  load(sourceId: string, options?: LoadGraphOptions): Promise<StoredGraph | undefined>;
}
