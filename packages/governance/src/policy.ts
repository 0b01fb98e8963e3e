import { z } from 'zod';
import { MAX_ENVIRONMENT_LENGTH } from './limits';

/**
 * When a policy runs: `active` during deployment, `passive` outside it (guardians push results).
 *
 * @example
 * PolicyTriggerSchema.parse('passive');
 */
export const PolicyTriggerSchema = z.enum(['active', 'passive']);
/**
 * Lifecycle of a policy.
 *
 * @example
 * PolicyStatusSchema.parse('enabled');
 */
export const PolicyStatusSchema = z.enum(['draft', 'grace', 'enabled']);

/**
 * A computational governance policy.
 *
 * @example
 * const policy = PolicySchema.parse({ id: 'p1', name: 'Orders contract', description: '',
 *   resourceType: 'dataproduct', trigger: 'passive', status: 'enabled', environment: null,
 *   templateId: null, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() });
 */
export const PolicySchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  description: z.string(),
  resourceType: z.string().min(1),
  trigger: PolicyTriggerSchema,
  status: PolicyStatusSchema,
  /** null: the policy applies in every environment. */
  environment: z.string().nullable(),
  /** The guardian template that created this policy, null for policies created directly. */
  templateId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** A computational governance policy. */
export type Policy = z.infer<typeof PolicySchema>;

/**
 * Body of `POST /v1/computational-governance/policies`.
 *
 * @example
 * PolicyCreateSchema.parse({ name: 'SLA', resourceType: 'dataproduct', trigger: 'passive' });
 */
export const PolicyCreateSchema = z.strictObject({
  id: z.string().trim().min(1).max(200).optional(),
  name: z.string().trim().min(1).max(500),
  description: z.string().max(10_000).default(''),
  resourceType: z.string().trim().min(1).max(200),
  trigger: PolicyTriggerSchema,
  status: PolicyStatusSchema.default('enabled'),
  environment: z.string().trim().min(1).max(MAX_ENVIRONMENT_LENGTH).nullable().default(null),
});
/** Input of a direct policy creation. */
export type PolicyCreate = z.input<typeof PolicyCreateSchema>;

/**
 * Filter and paging of the policy list.
 *
 * @example
 * const filter: PolicyFilter = { resourceType: 'dataproduct', trigger: 'passive', limit: 20, offset: 0 };
 */
export interface PolicyFilter {
  resourceType?: string;
  trigger?: 'active' | 'passive';
  status?: 'draft' | 'grace' | 'enabled';
  environment?: string;
  /** Only the policies a guardian template created. */
  templateId?: string;
  /** Case-insensitive match in id, name or description. */
  text?: string;
  limit: number;
  offset: number;
}
