const marker = Symbol.for('dcg.testing-virtuoso.error');

/** Machine-readable reasons a Virtuoso test server can fail. */
export type VirtuosoErrorCode =
  | 'VIRTUOSO_UNAVAILABLE'
  | 'VIRTUOSO_START_FAILED'
  | 'VIRTUOSO_START_TIMEOUT'
  | 'VIRTUOSO_SQL_FAILED'
  | 'VIRTUOSO_LOAD_FAILED'
  | 'VIRTUOSO_STOPPED'
  | 'VIRTUOSO_INVALID_INPUT';

/**
 * The one error class of this package: a string `code`, a message that says what to do, and the
 * underlying `cause` when there is one.
 *
 * @example
 * try { await virtuoso.load('/data/bad.nt', 'https://example.org/g'); }
 * catch (error) { if (VirtuosoError.is(error) && error.code === 'VIRTUOSO_LOAD_FAILED') console.error(error.message); }
 */
export class VirtuosoError extends Error {
  readonly code: VirtuosoErrorCode;
  readonly [marker] = true;

  constructor(code: VirtuosoErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VirtuosoError';
    this.code = code;
  }

  /** True for any `VirtuosoError`, also one thrown by another copy of this package. */
  static is(value: unknown): value is VirtuosoError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
