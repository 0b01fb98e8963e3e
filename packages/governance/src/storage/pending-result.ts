import { GovernanceError } from '../errors';
import type { NewEvaluationResult } from '../repositories';

/**
 * A result waiting for its group commit, with whether it needs a guard (see
 * `AppendResultOptions.requireGuard`).
 *
 * @example
 * const pending: PendingResult = { result, requireGuard: true };
 */
export interface PendingResult {
  result: NewEvaluationResult;
  requireGuard: boolean;
}

/**
 * The refusal of a result no deployed guardian guards (both stores give the same one).
 *
 * @example
 * throw notGuarded(result);
 */
export function notGuarded(result: NewEvaluationResult): GovernanceError {
  return new GovernanceError(
    'conflict',
    `No guardian deployed in environment "${result.environment}" with policy "${result.policyId}" guards data contract "${result.contractId}"`,
  );
}
