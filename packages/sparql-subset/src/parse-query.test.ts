import { describe, expect, it } from 'vitest';
import { parseQuery } from './parse-query';
import { PROBLEM_CODES } from './problem-codes';

function codes(text: string, options = {}): string[] {
  const result = parseQuery(text, options);
  return result.success ? [] : result.problems.map((problem) => problem.code);
}

describe('parseQuery', () => {
  it('accepts the core subset and reports projected variables', () => {
    const result = parseQuery(
      `PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
       SELECT DISTINCT ?c ?label WHERE {
         ?c a skos:Concept ; skos:prefLabel ?label .
         OPTIONAL { ?c skos:broader ?b FILTER(?b != ?c) }
         FILTER(LANGMATCHES(LANG(?label), "en") && CONTAINS(LCASE(STR(?label)), "x"))
       } ORDER BY DESC(?label) LIMIT 10 OFFSET 5`,
    );
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.query.form).toBe('SELECT');
    expect(result.query.variables).toEqual(['c', 'label']);
    expect(result.query.distinct).toBe(true);
    expect(result.query.limit).toBe(10);
    expect(result.query.offset).toBe(5);
  });

  it('lists SELECT * variables in order of appearance, without query blank nodes', () => {
    const result = parseQuery('SELECT * { ?s <urn:p> _:b . _:b <urn:q> ?o BIND(1 AS ?one) }');
    expect(result.success && result.query.variables).toEqual(['s', 'o', 'one']);
  });

  it('uses the prefixes and base IRI given as options', () => {
    const result = parseQuery('SELECT ?l { <c1> skos:prefLabel ?l }', {
      baseIRI: 'http://example.org/',
      prefixes: { skos: 'http://www.w3.org/2004/02/skos/core#' },
    });
    expect(result.success).toBe(true);
  });

  it('reports a syntax error with its line and column', () => {
    const result = parseQuery('SELECT * {\n  ?s ?p \n}');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.problems[0]?.code).toBe(PROBLEM_CODES.SYNTAX_ERROR);
    expect(result.problems[0]?.location).toEqual({ line: 3, column: 1, part: '}' });
    expect(result.problems[0]?.message).toMatch(/expected/);
  });

  it.each([
    ['INSERT DATA { <urn:a> <urn:b> <urn:c> }', PROBLEM_CODES.UPDATE_NOT_SUPPORTED],
    ['DELETE WHERE { ?s ?p ?o }', PROBLEM_CODES.UPDATE_NOT_SUPPORTED],
    ['LOAD <http://example.org/data.ttl>', PROBLEM_CODES.UPDATE_NOT_SUPPORTED],
    ['CLEAR ALL', PROBLEM_CODES.UPDATE_NOT_SUPPORTED],
    [
      'SELECT * { SERVICE <http://example.org/sparql> { ?s ?p ?o } }',
      PROBLEM_CODES.SERVICE_NOT_SUPPORTED,
    ],
    ['SELECT * { ?s <urn:p>* ?o }', PROBLEM_CODES.PROPERTY_PATH_NOT_SUPPORTED],
    ['SELECT * { ?s <urn:p>+ ?o }', PROBLEM_CODES.PROPERTY_PATH_NOT_SUPPORTED],
    ['SELECT * { ?s <urn:p>|<urn:q> ?o }', PROBLEM_CODES.PROPERTY_PATH_NOT_SUPPORTED],
    ['SELECT * { ?s ?p ?o FILTER REGEX(?o, "a") }', PROBLEM_CODES.FUNCTION_NOT_SUPPORTED],
    ['SELECT * { ?s ?p ?o FILTER (YEAR(?o) = 2020) }', PROBLEM_CODES.FUNCTION_NOT_SUPPORTED],
    ['SELECT (MD5(?o) AS ?h) { ?s ?p ?o }', PROBLEM_CODES.FUNCTION_NOT_SUPPORTED],
    [
      'SELECT * { ?s ?p ?o FILTER (<http://www.w3.org/2001/XMLSchema#integer>(?o) = 1) }',
      PROBLEM_CODES.FUNCTION_NOT_SUPPORTED,
    ],
    ['CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }', PROBLEM_CODES.QUERY_FORM_NOT_SUPPORTED],
    ['DESCRIBE <urn:a>', PROBLEM_CODES.QUERY_FORM_NOT_SUPPORTED],
    ['SELECT (COUNT(*) AS ?n) { ?s ?p ?o }', PROBLEM_CODES.AGGREGATE_NOT_SUPPORTED],
    ['SELECT ?s { ?s ?p ?o } GROUP BY ?s', PROBLEM_CODES.AGGREGATE_NOT_SUPPORTED],
    ['SELECT * { { SELECT ?s { ?s ?p ?o } } }', PROBLEM_CODES.SUBQUERY_NOT_SUPPORTED],
    ['SELECT * FROM <urn:g> { ?s ?p ?o }', PROBLEM_CODES.DATASET_NOT_SUPPORTED],
    ['SELECT * { GRAPH ?g { ?s ?p ?o } }', PROBLEM_CODES.GRAPH_NOT_SUPPORTED],
  ])('rejects %s', (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it('reports every problem of a query, each with the part concerned', () => {
    const result = parseQuery('SELECT * {\n ?s <urn:p>+ ?o\n FILTER REGEX(?o, "x")\n}');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.problems.map((problem) => problem.code)).toEqual([
      PROBLEM_CODES.PROPERTY_PATH_NOT_SUPPORTED,
      PROBLEM_CODES.FUNCTION_NOT_SUPPORTED,
    ]);
    expect(result.problems[1]?.location).toEqual({ part: 'REGEX', line: 3, column: 9 });
  });

  it('points at the first use of an undeclared prefix', () => {
    const result = parseQuery('SELECT * {\n  ?s skos:prefLabel ?o }');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.problems[0]).toMatchObject({
      code: PROBLEM_CODES.SYNTAX_ERROR,
      message: 'Syntax error: Unknown prefix: skos',
      location: { line: 2, column: 6, part: 'skos:' },
    });
  });

  it('locates the path operator itself, not an earlier * or ?', () => {
    const result = parseQuery('SELECT * WHERE {\n  ?s ?x ?y .\n  ?s <urn:p>+ ?o\n}');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.problems[0]?.location).toEqual({ part: '+', line: 3, column: 13 });
  });

  it('rejects nesting deeper than maxDepth', () => {
    const nested = 'SELECT * { { { { ?s ?p ?o } } } }';
    expect(codes(nested, { maxDepth: 2 })).toEqual([PROBLEM_CODES.NESTING_TOO_DEEP]);
    expect(codes(nested, { maxDepth: 4 })).toEqual([]);
  });

  it('answers a repeated text from its cache without sharing problems between callers', () => {
    const first = parseQuery('SELECT ?s { ?s ?p ?o }');
    const second = parseQuery('SELECT ?s { ?s ?p ?o }');
    expect(first.success && second.success && first.query === second.query).toBe(true);
    expect(first.success && Object.isFrozen(first.query.variables)).toBe(true);
    const bad = parseQuery('SELECT * { ?s <urn:p>* ?o }');
    if (bad.success) throw new Error('expected a rejection');
    bad.problems[0]!.message = 'changed by a caller';
    const again = parseQuery('SELECT * { ?s <urn:p>* ?o }');
    expect(!again.success && again.problems[0]?.message).toMatch(/not supported/);
    // Different options are different cache entries.
    expect(parseQuery('SELECT * { <a> ?p ?o }').success).toBe(false);
    expect(parseQuery('SELECT * { <a> ?p ?o }', { baseIRI: 'http://example.org/' }).success).toBe(
      true,
    );
  });

  it('rejects invalid options instead of throwing', () => {
    expect(codes('SELECT * {}', { maxDepth: -1 })).toEqual([PROBLEM_CODES.INVALID_OPTIONS]);
    expect(codes(42 as unknown as string)).toEqual([PROBLEM_CODES.INVALID_OPTIONS]);
  });
});
