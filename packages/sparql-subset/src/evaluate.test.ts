import { DataFactory, Parser, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { parseQuery } from './parse-query';
import { query } from './query';
import { SparqlSubsetError } from './sparql-subset-error';

const PREFIXES = `@prefix skos: <http://www.w3.org/2004/02/skos/core#> . @prefix ex: <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n`;

function storeOf(turtle: string): Store {
  return new Store(new Parser().parse(PREFIXES + turtle));
}

const thesaurus = storeOf(`
ex:a a skos:Concept ; skos:prefLabel "Alpha"@en, "Alfa"@de ; skos:broader ex:b ; ex:rank 3 .
ex:b a skos:Concept ; skos:prefLabel "Beta"@en ; skos:broader ex:c ; ex:rank 10 ; skos:definition "Second letter" .
ex:c a skos:Concept ; skos:prefLabel "Gamma"@en ; ex:rank 2.5 .
`);

const Q = 'PREFIX skos: <http://www.w3.org/2004/02/skos/core#> PREFIX ex: <http://example.org/> ';

async function select(text: string, source: Parameters<typeof query>[1] = thesaurus) {
  const results = await query(Q + text, source);
  if (!('results' in results)) throw new Error('expected SELECT results');
  return results;
}

describe('evaluate', () => {
  it('returns W3C SPARQL JSON with language tags, datatypes and absent unbound variables', async () => {
    const results = await select(
      'SELECT ?c ?label ?def { ?c skos:prefLabel ?label OPTIONAL { ?c skos:definition ?def } } ORDER BY ?label',
    );
    expect(results.head.vars).toEqual(['c', 'label', 'def']);
    expect(results.results.bindings).toEqual([
      {
        c: { type: 'uri', value: 'http://example.org/a' },
        label: { type: 'literal', value: 'Alfa', 'xml:lang': 'de' },
      },
      {
        c: { type: 'uri', value: 'http://example.org/a' },
        label: { type: 'literal', value: 'Alpha', 'xml:lang': 'en' },
      },
      {
        c: { type: 'uri', value: 'http://example.org/b' },
        label: { type: 'literal', value: 'Beta', 'xml:lang': 'en' },
        def: { type: 'literal', value: 'Second letter' },
      },
      {
        c: { type: 'uri', value: 'http://example.org/c' },
        label: { type: 'literal', value: 'Gamma', 'xml:lang': 'en' },
      },
    ]);
  });

  it('answers ASK', async () => {
    expect(await query(`${Q} ASK { ex:a skos:broader ex:b }`, thesaurus)).toEqual({
      head: {},
      boolean: true,
    });
    expect(await query(`${Q} ASK { ex:b skos:broader ex:a }`, thesaurus)).toEqual({
      head: {},
      boolean: false,
    });
  });

  it('follows two-hop chains written as sequence paths', async () => {
    const results = await select('SELECT ?top { ex:a skos:broader/skos:broader ?top }');
    expect(results.results.bindings).toEqual([
      { top: { type: 'uri', value: 'http://example.org/c' } },
    ]);
  });

  it('compares numbers across integer and decimal and sorts descending', async () => {
    const results = await select(
      'SELECT ?c ?r { ?c ex:rank ?r FILTER(?r > 2.6) } ORDER BY DESC(?r)',
    );
    expect(results.results.bindings.map((b) => b.r?.value)).toEqual(['10', '3']);
  });

  it('keeps concepts without a definition with OPTIONAL and !BOUND', async () => {
    const results = await select(
      'SELECT ?c { ?c a skos:Concept OPTIONAL { ?c skos:definition ?d } FILTER(!BOUND(?d)) } ORDER BY ?c',
    );
    expect(results.results.bindings.map((b) => b.c?.value)).toEqual([
      'http://example.org/a',
      'http://example.org/c',
    ]);
  });

  it('treats an array of stores as one merged default graph without duplicates', async () => {
    const first = storeOf('ex:a skos:prefLabel "Alpha"@en . ex:x skos:prefLabel "X" .');
    const second = storeOf('ex:a skos:prefLabel "Alpha"@en . ex:y skos:prefLabel "Y" .');
    const results = await select('SELECT ?c ?l { ?c skos:prefLabel ?l } ORDER BY ?c', [
      first,
      second,
    ]);
    expect(results.results.bindings.map((b) => b.c?.value)).toEqual([
      'http://example.org/a',
      'http://example.org/x',
      'http://example.org/y',
    ]);
  });

  it('answers over no sources at all as over an empty graph', async () => {
    expect((await select('SELECT ?s { ?s ?p ?o }', [])).results.bindings).toEqual([]);
    expect(await query('ASK { ?s ?p ?o }', [])).toEqual({ head: {}, boolean: false });
    expect(await query('ASK {}', [])).toEqual({ head: {}, boolean: true });
  });

  it('counts quads of named graphs for the default graph, once', async () => {
    const store = new Store(
      new Parser({ format: 'TriG' }).parse(
        '<urn:s> <urn:p> "o" . <urn:g> { <urn:s> <urn:p> "o" . <urn:s> <urn:p> "named" }',
      ),
    );
    const results = await select('SELECT ?o { <urn:s> <urn:p> ?o } ORDER BY ?o', store);
    expect(results.results.bindings.map((b) => b.o?.value)).toEqual(['named', 'o']);
  });

  it('sees additions and removals made to a store between queries', async () => {
    // More labels than the engine's key-list cache threshold, so the cache is used and invalidated.
    const store = storeOf(
      Array.from({ length: 1500 }, (_, i) => `ex:s${i} skos:prefLabel "label ${i}" .`).join('\n'),
    );
    const count = async () =>
      (await select('SELECT ?c { ?c skos:prefLabel ?l }', store)).results.bindings.length;
    expect(await count()).toBe(1500);
    expect(await count()).toBe(1500);
    store.addQuad(
      DataFactory.namedNode('http://example.org/new'),
      DataFactory.namedNode('http://www.w3.org/2004/02/skos/core#prefLabel'),
      DataFactory.literal('new'),
    );
    expect(await count()).toBe(1501);
    store.removeQuad(
      DataFactory.namedNode('http://example.org/s5'),
      DataFactory.namedNode('http://www.w3.org/2004/02/skos/core#prefLabel'),
      DataFactory.literal('label 5'),
    );
    store.removeQuad(
      DataFactory.namedNode('http://example.org/new'),
      DataFactory.namedNode('http://www.w3.org/2004/02/skos/core#prefLabel'),
      DataFactory.literal('new'),
    );
    expect(await count()).toBe(1499);
  });

  it('reads any RDF/JS DatasetCore through match', async () => {
    const dataset = thesaurus.match();
    const results = await select('SELECT ?l { ex:b skos:prefLabel ?l }', dataset);
    expect(results.results.bindings).toEqual([
      { l: { type: 'literal', value: 'Beta', 'xml:lang': 'en' } },
    ]);
  });

  it('ends a long evaluation with TIMEOUT', async () => {
    const big = storeOf(Array.from({ length: 300 }, (_, i) => `ex:s${i} ex:p ${i} .`).join('\n'));
    const parsed = parseQuery(
      'SELECT * { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i FILTER(?c = ?f + ?i + 1000) }',
    );
    if (!parsed.success) throw new Error('parse failed');
    const started = Date.now();
    const error = await evaluate(parsed.query, big, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(SparqlSubsetError.isInstance(error) && error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('keeps the event loop turning during a long scan, so an abort from a timer ends it', async () => {
    const big = storeOf(Array.from({ length: 300 }, (_, i) => `ex:s${i} ex:p ${i} .`).join('\n'));
    const parsed = parseQuery(
      'SELECT * { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i FILTER(?c = ?f + ?i + 1000) }',
    );
    if (!parsed.success) throw new Error('parse failed');
    const controller = new AbortController();
    // The abort comes from the third turn of a timer: the evaluation (seconds of work) must let
    // the event loop turn again and again. Counted in turns, not milliseconds, so that a loaded
    // machine (whose first turn may come only after 100 ms) does not change the outcome.
    let timerTicks = 0;
    const interval = setInterval(() => {
      if (++timerTicks === 3) controller.abort(new Error('client went away'));
    }, 5);
    const started = Date.now();
    const error = await evaluate(parsed.query, big, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    clearInterval(interval);
    expect(SparqlSubsetError.isInstance(error) && error.code).toBe('aborted');
    expect(timerTicks).toBe(3);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives the same answers to evaluations that interleave at their pauses', async () => {
    // 40,000 candidate pairs through an n3 Store's public API: long enough to pause many times.
    const big = storeOf(Array.from({ length: 200 }, (_, i) => `ex:s${i} ex:p ${i} .`).join('\n'));
    const text = (sum: number) =>
      `PREFIX ex: <http://example.org/> SELECT ?a ?d { ?a ex:p ?c . ?d ex:p ?f FILTER(?c + ?f = ${sum}) }`;
    const alone = [await query(text(199), big), await query(text(100), big)];
    const together = await Promise.all([query(text(199), big), query(text(100), big)]);
    expect(together).toEqual(alone);
    expect('results' in alone[0]! && alone[0].results.bindings.length).toBe(200);
    expect('results' in alone[1]! && alone[1].results.bindings.length).toBe(101);
  });

  it('ends with ROW_LIMIT_EXCEEDED when the answer has more rows than allowed', async () => {
    const error = await query('SELECT * { ?s ?p ?o }', thesaurus, { maxRows: 3 }).catch(
      (e: unknown) => e,
    );
    expect(SparqlSubsetError.isInstance(error) && error.code).toBe('row_limit_exceeded');
  });

  it('ends with ABORTED when the signal fires', async () => {
    const controller = new AbortController();
    controller.abort(new Error('client went away'));
    const error = await query('SELECT * { ?s ?p ?o }', thesaurus, {
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(SparqlSubsetError.isInstance(error) && error.code).toBe('aborted');
  });

  it('throws QUERY_REJECTED with the problems from query()', async () => {
    const error = await query('SELECT * { ?s ?p ?o FILTER REGEX(?o, "a") }', thesaurus).catch(
      (e: unknown) => e,
    );
    expect(SparqlSubsetError.isInstance(error) && error.code).toBe('query_rejected');
    expect(SparqlSubsetError.isInstance(error) && error.problems[0]?.code).toBe(
      'FUNCTION_NOT_SUPPORTED',
    );
  });

  it('rejects a source that is not a dataset', async () => {
    const error = await query('SELECT * { ?s ?p ?o }', {} as never).catch((e: unknown) => e);
    expect(SparqlSubsetError.isInstance(error) && error.code).toBe('invalid_source');
  });
});
