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
  /** One vector per text, in order. Batching within the provider's limits happens inside. */
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
  /** Releases what the provider holds (a loaded model). */
  close?(): Promise<void>;
}
