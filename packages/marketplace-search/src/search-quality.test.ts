import { beforeAll, describe, expect, it } from 'vitest';
import { generateMarketplace, QUALITY_QUERIES } from './__fixtures__/marketplace-corpus';
import { fuseRankings } from './hybrid-ranking';
import { instanceDocument } from './instance-text';
import { instanceKey, LexicalIndex } from './lexical-index';
import { createLocalEmbedder, LOCAL_EMBEDDER_MIN_SIMILARITY } from './node/local-embedder';
import { VectorIndex } from './vector-index';

const ENV = 'production';
// As the search runs: vector hits below the local embedder's floor never enter the ranking.
const FLOOR = LOCAL_EMBEDDER_MIN_SIMILARITY;
type Ranker = (q: string, vector: Float32Array) => string[];

function evaluate(rank: Ranker, queryVectors: Float32Array[]) {
  let recall = 0;
  let mrr = 0;
  const misses: string[] = [];
  QUALITY_QUERIES.forEach((query, i) => {
    const ids = rank(query.q, queryVectors[i] as Float32Array).map((k) => k.split('\u0000')[1]);
    const relevant = new Set(query.relevant);
    const found = ids.slice(0, 5).filter((id) => relevant.has(id as string)).length;
    recall += found / Math.min(5, relevant.size);
    const first = ids.findIndex((id) => relevant.has(id as string));
    mrr += first === -1 ? 0 : 1 / (first + 1);
    if (found === 0) misses.push(query.q);
  });
  const n = QUALITY_QUERIES.length;
  return { recallAt5: recall / n, mrr: mrr / n, misses };
}

describe('search quality with the local embedder', () => {
  const instances = generateMarketplace({ environment: ENV });
  const lexical = new LexicalIndex();
  const vectors = new VectorIndex(512);
  let queryVectors: Float32Array[] = [];

  beforeAll(async () => {
    const embedder = createLocalEmbedder();
    const docs = instances.map(instanceDocument);
    const embedded = await embedder.embed(docs.map((d) => d.embeddingText));
    docs.forEach((doc, i) => {
      lexical.upsert(doc);
      vectors.upsert(instanceKey(doc.environment, doc.systemId), ENV, embedded[i] as Float32Array);
    });
    queryVectors = await embedder.embed(QUALITY_QUERIES.map((q) => q.q));
  }, 300_000);

  it('has at least 40 queries over at least 200 instances', () => {
    expect(instances.length).toBeGreaterThanOrEqual(200);
    expect(QUALITY_QUERIES.length).toBeGreaterThanOrEqual(40);
  });

  it('hybrid ranking beats lexical only and vectors only on recall@5 and MRR', () => {
    const lexicalOnly = evaluate(
      (q) => lexical.search(q, { environment: ENV, limit: 50 }).map((h) => h.key),
      queryVectors,
    );
    const vectorOnly = evaluate(
      (_q, v) =>
        vectors.search(v, { environment: ENV, limit: 50, minSimilarity: FLOOR }).map((h) => h.key),
      queryVectors,
    );
    const hybrid = evaluate(
      (q, v) =>
        fuseRankings(
          lexical.search(q, { environment: ENV, limit: 50 }),
          vectors.search(v, { environment: ENV, limit: 50, minSimilarity: FLOOR }),
          { limit: 10 },
        ).map((h) => h.key),
      queryVectors,
    );
    const table = { lexicalOnly, vectorOnly, hybrid };
    console.log(
      `search quality over ${instances.length} instances, ${QUALITY_QUERIES.length} queries:\n${Object.entries(
        table,
      )
        .map(
          ([name, m]) =>
            `  ${name.padEnd(12)} recall@5 ${m.recallAt5.toFixed(3)}  MRR ${m.mrr.toFixed(3)}  missed: ${m.misses.join(' | ')}`,
        )
        .join('\n')}`,
    );
    expect(hybrid.recallAt5).toBeGreaterThan(lexicalOnly.recallAt5);
    expect(hybrid.recallAt5).toBeGreaterThan(vectorOnly.recallAt5);
    expect(hybrid.mrr).toBeGreaterThan(lexicalOnly.mrr);
    expect(hybrid.mrr).toBeGreaterThan(vectorOnly.mrr);
  });
});
