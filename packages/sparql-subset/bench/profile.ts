/**
 * Profiling aid: runs selected benchmark queries many times in-process, for `node --cpu-prof`.
 *   PROFILE_CONCEPTS=100000 PROFILE_QUERIES="large OFFSET scan" node --conditions=@dcg/source --import tsx --cpu-prof bench/profile.ts
 */
import { Store } from 'n3';
import { query } from '../src/query';
import { benchmarkQueries } from './queries';
import { generateThesaurus } from './thesaurus';

const concepts = Number(process.env.PROFILE_CONCEPTS ?? 100_000);
const runs = Number(process.env.PROFILE_RUNS ?? 50);
const wanted = (process.env.PROFILE_QUERIES ?? '').split(',').filter(Boolean);
const store = new Store();
store.addQuads(generateThesaurus(concepts));
for (const { name, text } of benchmarkQueries(concepts)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const first = await query(text, store);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await query(text, store);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const rows = 'results' in first ? first.results.bindings.length : 1;
  console.log(
    `${name}: ${rows} rows, median ${(times[times.length >> 1] as number).toFixed(2)} ms`,
  );
}
