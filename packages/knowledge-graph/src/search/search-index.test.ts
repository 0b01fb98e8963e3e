import { foldText } from '@dcg/text-match';
import { DataFactory, type Quad } from 'n3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_PREDICATES } from '../source-config';
import { langMatches, SearchIndex } from './search-index';

const { quad, namedNode, literal } = DataFactory;
const skos = 'http://www.w3.org/2004/02/skos/core#';
const ex = 'https://ex.org/';

function concepts(entries: Array<[string, string, string]>): Quad[] {
  return entries.map(([s, p, o]) => quad(namedNode(ex + s), namedNode(p), literal(o, 'en')));
}

function build(entries: Array<[string, string, string]>, sourceId = 'src'): SearchIndex {
  const index = new SearchIndex(DEFAULT_SEARCH_PREDICATES);
  index.replaceSource(sourceId, concepts(entries));
  return index;
}

const page = { offset: 0, limit: 10 };

describe('foldText', () => {
  it('folds case, diacritics and punctuation', () => {
    expect(foldText('Crème-Brûlée, SÃO   Paulo!')).toBe('creme brulee sao paulo');
  });

  it('folds case fully: sharp s, final sigma, Turkish dotted and dotless i', () => {
    expect(foldText('Straße')).toBe('strasse');
    expect(foldText('STRASSE')).toBe('strasse');
    expect(foldText('GROẞ')).toBe('gross');
    expect(foldText('ΟΔΟΣ')).toBe(foldText('οδος'));
    expect(foldText('İstanbul')).toBe('istanbul');
    expect(foldText('ıstanbul')).toBe('istanbul');
    expect(foldText('KIRMIZI')).toBe(foldText('kırmızı'));
  });
});

describe('SearchIndex', () => {
  it('ranks a label match above a definition match', () => {
    const index = build([
      ['def', `${skos}definition`, 'A river carries water to the sea'],
      ['lab', `${skos}prefLabel`, 'River'],
    ]);
    expect(index.search('river', page).results).toEqual([`${ex}lab`, `${ex}def`]);
  });

  it('ranks an exact label above a longer label, a prefix match and a typo', () => {
    const index = build([
      ['typo', `${skos}prefLabel`, 'Rivet'],
      ['prefix', `${skos}prefLabel`, 'Riverbank'],
      ['longer', `${skos}prefLabel`, 'River basin district'],
      ['exact', `${skos}prefLabel`, 'River'],
    ]);
    expect(index.search('river', page).results).toEqual([
      `${ex}exact`,
      `${ex}longer`,
      `${ex}prefix`,
    ]);
    // The typo matches only when nothing matches as written.
    expect(index.search('rivey', page).results).toContain(`${ex}exact`);
    expect(index.search('rivey', page).results).toContain(`${ex}typo`);
  });

  it('counts every query word', () => {
    const index = build([
      ['one', `${skos}prefLabel`, 'Water'],
      ['both', `${skos}prefLabel`, 'Water quality'],
      ['other', `${skos}prefLabel`, 'Air quality'],
    ]);
    const { results, totalResults } = index.search('water quality', page);
    expect(results[0]).toBe(`${ex}both`);
    expect(totalResults).toBe(3);
  });

  it('matches the last word as a prefix while typing', () => {
    const index = build([
      ['wq', `${skos}prefLabel`, 'Water quality'],
      ['wt', `${skos}prefLabel`, 'Water temperature'],
    ]);
    expect(index.search('water qu', page).results[0]).toBe(`${ex}wq`);
    expect(index.search('wat', page).totalResults).toBe(2);
  });

  it('folds case, diacritics and punctuation in queries and literals', () => {
    const index = build([['cafe', `${skos}prefLabel`, 'Café-Crème']]);
    expect(index.search('CAFE creme', page).results).toEqual([`${ex}cafe`]);
    expect(index.search('café, crème!', page).results).toEqual([`${ex}cafe`]);
  });

  it('folds case fully: strasse finds Straße and the reverse, dotless i finds i', () => {
    const index = build([
      ['street', `${skos}prefLabel`, 'Straße'],
      ['road', `${skos}prefLabel`, 'STRASSENBAU'],
      ['red', `${skos}prefLabel`, 'Kırmızı'],
    ]);
    expect(index.search('strasse', page).results).toEqual([`${ex}street`, `${ex}road`]);
    expect(index.search('Straßenbau', page).results).toEqual([`${ex}road`]);
    expect(index.search('KIRMIZI', page).results).toEqual([`${ex}red`]);
    expect(index.search('kirmizi', page).results).toEqual([`${ex}red`]);
  });

  it('does not search predicates that are not configured', () => {
    const index = build([
      ['note', `${skos}note`, 'Groundwater'],
      ['label', `${skos}altLabel`, 'Aquifer'],
    ]);
    expect(index.search('groundwater', page).totalResults).toBe(0);
    expect(index.search('aquifer', page).results).toEqual([`${ex}label`]);
  });

  it('honours configured weights', () => {
    const index = new SearchIndex([
      { iri: `${skos}prefLabel`, weight: 1 },
      { iri: `${skos}definition`, weight: 10 },
    ]);
    index.replaceSource(
      's',
      concepts([
        ['lab', `${skos}prefLabel`, 'Lake'],
        ['def', `${skos}definition`, 'Lake'],
      ]),
    );
    expect(index.search('lake', page).results).toEqual([`${ex}def`, `${ex}lab`]);
  });

  it('pages results and reports the total', () => {
    const entries: Array<[string, string, string]> = [];
    for (let i = 0; i < 25; i++) entries.push([`c${i}`, `${skos}prefLabel`, `Soil sample ${i}`]);
    const index = build(entries);
    const first = index.search('soil', { offset: 0, limit: 10 });
    const third = index.search('soil', { offset: 20, limit: 10 });
    expect(first.totalResults).toBe(25);
    expect(first.results).toHaveLength(10);
    expect(third.results).toHaveLength(5);
    const all = index.search('soil', { offset: 0, limit: 100 }).results;
    expect(new Set(all).size).toBe(25);
    expect([
      ...first.results,
      ...index.search('soil', { offset: 10, limit: 10 }).results,
      ...third.results,
    ]).toEqual(all);
  });

  it('follows one source without touching another, and forgets removed sources', () => {
    const index = new SearchIndex(DEFAULT_SEARCH_PREDICATES);
    index.replaceSource('a', concepts([['a1', `${skos}prefLabel`, 'Forest']]));
    index.replaceSource('b', concepts([['b1', `${skos}prefLabel`, 'Forest fire']]));
    expect(index.search('forest', page).totalResults).toBe(2);
    const untouched = index.sourceIndex('b');
    index.replaceSource('a', concepts([['a2', `${skos}prefLabel`, 'Meadow']]));
    // Only the replaced source was re-indexed.
    expect(index.sourceIndex('b')).toBe(untouched);
    expect(index.search('forest', page).results).toEqual([`${ex}b1`]);
    expect(index.search('meadow', page).results).toEqual([`${ex}a2`]);
    index.removeSource('b');
    expect(index.search('forest', page).totalResults).toBe(0);
  });

  it('shares a document between sources by its IRI, and names it after the source that named it first is gone', () => {
    const index = new SearchIndex(DEFAULT_SEARCH_PREDICATES);
    index.replaceSource(
      'a',
      concepts([
        ['c1', `${skos}prefLabel`, 'Forest'],
        ['c2', `${skos}prefLabel`, 'Lake'],
      ]),
    );
    index.replaceSource(
      'b',
      concepts([
        ['c0', `${skos}prefLabel`, 'Moor'],
        ['c1', `${skos}altLabel`, 'Woodland'],
      ]),
    );
    // One document, matching words of both sources.
    expect(index.search('forest woodland', page)).toEqual({
      results: [`${ex}c1`],
      totalResults: 1,
    });
    index.removeSource('a');
    expect(index.search('woodland', page).results).toEqual([`${ex}c1`]);
    expect(index.search('forest', page).totalResults).toBe(0);
    // Freed ids are reused for other documents, which are named by their own source.
    index.replaceSource(
      'a',
      concepts([
        ['c7', `${skos}prefLabel`, 'Lake'],
        ['c1', `${skos}prefLabel`, 'Fen'],
      ]),
    );
    expect(index.search('lake', page).results).toEqual([`${ex}c7`]);
    expect(index.search('fen woodland', page).results).toEqual([`${ex}c1`]);
    index.replaceSource('b', []);
    expect(index.search('fen', page).results).toEqual([`${ex}c1`]);
    expect(index.search('moor', page).totalResults).toBe(0);
  });

  it('answers only IRIs, never blank nodes', () => {
    const index = new SearchIndex(DEFAULT_SEARCH_PREDICATES);
    index.replaceSource('s', [
      quad(DataFactory.blankNode('b'), namedNode(`${skos}prefLabel`), literal('Glacier')),
      quad(namedNode(`${ex}g`), namedNode(`${skos}prefLabel`), literal('Glaciers')),
    ]);
    // The blank node's word is not a word of the source: the typo still finds the IRI's label.
    expect(index.search('glacier', page).results).toEqual([`${ex}g`]);
    expect(index.search('glacierz', page).results).toEqual([`${ex}g`]);
  });
});

describe('SearchIndex typo tolerance', () => {
  const index = build([
    ['q', `${skos}prefLabel`, 'Quality'],
    ['g', `${skos}prefLabel`, 'Groundwater'],
    ['t', `${skos}prefLabel`, 'Temperature'],
  ]);
  it('finds one substitution, insertion, deletion or transposition', () => {
    for (const typo of ['qualoty', 'quallity', 'qality', 'qaulity']) {
      expect(index.search(typo, page).results, typo).toEqual([`${ex}q`]);
    }
  });
  it('finds two typos in long words only', () => {
    expect(index.search('grondwatr', page).results).toEqual([`${ex}g`]);
    expect(index.search('qalty', page).totalResults).toBe(0);
  });
});

describe('SearchIndex filters', () => {
  const rdfType = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
  const label = `${skos}prefLabel`;
  const index = new SearchIndex(DEFAULT_SEARCH_PREDICATES);
  index.replaceSource('src', [
    quad(namedNode(`${ex}a`), namedNode(label), literal('Water', 'en-US')),
    quad(namedNode(`${ex}a`), namedNode(rdfType), namedNode(`${skos}Concept`)),
    quad(namedNode(`${ex}a`), namedNode(`${skos}inScheme`), namedNode(`${ex}s1`)),
    quad(namedNode(`${ex}b`), namedNode(label), literal('Wasser', 'de')),
    quad(namedNode(`${ex}b`), namedNode(`${skos}altLabel`), literal('water', 'en')),
    quad(namedNode(`${ex}b`), namedNode(`${skos}inScheme`), namedNode(`${ex}s2`)),
    quad(namedNode(`${ex}c`), namedNode(label), literal('water')),
    quad(namedNode(`${ex}c`), namedNode(rdfType), namedNode(`${skos}Concept`)),
  ]);
  // A type stated in another source counts too.
  index.replaceSource('other', [
    quad(namedNode(`${ex}b`), namedNode(rdfType), namedNode(`${skos}Concept`)),
    quad(namedNode(`${ex}b`), namedNode(label), literal('Wasser', 'de')),
  ]);
  const find = (term: string, filters: Record<string, string[]> = {}) =>
    new Set(index.search(term, { ...page, ...filters }).results);

  it('matches language ranges as langMatches does', () => {
    expect(langMatches('en-US', 'en')).toBe(true);
    expect(langMatches('en-US', 'EN-us')).toBe(true);
    expect(langMatches('en', 'en-US')).toBe(false);
    expect(langMatches('eng', 'en')).toBe(false);
    expect(langMatches('de', '*')).toBe(true);
    expect(langMatches('', '*')).toBe(false);
  });

  it('keeps only literals in the requested languages', () => {
    expect(find('water')).toEqual(new Set([`${ex}a`, `${ex}b`, `${ex}c`]));
    expect(find('water', { lang: ['en'] })).toEqual(new Set([`${ex}a`, `${ex}b`]));
    expect(find('water', { lang: ['en-us'] })).toEqual(new Set([`${ex}a`]));
    expect(find('water', { lang: ['de'] })).toEqual(new Set());
    expect(find('wasser', { lang: ['de', 'fr'] })).toEqual(new Set([`${ex}b`]));
  });

  it('filters by language in a source with more than 65,536 language tags', () => {
    const many = new SearchIndex(DEFAULT_SEARCH_PREDICATES);
    const quads = Array.from({ length: 70_000 }, (_, i) =>
      quad(namedNode(`${ex}m${i}`), namedNode(label), literal('river', `x-l${i.toString(36)}`)),
    );
    many.replaceSource('many', quads);
    const last = (69_999).toString(36);
    expect(many.search('river', { ...page, lang: [`x-l${last}`] }).results).toEqual([
      `${ex}m69999`,
    ]);
    expect(many.search('river', { ...page, lang: ['x'] }).totalResults).toBe(70_000);
  });

  it('keeps only documents of the requested types and schemes', () => {
    expect(find('water', { types: [`${skos}Concept`] })).toEqual(
      new Set([`${ex}a`, `${ex}b`, `${ex}c`]),
    );
    expect(find('water', { schemes: [`${ex}s2`] })).toEqual(new Set([`${ex}b`]));
    expect(find('water', { schemes: [`${ex}s1`, `${ex}s2`] })).toEqual(
      new Set([`${ex}a`, `${ex}b`]),
    );
    expect(find('water', { types: [`${skos}Concept`], schemes: [`${ex}s1`] })).toEqual(
      new Set([`${ex}a`]),
    );
    expect(find('water', { types: [`${ex}Nothing`] })).toEqual(new Set());
    expect(index.search('water', { ...page, schemes: [`${ex}s2`] }).totalResults).toBe(1);
  });
});

describe('prefix completions', () => {
  it('keeps the completions in the most documents, ties in word order, never the prefix itself', () => {
    const entries: Array<[string, string, string]> = [['p', `${skos}prefLabel`, 'wa']];
    // wa00 … wa59: word i is in (i % 7) + 1 documents.
    for (let i = 0; i < 60; i++)
      for (let d = 0; d <= i % 7; d++)
        entries.push([`d${i}-${d}`, `${skos}prefLabel`, `wa${String(i).padStart(2, '0')}`]);
    const index = build(entries);
    const source = index.sourceIndex('src')!;
    const all = source.termsWithPrefix('wa');
    expect(all).toHaveLength(60);
    const expected = all
      .map((t) => ({ t, df: source.docFrequency(source.wordId(t)) }))
      .sort((a, b) => b.df - a.df)
      .slice(0, 48)
      .map((x) => x.t);
    expect(source.mostFrequentWithPrefix('wa', 48)).toEqual(expected);
    expect(source.mostFrequentWithPrefix('wa0', 3)).toEqual(['wa06', 'wa05', 'wa04']);
    expect(source.mostFrequentWithPrefix('zz', 3)).toEqual([]);
  });

  it('keeps the same completions when whole blocks of rare words are skipped', () => {
    // 700 completions (blocks of 64 words), their document counts uneven and often tied.
    const entries: Array<[string, string, string]> = [];
    for (let i = 0; i < 700; i++)
      for (let d = 0; d <= ((i * 7919) % 13) % 5; d++)
        entries.push([`d${i}-${d}`, `${skos}prefLabel`, `x${String(i).padStart(3, '0')}`]);
    entries.push(['p', `${skos}prefLabel`, 'x']);
    const source = build(entries).sourceIndex('src')!;
    for (const prefix of ['x', 'x0', 'x1', 'x12', 'x6']) {
      for (const max of [1, 5, 48]) {
        const expected = source
          .termsWithPrefix(prefix)
          .map((t) => ({ t, df: source.docFrequency(source.wordId(t)) }))
          .sort((a, b) => b.df - a.df || (a.t < b.t ? -1 : 1))
          .slice(0, max)
          .map((x) => x.t);
        expect(source.mostFrequentWithPrefix(prefix, max)).toEqual(expected);
      }
    }
  });

  it('prunes a multi-word query without losing a whole-label match that comes after a full page', () => {
    // The first documents hold both words at their best, but in another order: the page is full
    // at the words' largest scores before the one label equal to the query is reached.
    const entries: Array<[string, string, string]> = [];
    for (let i = 0; i < 40; i++) entries.push([`r${i}`, `${skos}prefLabel`, 'River Lake']);
    entries.push(['exact', `${skos}prefLabel`, 'Lake River']);
    for (let i = 0; i < 40; i++) entries.push([`l${i}`, `${skos}prefLabel`, `Lake ${i}`]);
    const pruned = build(entries);
    const full = new SearchIndex(DEFAULT_SEARCH_PREDICATES, { exhaustive: true });
    full.replaceSource('src', concepts(entries));
    for (const [offset, limit] of [
      [0, 1],
      [0, 10],
      [5, 5],
      [39, 3],
      [60, 30],
    ]) {
      const want = full.search('lake river', { offset: offset!, limit: limit! });
      expect(pruned.search('lake river', { offset: offset!, limit: limit! })).toEqual(want);
      expect(want.totalResults).toBe(81);
    }
    expect(pruned.search('lake river', { offset: 0, limit: 2 }).results).toEqual([
      `${ex}exact`,
      `${ex}r0`,
    ]);
  });

  it('ranks as the full scan does where pruning gives up: varied scores, prefixes over long lists', () => {
    // Labels of 1-6 words from a skewed vocabulary: scores vary, so pruning skips little and
    // runs out of its work budget on the longer queries (the lists are scanned then).
    const vocabulary = Array.from({ length: 60 }, (_, i) => `w${i.toString(36)}v${i % 7}`);
    const entries: Array<[string, string, string]> = [];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 4_000; i++) {
      const words = Array.from(
        { length: 1 + Math.floor(next() * 6) },
        () => vocabulary[Math.floor(60 * next() ** 3)]!,
      );
      entries.push([`c${i}`, `${skos}${i % 4 === 0 ? 'altLabel' : 'prefLabel'}`, words.join(' ')]);
    }
    const pruned = build(entries);
    const full = new SearchIndex(DEFAULT_SEARCH_PREDICATES, { exhaustive: true });
    full.replaceSource('src', concepts(entries));
    const [a, b, c] = [vocabulary[0]!, vocabulary[1]!, vocabulary[9]!];
    for (const term of ['w', `${a} w`, `${a} ${b}`, `${c} ${b} ${a}`, `${b} ${a}`, `${c} wa`])
      for (const [offset, limit] of [
        [0, 10],
        [45, 10],
        [0, 100],
      ]) {
        const page = { offset: offset!, limit: limit! };
        expect(pruned.search(term, page)).toEqual(full.search(term, page));
      }
  });

  it('ranks a one-word query in one pass as the full scan does: ties by first indexed, deep pages, totals', () => {
    const entries: Array<[string, string, string]> = [];
    for (let i = 0; i < 1_500; i++)
      entries.push([
        `c${i}`,
        `${skos}${i % 3 === 0 ? 'altLabel' : 'prefLabel'}`,
        i % 5 ? 'Water' : `water body ${i % 7}`,
      ]);
    const fast = new SearchIndex(DEFAULT_SEARCH_PREDICATES);
    const full = new SearchIndex(DEFAULT_SEARCH_PREDICATES, { exhaustive: true });
    fast.replaceSource('s', concepts(entries));
    full.replaceSource('s', concepts(entries));
    for (const [offset, limit] of [
      [0, 10],
      [7, 3],
      [990, 30],
      [1_000, 24],
      [1_400, 200],
      [0, 0],
    ]) {
      const got = fast.search('water', { offset: offset!, limit: limit! });
      expect(got).toEqual(full.search('water', { offset: offset!, limit: limit! }));
      expect(got.totalResults).toBe(1_500);
    }
    expect(fast.search('water', { offset: 0, limit: 3 }).results).toEqual([
      `${ex}c1`,
      `${ex}c2`,
      `${ex}c4`,
    ]);
  });
});
