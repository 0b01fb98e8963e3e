import { GovernanceError } from '../../errors';
import type { ProvisioningPlan } from '../../provisioning-plan';
import type { PlanRepository } from '../../repositories';
import { clampPaging } from '../row-mapping';
import type { PostgresContext } from './postgres-context';

/** Now, in milliseconds since the epoch, by the database's clock. */
const NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/**
 * Provisioning plans in PostgreSQL.
 *
 * @example
 * const plans = postgresPlanRepository(ctx);
 */
export function postgresPlanRepository(ctx: PostgresContext): PlanRepository {
  const { pool } = ctx;
  return {
    async createPlan(plan, owner) {
      await ctx.run('create a plan', () =>
        pool.query(
          'INSERT INTO plans (id, status, document, created_at, updated_at, environment, owner) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [
            plan.id,
            plan.status,
            JSON.stringify(plan),
            plan.createdAt,
            plan.updatedAt,
            plan.environment,
            owner ?? null,
          ],
        ),
      );
    },

    // Lease times come from the database's clock, so instances on several machines agree.
    async renewLease(instanceId, leaseMs) {
      await ctx.run('renew a lease', () =>
        pool.query(
          `INSERT INTO service_leases (instance_id, expires_at) VALUES ($1, ${NOW_MS} + $2)
           ON CONFLICT (instance_id) DO UPDATE SET expires_at = excluded.expires_at`,
          [instanceId, Math.round(leaseMs)],
        ),
      );
    },

    async endLease(instanceId) {
      await ctx.run('end a lease', () =>
        pool.query('DELETE FROM service_leases WHERE instance_id = $1', [instanceId]),
      );
    },

    async claimOrphanedPlans(instanceId) {
      return ctx.run('claim orphaned plans', async () => {
        // One statement: a plan claimed by a concurrent instance is re-checked after its commit
        // (its new owner holds a live lease), so no plan is claimed twice.
        const { rows } = await pool.query(
          `UPDATE plans SET owner = $1 WHERE status = 'running' AND (owner IS NULL OR NOT EXISTS (
             SELECT 1 FROM service_leases l WHERE l.instance_id = plans.owner AND l.expires_at > ${NOW_MS}))
           RETURNING document`,
          [instanceId],
        );
        await pool.query(`DELETE FROM service_leases WHERE expires_at <= ${NOW_MS}`);
        return (rows as Array<{ document: ProvisioningPlan }>)
          .map((r) => r.document)
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      });
    },

    async updatePlan(plan, owner) {
      await ctx.run('update a plan', async () => {
        const result = await pool.query(
          `UPDATE plans SET status = $1, document = $2, updated_at = $3
           WHERE id = $4 AND ($5::text IS NULL OR owner = $5)`,
          [plan.status, JSON.stringify(plan), plan.updatedAt, plan.id, owner ?? null],
        );
        if (result.rowCount !== 0) return;
        const exists = await pool.query('SELECT 1 FROM plans WHERE id = $1', [plan.id]);
        if (exists.rowCount === 0) throw new GovernanceError('not_found', `No plan ${plan.id}`);
        throw new GovernanceError('conflict', `Plan ${plan.id} was taken over by another instance`);
      });
    },

    async getPlan(id) {
      return ctx.run('read a plan', async () => {
        const { rows } = await pool.query('SELECT document FROM plans WHERE id = $1', [id]);
        return (rows[0] as { document: ProvisioningPlan } | undefined)?.document ?? null;
      });
    },

    async listRunningPlans() {
      return ctx.run('list running plans', async () => {
        const { rows } = await pool.query(
          "SELECT document FROM plans WHERE status = 'running' ORDER BY created_at",
        );
        return (rows as Array<{ document: ProvisioningPlan }>).map((r) => r.document);
      });
    },

    async listPlans(filter) {
      return ctx.run('list plans', async () => {
        const where: string[] = [];
        const params: unknown[] = [];
        if (filter.status !== undefined) {
          params.push(filter.status);
          where.push(`status = $${params.length}`);
        }
        if (filter.environment !== undefined) {
          params.push(filter.environment);
          where.push(`environment = $${params.length}`);
        }
        const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
        const { limit, offset } = clampPaging(filter.limit, filter.offset);
        const count = await pool.query(`SELECT count(*)::int AS n FROM plans ${clause}`, params);
        const { rows } = await pool.query(
          `SELECT document FROM plans ${clause} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
          params,
        );
        return {
          data: (rows as Array<{ document: ProvisioningPlan }>).map((r) => r.document),
          meta: { pagination: { limit, offset, total: (count.rows[0] as { n: number }).n } },
        };
      });
    },
  };
}
