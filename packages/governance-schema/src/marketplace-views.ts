import {
  ComplianceTreeNodeSchema,
  ContractComplianceStateSchema,
  InstanceComplianceSchema,
  ValidationIssueSchema,
  VerdictOverrideSchema,
} from '@dcg/contract-schema';
import * as z from 'zod/mini';

/**
 * The body of `GET /v1/marketplace/data-contracts/{id}/compliance`: the compliance of one data
 * contract in one environment (`unknown` until a result arrives), its counts and the tree of its
 * validation records, each node saying by `section` whether it is a section or a requirement.
 *
 * @example
 * const view = ContractComplianceSchema.parse(await res.json());
 * if (view.status === 'unprocessable') console.warn(view.message, view.schemaErrors?.[0]?.code);
 */
export const ContractComplianceSchema = z
  .object({
    contractId: z.string(),
    environment: z.string(),
    status: ContractComplianceStateSchema,
    evaluatedAt: z
      .nullable(z.string())
      .check(
        z.describe('ISO timestamp of the latest evaluation result, null when none arrived yet'),
      ),
    policyId: z.nullable(z.string()),
    summary: z
      .nullable(z.string())
      .check(z.describe('`notes.errorSummary.message` of the latest result')),
    counts: z.object({ compliant: z.int(), failing: z.int() }),
    tree: z
      .array(ComplianceTreeNodeSchema)
      .check(z.describe('The validation records as a tree; top-level nodes name their target')),
    message: z
      .optional(z.string())
      .check(
        z.describe(
          'Set when `status` is `unprocessable`: "The monitoring results cannot be processed"',
        ),
      ),
    schemaErrors: z
      .optional(z.array(ValidationIssueSchema))
      .check(z.describe('Set when `status` is `unprocessable`: why the details do not conform')),
    override: z
      .optional(VerdictOverrideSchema)
      .check(
        z.describe(
          'Set when `satisfiesPolicy` disagrees with the records (compliant with failing requirements, violated with none failing); the verdict decides `status`',
        ),
      ),
  })
  .register(z.globalRegistry, { id: 'ContractCompliance' });
/** Compliance of one data contract in one environment. */
export type ContractCompliance = z.infer<typeof ContractComplianceSchema>;

/**
 * A component of a marketplace instance: whether it is a data contract (rule A5), its compliance
 * when it is one, and the `publicInfo` its tech adapter returned (never `privateInfo`).
 *
 * @example
 * const contracts = instance.components.filter((component) => component.dataContract);
 */
export const InstanceComponentSchema = z.object({
  id: z.string(),
  name: z.optional(z.string()),
  kind: z.optional(z.string()),
  dataContract: z
    .boolean()
    .check(z.describe('True when the component is a data-contract target (rule A5)')),
  compliance: z.optional(
    z.object({ status: ContractComplianceStateSchema, evaluatedAt: z.nullable(z.string()) }),
  ),
  publicInfo: z
    .optional(z.record(z.string(), z.unknown()))
    .check(
      z.describe(
        'The `publicInfo` its tech adapter returned when it was provisioned, shown to users (never `privateInfo`)',
      ),
    ),
});
/** A component of a marketplace instance. */
export type InstanceComponent = z.infer<typeof InstanceComponentSchema>;

/**
 * One deployed system in one environment, with its components (`GET /v1/marketplace/instances/{id}`).
 *
 * @example
 * const instance = MarketplaceInstanceSchema.parse(await res.json());
 */
export const MarketplaceInstanceSchema = z
  .object({
    systemId: z.string(),
    name: z.string(),
    kind: z.string(),
    environment: z.string(),
    version: z.optional(z.string()),
    description: z.optional(z.string()).check(z.describe("The descriptor's `description`")),
    domain: z.optional(z.string()).check(z.describe("The descriptor's `domain`")),
    owner: z
      .optional(z.string())
      .check(
        z.describe(
          'The owner: `dataProductOwnerDisplayName`, else `dataProductOwner`, else `owner` of the descriptor',
        ),
      ),
    compliance: z
      .optional(InstanceComplianceSchema)
      .check(
        z.describe(
          'The most severe state of its data contracts (violated, unprocessable, unknown, compliant), `none` without any',
        ),
      ),
    deployedAt: z.string(),
    components: z.array(InstanceComponentSchema),
  })
  .register(z.globalRegistry, { id: 'MarketplaceInstance' });
/** One deployed system in one environment. */
export type MarketplaceInstance = z.infer<typeof MarketplaceInstanceSchema>;

/**
 * The body of `GET /v1/marketplace/instances`: every deployed system (of one environment).
 *
 * @example
 * const { data } = MarketplaceInstanceListSchema.parse(await res.json());
 */
export const MarketplaceInstanceListSchema = z.object({ data: z.array(MarketplaceInstanceSchema) });
/** The list of deployed systems. */
export type MarketplaceInstanceList = z.infer<typeof MarketplaceInstanceListSchema>;

/**
 * The body of `GET /v1/marketplace/instances/{id}/descriptor`: a system descriptor as deployed
 * (components with their public info; private info is never served) and the plan that deployed it.
 *
 * @example
 * const { descriptor, planId } = DeployedDescriptorSchema.parse(await res.json());
 */
export const DeployedDescriptorSchema = z
  .object({
    systemId: z.string(),
    environment: z.string(),
    planId: z.string().check(z.describe('The provisioning plan that deployed it')),
    deployedAt: z.string(),
    descriptor: z
      .record(z.string(), z.unknown())
      .check(
        z.describe(
          "The system descriptor as deployed, with each component's info.publicInfo; info.privateInfo is left out",
        ),
      ),
  })
  .register(z.globalRegistry, { id: 'DeployedDescriptor' });
/** A deployed system descriptor and the plan that deployed it. */
export type DeployedDescriptor = z.infer<typeof DeployedDescriptorSchema>;
