import { guardedContracts } from '../../guarded-contracts';
import type { InstanceRecord, InstanceRepository } from '../../repositories';
import { componentIds } from '../component-ids';
import { assertStorableText, type GuardRow, guardFromRow } from '../row-mapping';
import type { PostgresContext } from './postgres-context';

interface InstanceRow {
  system_id: string;
  environment: string;
  descriptor: Record<string, unknown>;
  deployed_at: string;
  plan_id: string;
}

const instanceFromRow = (row: InstanceRow): InstanceRecord => ({
  systemId: row.system_id,
  environment: row.environment,
  descriptor: row.descriptor,
  deployedAt: row.deployed_at,
  planId: row.plan_id,
});

/**
 * Marketplace instances in PostgreSQL, with the index of their components.
 *
 * @example
 * const instances = postgresInstanceRepository(ctx);
 */
export function postgresInstanceRepository(ctx: PostgresContext): InstanceRepository {
  const { pool } = ctx;
  return {
    async putInstance(instance) {
      assertStorableText({ systemId: instance.systemId, environment: instance.environment });
      const guards = guardedContracts(instance.descriptor, instance);
      // One transaction: the instance, its component index and its guard index change together.
      await ctx.run('store an instance', () =>
        ctx.transaction(async (client) => {
          await client.query(
            `WITH upsert AS (
               INSERT INTO instances (system_id, environment, descriptor, deployed_at, plan_id) VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (system_id, environment) DO UPDATE SET descriptor = excluded.descriptor,
                 deployed_at = excluded.deployed_at, plan_id = excluded.plan_id
             ), dropped AS (
               DELETE FROM instance_components WHERE system_id = $1 AND environment = $2
                 AND NOT (component_id = ANY($6::text[]))
             )
             INSERT INTO instance_components (component_id, environment, system_id)
             SELECT DISTINCT id, $2, $1 FROM unnest($6::text[]) AS t(id)
             ON CONFLICT DO NOTHING`,
            [
              instance.systemId,
              instance.environment,
              JSON.stringify(instance.descriptor),
              instance.deployedAt,
              instance.planId,
              componentIds(instance.descriptor),
            ],
          );
          await client.query(
            `WITH dropped AS (
               DELETE FROM instance_guards WHERE system_id = $1 AND environment = $2
             )
             INSERT INTO instance_guards (contract_id, environment, policy_id, guardian_id, system_id)
             SELECT c, $2, p, g, $1 FROM unnest($3::text[], $4::text[], $5::text[]) AS t(c, p, g)
             ON CONFLICT DO NOTHING`,
            [
              instance.systemId,
              instance.environment,
              guards.map((g) => g.contractId),
              guards.map((g) => g.policyId),
              guards.map((g) => g.guardianId),
            ],
          );
        }),
      );
    },

    async deleteInstance(systemId, environment) {
      return ctx.run('delete an instance', async () => {
        const result = await pool.query(
          `WITH dropped AS (
             DELETE FROM instance_components WHERE system_id = $1 AND environment = $2
           ), unguarded AS (
             DELETE FROM instance_guards WHERE system_id = $1 AND environment = $2
           )
           DELETE FROM instances WHERE system_id = $1 AND environment = $2`,
          [systemId, environment],
        );
        return (result.rowCount ?? 0) > 0;
      });
    },

    async getInstance(systemId, environment) {
      return ctx.run('read an instance', async () => {
        const { rows } = await pool.query(
          'SELECT * FROM instances WHERE system_id = $1 AND environment = $2',
          [systemId, environment],
        );
        const row = rows[0] as InstanceRow | undefined;
        return row ? instanceFromRow(row) : null;
      });
    },

    async listInstances(filter) {
      return ctx.run('list instances', async () => {
        const where: string[] = [];
        const params: string[] = [];
        if (filter.environment !== undefined) {
          params.push(filter.environment);
          where.push(`environment = $${params.length}`);
        }
        if (filter.systemId !== undefined) {
          params.push(filter.systemId);
          where.push(`system_id = $${params.length}`);
        }
        const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
        const { rows } = await pool.query(
          `SELECT * FROM instances ${clause} ORDER BY system_id, environment`,
          params,
        );
        return (rows as InstanceRow[]).map(instanceFromRow);
      });
    },

    async findContractGuards(contractId, environment) {
      if (contractId.includes('\u0000') || environment?.includes('\u0000')) return [];
      return ctx.run('find guards', async () => {
        const { rows } = await pool.query(
          `SELECT contract_id, environment, policy_id, guardian_id, system_id FROM instance_guards
           WHERE contract_id = $1 AND ($2::text IS NULL OR environment = $2)
           ORDER BY environment, policy_id, system_id, guardian_id`,
          [contractId, environment ?? null],
        );
        return (rows as GuardRow[]).map(guardFromRow);
      });
    },

    async findInstancesWithComponent(componentId, environment) {
      if (componentId.includes('\u0000')) return [];
      return ctx.run('find instances', async () => {
        const { rows } = await pool.query(
          `SELECT i.* FROM instance_components c
           JOIN instances i ON i.system_id = c.system_id AND i.environment = c.environment
           WHERE c.component_id = $1 AND ($2::text IS NULL OR c.environment = $2)
           ORDER BY i.environment, i.system_id`,
          [componentId, environment ?? null],
        );
        return (rows as InstanceRow[]).map(instanceFromRow);
      });
    },
  };
}
