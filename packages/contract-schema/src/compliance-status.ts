import { type ComplianceCounts, countVerdict, requirementVerdict } from './compliance-rollup';
import type { ComplianceState, ComplianceTreeNode, VerdictOverride } from './compliance-wire';
import {
  type EvaluationResource,
  type EvaluationResult,
  EvaluationResultSchema,
} from './evaluation-result';
import { conformsToEvaluationResultFast } from './fast-validation';
import type { ValidationRecord } from './result-details';
import {
  type Validation,
  type ValidationIssue,
  validateSubmission,
  validateWith,
} from './validation';
import { verdictOverride } from './verdict-override';

/**
 * What the marketplace shows when `details` does not conform to A4.
 *
 * @example
 * if (status.status === 'unprocessable') render(UNPROCESSABLE_MESSAGE);
 */
export const UNPROCESSABLE_MESSAGE = 'The monitoring results cannot be processed';

/**
 * The one derivation of the compliance state: from the verdict of the envelope and whether the
 * details conform to A4.
 *
 * @example
 * complianceStateOf({ satisfiesPolicy: true, detailsConform: false }); // 'unprocessable'
 */
export function complianceStateOf(input: {
  satisfiesPolicy: boolean;
  detailsConform: boolean;
}): ComplianceState {
  if (!input.detailsConform) return 'unprocessable';
  return input.satisfiesPolicy ? 'compliant' : 'violated';
}

/** The one result of a submission whose envelope (A3 without the details) is valid. */
export interface CheckedSubmission {
  /** The element of the submitted array; `result.details` conforms only when `detailsIssues` is empty. */
  result: { resource: EvaluationResource; result: { satisfiesPolicy: boolean } } & Record<
    string,
    unknown
  >;
  status: ComplianceState;
  /** Why `result.details` breaks A4, located in the submitted body (`[0, 'result', 'details', …]`). */
  detailsIssues: ValidationIssue[];
}

const DETAILS: ReadonlyArray<string | number> = [0, 'result', 'details'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function underDetails(issue: ValidationIssue): boolean {
  return DETAILS.every((segment, index) => issue.segments[index] === segment);
}

/**
 * Checks a submission body (A3: an array of one result) and derives its compliance state. Details
 * that break A4 do not fail the check: the result is `unprocessable`, with the issues in
 * `detailsIssues`. Anything else wrong (not one result, no valid `resource`, no boolean
 * `satisfiesPolicy`, no `details` at all) fails it, with the issues.
 *
 * @example
 * const checked = checkSubmission([{ resource: { id: 'urn:dmb:cmp:a:b:0:p', descriptor: '' },
 *   result: { satisfiesPolicy: true, details: { results: { root: [{ key: 'x' }] } } } }]);
 * // checked.success === true, checked.data.status === 'unprocessable'
 */
export function checkSubmission(body: unknown): Validation<CheckedSubmission> {
  const parsed = validateSubmission(body);
  const first = Array.isArray(body) ? body[0] : undefined;
  if (parsed.success) {
    const result = parsed.data[0] as CheckedSubmission['result'];
    const status = complianceStateOf({
      satisfiesPolicy: result.result.satisfiesPolicy,
      detailsConform: true,
    });
    return { success: true, data: { result, status, detailsIssues: [] } };
  }
  const hasDetails =
    Array.isArray(body) &&
    body.length === 1 &&
    isObject(first) &&
    isObject(first.result) &&
    Object.hasOwn(first.result, 'details');
  const envelope = parsed.issues.filter((issue) => !(hasDetails && underDetails(issue)));
  if (envelope.length > 0) return { success: false, issues: envelope };
  const result = first as CheckedSubmission['result'];
  const status = complianceStateOf({
    satisfiesPolicy: result.result.satisfiesPolicy,
    detailsConform: false,
  });
  return { success: true, data: { result, status, detailsIssues: parsed.issues } };
}

/** The records reported under one key of `details.results` (`root` or a subcomponent URN). */
export interface ComplianceTreeTarget {
  key: string;
  records: ComplianceTreeNode[];
}

/** The compliance status of a stored evaluation result. */
export interface ComplianceStatus {
  status: ComplianceState;
  message?: string;
  schemaErrors?: ValidationIssue[];
  summary?: string;
  counts: ComplianceCounts;
  tree: ComplianceTreeTarget[];
  /** Set when the verdict disagrees with the records (see {@link verdictOverride}). */
  override?: VerdictOverride;
}

function toNode(
  record: ValidationRecord,
  counts: ComplianceCounts,
  target?: string,
): ComplianceTreeNode {
  const base = {
    key: record.key,
    ...(record.name === undefined ? {} : { name: record.name }),
    ...(record.description === undefined ? {} : { description: record.description }),
    ...(target === undefined ? {} : { target }),
  };
  if (record.children === undefined) {
    const compliant = record.compliant === true;
    const notChecked = record.checked === false;
    const severity = typeof record.severity === 'string' ? record.severity : undefined;
    countVerdict(
      counts,
      requirementVerdict({ key: record.key, compliant, checked: record.checked, severity }),
    );
    const issues = record.issues ?? [];
    return {
      ...base,
      section: false,
      compliant,
      ...(issues.length > 0 ? { issues } : {}),
      ...(notChecked ? { checked: false as const } : {}),
      ...(severity === undefined ? {} : { severity }),
    };
  }
  return {
    ...base,
    section: true,
    children: record.children.map((child) => toNode(child, counts)),
  };
}

/**
 * The compliance status of a stored evaluation result (the object of A3, or the one-element
 * array as submitted). `satisfiesPolicy` decides compliant or violated; a result whose
 * `details` do not conform to A4 is `unprocessable`, with the schema errors.
 *
 * @example
 * const status = complianceStatus({
 *   resource: { id: 'urn:dmb:cmp:a:b:0:port', descriptor: '' },
 *   result: { satisfiesPolicy: false, details: { results: { root: [{ key: 'id', compliant: false }] } } },
 * });
 * // status.status === 'violated', status.counts === { compliant: 0, failing: 1 }
 */
export function complianceStatus(storedResult: unknown): ComplianceStatus {
  const value =
    Array.isArray(storedResult) && storedResult.length === 1 ? storedResult[0] : storedResult;
  const validation = conformsToEvaluationResultFast(value)
    ? { success: true as const, data: value as EvaluationResult }
    : validateWith(EvaluationResultSchema, value);
  if (!validation.success) {
    return {
      status: 'unprocessable',
      message: UNPROCESSABLE_MESSAGE,
      schemaErrors: validation.issues,
      counts: { compliant: 0, failing: 0 },
      tree: [],
    };
  }
  const result: EvaluationResult = validation.data;
  const counts: ComplianceCounts = { compliant: 0, failing: 0 };
  const tree = Object.entries(result.result.details.results).map(([key, records]) => ({
    key,
    records: records.map((record) => toNode(record, counts, key)),
  }));
  const summary = result.result.details.notes?.errorSummary?.message;
  const status = complianceStateOf({
    satisfiesPolicy: result.result.satisfiesPolicy,
    detailsConform: true,
  });
  const override = verdictOverride({ status, counts });
  return {
    status,
    ...(summary === undefined ? {} : { summary }),
    counts,
    tree,
    ...(override === undefined ? {} : { override }),
  };
}
