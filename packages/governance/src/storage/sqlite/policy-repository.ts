import { GovernanceError } from '../../errors';
import type { Page } from '../../page';
import type { Policy, PolicyFilter } from '../../policy';
import type { PolicyRepository } from '../../repositories';
import { assertStorableText, clampPaging, type PolicyRow, policyFromRow } from '../row-mapping';
import type { SqliteContext } from './sqlite-context';

const INSERT_POLICY = `INSERT INTO policies (id, name, description, resource_type, trigger, status, environment, template_id, created_at, updated_at)
  VALUES (@id, @name, @description, @resourceType, @trigger, @status, @environment, @templateId, @createdAt, @updatedAt)`;

/**
 * Inserts a policy row (the template repository creates guardian policies with it too).
 *
 * @example
 * insertPolicy(ctx, policy);
 */
export function insertPolicy(ctx: SqliteContext, policy: Policy): void {
  ctx.db.prepare(INSERT_POLICY).run(policy);
}

/**
 * Policies in SQLite.
 *
 * @example
 * const policies = sqlitePolicyRepository(ctx);
 */
export function sqlitePolicyRepository(ctx: SqliteContext): PolicyRepository {
  const getPolicy = ctx.db.prepare('SELECT * FROM policies WHERE id = ?');
  return {
    async getPolicy(id) {
      return ctx.run('read a policy', () => {
        const row = getPolicy.get(id) as PolicyRow | undefined;
        return row ? policyFromRow(row) : null;
      });
    },

    async getPolicies(ids) {
      if (ids.length === 0) return [];
      return ctx.run('read policies', () =>
        (
          ctx.db
            .prepare('SELECT * FROM policies WHERE id IN (SELECT value FROM json_each(?))')
            .all(JSON.stringify(ids)) as PolicyRow[]
        ).map(policyFromRow),
      );
    },

    async createPolicy(policy) {
      assertStorableText({
        id: policy.id,
        name: policy.name,
        description: policy.description,
        resourceType: policy.resourceType,
        environment: policy.environment,
      });
      return ctx.run('create a policy', () => {
        try {
          insertPolicy(ctx, policy);
        } catch (error) {
          if ((error as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) {
            throw new GovernanceError('conflict', `A policy with id ${policy.id} already exists`, {
              cause: error,
            });
          }
          throw error;
        }
        return policy;
      });
    },

    async listPolicies(filter: PolicyFilter): Promise<Page<Policy>> {
      return ctx.run('list policies', () => {
        const where: string[] = [];
        const params: unknown[] = [];
        const add = (sql: string, ...values: unknown[]) => {
          where.push(sql);
          params.push(...values);
        };
        if (filter.resourceType !== undefined) add('resource_type = ?', filter.resourceType);
        if (filter.trigger !== undefined) add('trigger = ?', filter.trigger);
        if (filter.status !== undefined) add('status = ?', filter.status);
        if (filter.environment !== undefined)
          add('(environment IS NULL OR environment = ?)', filter.environment);
        if (filter.templateId !== undefined) add('template_id = ?', filter.templateId);
        if (filter.text !== undefined && filter.text !== '') {
          // instr() instead of LIKE: the user's text needs no escaping of % and _.
          add(
            '(instr(lower(id), lower(?)) > 0 OR instr(lower(name), lower(?)) > 0 OR instr(lower(description), lower(?)) > 0)',
            filter.text,
            filter.text,
            filter.text,
          );
        }
        const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
        const { limit, offset } = clampPaging(filter.limit, filter.offset);
        const { n: total } = ctx.db
          .prepare(`SELECT count(*) AS n FROM policies ${clause}`)
          .get(...params) as { n: number };
        const rows = ctx.db
          .prepare(`SELECT * FROM policies ${clause} ORDER BY created_at, id LIMIT ? OFFSET ?`)
          .all(...params, limit, offset) as PolicyRow[];
        return { data: rows.map(policyFromRow), meta: { pagination: { limit, offset, total } } };
      });
    },
  };
}
