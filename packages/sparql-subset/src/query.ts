import { type EvaluateOptions, evaluate, type SparqlResults } from './evaluate';
import { type ParseOptions, parseQuery } from './parse-query';
import { SparqlSubsetError } from './sparql-subset-error';
import type { QuerySource } from './triple-source';

/**
 * Parses, checks and evaluates in one call. A query outside the subset throws a
 * `SparqlSubsetError` with code `query_rejected` and the problems.
 *
 * @example
 * ```ts
 * const results = await query('SELECT * { ?s ?p ?o } LIMIT 10', store, { timeoutMs: 2000, maxRows: 1000 });
 * ```
 */
export async function query(
  text: string,
  source: QuerySource,
  options: ParseOptions & EvaluateOptions = {},
): Promise<SparqlResults> {
  const { baseIRI, prefixes, maxDepth, ...evaluateOptions } = options;
  const parseOptions: ParseOptions = {};
  if (baseIRI !== undefined) parseOptions.baseIRI = baseIRI;
  if (prefixes !== undefined) parseOptions.prefixes = prefixes;
  if (maxDepth !== undefined) parseOptions.maxDepth = maxDepth;
  const parsed = parseQuery(text, parseOptions);
  if (!parsed.success) {
    const summary = parsed.problems
      .map((problem) => `${problem.code}: ${problem.message}`)
      .join('; ');
    throw new SparqlSubsetError('query_rejected', `Query rejected: ${summary}`, {
      problems: parsed.problems,
    });
  }
  return evaluate(parsed.query, source, evaluateOptions);
}
