/**
 * Stable codes of the problems `parseQuery` reports. Clients may switch on them; they never change
 * meaning between versions.
 *
 * @example
 * ```ts
 * import { PROBLEM_CODES, parseQuery } from '@dcg/sparql-subset';
 * const checked = parseQuery('INSERT DATA { <urn:a> <urn:b> <urn:c> }');
 * if (!checked.success && checked.problems[0]?.code === PROBLEM_CODES.UPDATE_NOT_SUPPORTED) {
 *   console.log('updates are rejected');
 * }
 * ```
 */
export const PROBLEM_CODES = {
  /** The text is not SPARQL 1.1 (sparqljs could not parse it). */
  SYNTAX_ERROR: 'SYNTAX_ERROR',
  /** INSERT, DELETE, LOAD, CLEAR, CREATE, DROP, COPY, MOVE, ADD. */
  UPDATE_NOT_SUPPORTED: 'UPDATE_NOT_SUPPORTED',
  /** Federated queries (SERVICE). */
  SERVICE_NOT_SUPPORTED: 'SERVICE_NOT_SUPPORTED',
  /** `*`, `+`, `?`, alternative `|` and negated `!` property paths. */
  PROPERTY_PATH_NOT_SUPPORTED: 'PROPERTY_PATH_NOT_SUPPORTED',
  /** A built-in or extension function outside the subset (regex, date/time, hashing, casts…). */
  FUNCTION_NOT_SUPPORTED: 'FUNCTION_NOT_SUPPORTED',
  /** CONSTRUCT and DESCRIBE. */
  QUERY_FORM_NOT_SUPPORTED: 'QUERY_FORM_NOT_SUPPORTED',
  /** COUNT, SUM, … and GROUP BY / HAVING. */
  AGGREGATE_NOT_SUPPORTED: 'AGGREGATE_NOT_SUPPORTED',
  /** A SELECT nested inside the WHERE clause. */
  SUBQUERY_NOT_SUPPORTED: 'SUBQUERY_NOT_SUPPORTED',
  /** FROM / FROM NAMED: the dataset is always the union of the sources. */
  DATASET_NOT_SUPPORTED: 'DATASET_NOT_SUPPORTED',
  /** GRAPH patterns: named graphs are merged into the default graph. */
  GRAPH_NOT_SUPPORTED: 'GRAPH_NOT_SUPPORTED',
  /** RDF-star quoted triples. */
  QUOTED_TRIPLE_NOT_SUPPORTED: 'QUOTED_TRIPLE_NOT_SUPPORTED',
  /**
   * Group patterns nested deeper than `maxDepth`, brackets nested deeper than
   * `limits.maxNesting`, or expressions deeper than the evaluator may recurse.
   */
  NESTING_TOO_DEEP: 'NESTING_TOO_DEEP',
  /** The text is longer than `limits.maxLength`, or has more UNIONs or OPTIONALs than allowed. */
  QUERY_TOO_LARGE: 'QUERY_TOO_LARGE',
  /** The options passed to `parseQuery` are invalid. */
  INVALID_OPTIONS: 'INVALID_OPTIONS',
} as const;

/**
 * One of the {@link PROBLEM_CODES}.
 *
 * @example
 * ```ts
 * const code: ProblemCode = 'NESTING_TOO_DEEP';
 * ```
 */
export type ProblemCode = (typeof PROBLEM_CODES)[keyof typeof PROBLEM_CODES];

/**
 * Why a query was rejected: a stable code, a sentence for a person, and where in the query.
 *
 * @example
 * ```ts
 * const problem: Problem = { code: 'SERVICE_NOT_SUPPORTED', message: 'SERVICE is not supported', location: { part: 'SERVICE <http://x>' } };
 * ```
 */
export interface Problem {
  code: ProblemCode;
  message: string;
  location?: { line?: number; column?: number; part?: string };
}
