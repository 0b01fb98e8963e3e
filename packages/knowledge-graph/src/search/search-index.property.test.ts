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

  it('ranks and counts the same when a long list is looked up instead of scanned', () => {
    const skewed = fc.array(
      fc.record({
        id: fc.integer({ min: 0, max: 60 }),
        words: fc.array(fc.constantFrom('lake', 'lake', 'lake', ...WORDS), {
          minLength: 1,
          maxLength: 4,
        }),
      }),
      { maxLength: 80 },
    );
    fc.assert(
      fc.property(skewed, query, fc.integer({ min: 1, max: 12 }), (docs, words, limit) => {
        const quads = docs.map((d) =>
          quad(namedNode(`urn:c${d.id}`), namedNode(label), literal(d.words.join(' '))),
        );
        const probing = new SearchIndex(DEFAULT_SEARCH_PREDICATES, { pruneAbove: 1 });
        const scanning = new SearchIndex(DEFAULT_SEARCH_PREDICATES, {
          pruneAbove: Number.POSITIVE_INFINITY,
        });
        probing.replaceSource('s', quads);
        scanning.replaceSource('s', quads);
        const term = [...words, 'lake'].join(' ');
        for (const offset of [0, 2]) {
          const page = { offset, limit };
          expect(probing.search(term, page)).toEqual(scanning.search(term, page));
        }
      }),
      { numRuns: 300 },
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
