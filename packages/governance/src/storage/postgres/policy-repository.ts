import type pg from 'pg';
import { GovernanceError } from '../../errors';
import type { Policy } from '../../policy';
import type { PolicyRepository } from '../../repositories';
import { assertStorableText, clampPaging, type PolicyRow, policyFromRow } from '../row-mapping';
import type { PostgresContext } from './postgres-context';

/**
 * Inserts a policy row (the template repository creates guardian policies with it too).
 *
 * @example
 * await insertPolicy(client, policy);
 */
export async function insertPolicy(client: pg.Pool | pg.PoolClient, policy: Policy): Promise<void> {
  await client.query(
    `INSERT INTO policies (id, name, description, resource_type, trigger, status, environment, template_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      policy.id,
      policy.name,
      policy.description,
      policy.resourceType,
      policy.trigger,
      policy.status,
      policy.environment,
      policy.templateId,
      policy.createdAt,
      policy.updatedAt,
    ],
  );
}

/**
 * Policies in PostgreSQL.
 *
 * @example
 * const policies = postgresPolicyRepository(ctx);
 */
export function postgresPolicyRepository(ctx: PostgresContext): PolicyRepository {
  const { pool } = ctx;
  return {
    async getPolicy(id) {
      return ctx.run('read a policy', async () => {
        const { rows } = await pool.query('SELECT * FROM policies WHERE id = $1', [id]);
        const row = rows[0] as PolicyRow | undefined;
        return row ? policyFromRow(row) : null;
      });
    },

    async getPolicies(ids) {
      if (ids.length === 0) return [];
      return ctx.run('read policies', async () => {
        const { rows } = await pool.query('SELECT * FROM policies WHERE id = ANY($1)', [ids]);
        return (rows as PolicyRow[]).map(policyFromRow);
      });
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
          await insertPolicy(pool, policy);
        } catch (error) {
          if ((error as { code?: string }).code === '23505') {
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
        const where: string[] = [];
        const params: unknown[] = [];
        const param = (value: unknown) => {
          params.push(value);
          return `$${params.length}`;
        };
        if (filter.resourceType !== undefined)
          where.push(`resource_type = ${param(filter.resourceType)}`);
        if (filter.trigger !== undefined) where.push(`trigger = ${param(filter.trigger)}`);
        if (filter.status !== undefined) where.push(`status = ${param(filter.status)}`);
        if (filter.environment !== undefined)
          where.push(`(environment IS NULL OR environment = ${param(filter.environment)})`);
        if (filter.templateId !== undefined)
          where.push(`template_id = ${param(filter.templateId)}`);
        if (filter.text !== undefined && filter.text !== '') {
          const p = param(filter.text);
          // strpos() instead of LIKE: the user's text needs no escaping of % and _.
          where.push(
            `(strpos(lower(id), lower(${p})) > 0 OR strpos(lower(name), lower(${p})) > 0 OR strpos(lower(description), lower(${p})) > 0)`,
          );
        }
        const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
        const { limit, offset } = clampPaging(filter.limit, filter.offset);
        const count = await pool.query(`SELECT count(*)::int AS n FROM policies ${clause}`, params);
        const { rows } = await pool.query(
          `SELECT * FROM policies ${clause} ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}`,
          params,
        );
        return {
          data: (rows as PolicyRow[]).map(policyFromRow),
          meta: { pagination: { limit, offset, total: (count.rows[0] as { n: number }).n } },
        };
      });
    },
  };
}
