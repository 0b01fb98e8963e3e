import { MarketplaceSearchError } from './errors';
import { type FusedHit, fuseRankings, keepRelevant, type MeaningCut } from './hybrid-ranking';
import type { InstanceDocument } from './instance-text';
import { instanceKey, LexicalIndex } from './lexical-index';
import { PendingInstances } from './pending-instances';
import { type VectorHit, VectorIndex } from './vector-index';

/** What one ranking needs besides the query text (see {@link HybridIndex.rank}). */
export interface RankOptions {
  /** Only instances of this environment; every environment when undefined. */
  environment?: string | undefined;
  /** Hits fused and answered at most. */
  candidates: number;
  /** Only instances with one of these kinds (case-insensitive); all when empty or undefined. */
  kinds?: readonly string[] | undefined;
  /** The query's embedding; undefined: lexical only (embeddings search is disabled). */
  queryVector?: ((q: string) => Promise<Float32Array>) | undefined;
  /** Vector hits below this cosine similarity do not enter the ranking. */
  minSimilarity?: number | undefined;
  /** How close a hit found only by meaning must come to stay (see `keepRelevant`). */
  meaningCut?: MeaningCut | undefined;
  /** Synonyms of a folded query word (a thesaurus). */
  synonyms?: ((word: string) => readonly string[]) | undefined;
  /** Told of a provider failure (not of a refusal for load), which the ranking survives. */
  onProviderError?: ((error: unknown) => void) | undefined;
}

/** The candidates of one query, best first, and how they were found. */
export interface Ranking {
  hits: FusedHit[];
  /** Why the ranking is lexical only; undefined when it is hybrid. */
  fallback?: string;
  /** A spelling of the query that the index knows (`ordres` → `orders`). */
  didYouMean?: string;
}

interface Embedded {
  textHash: string;
  embeddedAt: string;
}

/**
 * What the search knows of every deployed instance: its document in the lexical index (BM25F) and,
 * when embeddings are on, its vector of the current model in the vector index, with the text hash
 * and time of that vector and whether it is still to be embedded (`pending`). `rank` fuses both
 * rankings by reciprocal rank. Memory only: filling it from the store and the source is
 * `IndexSync`'s job; making vectors is `InstanceEmbedder`'s.
 *
 * @example
 * const index = new HybridIndex(512);
 * index.add(instanceDocument(instance), instance.deployedAt);
 * const { hits } = await index.rank('customer invoices', { candidates: 50 });
 */
export class HybridIndex {
  /** Instances whose current text has no vector of the current model yet. */
  readonly pending = new PendingInstances();
  private readonly docs = new Map<string, InstanceDocument>();
  private readonly deployed = new Map<string, string>();
  private readonly embedded = new Map<string, Embedded>();
  private readonly lexical = new LexicalIndex();
  private readonly vectors: VectorIndex | null;

  /** `dimensions` of the current model, or null when embeddings search is disabled. */
  constructor(dimensions: number | null) {
    this.vectors = dimensions === null ? null : new VectorIndex(dimensions);
  }

  /** Whether this index keeps vectors (embeddings search is enabled). */
  get hasVectors(): boolean {
    return this.vectors !== null;
  }

  get size(): number {
    return this.docs.size;
  }

  /** Instances with a vector of the current model (of any text of theirs). */
  get embeddedCount(): number {
    return this.embedded.size;
  }

  /** Indexes (or re-indexes) an instance for lexical search; answers its key. */
  add(doc: InstanceDocument, deployedAt: string): string {
    const key = instanceKey(doc.environment, doc.systemId);
    this.docs.set(key, doc);
    this.deployed.set(key, deployedAt);
    this.lexical.upsert(doc);
    return key;
  }

  /** Drops an instance from both indexes and from the pending ones. */
  remove(key: string): void {
    this.lexical.remove(key);
    this.docs.delete(key);
    this.deployed.delete(key);
    this.vectors?.remove(key);
    this.embedded.delete(key);
    this.pending.delete(key);
  }

  document(key: string): InstanceDocument | undefined {
    return this.docs.get(key);
  }

  /** The `deployedAt` the instance was indexed with. */
  deployedAt(key: string): string | undefined {
    return this.deployed.get(key);
  }

  /** When the instance's current vector was made (undefined: none). */
  embeddedAt(key: string): string | undefined {
    return this.embedded.get(key)?.embeddedAt;
  }

  keys(): IterableIterator<string> {
    return this.docs.keys();
  }

  /** Keys of the instances of one environment, or of all when `environment` is undefined. */
  keysIn(environment: string | undefined): string[] {
    const keys = [...this.docs.keys()];
    return environment === undefined
      ? keys
      : keys.filter((key) => this.docs.get(key)?.environment === environment);
  }

  /** Whether the instance's current text lacks a vector (always false without vectors). */
  needsEmbedding(key: string): boolean {
    const doc = this.docs.get(key);
    return (
      this.vectors !== null &&
      doc !== undefined &&
      this.embedded.get(key)?.textHash !== doc.textHash
    );
  }

  /**
   * Puts the vector of an indexed instance's text (`textHash`); no longer pending when that text is
   * still its current one.
   */
  putVector(key: string, vector: Float32Array, textHash: string, embeddedAt: string): void {
    const doc = this.docs.get(key);
    if (!doc || !this.vectors) return;
    this.vectors.upsert(key, doc.environment, vector);
    this.embedded.set(key, { textHash, embeddedAt });
    if (doc.textHash === textHash) this.pending.delete(key);
  }

  /** Instances and embedded instances of an environment, or of all when it is undefined. */
  counts(environment: string | undefined): { instances: number; embedded: number } {
    const keys = this.keysIn(environment);
    return { instances: keys.length, embedded: keys.filter((k) => this.embedded.has(k)).length };
  }

  /**
   * Hybrid ranking: BM25F over names, facets and text fused by reciprocal rank with the cosine
   * similarity of the query's embedding, exact URN or name first, irrelevant tails cut. Lexical
   * only, and says why, while vectors are disabled or missing or the query's embedding fails.
   */
  async rank(q: string, options: RankOptions): Promise<Ranking> {
    const { environment, candidates } = options;
    let fallback: string | undefined;
    let vectorSearch: Promise<VectorHit[]> | undefined;
    const vectors = this.vectors;
    if (!vectors || !options.queryVector) {
      fallback = 'embeddings search is disabled';
    } else if (vectors.count(environment) === 0) {
      const pending = this.pending.countIn(environment);
      fallback = `no embeddings yet${environment === undefined ? '' : ` in ${environment}`} (${pending} pending)`;
    } else {
      // Started first: a new query's embedding runs elsewhere (a worker, a provider) while the
      // lexical search runs here.
      const { minSimilarity } = options;
      vectorSearch = options
        .queryVector(q)
        .then((vector) =>
          vectors.search(vector, { environment, limit: candidates, minSimilarity }),
        );
      vectorSearch.catch(() => {}); // awaited below
    }
    const plan = this.lexical.plan(q, { synonyms: options.synonyms });
    const lexicalHits = this.lexical.search(q, { environment, limit: candidates, plan });
    let vectorHits: VectorHit[] = [];
    try {
      vectorHits = (await vectorSearch) ?? [];
    } catch (error) {
      if (MarketplaceSearchError.isInstance(error) && error.code === 'search_unavailable') {
        fallback = error.message;
      } else {
        options.onProviderError?.(error);
        fallback = `the embedding provider failed: ${(error as Error).message}`;
      }
    }
    let hits = keepRelevant(fuseRankings(lexicalHits, vectorHits, { limit: candidates }), {
      meaning: options.meaningCut,
    });
    if (options.kinds?.length) {
      const kinds = new Set(options.kinds.map((k) => k.toLowerCase()));
      hits = hits.filter((h) =>
        this.docs.get(h.key)?.kinds.some((k) => kinds.has(k.toLowerCase())),
      );
    }
    return {
      hits,
      ...(fallback === undefined ? {} : { fallback }),
      ...(plan.didYouMean === undefined ? {} : { didYouMean: plan.didYouMean }),
    };
  }
}
