import {
  POLICY_STATUSES,
  POLICY_TRIGGERS,
  type Policy,
  PolicySchema,
} from '@dcg/governance-schema';
import { z } from 'zod';
import { MAX_ENVIRONMENT_LENGTH } from './limits';

/**
 * When a policy runs: `active` during deployment, `passive` outside it (guardians push results).
 * Classic zod over governance-schema's values, for request schemas the OpenAPI generator walks.
 *
 * @example
 * PolicyTriggerSchema.parse('passive');
 */
export const PolicyTriggerSchema = z.enum(POLICY_TRIGGERS);
/**
 * Lifecycle of a policy.
 *
 * @example
 * PolicyStatusSchema.parse('enabled');
 */
export const PolicyStatusSchema = z.enum(POLICY_STATUSES);

/** A computational governance policy: `PolicySchema` of `@dcg/governance-schema`. */
export { type Policy, PolicySchema };

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
