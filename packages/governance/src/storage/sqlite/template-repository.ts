import type { Policy } from '../../policy';
import type { TemplateRecord, TemplateRepository } from '../../repositories';
import {
  assertStorableTemplate,
  type PolicyRow,
  registrationEnvironment,
  templatePolicy,
} from '../row-mapping';
import { insertPolicy } from './policy-repository';
import type { SqliteContext } from './sqlite-context';

interface TemplateRow {
  id: string;
  environment: string;
  document: string;
  registered_at: string;
  updated_at: string;
}

const templateFromRow = (row: TemplateRow): TemplateRecord => ({
  id: row.id,
  environment: row.environment === '' ? null : row.environment,
  document: JSON.parse(row.document) as Record<string, unknown>,
  registeredAt: row.registered_at,
  updatedAt: row.updated_at,
});

/**
 * Infrastructure templates in SQLite, one registration per id and environment, with the passive
 * policies their guardian part creates.
 *
 * @example
 * const templates = sqliteTemplateRepository(ctx);
 */
export function sqliteTemplateRepository(ctx: SqliteContext): TemplateRepository {
  const { db } = ctx;
  const getTemplate = db.prepare('SELECT * FROM templates WHERE id = ? AND environment = ?');
  const registrations = db.prepare('SELECT * FROM templates WHERE id = ? ORDER BY environment');
  const upsertTemplate = db.prepare(
    `INSERT INTO templates (id, environment, document, registered_at, updated_at)
     VALUES (@id, @environment, @document, @now, @now)
     ON CONFLICT (id, environment) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at
     RETURNING registered_at`,
  );
  const templatePolicyRow = db.prepare(
    'SELECT * FROM policies WHERE template_id = ? AND resource_type = ?',
  );
  const updateTemplatePolicy = db.prepare(
    'UPDATE policies SET name = ?, description = ?, updated_at = ? WHERE id = ?',
  );
  return {
    async getTemplate(id, environment) {
      return ctx.run('read a template', () => {
        const row = getTemplate.get(id, environment ?? '') as TemplateRow | undefined;
        return row ? templateFromRow(row) : null;
      });
    },

    async getTemplateRegistrations(id) {
      return ctx.run('read templates', () =>
        (registrations.all(id) as TemplateRow[]).map(templateFromRow),
      );
    },

    async saveTemplate(document, drafts, now) {
      assertStorableTemplate(document, drafts);
      const environment = registrationEnvironment(document);
      return ctx.run('save a template', () =>
        db
          .transaction(() => {
            const { registered_at } = upsertTemplate.get({
              id: document.id,
              environment: environment ?? '',
              document: JSON.stringify(document),
              now,
            }) as { registered_at: string };
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
            const template: TemplateRecord = {
              id: document.id,
              environment,
              document,
              registeredAt: registered_at,
              updatedAt: now,
            };
            return { template, created, updated };
          })
          .immediate(),
      );
    },
  };
}
