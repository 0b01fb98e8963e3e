import { sql } from 'kysely';
import { GovernanceError } from '../errors';
import type { ProvisioningPlan } from '../provisioning-plan';
import type { PlanRepository } from '../repositories';
import { pagedList } from './paged-list';
import type { StoreContext } from './store-context';

/**
 * Provisioning plans and the leases of the instances that run them, on either dialect. Lease
 * times come from the database's clock, so instances on several machines agree.
 *
 * @example
 * const plans = planRepository(ctx);
 */
export function planRepository(ctx: StoreContext): PlanRepository {
  const { db } = ctx;
  const planOf = (row: { document: unknown }) => ctx.readJson<ProvisioningPlan>(row.document);
  return {
    async createPlan(plan, owner) {
      await ctx.run('create a plan', () =>
        db
          .insertInto('plans')
          .values({
            id: plan.id,
            status: plan.status,
            document: JSON.stringify(plan),
            created_at: plan.createdAt,
            updated_at: plan.updatedAt,
            environment: plan.environment,
            owner: owner ?? null,
          })
          .execute(),
      );
    },

    async renewLease(instanceId, leaseMs) {
      await ctx.run('renew a lease', () =>
        db
          .insertInto('service_leases')
          .values({
            instance_id: instanceId,
            expires_at: sql<number>`${ctx.nowMs()} + ${Math.round(leaseMs)}`,
          })
          .onConflict((oc) =>
            oc
              .column('instance_id')
              .doUpdateSet((eb) => ({ expires_at: eb.ref('excluded.expires_at') })),
          )
          .execute(),
      );
    },

    async endLease(instanceId) {
      await ctx.run('end a lease', () =>
        db.deleteFrom('service_leases').where('instance_id', '=', instanceId).execute(),
      );
    },

    async claimOrphanedPlans(instanceId) {
      return ctx.run('claim orphaned plans', () =>
        ctx.transaction(async (trx) => {
          // One statement, so two instances never claim the same plan: on PostgreSQL a plan
          // claimed by a concurrent instance is re-checked after its commit (its new owner holds
          // a live lease).
          const rows = await trx
            .updateTable('plans')
            .set({ owner: instanceId })
            .where('status', '=', 'running')
            .where((eb) =>
              eb.or([
                eb('owner', 'is', null),
                eb.not(
                  eb.exists(
                    eb
                      .selectFrom('service_leases as l')
                      .select(eb.lit(1).as('one'))
                      .whereRef('l.instance_id', '=', 'plans.owner')
                      .where('l.expires_at', '>', ctx.nowMs()),
                  ),
                ),
              ]),
            )
            .returning('document')
            .execute();
          // The plans of an expired lease are claimed now; the lease itself is of no more use.
          await trx.deleteFrom('service_leases').where('expires_at', '<=', ctx.nowMs()).execute();
          return rows.map(planOf).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
        }),
      );
    },

    async updatePlan(plan, owner) {
      await ctx.run('update a plan', async () => {
        const { numUpdatedRows } = await db
          .updateTable('plans')
          .set({ status: plan.status, document: JSON.stringify(plan), updated_at: plan.updatedAt })
          .where('id', '=', plan.id)
          .$if(owner !== undefined && owner !== null, (q) => q.where('owner', '=', owner!))
          .executeTakeFirst();
        if (numUpdatedRows > 0n) return;
        const exists = await db
          .selectFrom('plans')
          .select('id')
          .where('id', '=', plan.id)
          .executeTakeFirst();
        if (!exists) throw new GovernanceError('not_found', `No plan ${plan.id}`);
        throw new GovernanceError('conflict', `Plan ${plan.id} was taken over by another instance`);
      });
    },

    async getPlan(id) {
      return ctx.run('read a plan', async () => {
        const row = await db
          .selectFrom('plans')
          .select('document')
          .where('id', '=', id)
          .executeTakeFirst();
        return row ? planOf(row) : null;
      });
    },

    async listRunningPlans() {
      return ctx.run('list running plans', async () =>
        (
          await db
            .selectFrom('plans')
            .select('document')
            .where('status', '=', 'running')
            .orderBy('created_at')
            .execute()
        ).map(planOf),
      );
    },

    async listPlans(filter) {
      return ctx.run('list plans', async () => {
        const filtered = db
          .selectFrom('plans')
          .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
          .$if(filter.environment !== undefined, (q) =>
            q.where('environment', '=', filter.environment!),
          );
        return pagedList(
          filtered,
          filter,
          (q) => q.select('document').orderBy('created_at', 'desc').orderBy('id', 'desc'),
          planOf,
        );
      });
    },
  };
}
