/**
 * Start-up from a snapshot, as kg-api does it, in a fresh process: load the graph's binary
 * snapshot, build the search index from the loaded store, then search p50 per term and RSS.
 * The snapshot (of the thesaurus graph of `bench/thesaurus.ts`) is kept in BENCH_DIR (default the
 * system's temporary folder); when missing, this run ingests the N-Triples (generated when
 * missing too) and writes it. A snapshot without a search index (older format) is loaded, its
 * index built (measured) and written again with the index; later runs read the index from it.
 *
 *   BENCH_TRIPLES=10000000 node --conditions=@dcg/source --import tsx --expose-gc bench/startup.ts
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'n3';
import { decodeSnapshot, encodeSnapshot } from '../src/node/graph-snapshot';
import { SearchIndex } from '../src/search/search-index';
import { TripleStoreBuilder } from '../src/store/triple-store-builder';
import { conceptsFor, SKOS } from './thesaurus';
import { fileChunks, writeThesaurusFile } from './thesaurus-file';

const MB = 2 ** 20;
const triples = Number(process.env.BENCH_TRIPLES ?? 900_000);
const concepts = conceptsFor(triples);
const dir = process.env.BENCH_DIR ?? tmpdir();
const snapshotFile = join(dir, `dcg-thesaurus-${concepts}.snapshot`);
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

if (!existsSync(snapshotFile)) {
  const text = join(dir, `dcg-thesaurus-${concepts}.nt`);
  if (!existsSync(text)) await writeThesaurusFile(triples, text);
  const t0 = performance.now();
  const builder = new TripleStoreBuilder();
  const parser = new Parser({ format: 'N-Triples' });
  // Chunks of whole lines: each parses alone.
  for await (const chunk of fileChunks(text))
    for (const q of parser.parse(chunk)) builder.addQuad(q);
  const store = builder.build();
  const handle = await open(`${snapshotFile}.tmp`, 'w');
  for (const chunk of encodeSnapshot(store, randomUUID())) await handle.write(chunk);
  await handle.close();
  await rename(`${snapshotFile}.tmp`, snapshotFile);
  console.log(`ingested ${text} and wrote ${snapshotFile} in ${seconds(performance.now() - t0)} s`);
  console.log('run again in a fresh process to measure the start-up');
  process.exit(0);
}

const rss0 = process.memoryUsage().rss;
console.log(`node ${process.version}, ${new Date().toISOString()}, load average ${load()}`);
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return ((used.user + used.system) / 1e6).toFixed(2);
};
// On a shared machine the wall clock counts other processes' time too: CPU time is shown beside.
let cpu = process.cpuUsage();
let t0 = performance.now();
const { store, searchIndex } = await decodeSnapshot(
  createReadStream(snapshotFile, { highWaterMark: 1 << 22 }),
  snapshotFile,
);
const loadMs = performance.now() - t0;
const loadCpu = cpuSeconds(cpu);
cpu = process.cpuUsage();
t0 = performance.now();
const index = new SearchIndex([
  { iri: `${SKOS}prefLabel`, weight: 2 },
  { iri: `${SKOS}altLabel`, weight: 1 },
]);
const restored = searchIndex && index.restoreSource(store, searchIndex);
index.swapSource('bench', restored ?? index.buildSource(store));
const searchMs = performance.now() - t0;
const searchCpu = cpuSeconds(cpu);
if (!restored) {
  // Written again with the index, for the next runs (not measured).
  const handle = await open(`${snapshotFile}.tmp`, 'w');
  const data = index.sourceIndex('bench')!.toData();
  for (const chunk of encodeSnapshot(store, randomUUID(), data)) await handle.write(chunk);
  await handle.close();
  await rename(`${snapshotFile}.tmp`, snapshotFile);
  console.log(`wrote ${snapshotFile} again with its search index`);
}
const lines = [
  `## start-up from the snapshot of ${store.size.toLocaleString('en')} triples (${store.terms.size.toLocaleString('en')} terms)`,
  '| measure | wall | CPU (user + system) |',
  '|---|---:|---:|',
  `| snapshot load s | ${seconds(loadMs)} | ${loadCpu} |`,
  `| search index ${restored ? 'read from the snapshot' : 'build'} s | ${seconds(searchMs)} | ${searchCpu} |`,
  `| start-up total s | ${seconds(loadMs + searchMs)} | |`,
];
const terms = ['quality', 'vertrag', 'concept 4242', 'metrik begriff', 'data-1'];
const all: number[] = [];
const allCpu: number[] = [];
const p50 = (values: number[]) =>
  (values.sort((a, b) => a - b)[values.length >> 1] as number).toFixed(3);
for (const term of terms) {
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let round = 0; round < 40; round++) {
    const c0 = process.cpuUsage();
    const s0 = performance.now();
    index.search(term, { offset: 0, limit: 10 });
    samples.push(performance.now() - s0);
    const used = process.cpuUsage(c0);
    cpuSamples.push((used.user + used.system) / 1000);
  }
  all.push(...samples);
  allCpu.push(...cpuSamples);
  lines.push(`| search p50 ms "${term}" | ${p50(samples)} | ${p50(cpuSamples)} |`);
}
lines.push(`| search p50 ms, all 5 terms | ${p50(all)} | ${p50(allCpu)} |`);
(globalThis as { gc?: () => void }).gc?.();
lines.push(
  `| RSS growth MB (after GC) | ${((process.memoryUsage().rss - rss0) / MB).toFixed(0)} |`,
);
lines.push(`| load average at the end | ${load()} |`);
console.log(lines.join('\n'));
