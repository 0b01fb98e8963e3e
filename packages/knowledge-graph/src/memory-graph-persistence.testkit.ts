import type { GraphPersistence, StoredGraph } from './graph-persistence';
import type { SearchIndexData } from './search/search-index-data';
import type { TripleStore } from './store/triple-store';

/**
 * A {@link GraphPersistence} in memory, for tests whose subject is not durability (the product
 * uses `FileGraphPersistence` from `@dcg/knowledge-graph/node`).
 *
 * @example
 * const kb = await KnowledgeBase.open({ sources, search, persistence: new MemoryGraphPersistence() });
 */
export class MemoryGraphPersistence implements GraphPersistence {
  readonly #graphs = new Map<
    string,
    { store: TripleStore; generation: string; searchIndex?: SearchIndexData | undefined }
  >();
  #saves = 0;

  async save(sourceId: string, store: TripleStore, searchIndex?: SearchIndexData): Promise<string> {
    const generation = `memory-${++this.#saves}`;
    this.#graphs.set(sourceId, { store, generation, searchIndex });
    return generation;
  }

  async remove(sourceId: string): Promise<void> {
    this.#graphs.delete(sourceId);
  }

  async generations(): Promise<Map<string, string>> {
    return new Map([...this.#graphs].map(([id, g]) => [id, g.generation]));
  }

  async load(sourceId: string): Promise<StoredGraph | undefined> {
    const graph = this.#graphs.get(sourceId);
    return graph && { ...graph, from: 'snapshot' };
  }
}
