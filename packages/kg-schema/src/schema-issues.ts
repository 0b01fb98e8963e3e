import { toJsonPath } from '@dcg/contract-schema/json-path';
import type * as z from 'zod/mini';

/**
 * One thing wrong with a checked value: a stable `code` (zod's: `invalid_type`, `too_small`,
 * `custom`…), where (`segments`, and the same as a JSON path such as `$.results[2]`) and what.
 */
export interface SchemaIssue {
  code: string;
  segments: Array<string | number>;
  path: string;
  message: string;
}

/**
 * Turns zod issues into {@link SchemaIssue}s.
 *
 * @example
 * const parsed = SearchResponseSchema.safeParse(value);
 * if (!parsed.success) console.log(schemaIssues(parsed.error.issues)); // [{ code: 'invalid_type', segments: ['totalResults'], path: '$.totalResults', message: 'expected number' }]
 */
export function schemaIssues(issues: readonly z.core.$ZodIssue[]): SchemaIssue[] {
  return issues.map((issue) => ({
    code: issue.code,
    segments: issue.path.map((segment) =>
      typeof segment === 'number' ? segment : String(segment),
    ),
    path: toJsonPath(issue.path),
    message: describeIssue(issue),
  }));
}

// zod/mini ships no locale (that keeps the browser bundle small), so an issue without a message
// of ours says only "Invalid input": say what was expected instead.
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_small':
      return `must be ≥ ${issue.minimum}`;
    case 'too_big':
      return `must be ≤ ${issue.maximum}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_union':
      return 'matches none of the allowed shapes';
    default:
      return issue.message;
  }
}
