import { z } from 'zod';

/**
 * Wire shapes of governance-api's marketplace and policy APIs as this client reads them. Objects
 * are loose: members a newer server adds are kept, never rejected.
 */

/** Compliance state of a data contract. */
export const ComplianceStatusSchema = z.enum(['compliant', 'violated', 'unprocessable', 'unknown']);
export type ComplianceStatus = z.infer<typeof ComplianceStatusSchema>;

/** One node of a compliance tree. */
export interface ComplianceTreeNode {
  key: string;
  name?: string | undefined;
  description?: string | undefined;
  compliant?: boolean | undefined;
  issues?: string[] | undefined;
  children?: ComplianceTreeNode[] | undefined;
  target?: string | undefined;
  [member: string]: unknown;
}

export const ComplianceTreeNodeSchema: z.ZodType<ComplianceTreeNode> = z.looseObject({
  key: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  compliant: z.boolean().optional(),
  issues: z.array(z.string()).optional(),
  get children() {
    return z.array(ComplianceTreeNodeSchema).optional();
  },
  target: z.string().optional(),
});

/** `GET /v1/marketplace/data-contracts/{id}/compliance`. */
export const ContractComplianceSchema = z.looseObject({
  contractId: z.string(),
  environment: z.string(),
  status: ComplianceStatusSchema,
  evaluatedAt: z.string().nullable(),
  policyId: z.string().nullable(),
  summary: z.string().nullable(),
  counts: z.object({ compliant: z.number().int(), failing: z.number().int() }),
  tree: z.array(ComplianceTreeNodeSchema),
  message: z.string().optional(),
  schemaErrors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ContractCompliance = z.infer<typeof ContractComplianceSchema>;

/** A component of a marketplace instance. */
export const InstanceComponentSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  kind: z.string().optional(),
  dataContract: z.boolean(),
  compliance: z
    .object({ status: ComplianceStatusSchema, evaluatedAt: z.string().nullable() })
    .optional(),
});
export type InstanceComponent = z.infer<typeof InstanceComponentSchema>;

/** A deployed system in one environment (`GET /v1/marketplace/instances[/{id}]`). */
export const MarketplaceInstanceSchema = z.looseObject({
  systemId: z.string(),
  name: z.string(),
  kind: z.string(),
  environment: z.string(),
  version: z.string().optional(),
  deployedAt: z.string(),
  components: z.array(InstanceComponentSchema),
});
export type MarketplaceInstance = z.infer<typeof MarketplaceInstanceSchema>;

export const InstanceListSchema = z.looseObject({ data: z.array(MarketplaceInstanceSchema) });

/** A computational governance policy. */
export const PolicySchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  resourceType: z.string(),
  trigger: z.enum(['active', 'passive']),
  status: z.enum(['draft', 'grace', 'enabled']),
  environment: z.string().nullable(),
  templateId: z.string().nullable().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
});
export type Policy = z.infer<typeof PolicySchema>;

/** `GET /v1/computational-governance/policies`. */
export const PolicyPageSchema = z.looseObject({
  data: z.array(PolicySchema),
  meta: z.object({
    pagination: z.object({
      limit: z.number().int(),
      offset: z.number().int(),
      total: z.number().int(),
    }),
  }),
});
export type PolicyPage = z.infer<typeof PolicyPageSchema>;

/**
 * `GET /v1/marketplace/instances/{id}/descriptor`: a system descriptor as deployed (components
 * with their public info; private info is never served) and the plan that deployed it.
 */
export const DeployedDescriptorSchema = z.looseObject({
  systemId: z.string(),
  environment: z.string(),
  planId: z.string(),
  deployedAt: z.string(),
  descriptor: z.record(z.string(), z.unknown()),
});
export type DeployedDescriptor = z.infer<typeof DeployedDescriptorSchema>;

/**
 * One hit of governance-api's search (`GET /v1/marketplace/search`), tolerant of what that
 * endpoint adds: an instance with an optional score and an optional reason it matched.
 */
export const SearchHitSchema = z.preprocess(
  // A hit may carry the instance itself or nest it under `instance`.
  (value) =>
    typeof value === 'object' && value !== null && 'instance' in value && !('systemId' in value)
      ? { ...(value as { instance: object }).instance, ...value }
      : value,
  z.looseObject({
    systemId: z.string(),
    environment: z.string().optional(),
    name: z.string().optional(),
    kind: z.string().optional(),
    score: z.number().optional(),
  }),
);
/**
 * governance-api's search answer (`GET /v1/marketplace/search`): `mode` says whether vectors took
 * part (`hybrid`) or only words (`lexical`, with the reason in `fallback`).
 */
export const SearchAnswerSchema = z.looseObject({
  mode: z.enum(['hybrid', 'lexical']),
  fallback: z.string().optional(),
  hits: z.array(SearchHitSchema),
});
