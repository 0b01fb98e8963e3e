import type { SearchPage } from '@dcg/kg-schema';
import type { Quad } from 'n3';
import { KnowledgeGraphError } from './errors';
import type { GraphPersistence } from './graph-persistence';
import { type IndexSearchOptions, SearchIndex } from './search/search-index';
import type { SearchConfig, SourceConfig } from './source-config';
import { requireIngestion } from './source-modes';
import type { TripleStore } from './store/triple-store';
import { TripleStoreBuilder } from './store/triple-store-builder';

/** What is known about one source's ingested graph. */
export interface GraphInfo {
  sourceId: string;
  triples: number;
  searchableDocuments: number;
  updatedAt: string | undefined;
}

/** Options of {@link KnowledgeBase.open}. */
export interface KnowledgeBaseOptions {
  sources: readonly SourceConfig[];
  search: SearchConfig;
  persistence: GraphPersistence;
  /** Told about graphs removed at start-up because their source is no longer configured. */
  onRemovedOrphan?: (sourceId: string) => void;
}

const INSTALL_SLICE = 2_000;

/** Lets pending I/O run: setImmediate runs after the poll phase (a setTimeout(0) chain may not). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Snapshot {
  store: TripleStore;
  updatedAt: string | undefined;
}

/**
 * The ingested knowledge: one {@link TripleStore} and one search index per source, persisted through a
 * {@link GraphPersistence}. Replacing a source's graph builds the new store and index aside,
 * persists durably, then swaps both in one synchronous step, so readers see the old graph or
 * the new one, never a mix. Writes to one source are serialised.
 *
 * @example
 * const kb = await KnowledgeBase.open({ sources, search: { predicates }, persistence });
 * await kb.replaceGraph('demo', quads);
 * kb.search('water', { offset: 0, limit: 10 }); // { results, totalResults, offset, limit, hasNextPage }
 * kb.stores(); // pass to @dcg/sparql-subset's evaluate
 */
export class KnowledgeBase {
  readonly #sources: Map<string, SourceConfig>;
  readonly #persistence: GraphPersistence;
  readonly #index: SearchIndex;
  readonly #graphs = new Map<string, Snapshot>();
  readonly #queues = new Map<string, Promise<unknown>>();
  #storesCache: TripleStore[] | undefined;

  private constructor(options: KnowledgeBaseOptions) {
    this.#sources = new Map(options.sources.map((s) => [s.id, s]));
    this.#persistence = options.persistence;
    this.#index = new SearchIndex(options.search.predicates);
  }

  /**
   * Opens a knowledge base: loads every persisted graph of a configured source, and deletes the
   * graphs of sources that are no longer configured (removing a source removes its triples).
   */
  static async open(options: KnowledgeBaseOptions): Promise<KnowledgeBase> {
    const kb = new KnowledgeBase(options);
    for (const sourceId of await options.persistence.list()) {
      if (!kb.#sources.has(sourceId)) {
        await options.persistence.remove(sourceId);
        options.onRemovedOrphan?.(sourceId);
        continue;
      }
      const quads = await options.persistence.load(sourceId);
      await kb.#install(sourceId, quads, undefined);
    }
    return kb;
  }

  /** Configured sources, in configuration order. */
  sources(): SourceConfig[] {
    return [...this.#sources.values()];
  }

  /** A configured source, or a `unknown_source` error. */
  source(sourceId: string): SourceConfig {
    const source = this.#sources.get(sourceId);
    if (!source)
      throw new KnowledgeGraphError('unknown_source', `no source "${sourceId}" is configured`);
    return source;
  }

  /** A configured source that takes uploaded graphs: `unknown_source` or `ingestion_disabled` otherwise. */
  sourceAcceptingUploads(sourceId: string): SourceConfig {
    const source = this.source(sourceId);
    requireIngestion(source);
    return source;
  }

  /** The current store of every source that has a graph (their union is the default graph). */
  stores(): TripleStore[] {
    this.#storesCache ??= [...this.#graphs.values()].map((g) => g.store);
    return this.#storesCache;
  }

  /** The quads of a source's graph (none when nothing was ingested). */
  quads(sourceId: string): Quad[] {
    this.source(sourceId);
    const store = this.#graphs.get(sourceId)?.store;
    return store === undefined ? [] : [...store.quads()];
  }

  /** Total number of triples over all sources. */
  get size(): number {
    let n = 0;
    for (const g of this.#graphs.values()) n += g.store.size;
    return n;
  }

  /** Facts about a source's graph (zero triples when nothing was ingested). */
  graphInfo(sourceId: string): GraphInfo {
    this.source(sourceId);
    const graph = this.#graphs.get(sourceId);
    return {
      sourceId,
      triples: graph?.store.size ?? 0,
      searchableDocuments: this.#index.stats()[sourceId] ?? 0,
      updatedAt: graph?.updatedAt,
    };
  }

  /**
   * Replaces a source's whole graph with `quads`, durably and atomically. No quads is refused
   * (`empty_graph`, nothing changes) unless `allowEmpty` says the graph is meant to be emptied.
   */
  replaceGraph(
    sourceId: string,
    quads: readonly Quad[],
    options: { allowEmpty?: boolean } = {},
  ): Promise<GraphInfo> {
    this.source(sourceId);
    // A document that yields no triples (`{}`, `null`, a configuration file sent as JSON-LD, an
    // empty body) would silently wipe the graph: only an explicit request may empty it.
    if (quads.length === 0 && options.allowEmpty !== true)
      return Promise.reject(
        new KnowledgeGraphError(
          'empty_graph',
          `the document yields no triples, so it would empty the graph of source "${sourceId}"; nothing was changed (to empty the graph on purpose, say so: allowEmpty)`,
        ),
      );
    return this.#serialise(sourceId, async () => {
      await this.#persistence.save(sourceId, quads);
      await this.#install(sourceId, quads, new Date().toISOString());
      return this.graphInfo(sourceId);
    });
  }

  /** Removes a source's graph (its triples leave search and SPARQL at once). */
  removeGraph(sourceId: string): Promise<GraphInfo> {
    this.source(sourceId);
    return this.#serialise(sourceId, async () => {
      await this.#persistence.remove(sourceId);
      this.#graphs.delete(sourceId);
      this.#storesCache = undefined;
      this.#index.removeSource(sourceId);
      return this.graphInfo(sourceId);
    });
  }

  /**
   * Ranked search over the configured literal predicates of every ingested graph, optionally
   * filtered by language, `rdf:type` and `skos:inScheme` (see {@link IndexSearchOptions}): one
   * page as the API answers it, with the paging it was served with and whether more follow.
   */
  search(term: string, page: IndexSearchOptions): SearchPage {
    const { results, totalResults } = this.#index.search(term, page);
    return {
      results,
      totalResults,
      offset: page.offset,
      limit: page.limit,
      hasNextPage: page.offset + results.length < totalResults,
    };
  }

  async #install(
    sourceId: string,
    quads: readonly Quad[],
    updatedAt: string | undefined,
  ): Promise<void> {
    // The new store is filled in slices, yielding between them, so that a large graph does not
    // hold the event loop (health checks, searches) for seconds; it is invisible until the swap.
    const builder = new TripleStoreBuilder();
    for (let i = 0; i < quads.length; i++) {
      builder.addQuad(quads[i]!);
      if (i % INSTALL_SLICE === INSTALL_SLICE - 1) await yieldToEventLoop();
    }
    // One bulk sort: a few linear passes over the ids.
    const store = builder.build();
    // The search index too: building it for 56,000 triples in one go held the loop for a second.
    const steps = this.#index.buildSourceInSteps(quads);
    let step = steps.next();
    while (!step.done) {
      await yieldToEventLoop();
      step = steps.next();
    }
    const index = step.value;
    // The swap: both references change in the same synchronous step.
    this.#graphs.set(sourceId, { store, updatedAt });
    this.#storesCache = undefined;
    this.#index.swapSource(sourceId, index);
  }

  #serialise<T>(sourceId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(sourceId) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => undefined);
    this.#queues.set(sourceId, settled);
    void settled.then(() => {
      if (this.#queues.get(sourceId) === settled) this.#queues.delete(sourceId);
    });
    return next;
  }
}
