import type { Quad } from 'n3';

/**
 * Where a knowledge base keeps each source's graph. `save` must be durable when it resolves
 * (acknowledged means durable) and atomic (a reader after a crash sees the old graph or the new
 * one, never a mix).
 *
 * @example
 * const persistence: GraphPersistence = new MemoryGraphPersistence();
 * await persistence.save('demo', quads);
 */
export interface GraphPersistence {
  save(sourceId: string, quads: readonly Quad[]): Promise<void>;
  remove(sourceId: string): Promise<void>;
  /** Ids of the sources that have a stored graph. */
  list(): Promise<string[]>;
  load(sourceId: string): Promise<Quad[]>;
}

/**
 * A {@link GraphPersistence} in memory, for browsers and for knowledge bases that need not
 * survive a restart. (The file-system one is `FileGraphPersistence` from `@dcg/knowledge-graph/node`.)
 *
 * @example
 * const kb = await KnowledgeBase.open({ sources, search, persistence: new MemoryGraphPersistence() });
 */
export class MemoryGraphPersistence implements GraphPersistence {
  readonly #graphs = new Map<string, readonly Quad[]>();

  async save(sourceId: string, quads: readonly Quad[]): Promise<void> {
    this.#graphs.set(sourceId, [...quads]);
  }

  async remove(sourceId: string): Promise<void> {
    this.#graphs.delete(sourceId);
  }

  async list(): Promise<string[]> {
    return [...this.#graphs.keys()];
  }

  async load(sourceId: string): Promise<Quad[]> {
    return [...(this.#graphs.get(sourceId) ?? [])];
  }
}
