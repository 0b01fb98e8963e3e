import { z } from 'zod';
import { ResultDetailsSchema } from './result-details';

/**
 * `resource` of an evaluation result: the data contract the result is about.
 *
 * @example
 * EvaluationResourceSchema.parse({ id: 'urn:dmb:cmp:finance:invoices:0:orders-port', descriptor: '' });
 */
export const EvaluationResourceSchema = z
  .looseObject({
    id: z.string().min(1),
    displayName: z.string().optional(),
    // Guardians may send an empty descriptor (A3), so no minimum length.
    descriptor: z.string(),
  })
  .meta({ title: 'EvaluationResource' });
/** A value that EvaluationResourceSchema accepts (its parsed output). */
export type EvaluationResource = z.infer<typeof EvaluationResourceSchema>;

/**
 * `result` of an evaluation result: `satisfiesPolicy` decides the compliance state.
 *
 * @example
 * EvaluationOutcomeSchema.parse({ satisfiesPolicy: true, details: { results: { root: [] } } });
 */
export const EvaluationOutcomeSchema = z
  .looseObject({
    satisfiesPolicy: z.boolean(),
    errors: z.array(z.unknown()).optional(),
    details: ResultDetailsSchema,
  })
  .meta({ title: 'EvaluationOutcome' });
/** A value that EvaluationOutcomeSchema accepts (its parsed output). */
export type EvaluationOutcome = z.infer<typeof EvaluationOutcomeSchema>;

/**
 * The one object of an evaluation result submission (A3).
 *
 * @example
 * EvaluationResultSchema.parse({
 *   resource: { id: 'urn:dmb:cmp:finance:invoices:0:orders-port', descriptor: '' },
 *   result: { satisfiesPolicy: true, details: { results: { root: [{ key: 'schema', compliant: true }] } } },
 * });
 */
export const EvaluationResultSchema = z
  .looseObject({
    resource: EvaluationResourceSchema,
    result: EvaluationOutcomeSchema,
  })
  .meta({ title: 'EvaluationResult' });
/** A value that EvaluationResultSchema accepts (its parsed output). */
export type EvaluationResult = z.infer<typeof EvaluationResultSchema>;

/**
 * Message for a submission body that does not hold exactly one object (Limits 2).
 *
 * @example
 * EvaluationResultSubmissionSchema.safeParse([]).error?.issues[0]?.message === SUBMISSION_LENGTH_MESSAGE;
 */
export const SUBMISSION_LENGTH_MESSAGE =
  'the body must be an array with exactly one evaluation result';

/**
 * The request body of `POST …/evaluation-results` (A3): an array of exactly one result.
 *
 * @example
 * EvaluationResultSubmissionSchema.parse([
 *   {
 *     resource: { id: 'urn:dmb:cmp:finance:invoices:0:orders-port', descriptor: '' },
 *     result: { satisfiesPolicy: false, details: { results: { root: [{ key: 'id', compliant: false }] } } },
 *   },
 * ]);
 */
export const EvaluationResultSubmissionSchema = z
  .array(EvaluationResultSchema, { error: 'the body must be a JSON array' })
  .length(1, { error: SUBMISSION_LENGTH_MESSAGE })
  .meta({ title: 'EvaluationResultSubmission' });
/** A value that EvaluationResultSubmissionSchema accepts (its parsed output). */
export type EvaluationResultSubmission = z.infer<typeof EvaluationResultSubmissionSchema>;
