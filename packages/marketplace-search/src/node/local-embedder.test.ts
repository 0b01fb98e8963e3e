import { describe, expect, it } from 'vitest';
import { createLocalEmbedder, LOCAL_EMBEDDER_MODEL } from './local-embedder';

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
});
