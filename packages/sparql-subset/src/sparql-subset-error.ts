import type { Problem } from './problem-codes';

const MARKER = Symbol.for('dcg.sparql-subset.error');

/**
 * Codes of {@link SparqlSubsetError}.
 *
 * @example
 * ```ts
 * const status = (code: SparqlSubsetErrorCode) => (code === 'TIMEOUT' ? 504 : code === 'QUERY_REJECTED' ? 400 : 500);
 * ```
 */
export type SparqlSubsetErrorCode =
  | 'TIMEOUT'
  | 'ROW_LIMIT_EXCEEDED'
  | 'TOO_EXPENSIVE'
  | 'ABORTED'
  | 'QUERY_REJECTED'
  | 'INVALID_SOURCE'
  | 'INVALID_OPTIONS';

/**
 * The one error class of this library. `code` says what happened; `problems` is set for
 * `QUERY_REJECTED`. Recognise it across copies of the package with {@link SparqlSubsetError.isInstance}.
 *
 * @example
 * ```ts
 * try {
 *   await query('SELECT * { ?s ?p ?o }', store, { maxRows: 10 });
 * } catch (error) {
 *   if (SparqlSubsetError.isInstance(error) && error.code === 'ROW_LIMIT_EXCEEDED') console.log('too many rows');
 * }
 * ```
 */
export class SparqlSubsetError extends Error {
  readonly code: SparqlSubsetErrorCode;
  readonly problems: Problem[];
  readonly [MARKER] = true;

  constructor(
    code: SparqlSubsetErrorCode,
    message: string,
    options: { cause?: unknown; problems?: Problem[] } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SparqlSubsetError';
    this.code = code;
    this.problems = options.problems ?? [];
  }

  /** True for a SparqlSubsetError from any copy of this package. */
  static isInstance(value: unknown): value is SparqlSubsetError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[MARKER] === true
    );
  }
}
