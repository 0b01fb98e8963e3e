import { type EvaluationResult, EvaluationResultSchema } from './evaluation-result';
import { conformsToEvaluationResultFast } from './fast-validation';
import type { ValidationRecord } from './result-details';
import { type ValidationIssue, validateWith } from './validation';

/**
 * What the marketplace shows when `details` does not conform to A4.
 *
 * @example
 * if (status.status === 'unprocessable') render(UNPROCESSABLE_MESSAGE);
 */
export const UNPROCESSABLE_MESSAGE = 'The monitoring results cannot be processed';

/** State of a data contract as rendered in the marketplace. */
export type ComplianceState = 'compliant' | 'violated' | 'unprocessable';

/** A requirement (`section: false`) or a section of the rendered result tree. */
export interface ComplianceTreeNode {
  key: string;
  name?: string;
  description?: string;
  section: boolean;
  /** For a requirement its flag; for a section, whether every requirement below is compliant. */
  compliant: boolean;
  issues: string[];
  children: ComplianceTreeNode[];
}

/** The records reported under one key of `details.results` (`root` or a subcomponent URN). */
export interface ComplianceTreeTarget {
  key: string;
  records: ComplianceTreeNode[];
}

/** Counts of requirements (records with `compliant`). */
export interface ComplianceCounts {
  compliant: number;
  failing: number;
}

/** The compliance status of a stored evaluation result. */
export interface ComplianceStatus {
  status: ComplianceState;
  message?: string;
  schemaErrors?: ValidationIssue[];
  summary?: string;
  counts: ComplianceCounts;
  tree: ComplianceTreeTarget[];
}

function toNode(record: ValidationRecord, counts: ComplianceCounts): ComplianceTreeNode {
  const base = {
    key: record.key,
    ...(record.name === undefined ? {} : { name: record.name }),
    ...(record.description === undefined ? {} : { description: record.description }),
  };
  if (record.children === undefined) {
    const compliant = record.compliant === true;
    if (compliant) counts.compliant++;
    else counts.failing++;
    return { ...base, section: false, compliant, issues: record.issues ?? [], children: [] };
  }
  const children = record.children.map((child) => toNode(child, counts));
  return {
    ...base,
    section: true,
    compliant: children.every((child) => child.compliant),
    issues: [],
    children,
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
    records: records.map((record) => toNode(record, counts)),
  }));
  const summary = result.result.details.notes?.errorSummary?.message;
  return {
    status: result.result.satisfiesPolicy ? 'compliant' : 'violated',
    ...(summary === undefined ? {} : { summary }),
    counts,
    tree,
  };
}
