/**
 * Benchmark: the same thesaurus and knowledge-graph queries on @dcg/sparql-subset, Oxigraph and
 * Comunica (over the same n3 Store), in one process. Prints medians, ratios and heap figures.
 *
 *   pnpm bench                       # 10k and 100k concepts
 *   BENCH_SIZES=10000 pnpm bench     # one size
 */
import { QueryEngine } from '@comunica/query-sparql-rdfjs';
import { Store } from 'n3';
import * as oxigraph from 'oxigraph';
import { query } from '../src/query';
import { interleaved, type Timing } from './interleaved';
import { benchmarkQueries } from './queries';
import { generateThesaurus, toNTriples } from './thesaurus';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heapMb = () => process.memoryUsage().heapUsed / 1024 / 1024;

async function time(fn: () => Promise<number>, budgetMs: number, maxRuns: number): Promise<Timing> {
  const t0 = performance.now();
  let rows = await fn(); // warm-up
  const first = performance.now() - t0;
  // A run slower than the whole budget is measured once (Comunica on the larger joins).
  if (first > budgetMs) return { median: first, rows, runs: 1 };
  const samples: number[] = [];
  const started = performance.now();
  while (
    samples.length < 3 ||
    (samples.length < maxRuns && performance.now() - started < budgetMs)
  ) {
    const t0 = performance.now();
    rows = await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[samples.length >> 1] as number, rows, runs: samples.length };
}

let fresh = 0;
const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(2) : ms.toFixed(0));
const ratio = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

async function benchmark(concepts: number): Promise<void> {
  console.log(`\n## ${concepts} concepts`);
  const quads = generateThesaurus(concepts);
  gc();
  const before = heapMb();
  const store = new Store();
  store.addQuads(quads);
  gc();
  const storeHeap = heapMb() - before;
  const nTriples = toNTriples(quads);
  const ox = new oxigraph.Store();
  ox.load(nTriples, { format: 'application/n-triples' });
  const comunica = new QueryEngine();
  console.log(`${store.size} triples; n3 Store heap ${storeHeap.toFixed(0)} MB`);

  const lines: string[] = [
    '| query | rows | sparql-subset ms | Oxigraph ms | Comunica ms | Oxigraph / ours | Comunica / ours | eval heap MB | first-time text ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const oxRatios: number[] = [];
  const comRatios: number[] = [];
  for (const { name, text } of benchmarkQueries(concepts)) {
    // This package and Oxigraph run alternately, so that load from other processes hits both alike.
    const [ours, theirs] = (await interleaved(
      [
        async () => {
          const result = await query(text, store);
          return 'results' in result ? result.results.bindings.length : 1;
        },
        async () => {
          const result = ox.query(text);
          return Array.isArray(result) ? result.length : 1;
        },
      ],
      { minRounds: 3, maxRounds: 300, budgetMs: 2000 },
    )) as [Timing, Timing];
    // A text never seen before (a new comment) misses the parse cache: a first-time query. Measured
    // apart, so that its garbage does not land in Oxigraph's timings.
    const cold = await time(
      async () => {
        const result = await query(`${text}\n# ${fresh++}`, store);
        return 'results' in result ? result.results.bindings.length : 1;
      },
      1000,
      200,
    );
    const com = await time(
      async () => {
        const bindings = await (await comunica.queryBindings(text, { sources: [store] })).toArray();
        return bindings.length;
      },
      1500,
      20,
    );
    gc();
    const heapBefore = heapMb();
    const kept = await query(text, store);
    const evalHeap = heapMb() - heapBefore;
    if (!kept) throw new Error('no result');
    const rowsNote =
      ours.rows === theirs.rows && ours.rows === com.rows
        ? String(ours.rows)
        : `${ours.rows} (ox ${theirs.rows}, com ${com.rows})`;
    oxRatios.push(theirs.median / ours.median);
    comRatios.push(com.median / ours.median);
    lines.push(
      `| ${name} | ${rowsNote} | ${fmt(ours.median)} | ${fmt(theirs.median)} | ${fmt(com.median)} | ${ratio(theirs.median / ours.median)} | ${ratio(com.median / ours.median)} | ${evalHeap.toFixed(1)} | ${fmt(cold.median)} |`,
    );
  }
  const geomean = (values: number[]) =>
    Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
  lines.push(
    `| **geometric mean of ratios** | | | | | ${ratio(geomean(oxRatios))} | ${ratio(geomean(comRatios))} | | |`,
  );
  console.log(lines.join('\n'));
}

const sizes = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
console.log(`node ${process.version}, ${new Date().toISOString()}`);
for (const size of sizes) await benchmark(size);
