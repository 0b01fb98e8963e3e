import { GovernanceError } from '../../errors';
import type { ProvisioningPlan } from '../../provisioning-plan';
import type { PlanRepository } from '../../repositories';
import { clampPaging } from '../row-mapping';
import type { PostgresContext } from './postgres-context';

/**
 * Provisioning plans in PostgreSQL.
 *
 * @example
 * const plans = postgresPlanRepository(ctx);
 */
export function postgresPlanRepository(ctx: PostgresContext): PlanRepository {
  const { pool } = ctx;
  return {
    async createPlan(plan) {
      await ctx.run('create a plan', () =>
        pool.query(
          'INSERT INTO plans (id, status, document, created_at, updated_at, environment) VALUES ($1, $2, $3, $4, $5, $6)',
          [
            plan.id,
            plan.status,
            JSON.stringify(plan),
            plan.createdAt,
            plan.updatedAt,
            plan.environment,
          ],
        ),
      );
    },

    async updatePlan(plan) {
      await ctx.run('update a plan', async () => {
        const result = await pool.query(
          'UPDATE plans SET status = $1, document = $2, updated_at = $3 WHERE id = $4',
          [plan.status, JSON.stringify(plan), plan.updatedAt, plan.id],
        );
        if (result.rowCount === 0) throw new GovernanceError('not_found', `No plan ${plan.id}`);
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
