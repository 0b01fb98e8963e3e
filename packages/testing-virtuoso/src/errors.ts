const marker = Symbol.for('dcg.testing-virtuoso.error');

/** Machine-readable reasons a Virtuoso test server can fail. */
export type VirtuosoErrorCode =
  | 'unavailable'
  | 'start_failed'
  | 'start_timeout'
  | 'sql_failed'
  | 'load_failed'
  | 'stopped'
  | 'invalid_input';

/**
 * The one error class of this package: a string `code`, a message that says what to do, and the
 * underlying `cause` when there is one.
 *
 * @example
 * try { await virtuoso.load('/data/bad.nt', 'https://example.org/g'); }
 * catch (error) { if (VirtuosoError.isInstance(error) && error.code === 'load_failed') console.error(error.message); }
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
  static isInstance(value: unknown): value is VirtuosoError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
