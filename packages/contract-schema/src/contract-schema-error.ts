import { CodedError, hasBrand } from '@dcg/coded-error';

const MARKER = Symbol.for('dcg.contract-schema.error');

/**
 * Machine-readable reasons a contract-schema operation can fail. `too_deep`: nested beyond the
 * depth limit; `too_large`: a YAML document that expands beyond the size limit through aliases.
 */
export type ContractSchemaErrorCode =
  | 'invalid_yaml'
  | 'invalid_json'
  | 'unknown_schema'
  | 'too_deep'
  | 'too_large';

/**
 * The one error class of `@dcg/contract-schema`. Recognisable across copies of the library
 * (two installed versions) through {@link ContractSchemaError.isInstance}.
 *
 * @example
 * try {
 *   parseDescriptorYaml('a: [');
 * } catch (error) {
 *   if (ContractSchemaError.isInstance(error)) console.error(error.code, error.message);
 * }
 */
export class ContractSchemaError extends CodedError<ContractSchemaErrorCode> {
  /** Where in the text a syntax error is (1-based line and column), when it is known. */
  readonly location?: { readonly line: number; readonly column: number };

  constructor(
    code: ContractSchemaErrorCode,
    message: string,
    options?: { cause?: unknown; location?: { line: number; column: number } | undefined },
  ) {
    super(MARKER, code, message, options);
    this.name = 'ContractSchemaError';
    if (options?.location !== undefined) this.location = options.location;
  }

  /** True for a `ContractSchemaError` from any copy of this library. */
  static isInstance = hasBrand<ContractSchemaError>(MARKER);
}
