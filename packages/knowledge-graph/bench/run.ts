/**
 * Benchmark of the knowledge graph's store against Oxigraph, in one process and one run: the same
 * N-Triples chunks of a thesaurus-shaped graph are ingested by both (ours: n3's StreamParser into
 * a TripleStoreBuilder; Oxigraph: `Store.load` per chunk), then the same SPARQL queries run
 * alternately on both. Prints ingest time, memory growth after GC, p50 per query, search p50, and
 * bytes per triple against the 36-byte floor (three sort orders of three 32-bit ids).
 *
 * Then the store's binary snapshot is written to a temporary file and loaded back (what kg-api
 * does at start-up instead of parsing), both timed.
 *
 * From 2M triples (or with BENCH_STREAM=1) the graph is first written to an N-Triples file
 * (`generate-thesaurus.ts`, kept in BENCH_DIR, default the system's temporary folder, for the
 * next run) and both stores read it streamed, so that the text is never in memory whole.
 * BENCH_OXIGRAPH=0 leaves Oxigraph out (at 10M its WebAssembly memory may not be enough).
 *
 *   pnpm --filter @dcg/knowledge-graph bench                    # 900,000 triples
 *   BENCH_TRIPLES=900000,10000000 pnpm --filter @dcg/knowledge-graph bench
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query } from '@dcg/sparql-subset';
import { Parser } from 'n3';
import * as oxigraph from 'oxigraph';
import { interleaved } from '../../sparql-subset/bench/interleaved';
import { decodeSnapshot, encodeSnapshot } from '../src/node/graph-snapshot';
import { SearchIndex } from '../src/search/search-index';
import type { TripleStore } from '../src/store/triple-store';
import { TripleStoreBuilder } from '../src/store/triple-store-builder';
import { benchmarkQueries, conceptsFor, SKOS, thesaurusChunks } from './thesaurus';
import { fileChunks, writeThesaurusFile } from './thesaurus-file';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc (the bench script does)');
const MB = 1024 * 1024;

interface Memory {
  rss: number;
  /** JavaScript heap plus array buffers (typed arrays, WebAssembly memory). */
  owned: number;
}
function memory(): Memory {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, owned: m.heapUsed + m.arrayBuffers };
}

/**
 * Ours: n3's parser fed string chunks as kg-api's `parseRdf` feeds it (n3's StreamParser, a
 * Node stream, would turn each string into a Buffer and back: a fifth of the CPU time), terms
 * interned as quads arrive, indexes sorted at the end.
 */
async function ingestOurs(chunks: AsyncIterable<string> | Iterable<string>): Promise<TripleStore> {
  const builder = new TripleStoreBuilder();
  const handlers = new Map<string, (value?: unknown) => void>();
  const input = {
    on(event: string, handler: (value?: unknown) => void) {
      handlers.set(event, handler);
      return input;
    },
  };
  let failure: unknown;
  let done = false;
  new Parser({ format: 'N-Triples' }).parse(input as never, (error, quad) => {
    if (error) failure ??= error;
    else if (quad) builder.addQuad(quad);
    else done = true;
  });
  const data = handlers.get('data') as (chunk: string) => void;
  for await (const chunk of chunks) {
    // The parser emits the quads of a chunk synchronously as it is given.
    data(chunk);
    if (failure !== undefined) throw failure;
  }
  (handlers.get('end') as () => void)();
  if (failure !== undefined) throw failure;
  if (!done) throw new Error('the parser did not finish');
  return builder.build();
}

async function ingestOxigraph(
  chunks: AsyncIterable<string> | Iterable<string>,
): Promise<oxigraph.Store> {
  const store = new oxigraph.Store();
  for await (const chunk of chunks) store.load(chunk, { format: 'application/n-triples' });
  return store;
}

/** The graph's N-Triples: in memory below 2M triples, else streamed from a generated file. */
async function graphText(targetTriples: number, concepts: number) {
  if (targetTriples < 2_000_000 && process.env.BENCH_STREAM !== '1') {
    const chunks = [...thesaurusChunks(concepts)];
    return { chunks: () => chunks, mb: chunks.reduce((n, c) => n + c.length, 0) / MB };
  }
  const file = join(process.env.BENCH_DIR ?? tmpdir(), `dcg-thesaurus-${concepts}.nt`);
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  if (!exists) {
    const t0 = performance.now();
    await writeThesaurusFile(targetTriples, file);
    console.log(`generated ${file} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  return { chunks: () => fileChunks(file), mb: (await stat(file)).size / MB };
}

/** Writes the store's snapshot to a file and loads it back: seconds for each, and its size. */
async function snapshotRoundTrip(store: TripleStore) {
  const file = join(tmpdir(), `dcg-bench-${process.pid}.snapshot`);
  try {
    let t0 = performance.now();
    const handle = await open(file, 'w');
    for (const chunk of encodeSnapshot(store, randomUUID())) await handle.write(chunk);
    await handle.sync();
    await handle.close();
    const write = performance.now() - t0;
    const bytes = (await stat(file)).size;
    t0 = performance.now();
    const loaded = await decodeSnapshot(createReadStream(file, { highWaterMark: 1 << 22 }), file);
    const load = performance.now() - t0;
    if (loaded.store.size !== store.size) throw new Error('the snapshot lost triples');
    return { write, load, bytes, loaded: loaded.store };
  } finally {
    await rm(file, { force: true });
  }
}

const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(2) : ms.toFixed(0));
const x = (r: number) => `x${r >= 100 ? r.toFixed(0) : r.toFixed(2)}`;

async function benchmark(targetTriples: number): Promise<void> {
  const concepts = conceptsFor(targetTriples);
  const text = await graphText(targetTriples, concepts);
  const textMb = text.mb;

  const base = memory();
  let t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const ours = await ingestOurs(text.chunks());
  const oursIngest = performance.now() - t0;
  const oursCpu = process.cpuUsage(cpu0);
  const oursMem = memory();

  let ox: oxigraph.Store | undefined;
  let oxIngest = Number.NaN;
  let oxCpu = { user: Number.NaN, system: Number.NaN };
  if (process.env.BENCH_OXIGRAPH !== '0') {
    t0 = performance.now();
    const cpu1 = process.cpuUsage();
    try {
      ox = await ingestOxigraph(text.chunks());
      oxIngest = performance.now() - t0;
      oxCpu = process.cpuUsage(cpu1);
    } catch (error) {
      console.log(`Oxigraph could not load the graph: ${(error as Error).message}`);
    }
  }
  const oxMem = memory();

  const triples = ours.size;
  const oxTriples = ox?.size ?? Number.NaN;
  const grow = (a: Memory, b: Memory) => ({
    rss: (b.rss - a.rss) / MB,
    owned: (b.owned - a.owned) / MB,
  });
  const oursGrowth = grow(base, oursMem);
  const oxGrowth = grow(oursMem, oxMem);
  const perTriple = (mb: number) => ((mb * MB) / triples).toFixed(1);

  console.log(
    `\n## ${triples.toLocaleString('en')} triples (${concepts.toLocaleString('en')} concepts, ${textMb.toFixed(0)} MB of N-Triples; Oxigraph counted ${oxTriples.toLocaleString('en')})`,
  );
  console.log(
    `dictionary: ${ours.terms.size.toLocaleString('en')} terms; indexes ${(ours.indexBytes / MB).toFixed(1)} MB = ${(ours.indexBytes / triples).toFixed(1)} bytes/triple (floor of three orders of 32-bit ids: 36)`,
  );
  const lines = [
    '| measure | ours | Oxigraph 0.5 | Oxigraph / ours |',
    '|---|---:|---:|---:|',
    `| ingest s | ${(oursIngest / 1000).toFixed(2)} | ${(oxIngest / 1000).toFixed(2)} | ${x(oxIngest / oursIngest)} |`,
    `| ingest CPU s (user + system) | ${((oursCpu.user + oursCpu.system) / 1e6).toFixed(2)} | ${((oxCpu.user + oxCpu.system) / 1e6).toFixed(2)} | ${x((oxCpu.user + oxCpu.system) / (oursCpu.user + oursCpu.system))} |`,
    `| memory growth MB (heap + array buffers, after GC) | ${oursGrowth.owned.toFixed(0)} | n/a (WebAssembly memory shows in RSS only) | |`,
    `| memory growth MB (RSS) | ${oursGrowth.rss.toFixed(0)} | ${oxGrowth.rss.toFixed(0)} | ${x(oxGrowth.rss / oursGrowth.rss)} |`,
    `| bytes per triple: heap + array buffers (ours), RSS (both) | ${perTriple(oursGrowth.owned)}, ${perTriple(oursGrowth.rss)} | ${perTriple(oxGrowth.rss)} | |`,
  ];
  const ratios: number[] = [];
  const names: string[] = [];
  const oxStore = ox;
  for (const { name, text } of benchmarkQueries(concepts)) {
    // Ours and Oxigraph alternately, so that load from other processes hits both alike.
    const [a, b = { median: Number.NaN, rows: Number.NaN, runs: 0 }] = await interleaved(
      [
        async () => {
          const result = await query(text, ours);
          return 'results' in result ? result.results.bindings.length : 1;
        },
        ...(oxStore === undefined
          ? []
          : [
              async () => {
                const result = oxStore.query(text);
                return Array.isArray(result) ? result.length : 1;
              },
            ]),
      ],
      { minRounds: 5, maxRounds: 200, budgetMs: 3000 },
    );
    if (!a) throw new Error('no timing');
    const rows = a.rows === b.rows ? String(a.rows) : `${a.rows} (Oxigraph ${b.rows})`;
    ratios.push(b.median / a.median);
    names.push(name);
    lines.push(
      `| p50 ms: ${name} (${rows} rows) | ${fmt(a.median)} | ${fmt(b.median)} | ${x(b.median / a.median)} |`,
    );
  }
  const geomean = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
  lines.push(`| geometric mean of query ratios | | | ${x(geomean)} |`);
  // The goal: every query at least 1.5 times as fast as Oxigraph's.
  const short = names.filter((_, i) => !((ratios[i] as number) >= 1.5));
  lines.push(
    `| queries under x1.5 | ${short.length === 0 ? 'none' : short.join('; ')} | | ${x(Math.min(...ratios))} (lowest) |`,
  );

  const snapshot = await snapshotRoundTrip(ours);
  lines.push(
    `| snapshot: write s, load s, MB (${(snapshot.bytes / triples).toFixed(1)} bytes/triple) | ${(snapshot.write / 1000).toFixed(2)}, ${(snapshot.load / 1000).toFixed(2)}, ${(snapshot.bytes / MB).toFixed(0)} | n/a | |`,
  );

  // Search: the kg-api index over the labels, built from the store.
  const before = memory();
  t0 = performance.now();
  const index = new SearchIndex([
    { iri: `${SKOS}prefLabel`, weight: 2 },
    { iri: `${SKOS}altLabel`, weight: 1 },
  ]);
  // From the store loaded out of the snapshot, as a kg-api start-up does.
  index.swapSource('bench', index.buildSource(snapshot.loaded));
  const searchBuild = performance.now() - t0;
  const searchMem = (memory().owned - before.owned) / MB;
  const terms = ['quality', 'vertrag', 'concept 4242', 'metrik begriff', 'data-1'];
  const samples: number[] = [];
  for (let round = 0; round < 40; round++)
    for (const term of terms) {
      const s0 = performance.now();
      index.search(term, { offset: 0, limit: 10 });
      samples.push(performance.now() - s0);
    }
  samples.sort((p, q) => p - q);
  lines.push(
    `| search p50 ms (5 terms, build ${(searchBuild / 1000).toFixed(1)} s, +${searchMem.toFixed(0)} MB) | ${fmt(samples[samples.length >> 1] as number)} | n/a | |`,
    `| start-up from the snapshot: load + search index s | ${((snapshot.load + searchBuild) / 1000).toFixed(2)} | n/a | |`,
  );
  for (const term of terms) {
    const one: number[] = [];
    for (let round = 0; round < 20; round++) {
      const s0 = performance.now();
      index.search(term, { offset: 0, limit: 10 });
      one.push(performance.now() - s0);
    }
    one.sort((p, q) => p - q);
    lines.push(`| search p50 ms: "${term}" | ${fmt(one[one.length >> 1] as number)} | n/a | |`);
  }
  lines.push(`| RSS MB at the end | ${(process.memoryUsage().rss / MB).toFixed(0)} | n/a | |`);
  console.log(lines.join('\n'));
}

const sizes = (process.env.BENCH_TRIPLES ?? '900000').split(',').map(Number);
console.log(
  `node ${process.version}, ${new Date().toISOString()}, load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (const size of sizes) await benchmark(size);
