import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteStore } from '@dcg/governance/sqlite';
import { instanceDocument } from '@dcg/marketplace-search';
import {
  createLocalEmbedder,
  LOCAL_EMBEDDER_MODEL,
  openSqliteEmbeddingStore,
} from '@dcg/marketplace-search/node';
import { generateMarketplace, QUALITY_QUERIES } from '@dcg/marketplace-search/testing';

/**
 * Fills a governance-api data folder with `count` generated marketplace instances of one
 * environment and their embeddings: `embed` of them really embedded by the local model, the rest
 * given those vectors again under their own text hashes (what a search reads is the same size;
 * the model's time is what a benchmark of the search path leaves out). Answers queries that
 * match the corpus. Start governance-api on `dataDir` afterwards.
 *
 * @example
 * const { queries } = await seedMarketplaceAtScale(dataDir, { count: 10_000 });
 */
export async function seedMarketplaceAtScale(
  dataDir: string,
  options: { count: number; embed?: number; environment?: string },
): Promise<{ environment: string; queries: string[] }> {
  const environment = options.environment ?? 'production';
  const embed = Math.min(options.count, options.embed ?? 50);
  mkdirSync(dataDir, { recursive: true });
  const instances = generateMarketplace({ environment, count: options.count });
  const docs = instances.map(instanceDocument);
  const embedder = createLocalEmbedder();
  let sample: Float32Array[];
  try {
    sample = await embedder.embed(docs.slice(0, embed).map((d) => d.embeddingText));
  } finally {
    await embedder.close?.();
  }
  const store = await openSqliteStore({ file: join(dataDir, 'governance.db') });
  try {
    for (const instance of instances) {
      // The WAL checkpointer may hold the lock beyond the busy timeout on a loaded machine.
      for (let attempt = 0; ; attempt++) {
        try {
          await store.putInstance({ ...instance, planId: 'bench' });
          break;
        } catch (error) {
          if (attempt >= 5) throw error;
        }
      }
    }
  } finally {
    await store.close();
  }
  const embeddings = await openSqliteEmbeddingStore({ file: join(dataDir, 'embeddings.db') });
  try {
    const at = new Date().toISOString();
    await embeddings.putEmbeddings(
      docs.map((d, i) => ({
        environment,
        systemId: d.systemId,
        model: LOCAL_EMBEDDER_MODEL,
        dimensions: 512,
        textHash: d.textHash,
        vector: sample[i % embed] as Float32Array,
        embeddedAt: at,
      })),
    );
  } finally {
    await embeddings.close();
  }
  return { environment, queries: QUALITY_QUERIES.map((q) => q.q) };
}
