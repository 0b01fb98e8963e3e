import { CodedError, hasBrand } from '@dcg/coded-error';

const MARKER = Symbol.for('dcg.guardian-sdk.error');

/** Machine-readable reasons a guardian-sdk operation can fail. */
export type GuardianSdkErrorCode =
  | 'invalid_contract'
  | 'invalid_result'
  | 'invalid_schedule'
  | 'invalid_argument'
  | 'problem'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'check_failed';

/**
 * The one error class of `@dcg/guardian-sdk`: a stable `code`, a message for people, the `cause`,
 * and for HTTP failures the `status` and RFC 9457 `problem` the server answered. Recognisable
 * across copies of the library through {@link GuardianSdkError.isInstance}.
 *
 * @example
 * try { await client.submit(input); }
 * catch (error) { if (GuardianSdkError.isInstance(error) && error.code === 'problem') console.log(error.problem); }
 */
export class GuardianSdkError extends CodedError<GuardianSdkErrorCode> {
  readonly status: number | undefined;
  readonly problem: Record<string, unknown> | undefined;

  constructor(
    code: GuardianSdkErrorCode,
    message: string,
    options: { cause?: unknown; status?: number; problem?: Record<string, unknown> } = {},
  ) {
    super(MARKER, code, message, options);
    this.name = 'GuardianSdkError';
    this.status = options.status;
    this.problem = options.problem;
  }

  /** True for a `GuardianSdkError` from any copy of this library. */
  static isInstance = hasBrand<GuardianSdkError>(MARKER);
}
