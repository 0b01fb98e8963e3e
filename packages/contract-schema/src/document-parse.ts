import { ContractSchemaError } from './contract-schema-error';
import type { PathSegment } from './document-limits';
import type { SourceLocation } from './source-location';
import { type ValidationIssue, validationIssue } from './validation';

/**
 * Why a JSON or YAML text does not give a document: `invalid_yaml` / `invalid_json` (syntax,
 * duplicate keys, several documents, bad aliases), `too_deep` (nested beyond `maxDepth`),
 * `too_large` (expands beyond `maxExpandedBytes` through YAML aliases).
 */
export type DocumentIssueCode = 'invalid_yaml' | 'invalid_json' | 'too_deep' | 'too_large';

/** A {@link ValidationIssue} of a text that does not parse, with the line and column when known. */
export interface DocumentIssue extends ValidationIssue {
  code: DocumentIssueCode;
  /** Where in the text (1-based line and column), for a syntax error. */
  location?: SourceLocation;
}

/**
 * Outcome of parsing a document text, in the `{ success }` style of {@link Validation}: the
 * parsed value, or the issue that stopped the parse.
 */
export type DocumentParse =
  | { success: true; data: unknown }
  | { success: false; issues: DocumentIssue[] };

/** A failed {@link DocumentParse} with one issue. */
export function documentIssue(
  code: DocumentIssueCode,
  segments: ReadonlyArray<PathSegment>,
  message: string,
  location?: SourceLocation,
): { success: false; issues: DocumentIssue[] } {
  const issue: DocumentIssue = validationIssue(code, segments, message) as DocumentIssue;
  if (location !== undefined) issue.location = location;
  return { success: false, issues: [issue] };
}

/** The value of a parse, or its first issue thrown as a {@link ContractSchemaError}. */
export function dataOrThrow(parsed: DocumentParse): unknown {
  if (parsed.success) return parsed.data;
  const [issue] = parsed.issues as [DocumentIssue];
  throw new ContractSchemaError(issue.code, issue.message, { location: issue.location });
}
