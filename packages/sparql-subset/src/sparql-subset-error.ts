import { CodedErrorWithIssues, hasBrand } from '@dcg/coded-error';
import type { Problem } from './problem-codes';

const MARKER = Symbol.for('dcg.sparql-subset.error');

/**
 * Codes of {@link SparqlSubsetError}.
 *
 * @example
 * ```ts
 * const status = (code: SparqlSubsetErrorCode) => (code === 'timeout' ? 504 : code === 'query_rejected' ? 400 : 500);
 * ```
 */
export type SparqlSubsetErrorCode =
  | 'timeout'
  | 'row_limit_exceeded'
  | 'too_expensive'
  | 'aborted'
  | 'query_rejected'
  | 'invalid_source'
  | 'invalid_options';

/**
 * The one error class of this library. `code` says what happened; `issues` (also named `problems`) is
 * set for `query_rejected`. Recognise it across copies of the package with {@link SparqlSubsetError.isInstance}.
 *
 * @example
 * ```ts
 * try {
 *   await query('SELECT * { ?s ?p ?o }', store, { maxRows: 10 });
 * } catch (error) {
 *   if (SparqlSubsetError.isInstance(error) && error.code === 'row_limit_exceeded') console.log('too many rows');
 * }
 * ```
 */
export class SparqlSubsetError extends CodedErrorWithIssues<SparqlSubsetErrorCode, Problem> {
  constructor(
    code: SparqlSubsetErrorCode,
    message: string,
    options: { cause?: unknown; problems?: Problem[] } = {},
  ) {
    super(MARKER, code, message, { cause: options.cause, issues: options.problems });
    this.name = 'SparqlSubsetError';
  }

  /** The problems of a rejected query: `issues`, under the name of the parse result's list. */
  get problems(): readonly Problem[] {
    return this.issues;
  }

  /** True for a SparqlSubsetError from any copy of this package. */
  static isInstance = hasBrand<SparqlSubsetError>(MARKER);
}
