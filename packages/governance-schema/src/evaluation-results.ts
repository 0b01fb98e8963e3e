import { ComplianceStateSchema, ValidationIssueSchema } from '@dcg/contract-schema';
import * as z from 'zod/mini';
import { pageSchema } from './paging';

const storedFields = {
  seq: z.int(),
  contractId: z.string(),
  policyId: z.string(),
  environment: z.string(),
  receivedAt: z.string(),
  detailsConform: z
    .boolean()
    .check(z.describe('False when `result.details` did not conform to the details schema')),
  status: ComplianceStateSchema.check(
    z.describe(
      'The compliance state, computed once when the result was accepted and stored with it',
    ),
  ),
};

/**
 * A stored evaluation result, as the history lists it: the submitted object with the state
 * computed when it was accepted.
 *
 * @example
 * StoredEvaluationResultSchema.parse(entry).status; // 'violated'
 */
export const StoredEvaluationResultSchema = z
  .object({
    ...storedFields,
    submission: z
      .record(z.string(), z.unknown())
      .check(z.describe('The submitted object (the single element of the submitted array)')),
  })
  .register(z.globalRegistry, { id: 'StoredEvaluationResult' });
/** A stored evaluation result. */
export type StoredEvaluationResult = z.infer<typeof StoredEvaluationResultSchema>;

/**
 * The answer to an accepted submission. `detailsConform: false` means the result was stored but
 * the marketplace shows that the monitoring results cannot be processed (`schemaErrors` says why).
 *
 * @example
 * if (!accepted.detailsConform) console.warn(accepted.schemaErrors);
 */
export const AcceptedEvaluationResultSchema = z
  .object({
    ...storedFields,
    message: z.optional(z.string()),
    schemaErrors: z.optional(z.array(ValidationIssueSchema)),
  })
  .register(z.globalRegistry, { id: 'AcceptedEvaluationResult' });
/** The answer to an accepted submission. */
export type AcceptedEvaluationResult = z.infer<typeof AcceptedEvaluationResultSchema>;

/**
 * One page of a data contract's result history, newest first.
 *
 * @example
 * const { data } = EvaluationResultHistorySchema.parse(await res.json());
 */
export const EvaluationResultHistorySchema = pageSchema(
  StoredEvaluationResultSchema,
  'EvaluationResultHistory',
);
/** One page of a result history. */
export type EvaluationResultHistory = z.infer<typeof EvaluationResultHistorySchema>;
