import { z } from 'zod';
import { EvaluationOutcomeSchema, EvaluationResultSchema } from './evaluation-result';
import { resultDetailsShape, unrolledValidationRecordSchema } from './result-details';

// zod's compiler (z.compile) refuses recursive schemas, and A4 records nest through `children`.
// Copies of the same shapes unrolled to this many levels compile; a document nested deeper, and
// every document a fast path rejects, goes to the recursive runtime schema, which has the final
// word and produces the issues. Realistic details have 3–5 levels.
const FAST_PATH_DEPTH = 12;

interface FastPaths {
  details: z.ZodType;
  result: z.ZodType;
  submission: z.ZodType;
  /** Whether zod compiled each one (it silently keeps the runtime parser otherwise). */
  compiled: { details: boolean; result: boolean; submission: boolean };
}

let fastPaths: FastPaths | undefined;

function compileOrKeep(schema: z.ZodType): [z.ZodType, boolean] {
  try {
    return [z.compile(schema, { strict: true }), true];
  } catch {
    return [schema, false];
  }
}

/** Built on first use, so importing the package stays cheap. */
function paths(): FastPaths {
  if (fastPaths !== undefined) return fastPaths;
  const details = z.looseObject(
    resultDetailsShape(unrolledValidationRecordSchema(FAST_PATH_DEPTH)),
  );
  const result = EvaluationResultSchema.extend({
    result: EvaluationOutcomeSchema.extend({ details }),
  });
  const submission = z.array(result).length(1);
  const [fastDetails, detailsCompiled] = compileOrKeep(details);
  const [fastResult, resultCompiled] = compileOrKeep(result);
  const [fastSubmission, submissionCompiled] = compileOrKeep(submission);
  fastPaths = {
    details: fastDetails,
    result: fastResult,
    submission: fastSubmission,
    compiled: { details: detailsCompiled, result: resultCompiled, submission: submissionCompiled },
  };
  return fastPaths;
}

/**
 * Which fast paths zod compiled (for tests and benchmarks).
 *
 * @example
 * fastPathsCompiled(); // { details: true, result: true, submission: true }
 */
export function fastPathsCompiled(): FastPaths['compiled'] {
  return paths().compiled;
}

/**
 * True when `value` conforms to A4 details, decided by the compiled fast path. `false` means
 * "not proven here": ask `ResultDetailsSchema` for the verdict and the issues.
 *
 * @example
 * if (!conformsToResultDetailsFast(value)) ResultDetailsSchema.safeParse(value);
 */
export function conformsToResultDetailsFast(value: unknown): boolean {
  return paths().details.validate(value);
}

/**
 * True when `value` is an evaluation result (the A3 object), decided by the fast path.
 *
 * @example
 * conformsToEvaluationResultFast({ resource: { id: 'urn:x', descriptor: '' } }); // false
 */
export function conformsToEvaluationResultFast(value: unknown): boolean {
  return paths().result.validate(value);
}

/**
 * True when `value` is an evaluation result submission (A3: an array of one), by the fast path.
 *
 * @example
 * conformsToSubmissionFast([]); // false
 */
export function conformsToSubmissionFast(value: unknown): boolean {
  return paths().submission.validate(value);
}
