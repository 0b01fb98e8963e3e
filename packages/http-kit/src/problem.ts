import { toJsonPath } from '@dcg/contract-schema';
import { z } from 'zod';

/**
 * One problem with a piece of input, located by a JSON path such as `$.resource.id`, with the
 * stable `code` of the issue (zod's issue code or a rule's), so that clients branch on it.
 */
export const ProblemFieldErrorSchema = z.object({
  path: z.string(),
  message: z.string(),
  code: z.string(),
});
export type ProblemFieldError = z.infer<typeof ProblemFieldErrorSchema>;

/** RFC 9457 problem details, as every dcg endpoint answers errors. */
export const ProblemSchema = z
  .object({
    type: z.string().default('about:blank'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z.array(ProblemFieldErrorSchema).optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'Problem' });
export type Problem = z.input<typeof ProblemSchema>;

const PROBLEM_ERROR = Symbol.for('dcg.http-kit.ProblemError');

/**
 * An error that becomes a problem-details response when thrown inside a handler.
 *
 * @example
 * throw new ProblemError({ status: 404, title: 'Policy not found', detail: `No policy ${id}` });
 */
export class ProblemError extends Error {
  readonly problem: Problem;
  readonly [PROBLEM_ERROR] = true;

  constructor(problem: Problem, options?: { cause?: unknown }) {
    super(problem.detail ?? problem.title, options);
    this.name = 'ProblemError';
    this.problem = problem;
  }

  get status(): number {
    return this.problem.status;
  }

  static isInstance(value: unknown): value is ProblemError {
    return typeof value === 'object' && value !== null && PROBLEM_ERROR in value;
  }
}

/**
 * Builds an `application/problem+json` response.
 *
 * @example
 * return problemResponse({ status: 403, title: 'Forbidden', detail: 'Needs role admin' });
 */
export function problemResponse(problem: Problem, headers?: Record<string, string>): Response {
  const body = { type: 'about:blank', ...problem };
  return new Response(JSON.stringify(body), {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}

/** Turns zod issues into problem field errors with JSON paths and zod's issue codes. */
export function fieldErrorsFromZod(error: z.ZodError): ProblemFieldError[] {
  return error.issues.map((issue) => ({
    path: toJsonPath(issue.path),
    message: issue.message,
    code: issue.code,
  }));
}
