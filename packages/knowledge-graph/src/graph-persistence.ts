import type { Quad } from 'n3';

/**
 * Where a knowledge base keeps each source's graph. `save` must be durable when it resolves
 * (acknowledged means durable) and atomic (a reader after a crash sees the old graph or the new
 * one, never a mix).
 *
 * @example
 * const persistence: GraphPersistence = new FileGraphPersistence('./data'); // from '@dcg/knowledge-graph/node'
 * await persistence.save('demo', quads);
 */
export interface GraphPersistence {
  /** `quads` may be a lazy iterable (a store's quads): it is read once, in order. */
  save(sourceId: string, quads: Iterable<Quad>): Promise<void>;
  remove(sourceId: string): Promise<void>;
  /** Ids of the sources that have a stored graph. */
  list(): Promise<string[]>;
  load(sourceId: string): Promise<Quad[]>;
}
