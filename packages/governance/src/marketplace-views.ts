/**
 * Read-side shapes of the marketplace, zod first: the HTTP API documents and answers them and the
 * server-rendered marketplace pages render them, so both stay in step. Keep these stable: other
 * code depends on them.
 */
import {
  ComplianceStateSchema,
  ComplianceTreeNodeSchema,
  ValidationIssueSchema,
  VerdictOverrideSchema,
} from '@dcg/contract-schema';
import { z } from 'zod';
import type { Page } from './page';
import type { Policy } from './policy';
import type { CurrentResultStatus } from './repositories';

/**
 * Compliance state of one data contract as the marketplace shows it: the stored state of its
 * current result, or `unknown` when none arrived yet.
 *
 * @example
 * ComplianceViewStatusSchema.parse('unknown');
 */
export const ComplianceViewStatusSchema = z.enum([...ComplianceStateSchema.options, 'unknown']);
/** Compliance state of one data contract as the marketplace shows it. */
export type ComplianceViewStatus = z.infer<typeof ComplianceViewStatusSchema>;

/**
 * Compliance of one data contract in one environment. Also the JSON body of
 * `GET /v1/marketplace/data-contracts/{id}/compliance`.
 *
 * @example
 * const view: ContractComplianceView = {
 *   contractId: 'urn:dmb:cmp:finance:orders:0:contract', environment: 'production',
 *   status: 'unknown', evaluatedAt: null, policyId: null, summary: null,
 *   counts: { compliant: 0, failing: 0 }, tree: [],
 * };
 */
export const ContractComplianceViewSchema = z
  .object({
    contractId: z.string(),
    environment: z.string(),
    status: ComplianceViewStatusSchema,
    evaluatedAt: z
      .string()
      .nullable()
      .describe('ISO timestamp of the latest evaluation result, null when none arrived yet'),
    policyId: z.string().nullable(),
    summary: z.string().nullable().describe('`notes.errorSummary.message` of the latest result'),
    counts: z.object({ compliant: z.number().int(), failing: z.number().int() }),
    tree: z
      .array(ComplianceTreeNodeSchema)
      .describe('The validation records as a tree; top-level nodes name their target'),
    message: z
      .string()
      .optional()
      .describe(
        'Set when `status` is `unprocessable`: "The monitoring results cannot be processed"',
      ),
    schemaErrors: z
      .array(ValidationIssueSchema)
      .optional()
      .describe('Set when `status` is `unprocessable`: why the details do not conform'),
    override: VerdictOverrideSchema.optional().describe(
      'Set when `satisfiesPolicy` disagrees with the records (compliant with failing requirements, violated with none failing); the verdict decides `status`',
    ),
  })
  .meta({ id: 'ContractCompliance' });
/** Compliance of one data contract in one environment. */
export type ContractComplianceView = z.infer<typeof ContractComplianceViewSchema>;

/**
 * One deployed system instance in one environment, with its components.
 *
 * @example
 * const view: MarketplaceInstanceView = { systemId: 'urn:dmb:dp:finance:orders:0', name: 'Orders',
 *   kind: 'dataproduct', environment: 'production', deployedAt: new Date().toISOString(), components: [] };
 */
export const MarketplaceInstanceViewSchema = z
  .object({
    systemId: z.string(),
    name: z.string(),
    kind: z.string(),
    environment: z.string(),
    version: z.string().optional(),
    deployedAt: z.string(),
    components: z.array(
      z.object({
        id: z.string(),
        name: z.string().optional(),
        kind: z.string().optional(),
        dataContract: z
          .boolean()
          .describe('True when the component is a data-contract target (rule A5)'),
        compliance: z
          .object({ status: ComplianceViewStatusSchema, evaluatedAt: z.string().nullable() })
          .optional(),
        publicInfo: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(
            'The `publicInfo` its tech adapter returned when it was provisioned, shown to users (never `privateInfo`)',
          ),
      }),
    ),
  })
  .meta({ id: 'MarketplaceInstance' });
/** One deployed system instance in one environment, with its components. */
export type MarketplaceInstanceView = z.infer<typeof MarketplaceInstanceViewSchema>;

/**
 * A deployed system descriptor (without private info) and the plan that deployed it. Also the
 * JSON body of `GET /v1/marketplace/instances/{id}/descriptor`.
 *
 * @example
 * const view: DeployedDescriptorView = { systemId: 'urn:dmb:dp:finance:orders:0',
 *   environment: 'production', planId: 'p1', deployedAt: new Date().toISOString(),
 *   descriptor: { id: 'urn:dmb:dp:finance:orders:0', kind: 'dataproduct', components: [] } };
 */
export const DeployedDescriptorViewSchema = z
  .object({
    systemId: z.string(),
    environment: z.string(),
    planId: z.string().describe('The provisioning plan that deployed it'),
    deployedAt: z.string(),
    descriptor: z
      .record(z.string(), z.unknown())
      .describe(
        "The system descriptor as deployed, with each component's info.publicInfo; info.privateInfo is left out",
      ),
  })
  .meta({ id: 'DeployedDescriptor' });
/** A deployed system descriptor (without private info) and the plan that deployed it. */
export type DeployedDescriptorView = z.infer<typeof DeployedDescriptorViewSchema>;

/**
 * What the marketplace pages and API read. Implemented over the governance repositories.
 *
 * @example
 * const instances = await readModel.listInstances({ environment: 'production' });
 */
export interface MarketplaceReadModel {
  listInstances(filter: { environment?: string }): Promise<MarketplaceInstanceView[]>;
  getInstance(systemId: string, environment?: string): Promise<MarketplaceInstanceView | null>;
  /**
   * The instances that deploy this data contract (optionally in one environment), from an index:
   * no scan of every instance.
   */
  findContractInstances(
    contractId: string,
    environment?: string,
  ): Promise<MarketplaceInstanceView[]>;
  getContractCompliance(contractId: string, environment: string): Promise<ContractComplianceView>;
  /** The states of a contract's results in one environment, newest first (no documents read). */
  listContractStates(
    contractId: string,
    environment: string,
    paging: { limit: number; offset: number },
  ): Promise<Page<CurrentResultStatus>>;
  /** The policies of these ids that exist (to show them by name). */
  getPolicies(ids: readonly string[]): Promise<Policy[]>;
}
