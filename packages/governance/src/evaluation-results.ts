import { checkSubmission, UNPROCESSABLE_MESSAGE } from '@dcg/contract-schema';
import { GovernanceError, governanceIssue, parameterIssue } from './errors';
import type { AcceptedEvaluationResult } from './evaluation-result-views';
import { MAX_ENVIRONMENT_LENGTH } from './limits';
import type { Page } from './page';
import type {
  ContractGuard,
  GovernanceStore,
  NewEvaluationResult,
  StoredEvaluationResult,
} from './repositories';

/**
 * What a guardian submits: the policy it reports for, the environment and the raw request body.
 *
 * @example
 * const input: EvaluationSubmissionInput = { policyId: 'p1', environment: 'production', body: [{ resource, result }] };
 */
export interface EvaluationSubmissionInput {
  policyId: string;
  environment: string | undefined;
  body: unknown;
}

/**
 * Options of {@link EvaluationResults}.
 *
 * @example
 * const options: EvaluationResultsOptions = { acceptUnguarded: true };
 */
export interface EvaluationResultsOptions {
  /**
   * Accept results for a contract that no deployed guardian guards under the policy in the
   * environment (for platforms that push results before they deploy guardians). Default false.
   */
  acceptUnguarded?: boolean;
}

/**
 * Accepts evaluation results of passive policies. Each result is appended to the history and
 * becomes the current one for its data contract, policy and environment.
 *
 * @example
 * const results = new EvaluationResults(store);
 * const accepted = await results.submit({ policyId: 'p1', environment: 'production', body });
 */
export class EvaluationResults {
  // Policy id → trigger. A policy's trigger never changes and policies are never deleted, so a
  // positive lookup can be remembered; it saves a storage read on every submission.
  private readonly triggers = new Map<string, 'active' | 'passive'>();

  constructor(
    private readonly store: GovernanceStore,
    private readonly clock: () => Date = () => new Date(),
    private readonly options: EvaluationResultsOptions = {},
  ) {}

  /**
   * Checks and stores a submission. Throws `invalid_input` (no environment, not an array of one
   * object, malformed `resource`/`result`), `not_found` (unknown policy) or `conflict` (the policy
   * is not passive, or no guardian deployed in the environment guards the contract with it). Details that break A4 are stored and reported, not refused.
   */
  async submit(input: EvaluationSubmissionInput): Promise<AcceptedEvaluationResult> {
    if (input.environment === undefined || input.environment.trim() === '') {
      throw new GovernanceError('invalid_input', 'The environment is required', {
        issues: [parameterIssue('required', 'environment', 'is required')],
      });
    }
    if (input.environment.length > MAX_ENVIRONMENT_LENGTH) {
      throw new GovernanceError('invalid_input', 'The environment is too long', {
        issues: [
          parameterIssue('too_long', 'environment', `at most ${MAX_ENVIRONMENT_LENGTH} characters`),
        ],
      });
    }
    const environment = input.environment;
    let trigger = this.triggers.get(input.policyId);
    if (trigger === undefined) {
      const policy = await this.store.getPolicy(input.policyId);
      if (!policy) throw new GovernanceError('not_found', `No policy with id "${input.policyId}"`);
      trigger = policy.trigger;
      if (this.triggers.size >= 10_000) this.triggers.clear();
      this.triggers.set(policy.id, trigger);
    }
    if (trigger !== 'passive') {
      throw new GovernanceError(
        'conflict',
        `Policy "${input.policyId}" is ${trigger}: evaluation results are accepted for passive policies only`,
      );
    }
    // The envelope is checked and the state derived once, by @dcg/contract-schema, and stored
    // with the result: readers never recompute it. Details that break A4 are kept, not refused.
    const checked = checkSubmission(input.body);
    if (!checked.success) {
      throw new GovernanceError('invalid_input', 'The evaluation result submission is invalid', {
        issues: checked.issues,
      });
    }
    const { result: submission, status, detailsIssues: schemaErrors } = checked.data;
    const resource = submission.resource;
    const detailsConform = schemaErrors.length === 0;
    const result: NewEvaluationResult = {
      contractId: resource.id,
      policyId: input.policyId,
      environment,
      receivedAt: this.clock().toISOString(),
      submission,
      detailsConform,
      status,
    };
    // The guard is checked in the transaction of the insert (no race with an undeploy).
    const requireGuard = this.options.acceptUnguarded !== true;
    const stored = await this.store.appendResult(result, { requireGuard }).catch(async (error) => {
      if (requireGuard && GovernanceError.isInstance(error) && error.code === 'conflict') {
        throw await this.unguarded(resource.id, input.policyId, environment);
      }
      throw error;
    });
    return {
      seq: stored.seq,
      contractId: stored.contractId,
      policyId: stored.policyId,
      environment: stored.environment,
      receivedAt: stored.receivedAt,
      status: stored.status,
      detailsConform: stored.detailsConform,
      ...(stored.detailsConform ? {} : { message: UNPROCESSABLE_MESSAGE, schemaErrors }),
    };
  }

  /**
   * Results go only where a guardian guards: a guardian deployed in the environment, with this
   * policy, whose targets (A5) include the contract. Otherwise a `conflict` that says what is
   * deployed there, so a misconfigured guardian (another policy, a mistyped environment, an
   * unknown contract) fails loudly instead of overwriting another guardian's verdict.
   */
  private async unguarded(
    contractId: string,
    policyId: string,
    environment: string,
  ): Promise<GovernanceError> {
    const here = await this.store.findContractGuards(contractId, environment);
    const describe = (guards: ContractGuard[]) =>
      guards
        .map((g) => `policy "${g.policyId}" (guardian ${g.guardianId} of system ${g.systemId})`)
        .join(', ');
    let deployed: string;
    if (here.length > 0) {
      deployed = `there it is guarded under ${describe(here)}`;
    } else {
      const elsewhere = await this.store.findContractGuards(contractId);
      deployed =
        elsewhere.length === 0
          ? 'no deployed guardian guards it in any environment'
          : `no guardian guards it there; it is guarded in ${[...new Set(elsewhere.map((g) => `"${g.environment}"`))].join(', ')}`;
    }
    return new GovernanceError(
      'conflict',
      `No guardian deployed in environment "${environment}" with policy "${policyId}" guards data contract "${contractId}": ${deployed}`,
      {
        issues: [
          governanceIssue(
            'not_guarded',
            [0, 'resource', 'id'],
            `not guarded by policy "${policyId}" in environment "${environment}"`,
          ),
        ],
      },
    );
  }

  /** History of a contract's results, newest first. */
  history(
    contractId: string,
    filter: { environment?: string; policyId?: string; limit: number; offset: number },
  ): Promise<Page<StoredEvaluationResult>> {
    return this.store.listResultHistory(contractId, filter);
  }
}
