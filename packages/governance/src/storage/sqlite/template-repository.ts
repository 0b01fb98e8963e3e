import type { Policy } from '../../policy';
import type { TemplateRecord, TemplateRepository } from '../../repositories';
import { assertStorableTemplate, type PolicyRow, templatePolicy } from '../row-mapping';
import { insertPolicy } from './policy-repository';
import type { SqliteContext } from './sqlite-context';

interface TemplateRow {
  id: string;
  document: string;
  registered_at: string;
  updated_at: string;
}

/**
 * Infrastructure templates in SQLite, with the passive policies their guardian part creates.
 *
 * @example
 * const templates = sqliteTemplateRepository(ctx);
 */
export function sqliteTemplateRepository(ctx: SqliteContext): TemplateRepository {
  const { db } = ctx;
  const getTemplate = db.prepare('SELECT * FROM templates WHERE id = ?');
  const upsertTemplate = db.prepare(
    `INSERT INTO templates (id, document, registered_at, updated_at) VALUES (@id, @document, @now, @now)
     ON CONFLICT (id) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at`,
  );
  const templatePolicyRow = db.prepare(
    'SELECT * FROM policies WHERE template_id = ? AND resource_type = ?',
  );
  const updateTemplatePolicy = db.prepare(
    'UPDATE policies SET name = ?, description = ?, updated_at = ? WHERE id = ?',
  );
  return {
    async getTemplate(id) {
      return ctx.run('read a template', () => {
        const row = getTemplate.get(id) as TemplateRow | undefined;
        return row
          ? {
              id: row.id,
              document: JSON.parse(row.document) as Record<string, unknown>,
              registeredAt: row.registered_at,
              updatedAt: row.updated_at,
            }
          : null;
      });
    },

    async saveTemplate(document, drafts, now) {
      assertStorableTemplate(document.id, drafts);
      return ctx.run('save a template', () =>
        db
          .transaction(() => {
            upsertTemplate.run({ id: document.id, document: JSON.stringify(document), now });
            const created: Policy[] = [];
            const updated: Policy[] = [];
            for (const draft of drafts) {
              const existing = templatePolicyRow.get(document.id, draft.resourceType) as
                | PolicyRow
                | undefined;
              const policy = templatePolicy(document.id, draft, now, existing);
              if (existing) {
                updateTemplatePolicy.run(draft.name, draft.description, now, existing.id);
                updated.push(policy);
              } else {
                insertPolicy(ctx, policy);
                created.push(policy);
              }
            }
            const row = getTemplate.get(document.id) as TemplateRow;
            const template: TemplateRecord = {
              id: document.id,
              document,
              registeredAt: row.registered_at,
              updatedAt: now,
            };
            return { template, created, updated };
          })
          .immediate(),
      );
    },
  };
}
