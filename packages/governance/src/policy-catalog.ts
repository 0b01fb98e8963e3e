import { toValidationIssues } from '@dcg/contract-schema';
import { GovernanceError } from './errors';
import type { Page } from './page';
import { type Policy, PolicyCreateSchema, type PolicyFilter } from './policy';
import type { GovernanceStore } from './repositories';
import { newId } from './storage/row-mapping';

/**
 * Computational governance policies: direct creation, lookup and the filtered list.
 *
 * @example
 * const catalog = new PolicyCatalog(store);
 * const policy = await catalog.create({ name: 'SLA', resourceType: 'dataproduct', trigger: 'passive' });
 */
export class PolicyCatalog {
  constructor(
    private readonly store: GovernanceStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Creates a policy from a request body; a bad body throws `invalid_input`, a taken id `conflict`. */
  async create(body: unknown): Promise<Policy> {
    const parsed = PolicyCreateSchema.safeParse(body);
    if (!parsed.success) {
      throw new GovernanceError('invalid_input', 'The policy is invalid', {
        issues: toValidationIssues(parsed.error.issues),
      });
    }
    const now = this.clock().toISOString();
    const { id, ...rest } = parsed.data;
    return this.store.createPolicy({
      ...rest,
      id: id ?? newId(),
      templateId: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** The policy, or a `not_found` error naming it. */
  async get(id: string): Promise<Policy> {
    const policy = await this.store.getPolicy(id);
    if (!policy) throw new GovernanceError('not_found', `No policy with id "${id}"`);
    return policy;
  }

  list(filter: PolicyFilter): Promise<Page<Policy>> {
    return this.store.listPolicies(filter);
  }
}
