import { GovernanceError } from '../../errors';
import type { ProvisioningPlan } from '../../provisioning-plan';
import type { PlanRepository } from '../../repositories';
import { clampPaging } from '../row-mapping';
import type { SqliteContext } from './sqlite-context';

const planOf = (row: { document: string }) => JSON.parse(row.document) as ProvisioningPlan;

/**
 * Provisioning plans in SQLite.
 *
 * @example
 * const plans = sqlitePlanRepository(ctx);
 */
export function sqlitePlanRepository(ctx: SqliteContext): PlanRepository {
  const { db } = ctx;
  const insertPlan = db.prepare(
    'INSERT INTO plans (id, status, document, created_at, updated_at, environment) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const updatePlan = db.prepare(
    'UPDATE plans SET status = ?, document = ?, updated_at = ? WHERE id = ?',
  );
  const getPlan = db.prepare('SELECT document FROM plans WHERE id = ?');
  const runningPlans = db.prepare(
    "SELECT document FROM plans WHERE status = 'running' ORDER BY created_at",
  );
  return {
    async createPlan(plan) {
      ctx.run('create a plan', () =>
        insertPlan.run(
          plan.id,
          plan.status,
          JSON.stringify(plan),
          plan.createdAt,
          plan.updatedAt,
          plan.environment,
        ),
      );
    },

    async updatePlan(plan) {
      ctx.run('update a plan', () => {
        const info = updatePlan.run(plan.status, JSON.stringify(plan), plan.updatedAt, plan.id);
        if (info.changes === 0) throw new GovernanceError('not_found', `No plan ${plan.id}`);
      });
    },

    async getPlan(id) {
      return ctx.run('read a plan', () => {
        const row = getPlan.get(id) as { document: string } | undefined;
        return row ? planOf(row) : null;
      });
    },

    async listRunningPlans() {
      return ctx.run('list running plans', () =>
        (runningPlans.all() as Array<{ document: string }>).map(planOf),
      );
    },

    async listPlans(filter) {
      return ctx.run('list plans', () => {
        const where: string[] = [];
        const params: unknown[] = [];
        if (filter.status !== undefined) {
          where.push('status = ?');
          params.push(filter.status);
        }
        if (filter.environment !== undefined) {
          where.push('environment = ?');
          params.push(filter.environment);
        }
        const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
        const { limit, offset } = clampPaging(filter.limit, filter.offset);
        const { n: total } = db
          .prepare(`SELECT count(*) AS n FROM plans ${clause}`)
          .get(...params) as { n: number };
        const rows = db
          .prepare(
            `SELECT document FROM plans ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
          )
          .all(...params, limit, offset) as Array<{ document: string }>;
        return { data: rows.map(planOf), meta: { pagination: { limit, offset, total } } };
      });
    },
  };
}
