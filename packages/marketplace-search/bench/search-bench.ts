// Benchmark of the search indexes alone (no model, no HTTP, no storage): 10,000 instances.
//   pnpm --filter @dcg/marketplace-search bench
//   BENCH_INSTANCES (default 10000), BENCH_QUERIES (default 2000).
// The whole search over HTTP with the local embedder is governance-api's `bench:search`.
// Vectors: 512 dimensions (the local embedder's), clustered around one centre per generated kind
// of instance, as sentence embeddings of similar texts are; queries near a centre.
import { availableParallelism, loadavg } from 'node:os';
import { generateMarketplace, QUALITY_QUERIES } from '../src/__fixtures__/marketplace-corpus';
import { instanceDocument } from '../src/instance-text';
import { instanceKey, LexicalIndex } from '../src/lexical-index';
import { normalize, VectorIndex } from '../src/vector-index';

const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 10_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 2000);
const ENV = 'production';
const DIMENSIONS = 512;

let seed = 42;
const random = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 4294967296 - 0.5;
};
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};
const timed = (label: string, count: number, fn: (i: number) => void) => {
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    fn(i);
    times.push(performance.now() - t);
  }
  const used = process.cpuUsage(cpu);
  console.log(
    `${label.padEnd(40)} p50 ${pct(times, 50).toFixed(3)} ms  p99 ${pct(times, 99).toFixed(3)} ms  CPU ${((used.user + used.system) / 1000 / count).toFixed(3)} ms per operation (${count})`,
  );
};

console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${availableParallelism()} cores; ${INSTANCES} instances`,
);
const docs = generateMarketplace({ environment: ENV, count: INSTANCES }).map(instanceDocument);
const centres = Array.from({ length: 60 }, () =>
  normalize(Array.from({ length: DIMENSIONS }, random)),
);
const near = (i: number, spread: number) =>
  Float32Array.from(centres[i % centres.length] as Float32Array, (x) => x + random() * spread);
const vectors = docs.map((_, i) => near(i, 0.12));
/** Every instance's vector into `index`. */
const upsertAll = (index: VectorIndex) => {
  for (const [i, doc] of docs.entries())
    index.upsert(instanceKey(ENV, doc.systemId), ENV, vectors[i] as Float32Array);
};

const lexical = new LexicalIndex();
const vectorIndex = new VectorIndex(DIMENSIONS);
let started = performance.now();
for (const doc of docs) lexical.upsert(doc);
console.log(`lexical index built in ${(performance.now() - started).toFixed(0)} ms`);
started = performance.now();
upsertAll(vectorIndex);
console.log(
  `vector index built in ${(performance.now() - started).toFixed(0)} ms (${(vectorIndex.byteLength / 1024 / 1024).toFixed(1)} MiB)`,
);

const queryVectors = Array.from({ length: 200 }, (_, i) => near(i * 7, 0.2));
const queries = QUALITY_QUERIES.map((q) => q.q);
/** Top-50 searches of `index` near the query vectors: 200 to warm up, then QUERIES timed. */
const timeVectorSearch = (label: string, index: VectorIndex) => {
  const search = (i: number) =>
    index.search(queryVectors[i % queryVectors.length] as Float32Array, {
      environment: ENV,
      limit: 50,
    });
  for (let i = 0; i < 200; i++) search(i);
  timed(label, QUERIES, search);
};
timeVectorSearch('vector search, top 50', vectorIndex);
timed('lexical search, top 50', QUERIES, (i) => {
  lexical.search(queries[i % queries.length] as string, { environment: ENV, limit: 50 });
});
timed('lexical re-index of one instance', 1000, (i) => {
  lexical.upsert(docs[i % docs.length] as (typeof docs)[number]);
});
timed('vector upsert of one instance', 1000, (i) => {
  const doc = docs[i % docs.length] as (typeof docs)[number];
  vectorIndex.upsert(
    instanceKey(ENV, doc.systemId),
    ENV,
    vectors[(i + 1) % vectors.length] as Float32Array,
  );
});

// What justifies the WebAssembly kernel (`src/row-scores.ts`): the same search with the
// JavaScript loops it replaces (and runs where WebAssembly SIMD is missing).
const withoutSimd = new VectorIndex(DIMENSIONS, { simd: false });
upsertAll(withoutSimd);
timeVectorSearch('vector search, top 50, JavaScript loops', withoutSimd);
