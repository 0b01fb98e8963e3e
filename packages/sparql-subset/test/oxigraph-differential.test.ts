import type * as RDF from '@rdfjs/types';
import fc from 'fast-check';
import { Parser, Store } from 'n3';
import * as oxigraph from 'oxigraph';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../src/evaluate';
import { parseQuery } from '../src/parse-query';
import { termToId } from '../src/term-ids';
import { termValue } from '../src/term-values';
import { dataArbitrary, type GeneratedQuery, queryArbitrary } from './differential/arbitraries';
import { sameSolutions } from './w3c/compare';
import { type Solution, solutionsOfJson } from './w3c/result-sets';

type Answer =
  | { kind: 'boolean'; value: boolean }
  | { kind: 'rows'; rows: Solution[] }
  | { kind: 'error'; message: string };

function oxigraphAnswer(data: string, text: string): Answer {
  const store = new oxigraph.Store();
  store.load(data, { format: 'application/n-triples' });
  try {
    const result = store.query(text);
    if (typeof result === 'boolean') return { kind: 'boolean', value: result };
    const rows = (result as Map<string, RDF.Term>[]).map((solution) => {
      const row: Solution = {};
      for (const [name, term] of solution) row[name] = termToId(term);
      return row;
    });
    return { kind: 'rows', rows };
  } catch (error) {
    return { kind: 'error', message: String(error) };
  }
}

/**
 * Our answer over the data: one n3 Store (no placement), the same read only through the RDF/JS
 * DatasetCore interface (one placement entry), or spread over two stores (`placement[i]` puts
 * triple i in the first, the second, or both), which must behave as their RDF merge.
 */
async function ourAnswer(data: string, text: string, placement: number[]): Promise<Answer> {
  const parsed = parseQuery(text);
  if (!parsed.success)
    return {
      kind: 'error',
      message: parsed.problems.map((p) => `${p.code} ${p.message}`).join('; '),
    };
  const quads = new Parser({ format: 'N-Triples' }).parse(data);
  const first = new Store();
  const second = new Store();
  quads.forEach((quad, i) => {
    const where = placement.length < 2 ? 0 : (placement[i % placement.length] ?? 0);
    if (where !== 1) first.addQuad(quad);
    if (where !== 0) second.addQuad(quad);
  });
  const source =
    placement.length === 0 ? first : placement.length === 1 ? first.match() : [first, second];
  const result = await evaluate(parsed.query, source, { timeoutMs: 5000 });
  if ('boolean' in result) return { kind: 'boolean', value: result.boolean };
  return { kind: 'rows', rows: solutionsOfJson(result.results.bindings) };
}

/** Values of one kind that every engine orders the same way (SPARQL leaves mixed literal kinds open). */
function orderKind(id: string | undefined): string {
  if (id === undefined) return 'unbound';
  const value = termValue(id);
  if (value.k === 'other')
    return id.startsWith('"') ? 'other-literal' : id.startsWith('_:') ? 'bnode' : 'iri';
  return value.k;
}

function comparable(rows: Solution[], keys: string[]): boolean {
  return keys.every((key) => {
    const kinds = new Set(rows.map((row) => orderKind(row[key])));
    kinds.delete('unbound');
    return kinds.size <= 1 && !kinds.has('lang') && !kinds.has('other-literal');
  });
}

function project(rows: Solution[], keys: string[]): Solution[] {
  return rows.map((row) =>
    Object.fromEntries(keys.flatMap((key) => (row[key] ? [[key, row[key] as string]] : []))),
  );
}

function agree(query: GeneratedQuery, ours: Answer, theirs: Answer, all: Answer): boolean {
  if (ours.kind === 'error' || theirs.kind === 'error') return ours.kind === theirs.kind;
  if (ours.kind === 'boolean' || theirs.kind === 'boolean')
    return ours.kind === 'boolean' && theirs.kind === 'boolean' && ours.value === theirs.value;
  if (query.orderBy.length === 0) return sameSolutions(theirs.rows, ours.rows, false);
  if (all.kind === 'rows' && comparable(all.rows, query.orderBy)) {
    const keysAgree = sameSolutions(
      project(theirs.rows, query.orderBy),
      project(ours.rows, query.orderBy),
      true,
    );
    return keysAgree && (query.sliced || sameSolutions(theirs.rows, ours.rows, false));
  }
  // Mixed kinds of literals have no standard order: only the multiset is comparable, and only unsliced.
  return query.sliced
    ? ours.rows.length === theirs.rows.length
    : sameSolutions(theirs.rows, ours.rows, false);
}

describe('differential against Oxigraph', () => {
  it('answers generated queries inside the subset like Oxigraph', async () => {
    const runs = Number(process.env.DIFFERENTIAL_RUNS ?? 400);
    let compared = 0;
    let withRows = 0;
    await fc.assert(
      fc.asyncProperty(
        dataArbitrary,
        queryArbitrary,
        fc.array(fc.integer({ min: 0, max: 2 })),
        async (data, query, placement) => {
          const theirs = oxigraphAnswer(data, query.text);
          const ours = await ourAnswer(data, query.text, placement);
          const all = query.sliced ? oxigraphAnswer(data, query.unsliced) : theirs;
          compared++;
          if (
            (ours.kind === 'rows' && ours.rows.length > 0) ||
            (ours.kind === 'boolean' && ours.value)
          )
            withRows++;
          if (!agree(query, ours, theirs, all)) {
            throw new Error(
              `Disagreement on\n${query.text}\nours:   ${JSON.stringify(ours)}\ntheirs: ${JSON.stringify(theirs)}`,
            );
          }
        },
      ),
      { numRuns: runs },
    );
    expect(compared).toBe(runs);
    // The generators must produce queries that actually return rows, or the comparison says little.
    expect(withRows).toBeGreaterThan(runs / 5);
  }, 180_000);
});
