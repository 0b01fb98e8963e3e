import type { SearchPage } from '@dcg/kg-schema';
import type { Quad } from 'n3';
import { KnowledgeGraphError } from './errors';
import type { GraphPersistence } from './graph-persistence';
import { type IndexSearchOptions, SearchIndex } from './search/search-index';
import type { SourceSearchIndex } from './search/source-search-index';
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

/**
 * Fills a new graph: calls `add` for each quad as it is parsed, and resolves when done (or
 * rejects, and nothing changes). Lets a parser stream into the store without an array of quads.
 *
 * @example
 * const fill: QuadProducer = async (add) => { await parseRdf(text, 'turtle', { onQuad: add }); };
 */
export type QuadProducer = (add: (quad: Quad) => void) => Promise<void>;

/** Options of {@link KnowledgeBase.open}. */
export interface KnowledgeBaseOptions {
  sources: readonly SourceConfig[];
  search: SearchConfig;
  persistence: GraphPersistence;
  /**
   * The memory one source's graph may take (dictionary and indexes), checked while its triples
   * arrive: a larger graph is refused with `graph_too_large` and nothing changes. Default: none.
   */
  maxGraphBytes?: number;
  /** Told about graphs removed at start-up because their source is no longer configured. */
  onRemovedOrphan?: (sourceId: string) => void;
  /** Told about each stored graph loaded (at start-up or by {@link KnowledgeBase.refresh}). */
  onGraphLoaded?: (event: GraphLoadedEvent) => void;
  /** Told when a stored snapshot is refused and the graph is rebuilt or left to re-ingestion. */
  onSnapshotRefused?: (sourceId: string, reason: string) => void;
}

/** A stored graph loaded into memory, and how. */
export interface GraphLoadedEvent {
  sourceId: string;
  triples: number;
  /** A binary snapshot, or a re-parse of the stored triples. */
  from: 'snapshot' | 'triples';
  /** Its search index read from the snapshot, or built (older snapshot, other predicates). */
  searchIndex: 'snapshot' | 'built';
  durationMs: number;
  /** At start-up, or because another instance changed it. */
  reason: 'start-up' | 'changed elsewhere';
}

const INSTALL_SLICE = 2_000;

/** Lets pending I/O run: setImmediate runs after the poll phase (a setTimeout(0) chain may not). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Snapshot {
  store: TripleStore;
  updatedAt: string | undefined;
  /** The persisted generation this graph is (see {@link GraphPersistence.save}). */
  generation: string;
}

/**
 * The ingested knowledge: one {@link TripleStore} and one search index per source, persisted through a
 * {@link GraphPersistence}. Replacing a source's graph builds the new store and index aside,
 * persists durably, then swaps both in one synchronous step, so readers see the old graph or
 * the new one, never a mix. Writes to one source are serialised.
 *
 * @example
 * const kb = await KnowledgeBase.open({ sources, search: { predicates }, persistence });
 * await kb.replaceGraph('demo', quads); // any iterable of quads
 * kb.search('water', { offset: 0, limit: 10 }); // { results, totalResults, offset, limit, hasNextPage }
 * kb.stores(); // pass to @dcg/sparql-subset's evaluate
 */
export class KnowledgeBase {
  readonly #sources: Map<string, SourceConfig>;
  readonly #persistence: GraphPersistence;
  readonly #index: SearchIndex;
  readonly #graphs = new Map<string, Snapshot>();
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #maxGraphBytes: number | undefined;
  readonly #onGraphLoaded: ((event: GraphLoadedEvent) => void) | undefined;
  readonly #onSnapshotRefused: ((sourceId: string, reason: string) => void) | undefined;
  #storesCache: TripleStore[] | undefined;

  private constructor(options: KnowledgeBaseOptions) {
    this.#sources = new Map(options.sources.map((s) => [s.id, s]));
    this.#persistence = options.persistence;
    this.#index = new SearchIndex(options.search.predicates);
    this.#maxGraphBytes = options.maxGraphBytes;
    this.#onGraphLoaded = options.onGraphLoaded;
    this.#onSnapshotRefused = options.onSnapshotRefused;
  }

  /**
   * Opens a knowledge base: loads every persisted graph of a configured source, and deletes the
   * graphs of sources that are no longer configured (removing a source removes its triples).
   */
  static async open(options: KnowledgeBaseOptions): Promise<KnowledgeBase> {
    const kb = new KnowledgeBase(options);
    for (const sourceId of (await options.persistence.generations()).keys()) {
      if (!kb.#sources.has(sourceId)) {
        await options.persistence.remove(sourceId);
        options.onRemovedOrphan?.(sourceId);
        continue;
      }
      await kb.#loadStored(sourceId, 'start-up');
    }
    return kb;
  }

  /**
   * Catches up with writes of other instances that share the persistence: every source whose
   * stored generation differs from the one in memory is loaded again (or dropped when its graph
   * was removed). Resolves with the ids of the sources that changed. Call it on a timer (or when
   * notified); writes of this instance are never loaded back.
   */
  async refresh(): Promise<string[]> {
    const stored = await this.#persistence.generations();
    const changed: string[] = [];
    for (const sourceId of this.#sources.keys()) {
      const generation = stored.get(sourceId);
      if (generation === this.#graphs.get(sourceId)?.generation) continue;
      const done = await this.#serialise(sourceId, async () => {
        // Checked again in the queue: a write of this instance may have just stored it.
        const now = (await this.#persistence.generations()).get(sourceId);
        if (now === this.#graphs.get(sourceId)?.generation) return false;
        if (now === undefined) this.#drop(sourceId);
        else await this.#loadStored(sourceId, 'changed elsewhere');
        return true;
      });
      if (done) changed.push(sourceId);
    }
    return changed;
  }

  /** The generation of a source's graph in memory (`undefined` when it has none). */
  generation(sourceId: string): string | undefined {
    return this.#graphs.get(sourceId)?.generation;
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
   * Replaces a source's whole graph with `quads` (any iterable, read once, or a
   * {@link QuadProducer} that streams them in as a parser finds them), durably and
   * atomically. No quads is refused (`empty_graph`, nothing changes) unless `allowEmpty` says the
   * graph is meant to be emptied; a graph over `maxGraphBytes` is refused (`graph_too_large`).
   */
  replaceGraph(
    sourceId: string,
    quads: Iterable<Quad> | QuadProducer,
    options: { allowEmpty?: boolean } = {},
  ): Promise<GraphInfo> {
    this.source(sourceId);
    return this.#serialise(sourceId, async () => {
      const store =
        typeof quads === 'function' ? await this.#fill(quads) : await this.#build(quads);
      // A document that yields no triples (`{}`, `null`, a configuration file sent as JSON-LD, an
      // empty body) would silently wipe the graph: only an explicit request may empty it.
      if (store.size === 0 && options.allowEmpty !== true)
        throw new KnowledgeGraphError(
          'empty_graph',
          `the document yields no triples, so it would empty the graph of source "${sourceId}"; nothing was changed (to empty the graph on purpose, say so: allowEmpty)`,
        );
      // The index is built before the save, so that the snapshot carries it (start-up then
      // reads it instead of rebuilding it).
      const index = await this.#buildIndex(store);
      let generation: string;
      try {
        generation = await this.#persistence.save(sourceId, store, index.toData());
      } catch (error) {
        index.release();
        throw error;
      }
      this.#install(sourceId, store, new Date().toISOString(), generation, index);
      return this.graphInfo(sourceId);
    });
  }

  /** Removes a source's graph (its triples leave search and SPARQL at once). */
  removeGraph(sourceId: string): Promise<GraphInfo> {
    this.source(sourceId);
    return this.#serialise(sourceId, async () => {
      await this.#persistence.remove(sourceId);
      this.#drop(sourceId);
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

  #drop(sourceId: string): void {
    this.#graphs.delete(sourceId);
    this.#storesCache = undefined;
    this.#index.removeSource(sourceId);
  }

  async #loadStored(sourceId: string, reason: GraphLoadedEvent['reason']): Promise<void> {
    const started = performance.now();
    const stored = await this.#persistence.load(sourceId, {
      maxBytes: this.#maxGraphBytes,
      onSnapshotRefused: this.#onSnapshotRefused,
    });
    if (stored === undefined) {
      this.#drop(sourceId);
      return;
    }
    // The saved index when the snapshot has one built for these predicates; else built again.
    const restored =
      stored.searchIndex && this.#index.restoreSource(stored.store, stored.searchIndex);
    const index = restored ?? (await this.#buildIndex(stored.store));
    this.#install(sourceId, stored.store, stored.savedAt, stored.generation, index);
    this.#onGraphLoaded?.({
      sourceId,
      triples: stored.store.size,
      from: stored.from,
      searchIndex: restored ? 'snapshot' : 'built',
      durationMs: Math.round(performance.now() - started),
      reason,
    });
  }

  /** A new store of `quads`, filled in slices that yield to the event loop. */
  async #build(quads: Iterable<Quad>): Promise<TripleStore> {
    // A large graph must not hold the event loop (health checks, searches) for seconds; the new
    // store is invisible until the swap.
    const options = this.#maxGraphBytes === undefined ? {} : { maxBytes: this.#maxGraphBytes };
    const builder = new TripleStoreBuilder(options);
    let i = 0;
    for (const quad of quads) {
      builder.addQuad(quad);
      if (++i % INSTALL_SLICE === 0) await yieldToEventLoop();
    }
    // One bulk sort: a few linear passes over the ids.
    return builder.build();
  }

  /** A new store filled by a producer (terms interned as quads arrive, indexes sorted at the end). */
  async #fill(produce: QuadProducer): Promise<TripleStore> {
    const options = this.#maxGraphBytes === undefined ? {} : { maxBytes: this.#maxGraphBytes };
    const builder = new TripleStoreBuilder(options);
    await produce((quad) => builder.addQuad(quad));
    return builder.build();
  }

  /** The search index of `store`, built in steps that yield to the event loop. */
  async #buildIndex(store: TripleStore): Promise<SourceSearchIndex> {
    // Building it for 56,000 triples in one go held the loop for a second.
    const steps = this.#index.buildSourceInSteps(store);
    let step = steps.next();
    while (!step.done) {
      await yieldToEventLoop();
      step = steps.next();
    }
    return step.value;
  }

  #install(
    sourceId: string,
    store: TripleStore,
    updatedAt: string | undefined,
    generation: string,
    index: SourceSearchIndex,
  ): void {
    // The swap: both references change in the same synchronous step.
    this.#graphs.set(sourceId, { store, updatedAt, generation });
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
