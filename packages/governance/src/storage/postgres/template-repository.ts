import type { Policy } from '../../policy';
import type { TemplateRecord, TemplateRepository } from '../../repositories';
import {
  assertStorableTemplate,
  type PolicyRow,
  registrationEnvironment,
  templatePolicy,
} from '../row-mapping';
import { insertPolicy } from './policy-repository';
import type { PostgresContext } from './postgres-context';

interface TemplateRow {
  id: string;
  environment: string;
  document: Record<string, unknown>;
  registered_at: string;
  updated_at: string;
}

const templateFromRow = (row: TemplateRow): TemplateRecord => ({
  id: row.id,
  environment: row.environment === '' ? null : row.environment,
  document: row.document,
  registeredAt: row.registered_at,
  updatedAt: row.updated_at,
});

/**
 * Infrastructure templates in PostgreSQL, one registration per id and environment, with the
 * passive policies their guardian part creates.
 *
 * @example
 * const templates = postgresTemplateRepository(ctx);
 */
export function postgresTemplateRepository(ctx: PostgresContext): TemplateRepository {
  return {
    async getTemplate(id, environment) {
      if (id.includes('\u0000') || environment?.includes('\u0000')) return null;
      return ctx.run('read a template', async () => {
        const { rows } = await ctx.pool.query(
          'SELECT * FROM templates WHERE id = $1 AND environment = $2',
          [id, environment ?? ''],
        );
        const row = rows[0] as TemplateRow | undefined;
        return row ? templateFromRow(row) : null;
      });
    },

    async getTemplateRegistrations(id) {
      if (id.includes('\u0000')) return [];
      return ctx.run('read templates', async () => {
        const { rows } = await ctx.pool.query(
          'SELECT * FROM templates WHERE id = $1 ORDER BY environment',
          [id],
        );
        return (rows as TemplateRow[]).map(templateFromRow);
      });
    },

    async saveTemplate(document, drafts, now) {
      assertStorableTemplate(document, drafts);
      const environment = registrationEnvironment(document);
      return ctx.run('save a template', () =>
        ctx.transaction(async (client) => {
          // Serialise concurrent registrations of one template id (any environment), so its
          // policies are created once.
          await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [document.id]);
          const { rows } = await client.query(
            `INSERT INTO templates (id, environment, document, registered_at, updated_at) VALUES ($1, $2, $3, $4, $4)
             ON CONFLICT (id, environment) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at
             RETURNING registered_at`,
            [document.id, environment ?? '', JSON.stringify(document), now],
          );
          const created: Policy[] = [];
          const updated: Policy[] = [];
          for (const draft of drafts) {
            const existing = await client.query(
              'SELECT * FROM policies WHERE template_id = $1 AND resource_type = $2',
              [document.id, draft.resourceType],
            );
            const row = existing.rows[0] as PolicyRow | undefined;
            const policy = templatePolicy(document.id, draft, now, row);
            if (row) {
              await client.query(
                'UPDATE policies SET name = $1, description = $2, updated_at = $3 WHERE id = $4',
                [draft.name, draft.description, now, row.id],
              );
              updated.push(policy);
            } else {
              await insertPolicy(client, policy);
              created.push(policy);
            }
          }
          const template: TemplateRecord = {
            id: document.id,
            environment,
            document,
            registeredAt: (rows[0] as { registered_at: string }).registered_at,
            updatedAt: now,
          };
          return { template, created, updated };
        }),
      );
    },
  };
}
