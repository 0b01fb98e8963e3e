import { CodedError } from './coded-error';

/**
 * A {@link CodedError} that lists what was wrong, one issue per offending part of an input or an
 * answer (each issue with its own code and location, in the subclass's shape). `issues` is empty
 * when the error is not about an input.
 *
 * @example
 * class InputError extends CodedErrorWithIssues<'invalid_input', { code: string; path: string }> {}
 * new InputError(BRAND, 'invalid_input', 'bad body', { issues: [{ code: 'required', path: '$.name' }] }).issues.length; // 1
 */
export class CodedErrorWithIssues<Code extends string, Issue> extends CodedError<Code> {
  readonly issues: readonly Issue[];

  constructor(
    brand: symbol,
    code: Code,
    message: string,
    options: { cause?: unknown; issues?: readonly Issue[] | undefined } = {},
  ) {
    super(brand, code, message, options);
    this.issues = options.issues ?? [];
  }
}
