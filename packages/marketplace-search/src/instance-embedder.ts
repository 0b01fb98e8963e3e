import type { EmbeddingProvider } from './embedding-provider';
import type { EmbeddingStore, StoredEmbedding } from './embedding-store';
import type { HybridIndex } from './hybrid-index';
import type { InstanceDocument } from './instance-text';
import { instanceKey } from './lexical-index';

/**
 * Turns the current text of indexed instances into vectors: one provider call at a time (the
 * local model is CPU-bound; remote ones rate-limit), stored durably first, then put in the index.
 *
 * @example
 * const embedder = new InstanceEmbedder(provider, store, index);
 * await embedder.embed(['production\u0000urn:dmb:dp:a:b:0']);
 */
export class InstanceEmbedder {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly provider: EmbeddingProvider,
    private readonly store: EmbeddingStore,
    private readonly index: HybridIndex,
  ) {}

  /** Embeds the current text of these instances (after the calls queued before), and stores them. */
  embed(keys: readonly string[]): Promise<void> {
    const run = this.chain.then(
      () => this.embedNow(keys),
      () => this.embedNow(keys),
    );
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Resolves when the calls queued so far have run. */
  settled(): Promise<unknown> {
    return this.chain;
  }

  private async embedNow(keys: readonly string[]): Promise<void> {
    const docs = keys
      .map((k) => this.index.document(k))
      .filter((d): d is InstanceDocument => d !== undefined);
    if (docs.length === 0) return;
    const vectors = await this.provider.embed(docs.map((d) => d.embeddingText));
    const at = new Date().toISOString();
    const rows: StoredEmbedding[] = docs.map((doc, i) => ({
      environment: doc.environment,
      systemId: doc.systemId,
      model: this.provider.model,
      dimensions: this.provider.dimensions,
      textHash: doc.textHash,
      vector: vectors[i] as Float32Array,
      embeddedAt: at,
    }));
    await this.store.putEmbeddings(rows);
    for (const row of rows) {
      const key = instanceKey(row.environment, row.systemId);
      if (!this.index.document(key)) {
        // Undeployed while its embedding was being made.
        await this.store.deleteEmbeddings(row.environment, row.systemId);
        continue;
      }
      this.index.putVector(key, row.vector, row.textHash, at);
    }
  }
}
