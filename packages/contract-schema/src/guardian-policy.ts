import { z } from 'zod';

/**
 * Creation form of a guardian policy spec: the service creates a passive policy with this name.
 *
 * @example
 * GuardianPolicyCreateSpecSchema.parse({ name: 'DC quality', description: 'Monitors contracts' });
 */
export const GuardianPolicyCreateSpecSchema = z
  .looseObject({
    name: z.string().min(1),
    description: z.string(),
    // `never` keeps the two forms exclusive in zod and in the JSON Schema (`not: {}`).
    id: z.never().optional(),
  })
  .meta({ title: 'GuardianPolicyCreateSpec' });

/**
 * Reference form of a guardian policy spec: the id of an existing passive policy.
 *
 * @example
 * GuardianPolicyReferenceSpecSchema.parse({ id: 'policy-42' });
 */
export const GuardianPolicyReferenceSpecSchema = z
  .looseObject({
    id: z.string().min(1),
    name: z.never().optional(),
    description: z.never().optional(),
  })
  .meta({ title: 'GuardianPolicyReferenceSpec' });

/**
 * `spec` of a guardian policy entry (A1): either `{ name, description }` or `{ id }`.
 *
 * @example
 * GuardianPolicySpecSchema.parse({ id: 'policy-42' });
 */
export const GuardianPolicySpecSchema = z.xor(
  [GuardianPolicyCreateSpecSchema, GuardianPolicyReferenceSpecSchema],
  {
    error: (issue) => {
      const input = issue.input;
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        return 'spec must be an object: { name, description } or { id }';
      }
      if ('id' in input && ('name' in input || 'description' in input)) {
        return 'spec must be either { name, description } (create) or { id } (reference), not both';
      }
      return 'spec must be either { name: string, description: string } (create) or { id: string } (reference)';
    },
  },
);
/** A value that GuardianPolicySpecSchema accepts (its parsed output). */
export type GuardianPolicySpec = z.infer<typeof GuardianPolicySpecSchema>;
/** A value that GuardianPolicyCreateSpecSchema accepts (its parsed output). */
export type GuardianPolicyCreateSpec = z.infer<typeof GuardianPolicyCreateSpecSchema>;
/** A value that GuardianPolicyReferenceSpecSchema accepts (its parsed output). */
export type GuardianPolicyReferenceSpec = z.infer<typeof GuardianPolicyReferenceSpecSchema>;

/**
 * One element of `properties.dataContractGuardian.policies` (A1).
 *
 * @example
 * GuardianPolicyEntrySchema.parse({ resourceType: 'dataproduct', spec: { id: 'policy-42' } });
 */
export const GuardianPolicyEntrySchema = z
  .looseObject({
    resourceType: z.string().min(1),
    spec: GuardianPolicySpecSchema,
  })
  .meta({ title: 'GuardianPolicyEntry' });
/** A value that GuardianPolicyEntrySchema accepts (its parsed output). */
export type GuardianPolicyEntry = z.infer<typeof GuardianPolicyEntrySchema>;

/**
 * `properties.dataContractGuardian` of a guardian template (A1). At most one policy per resource
 * type; a duplicate is reported on its `resourceType` with the type named. Draft-07 cannot
 * compare fields across array items, so this rule lives in zod only.
 *
 * @example
 * DataContractGuardianSchema.parse({
 *   policies: [{ resourceType: 'dataproduct', spec: { name: 'DC', description: 'quality' } }],
 * });
 */
export const DataContractGuardianSchema = z
  .looseObject({
    policies: z.array(GuardianPolicyEntrySchema),
  })
  .superRefine(
    (value, ctx) => {
      const seen = new Map<string, number>();
      value.policies.forEach((policy, index) => {
        // Entries that failed their own schema may lack a string resourceType.
        const type = (policy as { resourceType?: unknown } | null)?.resourceType;
        if (typeof type !== 'string') return;
        const first = seen.get(type);
        if (first === undefined) {
          seen.set(type, index);
          return;
        }
        ctx.addIssue({
          code: 'custom',
          params: { code: 'duplicate_resource_type' },
          input: type,
          path: ['policies', index, 'resourceType'],
          message: `duplicate resourceType "${type}": at most one policy per resource type (first at policies[${first}])`,
        });
      });
    },
    // Also when another entry is invalid: every problem of a template in one pass.
    // `value` is whatever came in (null too, when the object check already failed).
    {
      when: (payload) =>
        Array.isArray((payload.value as { policies?: unknown } | null | undefined)?.policies),
    },
  )
  .meta({ title: 'DataContractGuardian' });
/** A value that DataContractGuardianSchema accepts (its parsed output). */
export type DataContractGuardian = z.infer<typeof DataContractGuardianSchema>;
