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
    'INSERT INTO plans (id, status, document, created_at, updated_at, environment, owner) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const renewLease = db.prepare(
    `INSERT INTO service_leases (instance_id, expires_at) VALUES (?, ?)
     ON CONFLICT (instance_id) DO UPDATE SET expires_at = excluded.expires_at`,
  );
  const endLease = db.prepare('DELETE FROM service_leases WHERE instance_id = ?');
  // One statement, so two instances never claim the same plan.
  const claimOrphans = db.prepare(
    `UPDATE plans SET owner = @me WHERE status = 'running' AND (owner IS NULL OR NOT EXISTS (
       SELECT 1 FROM service_leases l WHERE l.instance_id = plans.owner AND l.expires_at > @now))
     RETURNING document`,
  );
  const dropExpiredLeases = db.prepare('DELETE FROM service_leases WHERE expires_at <= ?');
  const updatePlan = db.prepare(
    `UPDATE plans SET status = @status, document = @document, updated_at = @updatedAt
     WHERE id = @id AND (@owner IS NULL OR owner = @owner)`,
  );
  const planExists = db.prepare('SELECT 1 FROM plans WHERE id = ?');
  const getPlan = db.prepare('SELECT document FROM plans WHERE id = ?');
  const runningPlans = db.prepare(
    "SELECT document FROM plans WHERE status = 'running' ORDER BY created_at",
  );
  return {
    async createPlan(plan, owner) {
      ctx.run('create a plan', () =>
        insertPlan.run(
          plan.id,
          plan.status,
          JSON.stringify(plan),
          plan.createdAt,
          plan.updatedAt,
          plan.environment,
          owner ?? null,
        ),
      );
    },

    async renewLease(instanceId, leaseMs) {
      ctx.run('renew a lease', () => renewLease.run(instanceId, Date.now() + leaseMs));
    },

    async endLease(instanceId) {
      ctx.run('end a lease', () => endLease.run(instanceId));
    },

    async claimOrphanedPlans(instanceId) {
      return ctx.run('claim orphaned plans', () =>
        db.transaction(() => {
          const now = Date.now();
          const plans = (claimOrphans.all({ me: instanceId, now }) as Array<{ document: string }>)
            .map(planOf)
            .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
          // The plans of an expired lease are claimed now; the lease itself is of no more use.
          dropExpiredLeases.run(now);
          return plans;
        })(),
      );
    },

    async updatePlan(plan, owner) {
      ctx.run('update a plan', () => {
        const info = updatePlan.run({
          id: plan.id,
          status: plan.status,
          document: JSON.stringify(plan),
          updatedAt: plan.updatedAt,
          owner: owner ?? null,
        });
        if (info.changes > 0) return;
        if (planExists.get(plan.id) === undefined) {
          throw new GovernanceError('not_found', `No plan ${plan.id}`);
        }
        throw new GovernanceError('conflict', `Plan ${plan.id} was taken over by another instance`);
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
