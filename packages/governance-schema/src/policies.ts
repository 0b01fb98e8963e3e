import * as z from 'zod/mini';
import { pageSchema } from './paging';

/** When a policy runs: `active` during deployment, `passive` outside it (guardians push results). */
export const POLICY_TRIGGERS = ['active', 'passive'] as const;
/** Lifecycle states of a policy. */
export const POLICY_STATUSES = ['draft', 'grace', 'enabled'] as const;

/**
 * A computational governance policy (`GET /v1/computational-governance/policies/{id}`).
 * `environment: null` applies in every environment; `templateId` names the guardian template that
 * created it (null for a policy created directly).
 *
 * @example
 * const policy = PolicySchema.parse({ id: 'p1', name: 'Orders contract', description: '',
 *   resourceType: 'dataproduct', trigger: 'passive', status: 'enabled', environment: null,
 *   templateId: null, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' });
 */
export const PolicySchema = z
  .object({
    id: z.string().check(z.minLength(1)),
    name: z.string(),
    description: z.string(),
    resourceType: z.string().check(z.minLength(1)),
    trigger: z.enum(POLICY_TRIGGERS),
    status: z.enum(POLICY_STATUSES),
    environment: z
      .nullable(z.string())
      .check(z.describe('null: the policy applies in every environment')),
    templateId: z
      .nullable(z.string())
      .check(z.describe('The guardian template that created it; null when created directly')),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'Policy' });
/** A computational governance policy. */
export type Policy = z.infer<typeof PolicySchema>;

/**
 * One page of `GET /v1/computational-governance/policies`.
 *
 * @example
 * const { data, meta } = PolicyPageSchema.parse(await res.json());
 */
export const PolicyPageSchema = pageSchema(PolicySchema, 'PolicyPage');
/** One page of policies. */
export type PolicyPage = z.infer<typeof PolicyPageSchema>;
