import type { ProvisioningPlan } from './provisioning-plan';

/**
 * Stops a plan: `terminated` for governance rule breaches, `failed` for adapter failures.
 *
 * @example
 * throw new PlanStop('terminated', 'Guardian component "g" has no infrastructureTemplateId');
 */
export class PlanStop extends Error {
  constructor(
    readonly outcome: 'failed' | 'terminated',
    message: string,
    /** The adapter did provision the component (its answer was refused afterwards). */
    readonly provisioned = false,
  ) {
    super(message);
  }

  /** The error as a stop: a `PlanStop` as it is, anything else a `failed` stop with its message. */
  static of(error: unknown): PlanStop {
    return error instanceof PlanStop ? error : new PlanStop('failed', (error as Error).message);
  }
}

/**
 * A sentence for the plan's errors: what a stopped deploy undid and what it left behind.
 *
 * @example
 * describeRollback({ rolledBack: ['a'], remaining: [], uncertain: [] }); // 'rolled back (unprovisioned, in reverse order): a'
 */
export function describeRollback(rollback: NonNullable<ProvisioningPlan['rollback']>): string {
  const parts: string[] = [];
  if (rollback.rolledBack.length > 0) {
    parts.push(`rolled back (unprovisioned, in reverse order): ${rollback.rolledBack.join(', ')}`);
  }
  if (rollback.remaining.length > 0) {
    parts.push(`still provisioned: ${rollback.remaining.join(', ')}`);
  }
  if (rollback.uncertain.length > 0) {
    parts.push(
      `possibly provisioned (its call ended without a COMPLETED or FAILED status, or the service stopped during it): ${rollback.uncertain.join(', ')}`,
    );
  }
  return parts.length === 0 ? 'nothing was provisioned' : parts.join('; ');
}
