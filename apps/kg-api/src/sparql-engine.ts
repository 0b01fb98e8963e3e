/** Limits checked on a query text before it is parsed. */
export interface SparqlTextLimits {
  maxLength: number;
  maxNesting: number;
  maxUnions: number;
  maxOptionals: number;
}

/** The result of checking a query against the supported subset. */
export type SparqlParseOutcome<Q> =
  | { success: true; query: Q }
  | { success: false; problems: Array<{ code: string; message: string; location?: unknown }> };

/**
 * What kg-api needs from a SPARQL implementation (`@dcg/sparql-subset` in production): parse and
 * check a query, then evaluate it over the union of the given stores.
 *
 * @example
 * const engine: SparqlEngine<CheckedQuery> = { parse: parseQuery, evaluate };
 */
export interface SparqlEngine<Q = unknown> {
  parse(text: string, limits: SparqlTextLimits): SparqlParseOutcome<Q>;
  evaluate(
    query: Q,
    stores: unknown[],
    options: { signal: AbortSignal; timeoutMs: number; maxRows: number; maxBlockMs: number },
  ): Promise<unknown>;
  /**
   * Error code of a failure from `evaluate` (TIMEOUT, ROW_LIMIT_EXCEEDED, ABORTED, TOO_EXPENSIVE),
   * if it is one.
   */
  errorCode(error: unknown): string | undefined;
}
