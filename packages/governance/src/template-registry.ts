import {
  type GuardianPolicyEntry,
  type InfrastructureTemplate,
  InfrastructureTemplateSchema,
  validateTemplate,
} from '@dcg/contract-schema';
import { z } from 'zod';
import { GovernanceError, type GovernanceIssue, governanceIssue } from './errors';
import type { Policy } from './policy';
import type { GovernanceStore, TemplatePolicyDraft, TemplateRecord } from './repositories';

/**
 * A resolved guardian policy of a template: which passive policy serves which resource type.
 *
 * @example
 * const entry: GuardianPolicyBinding = { resourceType: 'dataproduct', policyId: 'p1', form: 'create' };
 */
export const GuardianPolicyBindingSchema = z.object({
  resourceType: z.string(),
  policyId: z.string(),
  form: z
    .enum(['create', 'reference'])
    .describe(
      "`create`: the template's spec created the policy; `reference`: it names an existing one",
    ),
});
/** A resolved guardian policy of a template. */
export type GuardianPolicyBinding = z.infer<typeof GuardianPolicyBindingSchema>;

/**
 * A registered template with its guardian policies resolved (empty for a plain template).
 *
 * @example
 * const isGuardian = registered.guardian;
 */
export const RegisteredTemplateSchema = z
  .object({
    template: InfrastructureTemplateSchema,
    environment: z
      .string()
      .nullable()
      .describe('The environment of this registration; null: it serves every environment'),
    guardian: z.boolean(),
    policies: z.array(GuardianPolicyBindingSchema),
    registeredAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'RegisteredTemplate' });
/** A registered template with its guardian policies resolved. */
export type RegisteredTemplate = z.infer<typeof RegisteredTemplateSchema>;

function guardianEntries(template: InfrastructureTemplate): GuardianPolicyEntry[] | undefined {
  return template.properties?.dataContractGuardian?.policies;
}

/**
 * Registers infrastructure templates, one registration per id and environment (the body's
 * `environment`; a registration without one serves every environment that has none of its own).
 * A `properties.dataContractGuardian` object makes a guardian template: each `{ name, description }` spec creates (or, on re-registration, updates) a passive
 * policy for its resource type; each `{ id }` spec must name an existing passive policy.
 *
 * @example
 * const registry = new TemplateRegistry(store);
 * const registered = await registry.register({ id: 'urn:dmb:itm:g:1', name: 'G', url: 'http://adapter',
 *   properties: { dataContractGuardian: { policies: [{ resourceType: 'dataproduct', spec: { name: 'DC', description: '' } }] } } });
 */
export class TemplateRegistry {
  constructor(
    private readonly store: GovernanceStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Validates and stores a registration body. Bad shapes throw `invalid_input`; two entries for
   * one resource type, or a reference to a policy that is missing, not passive or of another
   * resource type than its entry, throw `unprocessable`.
   */
  async register(body: unknown): Promise<RegisteredTemplate> {
    const validation = validateTemplate(body);
    if (!validation.success) {
      const duplicates = validation.issues.filter((i) => i.code === 'duplicate_resource_type');
      if (duplicates.length > 0 && duplicates.length === validation.issues.length) {
        throw new GovernanceError(
          'unprocessable',
          `At most one guardian policy per resource type: ${duplicates.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
          { issues: duplicates },
        );
      }
      throw new GovernanceError('invalid_input', 'The template registration body is invalid', {
        issues: validation.issues,
      });
    }
    const template = validation.data;
    const entries = guardianEntries(template) ?? [];
    const drafts: TemplatePolicyDraft[] = [];
    const problems: GovernanceIssue[] = [];
    for (const [index, entry] of entries.entries()) {
      if ('id' in entry.spec && typeof entry.spec.id === 'string') {
        const policy = await this.store.getPolicy(entry.spec.id);
        const at = ['properties', 'dataContractGuardian', 'policies', index, 'spec', 'id'];
        if (!policy) {
          problems.push(
            governanceIssue(
              'policy_not_found',
              at,
              `policy "${entry.spec.id}" (resource type ${entry.resourceType}) does not exist`,
            ),
          );
        } else if (policy.trigger !== 'passive') {
          problems.push(
            governanceIssue(
              'policy_not_passive',
              at,
              `policy "${entry.spec.id}" (resource type ${entry.resourceType}) is not a passive policy (trigger ${policy.trigger})`,
            ),
          );
        } else if (policy.resourceType !== entry.resourceType) {
          // A guardian of this resource type would otherwise be handed another type's policy.
          problems.push(
            governanceIssue(
              'policy_resource_type_mismatch',
              at,
              `policy "${entry.spec.id}" is a policy of resource type ${policy.resourceType}, not ${entry.resourceType}`,
            ),
          );
        }
      } else {
        const spec = entry.spec as { name: string; description: string };
        drafts.push({
          resourceType: entry.resourceType,
          name: spec.name,
          description: spec.description,
        });
      }
    }
    if (problems.length > 0) {
      throw new GovernanceError(
        'unprocessable',
        `The guardian template references policies that cannot be used: ${problems.map((p) => p.message).join('; ')}`,
        { issues: problems },
      );
    }
    const saved = await this.store.saveTemplate(
      template as InfrastructureTemplate & Record<string, unknown>,
      drafts,
      this.clock().toISOString(),
    );
    return this.resolve(saved.template, [...saved.created, ...saved.updated]);
  }

  /**
   * The template that serves `environment`: its registration for that environment, else its
   * registration without an environment (null when neither: a registration for another
   * environment never serves this one). Without `environment`: the registration without one, or
   * the only registration of the id; null when there is none or several.
   */
  async get(id: string, environment?: string): Promise<RegisteredTemplate | null> {
    let record: TemplateRecord | null | undefined;
    if (environment !== undefined) {
      record =
        (await this.store.getTemplate(id, environment)) ?? (await this.store.getTemplate(id));
    } else {
      const all = await this.store.getTemplateRegistrations(id);
      record = all.find((r) => r.environment === null) ?? (all.length === 1 ? all[0] : null);
    }
    return record ? this.resolve(record) : null;
  }

  /** The environments the id is registered for (null: the registration without one). */
  async environments(id: string): Promise<Array<string | null>> {
    return (await this.store.getTemplateRegistrations(id)).map((r) => r.environment);
  }

  private async resolve(record: TemplateRecord, known: Policy[] = []): Promise<RegisteredTemplate> {
    const template = record.document as InfrastructureTemplate;
    const entries = guardianEntries(template);
    const owned =
      entries === undefined
        ? []
        : known.length > 0
          ? known
          : (await this.store.listPolicies({ templateId: template.id, limit: 1000, offset: 0 }))
              .data;
    const policies: GuardianPolicyBinding[] = [];
    for (const entry of entries ?? []) {
      if ('id' in entry.spec && typeof entry.spec.id === 'string') {
        policies.push({
          resourceType: entry.resourceType,
          policyId: entry.spec.id,
          form: 'reference',
        });
      } else {
        const policy = owned.find((p) => p.resourceType === entry.resourceType);
        if (policy)
          policies.push({ resourceType: entry.resourceType, policyId: policy.id, form: 'create' });
      }
    }
    return {
      template,
      environment: record.environment,
      guardian: entries !== undefined,
      policies,
      registeredAt: record.registeredAt,
      updatedAt: record.updatedAt,
    };
  }
}
