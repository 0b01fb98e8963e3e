import { query } from '@dcg/sparql-subset';
import fc from 'fast-check';
import { DataFactory, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { TripleStoreBuilder } from './triple-store-builder';

type Triple = [number, number, number];

/** A store over terms `t1..tK`, plus the distinct triples it should hold. */
function build(triples: Triple[]) {
  const builder = new TripleStoreBuilder();
  for (const [s, p, o] of triples) builder.addTerms(`urn:t${s}`, `urn:t${p}`, `urn:t${o}`);
  const store = builder.build();
  const distinct = new Map<string, Triple>();
  for (const t of triples) distinct.set(t.join(' '), t);
  return { store, distinct: [...distinct.values()] };
}

const triplesArb = fc.array(
  fc.tuple(
    fc.integer({ min: 1, max: 6 }),
    fc.integer({ min: 1, max: 4 }),
    fc.integer({ min: 1, max: 8 }),
  ),
  { maxLength: 80 },
);

describe('TripleStore', () => {
  it('matches and counts every pattern as a scan of the distinct triples would', () => {
    fc.assert(
      fc.property(
        triplesArb,
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        (triples, s, p, o) => {
          const { store, distinct } = build(triples);
          const id = (k: number) => (k === 0 ? 0 : store.termId(`urn:t${k}`));
          const want = distinct
            .filter(
              ([ts, tp, to]) =>
                (s === 0 || ts === s) && (p === 0 || tp === p) && (o === 0 || to === o),
            )
            .map((t) => t.join(' '))
            .sort();
          // A bound term the store does not hold matches nothing (callers look terms up first).
          if ((s && !id(s)) || (p && !id(p)) || (o && !id(o))) {
            expect(want).toEqual([]);
            return;
          }
          const cursor = store.match(id(s), id(p), id(o));
          const got: string[] = [];
          const name = (n: number) => store.term(n).slice('urn:t'.length);
          while (cursor.next()) got.push(`${name(cursor.s)} ${name(cursor.p)} ${name(cursor.o)}`);
          expect([...got].sort()).toEqual(want);
          expect(new Set(got).size).toBe(got.length);
          expect(store.count(id(s), id(p), id(o))).toBe(want.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('skips rows and groups without losing or repeating any', () => {
    fc.assert(
      fc.property(
        triplesArb,
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 4 }),
        (triples, n, p) => {
          const { store } = build(triples);
          const pid = p === 0 ? 0 : store.termId(`urn:t${p}`);
          if (p !== 0 && pid === 0) return;
          const all: string[] = [];
          const full = store.match(0, pid, 0);
          while (full.next()) all.push(`${full.s} ${full.p} ${full.o}`);
          const skipping = store.match(0, pid, 0);
          const skipped = skipping.skip(n);
          expect(skipped).toBe(Math.min(n, all.length));
          const rest: string[] = [];
          while (skipping.next()) rest.push(`${skipping.s} ${skipping.p} ${skipping.o}`);
          expect(rest).toEqual(all.slice(skipped));
          // Skipping the group of the first free key after each row: one row per such key.
          const grouped = store.match(0, pid, 0);
          const leading: number[] = [];
          while (grouped.next()) {
            leading.push(pid === 0 ? grouped.s : grouped.o);
            grouped.skipGroup(pid === 0 ? 1 : 2);
          }
          const expected = [...new Set(all.map((t) => Number(t.split(' ')[pid === 0 ? 0 : 2])))];
          expect(leading).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps each term once and knows no term it was not given', () => {
    const builder = new TripleStoreBuilder();
    builder.addTerms('urn:a', 'urn:p', '"x"@en');
    builder.addTerms('urn:a', 'urn:p', '"x"@en');
    builder.addTerms('urn:b', 'urn:p', 'urn:a');
    const store = builder.build();
    expect(store.terms.size).toBe(4);
    expect(store.size).toBe(2);
    expect(store.termId('urn:zzz')).toBe(0);
    expect(store.term(store.termId('"x"@en'))).toBe('"x"@en');
    expect(() => builder.addTerms('urn:c', 'urn:p', 'urn:a')).toThrow(/already/);
  });

  it('gives every built store a new version', () => {
    const a = new TripleStoreBuilder().build();
    const b = new TripleStoreBuilder().build();
    expect(b.version).toBeGreaterThan(a.version);
    expect(a.size).toBe(0);
    expect(a.count(0, 0, 0)).toBe(0);
  });
});

describe('SPARQL over a TripleStore', () => {
  const SKOS = 'http://www.w3.org/2004/02/skos/core#';
  const EX = 'http://example.org/';
  const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';
  const { namedNode, literal, quad } = DataFactory;
  const quads = [];
  for (let i = 0; i < 3000; i++) {
    const c = namedNode(`${EX}c${i}`);
    quads.push(quad(c, namedNode(`${SKOS}prefLabel`), literal(`Word ${i}`, 'en')));
    quads.push(quad(c, namedNode(`${SKOS}prefLabel`), literal(`Wort ${i}`, 'de')));
    quads.push(quad(c, namedNode(`${EX}rank`), literal(String(i % 100), namedNode(XSD_INTEGER))));
    if (i % 7 === 0) quads.push(quad(c, namedNode(`${SKOS}altLabel`), literal(`alt ${i}`, 'en')));
    if (i > 0) quads.push(quad(c, namedNode(`${SKOS}broader`), namedNode(`${EX}c${(i - 1) >> 2}`)));
  }
  const builder = new TripleStoreBuilder();
  for (const q of quads) builder.addQuad(q);
  const store = builder.build();
  const n3 = new Store(quads);
  const prefixes = `PREFIX skos: <${SKOS}> PREFIX ex: <${EX}> `;
  const queries = [
    `SELECT ?p ?o { ex:c7 ?p ?o }`,
    `SELECT ?c ?l { ?c skos:prefLabel ?l FILTER(LANG(?l) = "de") } ORDER BY ?c LIMIT 20 OFFSET 40`,
    `SELECT ?c ?l { ?c skos:prefLabel ?l } OFFSET 5000 LIMIT 7`,
    `SELECT ?c ?l { ?c skos:prefLabel ?l FILTER(?c = ex:c12 || ?c = ex:c2999) }`,
    `SELECT ?c ?l { ?c skos:prefLabel ?l OPTIONAL { ?c skos:altLabel ?a } FILTER(!BOUND(?a) && LANG(?l) = "en") } LIMIT 50`,
    `SELECT ?c ?r { ?c ex:rank ?r FILTER(?r >= 98) } ORDER BY DESC(?r) ?c LIMIT 15`,
    `SELECT ?top ?l { ex:c2900 skos:broader/skos:broader ?top . ?top skos:prefLabel ?l }`,
    `SELECT ?a ?c { ?a skos:broader ?b . ?b skos:broader ?c } ORDER BY DESC(?a) ?c LIMIT 40`,
    `SELECT ?s ?o { ?s ?p ?o FILTER(?p != skos:prefLabel && ?p != ex:rank) } ORDER BY ?s ?o LIMIT 30`,
    `ASK { ex:c5 skos:broader ex:c1 }`,
    `ASK { ex:c5 skos:broader ex:c2 }`,
    `SELECT ?c { ?c ?p "Word 5"@en }`,
  ];
  for (const text of queries)
    it(`answers as over an n3 Store: ${text}`, async () => {
      const ours = await query(prefixes + text, store);
      const theirs = await query(prefixes + text, n3);
      expect(ours).toEqual(theirs);
    });

  it('reads several stores as their union', async () => {
    const other = new TripleStoreBuilder();
    other.addTerms(`${EX}c1`, `${SKOS}prefLabel`, '"Word 1"@en');
    other.addTerms(`${EX}x`, `${SKOS}prefLabel`, '"extra"');
    const text = `${prefixes} SELECT ?c ?l { ?c skos:prefLabel ?l FILTER(?c IN (ex:c1, ex:x)) } ORDER BY ?l`;
    const answer = await query(text, [store, other.build()]);
    expect(answer).toMatchObject({ results: { bindings: { length: 3 } } });
  });
});

describe('TripleStoreBuilder memory limit', () => {
  it('refuses with graph_too_large while triples arrive, before any index is built', () => {
    const builder = new TripleStoreBuilder({ maxBytes: 256 * 1024 });
    let added = 0;
    const fill = () => {
      for (; added < 100_000; added++)
        builder.addTerms(`urn:example:s${added}`, 'urn:p', `"value ${added}"`);
    };
    expect(fill).toThrow(expect.objectContaining({ code: 'graph_too_large' }));
    // Refused long before the end: the limit is checked as the graph grows.
    expect(added).toBeLessThan(20_000);
    expect(() => builder.build()).toThrow(/already/);
  });
});
