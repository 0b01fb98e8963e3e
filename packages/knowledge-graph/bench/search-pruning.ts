/**
 * Ranking with pruning (`rankPruned`, the default) against scanning every list
 * (`exhaustive: true`), on a corpus where pruning is hard: labels of 1 to 8 words drawn from a
 * skewed vocabulary of 400 words, so that scores vary and short prefixes reach 48 long lists.
 * Prints p50 per query for both (their pages must be equal) and the work units the pruned ranking
 * spent per list entry of the query, which sets `PRUNE_COST_RATIO` in search-index.ts: a unit of
 * work should cost about as much as a scanned entry.
 *
 *   BENCH_DOCS=300000 node --conditions=@dcg/source --import tsx bench/search-pruning.ts
 */
import { isDeepStrictEqual } from 'node:util';
import { SearchIndex } from '../src/search/search-index';
import { TripleStoreBuilder } from '../src/store/triple-store-builder';
import { mix, SKOS } from './thesaurus';

const docs = Number(process.env.BENCH_DOCS ?? 300_000);
const predicates = [
  { iri: `${SKOS}prefLabel`, weight: 2 },
  { iri: `${SKOS}altLabel`, weight: 1 },
];
const vocabulary = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x${(i * 7) % 13}`);
const builder = new TripleStoreBuilder();
for (let i = 0; i < docs; i++) {
  for (const [p, salt] of [
    [predicates[0]!.iri, 1],
    [predicates[1]!.iri, 2],
  ] as const) {
    const words: string[] = [];
    for (let j = 0, length = 1 + (mix(i * 3 + salt) % 8); j < length; j++) {
      const r = mix(i * 31 + j * 7 + salt) / 2 ** 32;
      words.push(vocabulary[Math.floor(400 * r * r * r)]!);
    }
    builder.addTerms(`https://ex.org/c${i}`, p, `"${words.join(' ')}"@en`);
  }
}
const store = builder.build();
const pruned = new SearchIndex(predicates);
const full = new SearchIndex(predicates, { exhaustive: true });
pruned.swapSource('s', pruned.buildSource(store));
full.swapSource('s', full.buildSource(store));

const [a, b, c, d] = [vocabulary[0]!, vocabulary[1]!, vocabulary[5]!, vocabulary[20]!];
const queries = [a, `${a} ${b}`, `${b} ${c} ${d}`, `${d} ${c}`, 'w', 'w1', `${a} w`];
const p50 = (index: SearchIndex, term: string, page: { offset: number; limit: number }) => {
  const samples: number[] = [];
  for (let round = 0; round < 40; round++) {
    const t0 = performance.now();
    index.search(term, page);
    samples.push(performance.now() - t0);
  }
  return (samples.sort((x, y) => x - y)[samples.length >> 1] as number).toFixed(3);
};
console.log(`## ${docs.toLocaleString('en')} documents, skewed vocabulary, labels of 1-8 words`);
console.log('| query | page | pruned p50 ms | scan p50 ms | totalResults |');
console.log('|---|---|---:|---:|---:|');
for (const term of queries) {
  for (const page of [
    { offset: 0, limit: 10 },
    { offset: 90, limit: 10 },
  ]) {
    const want = full.search(term, page);
    if (!isDeepStrictEqual(pruned.search(term, page), want))
      throw new Error(`pruned and scanned pages differ for "${term}"`);
    const times = [p50(pruned, term, page), p50(full, term, page)];
    console.log(
      `| ${term} | ${page.offset}+${page.limit} | ${times[0]} | ${times[1]} | ${want.totalResults} |`,
    );
  }
}
