import { ComplianceStateSchema, ValidationIssueSchema } from '@dcg/contract-schema';
import { z } from 'zod';

/**
 * A stored evaluation result, as the history lists it.
 *
 * @example
 * StoredEvaluationResultSchema.shape.status.parse('violated');
 */
export const StoredEvaluationResultSchema = z
  .object({
    seq: z.number().int(),
    contractId: z.string(),
    policyId: z.string(),
    environment: z.string(),
    receivedAt: z.string(),
    submission: z
      .record(z.string(), z.unknown())
      .describe('The submitted object (the single element of the submitted array)'),
    detailsConform: z
      .boolean()
      .describe('False when `result.details` did not conform to the details schema'),
    status: ComplianceStateSchema.describe(
      'The compliance state, computed once when the result was accepted and stored with it',
    ),
  })
  .meta({ id: 'StoredEvaluationResult' });
/** A stored evaluation result. */
export type StoredEvaluationResult = z.infer<typeof StoredEvaluationResultSchema>;

/**
 * The answer to an accepted submission. `detailsConform: false` means the result was stored but the
 * marketplace will show that the monitoring results cannot be processed (`schemaErrors` says why).
 *
 * @example
 * if (!accepted.detailsConform) console.warn(accepted.schemaErrors);
 */
export const AcceptedEvaluationResultSchema = StoredEvaluationResultSchema.omit({
  submission: true,
})
  .extend({
    message: z.string().optional(),
    schemaErrors: z.array(ValidationIssueSchema).optional(),
  })
  .meta({ id: 'AcceptedEvaluationResult' });
/** The answer to an accepted submission. */
export type AcceptedEvaluationResult = z.infer<typeof AcceptedEvaluationResultSchema>;
