/**
 * Times the benchmark queries on our store alone, parse and evaluation apart, at BENCH_TRIPLES
 * (default 900,000), in memory: for finding where a query's time goes (run with --cpu-prof).
 *
 *   node --conditions=@dcg/source --import tsx bench/profile-queries.ts [query name substring]
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { evaluate, parseQuery } from '@dcg/sparql-subset';
import { Parser } from 'n3';
import { TripleStoreBuilder } from '../src/store/triple-store-builder';
import { benchmarkQueries, conceptsFor, thesaurusChunks } from './thesaurus';

const triples = Number(process.env.BENCH_TRIPLES ?? 900_000);
const concepts = conceptsFor(triples);
const builder = new TripleStoreBuilder();
for (const chunk of thesaurusChunks(concepts))
  for (const quad of new Parser({ format: 'N-Triples' }).parse(chunk)) builder.addQuad(quad);
const store = builder.build();
const only = process.argv[2];
// BENCH_PROFILE=file.cpuprofile: a CPU profile of the queries only (not of the build).
const profileFile = process.env.BENCH_PROFILE;
const session = profileFile === undefined ? undefined : new Session();
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
for (const { name, text } of benchmarkQueries(concepts)) {
  if (only !== undefined && !name.includes(only)) continue;
  const parsed = parseQuery(text);
  if (!parsed.success) throw new Error(`${name}: ${JSON.stringify(parsed.problems)}`);
  const parse: number[] = [];
  const run: number[] = [];
  let rows = 0;
  const started = performance.now();
  while (run.length < 20 || (run.length < 2000 && performance.now() - started < 2000)) {
    let t0 = performance.now();
    const again = parseQuery(text);
    parse.push(performance.now() - t0);
    if (!again.success) throw new Error('parse');
    t0 = performance.now();
    const result = await evaluate(again.query, store);
    run.push(performance.now() - t0);
    rows = 'results' in result ? result.results.bindings.length : 1;
  }
  const p50 = (list: number[]) => list.sort((a, b) => a - b)[list.length >> 1] as number;
  console.log(
    `${name}: ${rows} rows, parse p50 ${p50(parse).toFixed(3)} ms, evaluate p50 ${p50(run).toFixed(3)} ms`,
  );
}
if (session && profileFile) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(profileFile, JSON.stringify(profile));
}
