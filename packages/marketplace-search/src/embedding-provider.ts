import type { MeaningCut } from './hybrid-ranking';

/**
 * Something that turns texts into vectors. `model` names the model and its dimensions: vectors
 * stored under one `model` never mix with another's, and a changed `model` makes stored vectors
 * stale.
 *
 * @example
 * const [vector] = await provider.embed(['customer invoices']);
 */
export interface EmbeddingProvider {
  /** Identity of the vectors, e.g. `azure_openai:text-embedding-3-large:3072`. */
  readonly model: string;
  readonly dimensions: number;
  /**
   * The cosine similarity below which this model's hits are noise (a query about nothing in the
   * marketplace scores about this much against everything): the default of the search's
   * `minVectorSimilarity`. Absent: no floor.
   */
  readonly minSimilarity?: number;
  /**
   * How close a hit found only by meaning must come to stay in the answer (see `keepRelevant`),
   * calibrated for this model on the quality set. Absent: `minSimilarity` is the only cut.
   */
  readonly meaningCut?: MeaningCut;
  /** One vector per text, in order. Batching within the provider's limits happens inside. */
  embed(
    texts: readonly string[],
    options?: {
      signal?: AbortSignal;
      /** `query`: someone waits for it; a provider with a queue serves it before bulk work. */
      priority?: 'query' | 'bulk';
    },
  ): Promise<Float32Array[]>;
  /** Releases what the provider holds (a loaded model). */
  close?(): Promise<void>;
}
