import { z } from 'zod';
import { type SystemDescriptor, SystemDescriptorSchema } from './descriptor';
import {
  DEFAULT_MAX_DEPTH,
  type DocumentLimits,
  findTooDeep,
  type PathSegment,
} from './document-limits';
import {
  type EvaluationResultSubmission,
  EvaluationResultSubmissionSchema,
} from './evaluation-result';
import { conformsToResultDetailsFast, conformsToSubmissionFast } from './fast-validation';
import {
  type InfrastructureTemplate,
  InfrastructureTemplateSchema,
} from './infrastructure-template';
import { toJsonPath } from './json-path';
import { type ResultDetails, ResultDetailsSchema } from './result-details';

/**
 * Stable reasons of a {@link ValidationIssue}: zod's issue codes (`invalid_type`, `too_big`, …)
 * and the rules of this package. `too_deep`: nested beyond the depth limit; `too_large`: a YAML
 * text that expands beyond the size limit through its aliases; `duplicate_resource_type`: A1,
 * two policies for one resource type; `compliant_xor_children` and `issues_without_compliant`:
 * rules 1 and 2 of A4; `invalid_yaml` / `invalid_json`: a descriptor or document text that is
 * not YAML / JSON; `invalid_document`, `unreadable`: a file of the CLI that does not parse or
 * cannot be read; `component_not_found`: `componentIdToProvision` names no component.
 */
export type ValidationIssueCode =
  | z.core.$ZodIssue['code']
  | 'too_deep'
  | 'too_large'
  | 'duplicate_resource_type'
  | 'compliant_xor_children'
  | 'issues_without_compliant'
  | 'invalid_yaml'
  | 'invalid_json'
  | 'invalid_document'
  | 'component_not_found'
  | 'unreadable';

/**
 * One problem of a document. Callers branch on `code` and `segments`; `path` is the same
 * location as JSONPath text (`$.results.root[0].children[1]`), for people.
 */
export interface ValidationIssue {
  code: ValidationIssueCode;
  /** The location as keys and indexes: `['results', 'root', 0, 'children', 1]`. */
  segments: PathSegment[];
  /** `segments` as JSONPath text, rooted at `$`. */
  path: string;
  message: string;
  /**
   * What the code says in values, so that no reader has to parse `message`: `expected` and
   * `received` on `invalid_type` (`received: 'undefined'` for a missing field), `has` (`both` or
   * `neither`) on `compliant_xor_children`, `maxDepth` on `too_deep`.
   */
  params?: ValidationIssueParams | undefined;
}

/** The values of a {@link ValidationIssue}, by name (see `params`). */
export type ValidationIssueParams = Readonly<Record<string, string | number>>;

/**
 * Builds a {@link ValidationIssue}; its `path` is derived from `segments`.
 *
 * @example
 * validationIssue('component_not_found', ['componentIdToProvision'], 'no component "x"');
 * // { code: 'component_not_found', segments: ['componentIdToProvision'], path: '$.componentIdToProvision', message: … }
 */
export function validationIssue(
  code: ValidationIssueCode,
  segments: ReadonlyArray<PathSegment>,
  message: string,
  params?: ValidationIssueParams,
): ValidationIssue {
  return {
    code,
    segments: [...segments],
    path: toJsonPath(segments),
    message,
    ...(params === undefined ? {} : { params }),
  };
}

/**
 * The same issues located under `prefix` (an issue of a nested document as an issue of the
 * document that holds it).
 *
 * @example
 * prefixIssues(['descriptor'], issues); // $.components[0] → $.descriptor.components[0]
 */
export function prefixIssues(
  prefix: ReadonlyArray<PathSegment>,
  issues: ReadonlyArray<ValidationIssue>,
): ValidationIssue[] {
  return issues.map((issue) =>
    validationIssue(issue.code, [...prefix, ...issue.segments], issue.message, issue.params),
  );
}

/** Outcome of a validation: the parsed data, or every issue found. */
export type Validation<T> =
  | { success: true; data: T }
  | { success: false; issues: ValidationIssue[] };

// zod's default wording of a type error; custom messages (`{ error: … }`) do not match and stay.
const INVALID_TYPE = /^Invalid input: expected (.+), received (.+)$/;

/** zod's name of a value's type, as its messages word it. */
function typeNameOf(value: unknown): string {
  const type: string = z.core.util.parsedType(value);
  return type === 'nan' ? 'NaN' : type;
}

/**
 * The values of a zod issue that callers branch on. zod keeps the received value only with
 * `reportInput` (validateWith asks for it); for issues of a plain `safeParse`, its default
 * message is the one record of what was received.
 */
function paramsOf(issue: z.core.$ZodIssue): ValidationIssueParams | undefined {
  if (issue.code === 'custom') {
    const { code: _code, ...rest } = (issue.params ?? {}) as Record<string, string | number>;
    return Object.keys(rest).length > 0 ? rest : undefined;
  }
  if (issue.code !== 'invalid_type') return undefined;
  const received =
    'input' in issue ? typeNameOf(issue.input) : INVALID_TYPE.exec(issue.message)?.[2];
  return received === undefined
    ? { expected: issue.expected }
    : { expected: issue.expected, received };
}

/**
 * Rewrites zod's terse type messages into ones that read well in a CI log, from the issue's
 * values; only zod's default wording is rewritten, custom messages stay.
 */
function messageOf(issue: z.core.$ZodIssue, params: ValidationIssueParams | undefined): string {
  if (issue.code !== 'invalid_type' || !INVALID_TYPE.test(issue.message)) return issue.message;
  if (params?.received === 'undefined') return `is required (expected ${params.expected})`;
  if (params?.expected === 'never') return 'is not allowed here';
  return `expected ${params?.expected}, received ${params?.received}`;
}

/** A custom issue of this package's schemas names its rule in `params.code`. */
function codeOf(issue: z.core.$ZodIssue): ValidationIssueCode {
  if (issue.code !== 'custom') return issue.code;
  const code = (issue.params as { code?: ValidationIssueCode } | undefined)?.code;
  return code ?? 'custom';
}

/**
 * Converts zod issues into {@link ValidationIssue}s with a stable code and a path array.
 *
 * @example
 * const result = ResultDetailsSchema.safeParse({ results: { root: [{ key: 'a' }] } });
 * if (!result.success) toValidationIssues(result.error.issues);
 * // [{ code: 'compliant_xor_children', segments: ['results', 'root', 0], path: '$.results.root[0]', message: … }]
 */
export function toValidationIssues(issues: ReadonlyArray<z.core.$ZodIssue>): ValidationIssue[] {
  return issues.map((issue) => {
    const params = paramsOf(issue);
    return validationIssue(
      codeOf(issue),
      issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment))),
      messageOf(issue, params),
      params,
    );
  });
}

/**
 * The issue of a value nested deeper than `maxDepth` levels (the top-level value is level 1), or
 * `undefined`. The schemas of this package validate nested records and components recursively;
 * this iterative check runs first, so deep input gets an issue instead of a stack overflow.
 *
 * @example
 * depthIssue({ a: { b: {} } }, 2); // { code: 'too_deep', segments: ['a', 'b'], path: '$.a.b', message: 'is nested deeper than 2 levels' }
 */
export function depthIssue(
  value: unknown,
  maxDepth = DEFAULT_MAX_DEPTH,
): ValidationIssue | undefined {
  const path = findTooDeep(value, maxDepth);
  if (path === undefined) return undefined;
  return validationIssue('too_deep', path, `is nested deeper than ${maxDepth} levels`, {
    maxDepth,
  });
}

/**
 * Validates any value against any zod schema of this package, in the `{ success }` style. A value
 * nested deeper than `limits.maxDepth` ({@link DEFAULT_MAX_DEPTH} by default, at most 256 is safe
 * for the recursive schemas) gets one depth issue and is not walked.
 *
 * @example
 * validateWith(SystemDescriptorSchema, { id: 'urn:dmb:dp:a:b:0', kind: 'dataproduct' });
 */
export function validateWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  limits: Pick<DocumentLimits, 'maxDepth'> = {},
): Validation<z.output<S>> {
  const deep = depthIssue(value, limits.maxDepth);
  if (deep !== undefined) return { success: false, issues: [deep] };
  // With the input on each issue, what was received is read from the value, not from a message.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { success: true, data: result.data };
  return { success: false, issues: toValidationIssues(result.error.issues) };
}

/**
 * Validates `result.details` of an evaluation result against A4. A conforming document is
 * confirmed by a compiled fast path and returned as `data` itself (no copy: these schemas do
 * not transform); anything else gets the full issues of `ResultDetailsSchema`.
 *
 * @example
 * const result = validateDetails({ results: { root: [{ key: 'id', compliant: true }] } });
 * if (!result.success) console.log(result.issues);
 */
export function validateDetails(value: unknown): Validation<ResultDetails> {
  if (conformsToResultDetailsFast(value)) return { success: true, data: value as ResultDetails };
  return validateWith(ResultDetailsSchema, value);
}

/**
 * Validates an evaluation result submission body against A3 (an array of exactly one result).
 * Like {@link validateDetails}, a conforming body is returned as `data` itself.
 *
 * @example
 * validateSubmission([{ resource: { id: 'urn:dmb:cmp:a:b:0:p', descriptor: '' },
 *   result: { satisfiesPolicy: true, details: { results: { root: [] } } } }]);
 */
export function validateSubmission(value: unknown): Validation<EvaluationResultSubmission> {
  if (conformsToSubmissionFast(value)) {
    return { success: true, data: value as EvaluationResultSubmission };
  }
  return validateWith(EvaluationResultSubmissionSchema, value);
}

/**
 * Validates an infrastructure template registration body, including `properties.dataContractGuardian` (A1).
 *
 * @example
 * validateTemplate({ id: 'urn:dmb:itm:g:1', name: 'Guardian', url: 'http://127.0.0.1:8093' });
 */
export function validateTemplate(value: unknown): Validation<InfrastructureTemplate> {
  return validateWith(InfrastructureTemplateSchema, value);
}

/**
 * Validates a system (data product) descriptor against A2.
 *
 * @example
 * validateDescriptor({ id: 'urn:dmb:dp:a:b:0', kind: 'dataproduct', components: [] });
 */
export function validateDescriptor(
  value: unknown,
  limits: Pick<DocumentLimits, 'maxDepth'> = {},
): Validation<SystemDescriptor> {
  return validateWith(SystemDescriptorSchema, value, limits);
}
