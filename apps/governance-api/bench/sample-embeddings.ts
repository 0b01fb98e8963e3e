import { join } from 'node:path';
import type { InstanceDocument } from '@dcg/marketplace-search';
import { LOCAL_EMBEDDER_MODEL, openSqliteEmbeddingStore } from '@dcg/marketplace-search/node';

/**
 * Stores an embedding of every document in `dataDir`'s embedding store, where governance-api reads
 * them at start-up: the vectors of the few documents really embedded (`sample`, the local model's
 * vectors of the first documents) given again, in turn, under each document's own text hash. The
 * app starts with nothing pending and a search reads as much as with real vectors, while the
 * benchmark spends minutes less in the model. Shared with mcp-server's `bench:search`.
 */
export async function storeSampleEmbeddings(
  dataDir: string,
  docs: readonly InstanceDocument[],
  sample: readonly Float32Array[],
): Promise<void> {
  const embeddings = await openSqliteEmbeddingStore({ file: join(dataDir, 'embeddings.db') });
  const at = new Date().toISOString();
  await embeddings.putEmbeddings(
    docs.map((d, i) => ({
      environment: d.environment,
      systemId: d.systemId,
      model: LOCAL_EMBEDDER_MODEL,
      dimensions: 512,
      textHash: d.textHash,
      vector: sample[i % sample.length] as Float32Array,
      embeddedAt: at,
    })),
  );
  await embeddings.close();
}
