import type * as RDF from '@rdfjs/types';
import { DataFactory, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { query } from '../src/query';
import type { QuerySource } from '../src/triple-source';
import { toTripleSource } from '../src/triple-source';

/*
 * The index shortcuts for large scans only start on index levels of more than a thousand keys:
 * flattened levels, OFFSET skipped inside the index, and filters on one variable tested once per
 * distinct term inside the index. Each is checked here against the same engine on a path without
 * the shortcut (the DatasetCore interface, or a filter that reads two variables).
 */

const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const EX = 'http://example.org/';
const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';
const N = 3000;
const { namedNode, literal, quad } = DataFactory;

function thesaurusQuads(from: number, to: number, graph?: string): RDF.Quad[] {
  const g = graph === undefined ? DataFactory.defaultGraph() : namedNode(graph);
  const out: RDF.Quad[] = [];
  for (let i = from; i < to; i++) {
    const c = namedNode(`${EX}c${i}`);
    out.push(quad(c, namedNode(`${SKOS}prefLabel`), literal(`Word ${i}`, 'en'), g));
    out.push(quad(c, namedNode(`${SKOS}prefLabel`), literal(`Wort ${i}`, 'de'), g));
    out.push(quad(c, namedNode(`${EX}rank`), literal(String(i % 100), namedNode(XSD_INTEGER)), g));
    if (i % 7 === 0)
      out.push(quad(c, namedNode(`${EX}rank`), literal(`0${i % 50}`, namedNode(XSD_INTEGER)), g));
  }
  return out;
}

/** One graph; two overlapping named graphs in one store; two overlapping stores; DatasetCore. */
function sources(): { name: string; source: QuerySource }[] {
  const single = new Store(thesaurusQuads(0, N));
  const graphs = new Store([
    ...thesaurusQuads(0, 2000, `${EX}g1`),
    ...thesaurusQuads(1500, N, `${EX}g2`),
  ]);
  const a = new Store(thesaurusQuads(0, 2200));
  const b = new Store(thesaurusQuads(1000, N));
  return [
    { name: 'one n3 Store', source: single },
    { name: 'two named graphs', source: graphs },
    { name: 'two stores', source: [a, b] },
    { name: 'DatasetCore', source: new Store(thesaurusQuads(0, N)).match() },
  ];
}

const P = `PREFIX skos: <${SKOS}> PREFIX ex: <${EX}> `;

async function rows(text: string, source: QuerySource): Promise<string[]> {
  const results = await query(P + text, source);
  if (!('results' in results)) throw new Error('expected SELECT results');
  return results.results.bindings.map((row) => JSON.stringify(row));
}

describe('large index levels', () => {
  const all = sources();

  it.each(all)(
    'pages with OFFSET/LIMIT partition the full scan in order ($name)',
    async ({ source }) => {
      const full = await rows('SELECT ?c ?l { ?c skos:prefLabel ?l }', source);
      expect(full).toHaveLength(2 * N);
      for (const offset of [0, 1, 999, 1000, 1001, 2999, 4321, 2 * N - 1, 2 * N, 2 * N + 5]) {
        const page = await rows(
          `SELECT ?c ?l { ?c skos:prefLabel ?l } OFFSET ${offset} LIMIT 7`,
          source,
        );
        expect(page).toEqual(full.slice(offset, offset + 7));
      }
      // Without LIMIT, and with a constant subject (a small level): the same rule.
      expect(await rows('SELECT ?c ?l { ?c skos:prefLabel ?l } OFFSET 5990', source)).toEqual(
        full.slice(5990),
      );
      const one = await rows('SELECT ?p ?o { ex:c7 ?p ?o }', source);
      expect(await rows('SELECT ?p ?o { ex:c7 ?p ?o } OFFSET 2', source)).toEqual(one.slice(2));
    },
  );

  it.each(all)(
    'filters on one variable give the answers of the general path ($name)',
    async ({ source }) => {
      const pairs: [string, string][] = [
        // Keyed: the filter reads ?rank only. Reference: a filter that also reads ?c.
        [
          'SELECT ?c ?rank { ?c ex:rank ?rank FILTER(?rank >= 95) } ORDER BY DESC(?rank) ?c LIMIT 20',
          'SELECT ?c ?rank { ?c ex:rank ?rank FILTER(?rank >= 95 || sameTerm(?c, ex:none)) } ORDER BY DESC(?rank) ?c LIMIT 20',
        ],
        [
          'SELECT ?c ?rank { ?c ex:rank ?rank FILTER(?rank < 3) }',
          'SELECT ?c ?rank { ?c ex:rank ?rank FILTER(?rank < 3 || sameTerm(?c, ex:none)) }',
        ],
        [
          'SELECT ?c ?l { ?c skos:prefLabel ?l FILTER(CONTAINS(LCASE(?l), "word 12")) } ORDER BY ?l LIMIT 10 OFFSET 3',
          'SELECT ?c ?l { ?c skos:prefLabel ?l FILTER(CONTAINS(LCASE(?l), "word 12") || sameTerm(?c, ex:none)) } ORDER BY ?l LIMIT 10 OFFSET 3',
        ],
        [
          'SELECT ?c ?l { ?c ex:rank 42 ; skos:prefLabel ?l FILTER(LANG(?l) = "de") }',
          'SELECT ?c ?l { ?c ex:rank 42 ; skos:prefLabel ?l FILTER(LANG(?l) = "de" || sameTerm(?c, ex:none)) }',
        ],
        [
          'SELECT ?c { ?c ?p ?o FILTER(?p = ex:rank) FILTER(?o > 98) }',
          'SELECT ?c { ?c ?p ?o FILTER(?p = ex:rank && (?o > 98 || sameTerm(?c, ex:none))) }',
        ],
      ];
      for (const [keyed, general] of pairs) {
        const expected = await rows(general, source);
        expect(expected.length).toBeGreaterThan(0);
        const actual = await rows(keyed, source);
        if (keyed.includes('ORDER BY')) expect(actual).toEqual(expected);
        else expect([...actual].sort()).toEqual([...expected].sort());
      }
    },
  );

  it('ORDER BY with LIMIT/OFFSET keeps the rows of the full sort, ties in arrival order', async () => {
    const source = new Store(thesaurusQuads(0, N));
    for (const order of ['DESC(?rank)', '?rank', 'DESC(?rank) ?c', 'STR(?rank)']) {
      const text = `SELECT ?c ?rank { ?c ex:rank ?rank } ORDER BY ${order}`;
      const full = await rows(text, source);
      expect(full.length).toBeGreaterThan(N);
      for (const [offset, limit] of [
        [0, 1],
        [0, 7],
        [13, 40],
        [100, 2500],
        [0, full.length - 1],
        [2, full.length],
        [0, full.length + 10],
        [full.length - 3, 10],
      ] as const)
        expect(await rows(`${text} OFFSET ${offset} LIMIT ${limit}`, source)).toEqual(
          full.slice(offset, offset + limit),
        );
    }
  });

  it('a cursor suspended by its term tests resumes where it stopped', () => {
    const store = new Store(thesaurusQuads(0, N));
    const triples = toTripleSource(store);
    const wanted: string[] = [];
    const plain = triples.open(undefined, `${SKOS}prefLabel`, undefined);
    while (plain.next()) if (plain.o.includes('7')) wanted.push(`${plain.s} ${plain.o}`);
    let interrupts = 0;
    const tested = triples.open(undefined, `${SKOS}prefLabel`, undefined, {
      o: (id) => id.includes('7'),
      interrupt: () => true,
    });
    const found: string[] = [];
    for (;;) {
      if (tested.next()) found.push(`${tested.s} ${tested.o}`);
      else if (tested.suspended) {
        tested.suspended = false;
        interrupts++;
      } else break;
    }
    expect(found).toEqual(wanted);
    expect(interrupts).toBeGreaterThan(1000);
  });
});

describe('cached key lists of a store changed in place', () => {
  it('sees every change, even when the size comes back to the recorded one', async () => {
    const store = new Store(thesaurusQuads(0, N));
    const labelled = async () => {
      const r = (await query(
        `SELECT ?c WHERE { ?c <${SKOS}prefLabel> ?l FILTER(STRSTARTS(?l, "Extra") || ?l = "Word 7"@en) }`,
        store,
      )) as unknown as { results: { bindings: { c: { value: string } }[] } };
      return r.results.bindings.map((b) => b.c.value).sort();
    };
    expect(await labelled()).toEqual([`${EX}c7`]);
    // Add one triple, read the size (n3 recounts it), remove another: the size is as before.
    const before = store.size;
    store.addQuad(quad(namedNode(`${EX}new`), namedNode(`${SKOS}prefLabel`), literal('Extra')));
    expect(store.size).toBe(before + 1);
    store.removeQuad(
      quad(namedNode(`${EX}c7`), namedNode(`${SKOS}prefLabel`), literal('Word 7', 'en')),
    );
    expect(store.size).toBe(before);
    expect(await labelled()).toEqual([`${EX}new`]);
    // Merging another store's indexes is a change too.
    store.addAll(
      new Store([
        quad(namedNode(`${EX}merged`), namedNode(`${SKOS}prefLabel`), literal('Extra 2')),
      ]),
    );
    expect(await labelled()).toEqual([`${EX}merged`, `${EX}new`]);
  });
});
