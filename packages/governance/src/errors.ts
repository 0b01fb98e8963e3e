const BRAND = Symbol.for('dcg.governance.error');

/**
 * Machine-readable reasons of a {@link GovernanceError}. `too_large`: the input passes a size
 * limit once expanded (a YAML descriptor whose aliases multiply it); `too_deep`: the input is
 * nested deeper than the depth limit.
 */
export type GovernanceErrorCode =
  | 'invalid_input'
  | 'too_large'
  | 'too_deep'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'storage_failure'
  | 'adapter_failure';

/**
 * The one error base class of `@dcg/governance`. `code` says what went wrong; `issues` lists the
 * offending input paths when the input was bad. Recognisable across package copies via
 * {@link GovernanceError.is}.
 *
 * @example
 * try { await registry.register(body); }
 * catch (error) { if (GovernanceError.is(error) && error.code === 'unprocessable') console.log(error.message); }
 */
export class GovernanceError extends Error {
  readonly code: GovernanceErrorCode;
  readonly issues: Array<{ path: string; message: string }>;
  readonly [BRAND] = true;

  constructor(
    code: GovernanceErrorCode,
    message: string,
    options: { cause?: unknown; issues?: Array<{ path: string; message: string }> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GovernanceError';
    this.code = code;
    this.issues = options.issues ?? [];
  }

  /** True for a GovernanceError from any copy of this package. */
  static is(value: unknown): value is GovernanceError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[BRAND] === true
    );
  }
}
