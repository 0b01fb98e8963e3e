import { CodedErrorWithIssues, hasBrand } from '@dcg/coded-error';
import { type PathSegment, toJsonPath, type ValidationIssueCode } from '@dcg/contract-schema';

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
 * Stable reasons of a {@link GovernanceIssue}: those of `@dcg/contract-schema`'s validation and the
 * rules of this package (`required`, `too_long`, `nul_character`, `policy_not_found`,
 * `policy_not_passive`, `policy_resource_type_mismatch`, `not_guarded`).
 */
export type GovernanceIssueCode =
  | ValidationIssueCode
  | 'required'
  | 'too_long'
  | 'nul_character'
  | 'policy_not_found'
  | 'policy_not_passive'
  | 'policy_resource_type_mismatch'
  | 'not_guarded';

/**
 * One problem of an input. `segments` locate it in the document the use case received (the
 * submitted body, the template, the descriptor request); an issue about a named argument of the
 * use case that is not part of that document (the environment of a submission) names it in
 * `parameter`, and its `segments` are empty. Where that argument travels (a query parameter, a
 * CLI flag) is for the caller to say.
 *
 * @example
 * const issue: GovernanceIssue = { code: 'required', segments: [], path: '$', parameter: 'environment', message: 'is required' };
 */
export interface GovernanceIssue {
  code: GovernanceIssueCode;
  segments: PathSegment[];
  /** `segments` as JSONPath text. */
  path: string;
  parameter?: string;
  message: string;
}

/**
 * Builds a {@link GovernanceIssue} located by `segments` in the input document.
 *
 * @example
 * governanceIssue('policy_not_found', ['properties', 'dataContractGuardian', 'policies', 0, 'spec', 'id'], 'policy "p" does not exist');
 */
export function governanceIssue(
  code: GovernanceIssueCode,
  segments: ReadonlyArray<PathSegment>,
  message: string,
): GovernanceIssue {
  return { code, segments: [...segments], path: toJsonPath(segments), message };
}

/**
 * Builds a {@link GovernanceIssue} about a named argument of a use case.
 *
 * @example
 * parameterIssue('required', 'environment', 'is required');
 */
export function parameterIssue(
  code: GovernanceIssueCode,
  parameter: string,
  message: string,
): GovernanceIssue {
  return { code, segments: [], path: '$', parameter, message };
}

/**
 * The one error base class of `@dcg/governance`. `code` says what went wrong; `issues` lists the
 * offending inputs, each with its own code and location, when the input was bad. Recognisable
 * across package copies via {@link GovernanceError.isInstance}.
 *
 * @example
 * try { await registry.register(body); }
 * catch (error) { if (GovernanceError.isInstance(error) && error.code === 'unprocessable') console.log(error.issues); }
 */
export class GovernanceError extends CodedErrorWithIssues<GovernanceErrorCode, GovernanceIssue> {
  constructor(
    code: GovernanceErrorCode,
    message: string,
    options?: { cause?: unknown; issues?: GovernanceIssue[] },
  ) {
    super(BRAND, code, message, options);
    this.name = 'GovernanceError';
  }

  /** True for a GovernanceError from any copy of this package. */
  static isInstance = hasBrand<GovernanceError>(BRAND);
}
