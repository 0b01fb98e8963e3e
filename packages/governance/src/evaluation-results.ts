import {
  type ComplianceState,
  UNPROCESSABLE_MESSAGE,
  type ValidationIssue,
  validateSubmission,
} from '@dcg/contract-schema';
import { GovernanceError } from './errors';
import type { Page } from './page';
import type { GovernanceStore, StoredEvaluationResult } from './repositories';

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
 * The answer to an accepted submission. `detailsConform: false` means the result was stored but the
 * marketplace will show that the monitoring results cannot be processed (`schemaErrors` says why).
 *
 * @example
 * if (!accepted.detailsConform) console.warn(accepted.schemaErrors);
 */
export interface AcceptedEvaluationResult {
  seq: number;
  contractId: string;
  policyId: string;
  environment: string;
  receivedAt: string;
  status: ComplianceState;
  detailsConform: boolean;
  message?: string;
  schemaErrors?: ValidationIssue[];
}

const DETAILS_PATH = '$[0].result.details';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  ) {}

  /**
   * Checks and stores a submission. Throws `invalid_input` (no environment, not an array of one
   * object, malformed `resource`/`result`), `not_found` (unknown policy) or `conflict` (the policy
   * is not passive). Details that break A4 are stored and reported, not refused.
   */
  async submit(input: EvaluationSubmissionInput): Promise<AcceptedEvaluationResult> {
    if (input.environment === undefined || input.environment.trim() === '') {
      throw new GovernanceError('invalid_input', 'The query parameter environment is required', {
        issues: [{ path: '$.query.environment', message: 'is required' }],
      });
    }
    if (input.environment.length > 200) {
      throw new GovernanceError('invalid_input', 'The query parameter environment is too long', {
        issues: [{ path: '$.query.environment', message: 'at most 200 characters' }],
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
    // A conforming body is confirmed by zod's compiled fast path; anything else gets the full
    // runtime schema and its issues (same verdict, same issues as EvaluationResultSubmissionSchema).
    const parsed = validateSubmission(input.body);
    let schemaErrors: ValidationIssue[] = [];
    if (!parsed.success) {
      const issues = parsed.issues;
      const first = Array.isArray(input.body) ? input.body[0] : undefined;
      const hasDetails =
        Array.isArray(input.body) &&
        input.body.length === 1 &&
        isObject(first) &&
        isObject(first.result) &&
        Object.hasOwn(first.result, 'details');
      const envelope = issues.filter(
        (i) =>
          !(
            hasDetails &&
            (i.path === DETAILS_PATH ||
              i.path.startsWith(`${DETAILS_PATH}.`) ||
              i.path.startsWith(`${DETAILS_PATH}[`))
          ),
      );
      if (envelope.length > 0) {
        throw new GovernanceError('invalid_input', 'The evaluation result submission is invalid', {
          issues: envelope,
        });
      }
      schemaErrors = issues;
    }
    const submission = (input.body as unknown[])[0] as Record<string, unknown>;
    const resource = submission.resource as { id: string };
    // The envelope parsed above, so the state follows from satisfiesPolicy and the details check.
    // It is computed once, here, and stored with the result: readers never recompute it.
    const detailsConform = schemaErrors.length === 0;
    const result = submission.result as { satisfiesPolicy: boolean };
    const status = detailsConform
      ? result.satisfiesPolicy
        ? 'compliant'
        : 'violated'
      : 'unprocessable';
    const stored = await this.store.appendResult({
      contractId: resource.id,
      policyId: input.policyId,
      environment,
      receivedAt: this.clock().toISOString(),
      submission,
      detailsConform,
      status,
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

  /** History of a contract's results, newest first. */
  history(
    contractId: string,
    filter: { environment?: string; policyId?: string; limit: number; offset: number },
  ): Promise<Page<StoredEvaluationResult>> {
    return this.store.listResultHistory(contractId, filter);
  }
}
