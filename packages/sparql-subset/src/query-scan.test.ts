import { stat } from 'node:fs/promises';
import { DataFactory, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { parseQuery } from './parse-query';
import { PROBLEM_CODES } from './problem-codes';
import { checkQueryLimits, DEFAULT_QUERY_LIMITS, findUpdateOperations } from './query-scan';
import { SparqlSubsetError } from './sparql-subset-error';

function problemsOf(text: string, options = {}) {
  const result = parseQuery(text, options);
  return result.success ? [] : result.problems;
}

const big = { limits: { maxLength: 2_000_000 } };

describe('query limits, checked before parsing', () => {
  // Each of these kept the parser, the planner or the evaluator busy for seconds to minutes, or
  // overflowed the stack, before the limits were checked first.
  it.each([
    [
      '10,000 nested groups',
      `SELECT * WHERE ${'{'.repeat(10_000)} ?s ?p ?o ${'}'.repeat(10_000)}`,
      PROBLEM_CODES.NESTING_TOO_DEEP,
    ],
    [
      '100,000 parentheses in a FILTER',
      `SELECT * WHERE { ?s ?p ?o FILTER(${'('.repeat(100_000)}?o${')'.repeat(100_000)}) }`,
      PROBLEM_CODES.NESTING_TOO_DEEP,
    ],
    [
      '10,000 UNIONs',
      `SELECT * WHERE { ${Array.from({ length: 10_000 }, (_, i) => `{ ?s <urn:p${i}> ?o }`).join(' UNION ')} }`,
      PROBLEM_CODES.QUERY_TOO_LARGE,
    ],
    [
      '5,000 OPTIONALs',
      `SELECT * WHERE { ?s ?p ?o ${Array.from({ length: 5_000 }, (_, i) => `OPTIONAL { ?s <urn:p${i}> ?o${i} }`).join(' ')} }`,
      PROBLEM_CODES.QUERY_TOO_LARGE,
    ],
  ])('refuses %s at once, even with the length limit lifted', (_name, text, code) => {
    const problems = problemsOf(text, big);
    expect(problems.map((p) => p.code)).toContain(code);
    // And with the default limits (where the length alone already refuses some of them).
    expect(problemsOf(text).length).toBeGreaterThan(0);
  });

  it('locates the bracket that nests too deep', () => {
    const text = `SELECT * {\n  FILTER(${'('.repeat(40)}1${')'.repeat(40)})\n}`;
    const problem = problemsOf(text)[0];
    expect(problem?.code).toBe(PROBLEM_CODES.NESTING_TOO_DEEP);
    // `{` is level 1, `FILTER(` level 2, so the 31st `(` after it is level 33.
    expect(problem?.location).toEqual({ line: 2, column: 9 + 31, part: '(' });
  });

  it('refuses a long chain of operators (deep syntax tree, no brackets) instead of overflowing the stack', () => {
    const chain = Array.from({ length: 20_000 }, () => '1').join('+');
    const problems = problemsOf(`SELECT * { ?s ?p ?o FILTER(${chain} > 0) }`, big);
    expect(problems.map((p) => p.code)).toEqual([PROBLEM_CODES.NESTING_TOO_DEEP]);
  });

  it('still answers a chain of 400 operators', async () => {
    const chain = Array.from({ length: 400 }, () => '1').join('+');
    const parsed = parseQuery(`SELECT ?v { BIND((${chain}) AS ?v) }`);
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    const results = await evaluate(parsed.query, new Store());
    expect(results).toMatchObject({ results: { bindings: [{ v: { value: '400' } }] } });
  });

  it('refuses text longer than maxLength, and the limits are configurable', () => {
    const text = `SELECT * { ?s ?p ?o } # ${'x'.repeat(DEFAULT_QUERY_LIMITS.maxLength)}`;
    expect(problemsOf(text).map((p) => p.code)).toEqual([PROBLEM_CODES.QUERY_TOO_LARGE]);
    expect(problemsOf(text, big)).toEqual([]);
    const unions = 'SELECT * { { ?s ?p ?o } UNION { ?s ?p ?o } UNION { ?o ?p ?s } }';
    expect(problemsOf(unions)).toEqual([]);
    expect(problemsOf(unions, { limits: { maxUnions: 1 } })[0]?.message).toMatch(/2 UNIONs/);
    expect(problemsOf(unions, { limits: { maxNesting: 1 } })[0]?.code).toBe(
      PROBLEM_CODES.NESTING_TOO_DEEP,
    );
    expect(problemsOf(unions, { limits: { maxUnions: 0 } })[0]?.code).toBe(
      PROBLEM_CODES.INVALID_OPTIONS,
    );
  });

  it('counts only keywords: names, strings, IRIs and comments do not count', () => {
    const found = checkQueryLimits(
      `PREFIX union: <urn:union#> SELECT ?optional { ?optional union:x "UNION OPTIONAL {{{{" . # UNION {{{{
       <urn:OPTIONAL> <urn:p> 'union' }`,
      { ...DEFAULT_QUERY_LIMITS, maxUnions: 0, maxOptionals: 0, maxNesting: 1 },
    );
    expect(found).toEqual([]);
  });
});

describe('findUpdateOperations', () => {
  it.each([
    'INSERT DATA { <urn:a> <urn:b> <urn:c> }',
    'DELETE WHERE { ?s ?p ?o }',
    'delete { ?s ?p ?o } where { ?s ?p ?o }',
    'LOAD <http://127.0.0.1:1/internal>',
    'CLEAR ALL',
    'DROP GRAPH <urn:g>',
    'CREATE GRAPH <urn:g>',
    'COPY DEFAULT TO <urn:g>',
    'MOVE <urn:a> TO <urn:b>',
    'ADD <urn:a> TO <urn:b>',
    'WITH <urn:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }',
    'PREFIX ex: <urn:ex#>\nSELECT * { ?s ?p ?o } ;\n  insert data { ex:a ex:b ex:c }',
  ])('refuses %s', (text) => {
    const problems = findUpdateOperations(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.code).toBe(PROBLEM_CODES.UPDATE_NOT_SUPPORTED);
  });

  it('locates the first update keyword', () => {
    expect(findUpdateOperations('SELECT * {}\n;  LOAD <urn:x>')[0]?.location).toEqual({
      line: 2,
      column: 4,
      part: 'LOAD',
    });
  });

  it.each([
    'SELECT ?insert ?delete { ?insert <urn:load> "DELETE" . ?delete ?p \'drop\' }',
    'PREFIX add: <urn:add#> SELECT * { ?s add:move ?o . ?s :copy ?o } # INSERT DATA',
    'ASK { <urn:clear> <urn:create> """INSERT\nDATA""" }',
    'SELECT * { ?s ?p "x"@with }',
  ])('lets a query through: %s', (text) => {
    expect(findUpdateOperations(text)).toEqual([]);
  });
});

describe('evaluation under load', () => {
  const store = new Store();
  for (let i = 0; i < 400; i++)
    store.addQuad(
      DataFactory.quad(
        DataFactory.namedNode(`urn:s${i}`),
        DataFactory.namedNode('urn:p'),
        DataFactory.literal(`v${i}`),
      ),
    );
  // A cross product of 400³ rows rejected by a filter only the join can test.
  const slow = parseQuery(
    'SELECT * { ?a <urn:p> ?x . ?b <urn:p> ?y . ?c <urn:p> ?z FILTER(STR(?x) = CONCAT(STR(?y), STR(?z))) }',
  );

  it('lets I/O through while two evaluations take turns, and each ends at its deadline', async () => {
    if (!slow.success) throw new Error('query expected to parse');
    const started = Date.now();
    const outcomes = [1, 2].map(() =>
      evaluate(slow.query, store, { timeoutMs: 1500 }).then(
        () => ({ code: 'DONE', at: Date.now() }),
        (error: unknown) => ({
          code: SparqlSubsetError.isInstance(error) ? error.code : String(error),
          at: Date.now(),
        }),
      ),
    );
    // File system calls complete in the poll phase, which setTimeout(0) chains never reached.
    let ioRounds = 0;
    let ioDoneAt = 0;
    for (let i = 0; i < 5; i++) {
      await stat(import.meta.filename);
      ioRounds++;
      ioDoneAt = Date.now();
    }
    const ended = await Promise.all(outcomes);
    expect(ended.map((e) => e.code)).toEqual(['timeout', 'timeout']);
    expect(ioRounds).toBe(5);
    for (const e of ended) expect(ioDoneAt).toBeLessThan(e.at);
    for (const e of ended) expect(e.at - started).toBeLessThan(1500 + 1000);
  });

  // Each row's EXISTS pairs 400 × 400 rows: far longer than maxBlockMs for one row.
  const expensiveExists =
    '{ ?b <urn:p> ?y . ?c <urn:p> ?z FILTER(STR(?y) = CONCAT(STR(?x), STR(?z))) }';

  it('pauses inside an EXISTS of a FILTER: a long query ends at its deadline, and I/O gets through', async () => {
    const parsed = parseQuery(`SELECT * { ?a <urn:p> ?x FILTER(!EXISTS ${expensiveExists}) }`);
    if (!parsed.success) throw new Error('query expected to parse');
    const outcome = evaluate(parsed.query, store, { timeoutMs: 1500, maxBlockMs: 20 }).then(
      () => ({ code: 'DONE', at: Date.now() }),
      (error: unknown) => ({
        code: SparqlSubsetError.isInstance(error) ? error.code : String(error),
        at: Date.now(),
      }),
    );
    let ioDoneAt = 0;
    for (let i = 0; i < 5; i++) {
      await stat(import.meta.filename);
      ioDoneAt = Date.now();
    }
    const ended = await outcome;
    expect(ended.code).toBe('timeout');
    expect(ioDoneAt).toBeLessThan(ended.at);
  });

  it('answers an EXISTS query whose rows each take longer than maxBlockMs', async () => {
    // ?x = "vN" has a match when "vN0" exists: v1 to v39.
    const parsed = parseQuery(
      'SELECT ?a { ?a <urn:p> ?x FILTER(EXISTS { ?b <urn:p> ?y FILTER(STR(?y) = CONCAT(STR(?x), "0")) } && BOUND(?a)) }',
    );
    if (!parsed.success) throw new Error('query expected to parse');
    const answer = await evaluate(parsed.query, store, { maxBlockMs: 1 });
    if (!('results' in answer)) throw new Error('expected bindings');
    const found = answer.results.bindings.map((b) => b.a?.value).sort();
    const expected = Array.from({ length: 39 }, (_, i) => `urn:s${i + 1}`).sort();
    expect(found).toEqual(expected);
  });

  it('ends an EXISTS in an ORDER BY key, which cannot pause, after maxBlockMs', async () => {
    const parsed = parseQuery(`SELECT * { ?a <urn:p> ?x } ORDER BY (EXISTS ${expensiveExists})`);
    if (!parsed.success) throw new Error('query expected to parse');
    const error = await evaluate(parsed.query, store, { timeoutMs: 10_000, maxBlockMs: 50 }).catch(
      (e: unknown) => e,
    );
    expect(SparqlSubsetError.isInstance(error) && error.code).toBe('too_expensive');
  });
});
