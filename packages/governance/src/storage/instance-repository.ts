import type { Kysely, Selectable } from 'kysely';
import { guardedContracts } from '../guarded-contracts';
import type { InstanceRecord, InstanceRepository } from '../repositories';
import { componentIds } from './component-ids';
import type { GovernanceTables } from './governance-tables';
import { inChunks } from './in-chunks';
import { assertStorableText, guardFromRow, hasNul } from './row-mapping';
import type { StoreContext } from './store-context';
import { findByKey, readRows } from './store-reads';

type Db = Kysely<GovernanceTables>;

/**
 * Marketplace instances with the index of their components and of the contracts their guardians
 * guard, on either dialect.
 *
 * @example
 * const instances = instanceRepository(ctx);
 */
export function instanceRepository(ctx: StoreContext): InstanceRepository {
  const { db } = ctx;
  const instanceFromRow = (row: Selectable<GovernanceTables['instances']>): InstanceRecord => ({
    systemId: row.system_id,
    environment: row.environment,
    descriptor: ctx.readJson(row.descriptor),
    deployedAt: row.deployed_at,
    planId: row.plan_id,
  });
  const dropIndexes = async (trx: Db, systemId: string, environment: string) => {
    for (const table of ['instance_components', 'instance_guards'] as const) {
      await trx
        .deleteFrom(table)
        .where('system_id', '=', systemId)
        .where('environment', '=', environment)
        .execute();
    }
  };
  return {
    async putInstance(instance) {
      const { systemId, environment } = instance;
      assertStorableText({ systemId, environment });
      const components = [...new Set(componentIds(instance.descriptor))].map((id) => ({
        component_id: id,
        environment,
        system_id: systemId,
      }));
      const guards = guardedContracts(instance.descriptor, instance).map((g) => ({
        contract_id: g.contractId,
        environment: g.environment,
        policy_id: g.policyId,
        guardian_id: g.guardianId,
        system_id: g.systemId,
      }));
      // One transaction: the instance, its component index and its guard index change together.
      await ctx.run('store an instance', () =>
        ctx.transaction(async (trx) => {
          await trx
            .insertInto('instances')
            .values({
              system_id: systemId,
              environment,
              descriptor: JSON.stringify(instance.descriptor),
              deployed_at: instance.deployedAt,
              plan_id: instance.planId,
            })
            .onConflict((oc) =>
              oc.columns(['system_id', 'environment']).doUpdateSet((eb) => ({
                descriptor: eb.ref('excluded.descriptor'),
                deployed_at: eb.ref('excluded.deployed_at'),
                plan_id: eb.ref('excluded.plan_id'),
              })),
            )
            .execute();
          await dropIndexes(trx, systemId, environment);
          for (const rows of inChunks(components)) {
            await trx.insertInto('instance_components').values(rows).execute();
          }
          for (const rows of inChunks(guards)) {
            await trx
              .insertInto('instance_guards')
              .values(rows)
              .onConflict((oc) => oc.doNothing())
              .execute();
          }
        }),
      );
    },

    async deleteInstance(systemId, environment) {
      if (hasNul(systemId) || hasNul(environment)) return false;
      return ctx.run('delete an instance', () =>
        ctx.transaction(async (trx) => {
          await dropIndexes(trx, systemId, environment);
          const { numDeletedRows } = await trx
            .deleteFrom('instances')
            .where('system_id', '=', systemId)
            .where('environment', '=', environment)
            .executeTakeFirst();
          return numDeletedRows > 0n;
        }),
      );
    },

    async getInstance(systemId, environment) {
      const key = { system_id: systemId, environment };
      return findByKey(ctx, 'read an instance', 'instances', key, instanceFromRow);
    },

    async listInstances(filter) {
      const instances = db
        .selectFrom('instances')
        .selectAll()
        .$if(filter.environment !== undefined, (q) =>
          q.where('environment', '=', filter.environment!),
        )
        .$if(filter.systemId !== undefined, (q) => q.where('system_id', '=', filter.systemId!))
        .orderBy('system_id')
        .orderBy('environment');
      return readRows(ctx, 'list instances', [], instances, instanceFromRow);
    },

    async findContractGuards(contractId, environment) {
      const guards = db
        .selectFrom('instance_guards')
        .selectAll()
        .where('contract_id', '=', contractId)
        .$if(environment !== undefined && environment !== null, (q) =>
          q.where('environment', '=', environment!),
        )
        .orderBy('environment')
        .orderBy('policy_id')
        .orderBy('system_id')
        .orderBy('guardian_id');
      return readRows(ctx, 'find guards', [contractId, environment], guards, guardFromRow);
    },

    async findInstancesWithComponent(componentId, environment) {
      const instances = db
        .selectFrom('instance_components as c')
        .innerJoin('instances as i', (join) =>
          join
            .onRef('i.system_id', '=', 'c.system_id')
            .onRef('i.environment', '=', 'c.environment'),
        )
        .selectAll('i')
        .where('c.component_id', '=', componentId)
        .$if(environment !== undefined && environment !== null, (q) =>
          q.where('c.environment', '=', environment!),
        )
        .orderBy('i.environment')
        .orderBy('i.system_id');
      return readRows(
        ctx,
        'find instances',
        [componentId, environment],
        instances,
        instanceFromRow,
      );
    },
  };
}
