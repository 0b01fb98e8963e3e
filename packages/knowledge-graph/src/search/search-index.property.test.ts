import { boundedEditDistance, foldedWords as tokenize } from '@dcg/text-match';
import fc from 'fast-check';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_PREDICATES } from '../source-config';
import { SearchIndex } from './search-index';

const { quad, namedNode, literal } = DataFactory;
const label = 'http://www.w3.org/2004/02/skos/core#prefLabel';
const note = 'http://www.w3.org/2004/02/skos/core#note';
const WORDS = [
  'river',
  'rivet',
  'lake',
  'lakes',
  'water',
  'quality',
  'basin',
  'delta',
  'café',
  'Eau',
];

const corpus = fc.array(
  fc.record({
    id: fc.integer({ min: 0, max: 30 }),
    searchable: fc.boolean(),
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
  }),
  { maxLength: 40 },
);
const query = fc.array(fc.constantFrom(...WORDS, 'riv', 'lak', 'qualty', 'wat'), {
  minLength: 1,
  maxLength: 3,
});

// Whether a literal's word can match a query word in any of the ways search allows.
function wordMatches(queryWord: string, word: string, isLast: boolean): boolean {
  if (word === queryWord) return true;
  if (isLast && word.startsWith(queryWord)) return true;
  return (
    queryWord.length >= 4 &&
    boundedEditDistance(queryWord, word, queryWord.length >= 8 ? 2 : 1) <= 2
  );
}

describe('SearchIndex properties', () => {
  it('answers only documents with a matching searchable literal, pages consistently, totals exactly', () => {
    fc.assert(
      fc.property(corpus, query, (docs, words) => {
        const index = new SearchIndex(DEFAULT_SEARCH_PREDICATES);
        index.replaceSource(
          's',
          docs.map((d) =>
            quad(
              namedNode(`urn:c${d.id}`),
              namedNode(d.searchable ? label : note),
              literal(d.words.join(' ')),
            ),
          ),
        );
        const term = words.join(' ');
        const all = index.search(term, { offset: 0, limit: 1000 });
        expect(new Set(all.results).size).toBe(all.results.length);
        expect(all.totalResults).toBe(all.results.length);
        const queryWords = tokenize(term);
        for (const iri of all.results) {
          const literals = docs.filter((d) => d.searchable && `urn:c${d.id}` === iri);
          const ok = literals.some((d) =>
            tokenize(d.words.join(' ')).some((w) =>
              queryWords.some((q, i) => wordMatches(q, w, i === queryWords.length - 1)),
            ),
          );
          expect(ok, `${iri} for "${term}"`).toBe(true);
        }
        // Pages of 3 put together are the full ranking.
        const paged: string[] = [];
        for (let offset = 0; offset < all.totalResults; offset += 3) {
          const page = index.search(term, { offset, limit: 3 });
          expect(page.totalResults).toBe(all.totalResults);
          paged.push(...page.results);
        }
        expect(paged).toEqual(all.results);
      }),
      { numRuns: 150 },
    );
  });

  it('finds every document whose searchable literal holds a query word exactly', () => {
    fc.assert(
      fc.property(corpus, fc.constantFrom(...WORDS), (docs, word) => {
        const index = new SearchIndex(DEFAULT_SEARCH_PREDICATES);
        index.replaceSource(
          's',
          docs.map((d) =>
            quad(
              namedNode(`urn:c${d.id}`),
              namedNode(d.searchable ? label : note),
              literal(d.words.join(' ')),
            ),
          ),
        );
        const folded = tokenize(word)[0]!;
        const expected = new Set(
          docs
            .filter((d) => d.searchable && tokenize(d.words.join(' ')).includes(folded))
            .map((d) => `urn:c${d.id}`),
        );
        const results = new Set(index.search(word, { offset: 0, limit: 1000 }).results);
        for (const iri of expected) expect(results.has(iri)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('ranks and counts multi-word queries with pruning exactly as the full scan does', () => {
    const alt = 'http://www.w3.org/2004/02/skos/core#altLabel';
    // Skewed towards a few words (long lists, many ties) and short labels (whole-label bonus),
    // in two sources that share documents, with typo-only and prefix-only query words.
    const docs = fc.array(
      fc.record({
        id: fc.integer({ min: 0, max: 60 }),
        predicate: fc.constantFrom(label, label, alt, note),
        source: fc.constantFrom('a', 'a', 'a', 'b'),
        lang: fc.constantFrom('', 'en', 'de'),
        words: fc.array(fc.constantFrom('lake', 'lake', 'lake', 'river', ...WORDS), {
          minLength: 1,
          maxLength: 4,
        }),
      }),
      { maxLength: 90 },
    );
    const terms = fc.array(
      fc.constantFrom(...WORDS, 'lake', 'river', 'riv', 'lak', 'qualty', 'wat', 'rivr', 'none'),
      { minLength: 1, maxLength: 4 },
    );
    fc.assert(
      fc.property(
        docs,
        terms,
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 12 }),
        fc.nat(),
        (docs, words, offset, limit, pick) => {
          const pruned = new SearchIndex(DEFAULT_SEARCH_PREDICATES);
          const full = new SearchIndex(DEFAULT_SEARCH_PREDICATES, { exhaustive: true });
          for (const sourceId of ['a', 'b']) {
            const quads = docs
              .filter((d) => d.source === sourceId)
              .map((d) =>
                quad(
                  namedNode(`urn:c${d.id}`),
                  namedNode(d.predicate),
                  literal(d.words.join(' '), d.lang),
                ),
              );
            pruned.replaceSource(sourceId, quads);
            full.replaceSource(sourceId, quads);
          }
          const term = words.join(' ');
          expect(pruned.search(term, { offset, limit })).toEqual(
            full.search(term, { offset, limit }),
          );
          // The whole ranking, and a label's own words as the query (the whole-label bonus).
          const everything = { offset: 0, limit: 200 };
          expect(pruned.search(term, everything)).toEqual(full.search(term, everything));
          const labelTerm = docs[pick % Math.max(docs.length, 1)]?.words.join(' ') ?? term;
          expect(pruned.search(labelTerm, { offset, limit })).toEqual(
            full.search(labelTerm, { offset, limit }),
          );
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('ranks and counts one-word queries in one pass exactly as the full scan does', () => {
    const alt = 'http://www.w3.org/2004/02/skos/core#altLabel';
    const docs = fc.array(
      fc.record({
        id: fc.integer({ min: 0, max: 50 }),
        predicate: fc.constantFrom(label, alt, note),
        // Mostly one source: a word found in two sources takes the general path.
        source: fc.constantFrom('a', 'a', 'a', 'a', 'a', 'a', 'b'),
        words: fc.array(fc.constantFrom('lake', 'lake', ...WORDS), { minLength: 1, maxLength: 3 }),
      }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(
        docs,
        fc.constantFrom(...WORDS, 'riv', 'qualty'),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 12 }),
        (docs, word, offset, limit) => {
          const fast = new SearchIndex(DEFAULT_SEARCH_PREDICATES);
          const full = new SearchIndex(DEFAULT_SEARCH_PREDICATES, { exhaustive: true });
          for (const sourceId of ['a', 'b']) {
            const quads = docs
              .filter((d) => d.source === sourceId)
              .map((d) =>
                quad(namedNode(`urn:c${d.id}`), namedNode(d.predicate), literal(d.words.join(' '))),
              );
            fast.replaceSource(sourceId, quads);
            full.replaceSource(sourceId, quads);
          }
          const page = { offset, limit };
          expect(fast.search(word, page)).toEqual(full.search(word, page));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
