import type { Policy } from '../../policy';
import type { TemplateRepository } from '../../repositories';
import { assertStorableTemplate, type PolicyRow, templatePolicy } from '../row-mapping';
import { insertPolicy } from './policy-repository';
import type { PostgresContext } from './postgres-context';

interface TemplateRow {
  id: string;
  document: Record<string, unknown>;
  registered_at: string;
  updated_at: string;
}

/**
 * Infrastructure templates in PostgreSQL, with the passive policies their guardian part creates.
 *
 * @example
 * const templates = postgresTemplateRepository(ctx);
 */
export function postgresTemplateRepository(ctx: PostgresContext): TemplateRepository {
  return {
    async getTemplate(id) {
      return ctx.run('read a template', async () => {
        const { rows } = await ctx.pool.query('SELECT * FROM templates WHERE id = $1', [id]);
        const row = rows[0] as TemplateRow | undefined;
        return row
          ? {
              id: row.id,
              document: row.document,
              registeredAt: row.registered_at,
              updatedAt: row.updated_at,
            }
          : null;
      });
    },

    async saveTemplate(document, drafts, now) {
      assertStorableTemplate(document.id, drafts);
      return ctx.run('save a template', () =>
        ctx.transaction(async (client) => {
          const { rows } = await client.query(
            `INSERT INTO templates (id, document, registered_at, updated_at) VALUES ($1, $2, $3, $3)
             ON CONFLICT (id) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at
             RETURNING registered_at`,
            [document.id, JSON.stringify(document), now],
          );
          // Serialise concurrent registrations of one template so policies are created once.
          await client.query('SELECT 1 FROM templates WHERE id = $1 FOR UPDATE', [document.id]);
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
          const template = {
            id: document.id,
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
