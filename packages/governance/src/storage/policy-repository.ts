import type { Kysely } from 'kysely';
import { GovernanceError } from '../errors';
import type { Policy } from '../policy';
import type { PolicyRepository } from '../repositories';
import type { GovernanceTables } from './governance-tables';
import { pagedList } from './paged-list';
import { assertStorableText, hasNul, policyFromRow } from './row-mapping';
import type { StoreContext } from './store-context';
import { findByKey, readRows } from './store-reads';

/**
 * Inserts a policy row (the template repository creates guardian policies with it too).
 *
 * @example
 * await insertPolicy(trx, policy);
 */
export async function insertPolicy(db: Kysely<GovernanceTables>, policy: Policy): Promise<void> {
  await db
    .insertInto('policies')
    .values({
      id: policy.id,
      name: policy.name,
      description: policy.description,
      resource_type: policy.resourceType,
      trigger: policy.trigger,
      status: policy.status,
      environment: policy.environment,
      template_id: policy.templateId,
      created_at: policy.createdAt,
      updated_at: policy.updatedAt,
    })
    .execute();
}

/**
 * Policies, on either dialect.
 *
 * @example
 * const policies = policyRepository(ctx);
 */
export function policyRepository(ctx: StoreContext): PolicyRepository {
  const { db } = ctx;
  return {
    async getPolicy(id) {
      return findByKey(ctx, 'read a policy', 'policies', { id }, policyFromRow);
    },

    async getPolicies(ids) {
      const keys = ids.filter((id) => !hasNul(id));
      if (keys.length === 0) return [];
      const policies = db.selectFrom('policies').selectAll().where('id', 'in', keys);
      return readRows(ctx, 'read policies', keys, policies, policyFromRow);
    },

    async createPolicy(policy) {
      assertStorableText({
        id: policy.id,
        name: policy.name,
        description: policy.description,
        resourceType: policy.resourceType,
        environment: policy.environment,
      });
      return ctx.run('create a policy', async () => {
        try {
          await insertPolicy(db, policy);
        } catch (error) {
          if (ctx.isUniqueViolation(error)) {
            throw new GovernanceError('conflict', `A policy with id ${policy.id} already exists`, {
              cause: error,
            });
          }
          throw error;
        }
        return policy;
      });
    },

    async listPolicies(filter) {
      return ctx.run('list policies', async () => {
        const { text } = filter;
        const filtered = db
          .selectFrom('policies')
          .$if(filter.resourceType !== undefined, (q) =>
            q.where('resource_type', '=', filter.resourceType!),
          )
          .$if(filter.trigger !== undefined, (q) => q.where('trigger', '=', filter.trigger!))
          .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
          .$if(filter.environment !== undefined, (q) =>
            q.where((eb) =>
              eb.or([eb('environment', 'is', null), eb('environment', '=', filter.environment!)]),
            ),
          )
          .$if(filter.templateId !== undefined, (q) =>
            q.where('template_id', '=', filter.templateId!),
          )
          .$if(text !== undefined && text !== '', (q) =>
            q.where((eb) =>
              eb.or([
                ctx.containsText('id', text!),
                ctx.containsText('name', text!),
                ctx.containsText('description', text!),
              ]),
            ),
          );
        return pagedList(
          filtered,
          filter,
          (q) => q.selectAll().orderBy('created_at').orderBy('id'),
          policyFromRow,
        );
      });
    },
  };
}
