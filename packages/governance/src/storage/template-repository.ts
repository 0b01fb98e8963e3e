import type { Selectable } from 'kysely';
import type { Policy } from '../policy';
import type { TemplateRecord, TemplateRepository } from '../repositories';
import type { GovernanceTables } from './governance-tables';
import { insertPolicy } from './policy-repository';
import { assertStorableTemplate, registrationEnvironment, templatePolicy } from './row-mapping';
import type { StoreContext } from './store-context';
import { findByKey, readRows } from './store-reads';

type TemplateRow = Selectable<GovernanceTables['templates']>;

/**
 * Infrastructure templates, one registration per id and environment, with the passive policies
 * their guardian part creates; on either dialect.
 *
 * @example
 * const templates = templateRepository(ctx);
 */
export function templateRepository(ctx: StoreContext): TemplateRepository {
  const { db } = ctx;
  const templateFromRow = (row: TemplateRow): TemplateRecord => ({
    id: row.id,
    environment: row.environment === '' ? null : row.environment,
    document: ctx.readJson(row.document),
    registeredAt: row.registered_at,
    updatedAt: row.updated_at,
  });
  return {
    async getTemplate(id, environment) {
      const key = { id, environment: environment ?? '' };
      return findByKey(ctx, 'read a template', 'templates', key, templateFromRow);
    },

    async getTemplateRegistrations(id) {
      const registrations = db
        .selectFrom('templates')
        .selectAll()
        .where('id', '=', id)
        .orderBy('environment');
      return readRows(ctx, 'read templates', [id], registrations, templateFromRow);
    },

    async saveTemplate(document, drafts, now) {
      assertStorableTemplate(document, drafts);
      const environment = registrationEnvironment(document);
      return ctx.run('save a template', () =>
        ctx.transaction(async (trx) => {
          // Serialise concurrent registrations of one template id (any environment), so its
          // policies are created once.
          await ctx.lockKey(trx, document.id);
          const { registered_at } = await trx
            .insertInto('templates')
            .values({
              id: document.id,
              environment: environment ?? '',
              document: JSON.stringify(document),
              registered_at: now,
              updated_at: now,
            })
            .onConflict((oc) =>
              oc.columns(['id', 'environment']).doUpdateSet((eb) => ({
                document: eb.ref('excluded.document'),
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .returning('registered_at')
            .executeTakeFirstOrThrow();
          const created: Policy[] = [];
          const updated: Policy[] = [];
          for (const draft of drafts) {
            const existing = await trx
              .selectFrom('policies')
              .selectAll()
              .where('template_id', '=', document.id)
              .where('resource_type', '=', draft.resourceType)
              .executeTakeFirst();
            const policy = templatePolicy(document.id, draft, now, existing);
            if (existing) {
              await trx
                .updateTable('policies')
                .set({ name: draft.name, description: draft.description, updated_at: now })
                .where('id', '=', existing.id)
                .execute();
              updated.push(policy);
            } else {
              await insertPolicy(trx, policy);
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
        }),
      );
    },
  };
}
