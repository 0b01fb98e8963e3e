import type { Quad } from 'n3';
import type { GraphPersistence } from './graph-persistence';

/**
 * A {@link GraphPersistence} in memory, for tests whose subject is not durability (the product
 * uses `FileGraphPersistence` from `@dcg/knowledge-graph/node`).
 *
 * @example
 * const kb = await KnowledgeBase.open({ sources, search, persistence: new MemoryGraphPersistence() });
 */
export class MemoryGraphPersistence implements GraphPersistence {
  readonly #graphs = new Map<string, readonly Quad[]>();

  async save(sourceId: string, quads: Iterable<Quad>): Promise<void> {
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
