import { GovernanceError } from '../errors';
import type {
  AppendResultOptions,
  NewEvaluationResult,
  StoredEvaluationResult,
} from '../repositories';
import type { GroupCommit } from './group-commit';
import { assertStorableText } from './row-mapping';

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

/**
 * `appendResult` of both stores: checks the keys and that the store is open, queues the result for
 * the next group commit at once (a `close()` right after this call still commits it), and turns
 * a result the commit refused for want of a guard into {@link notGuarded}.
 *
 * @example
 * appendResult(result, options) { return enqueueResult(group, ctx.assertOpen, result, options); }
 */
export function enqueueResult(
  group: GroupCommit<PendingResult, StoredEvaluationResult | null>,
  assertOpen: () => void,
  result: NewEvaluationResult,
  options: AppendResultOptions | undefined,
): Promise<StoredEvaluationResult> {
  try {
    assertStorableText({
      contractId: result.contractId,
      policyId: result.policyId,
      environment: result.environment,
    });
    assertOpen();
  } catch (error) {
    return Promise.reject(error);
  }
  return group
    .add({ result, requireGuard: options?.requireGuard === true })
    .then((stored) => stored ?? Promise.reject(notGuarded(result)));
}
