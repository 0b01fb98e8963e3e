/**
 * Read-side shapes of the marketplace: their zod schemas are the wire schemas of
 * `@dcg/governance-schema` (the HTTP API answers them, its client and tools check them, the
 * server-rendered pages render them); these names stay for the domain's readers.
 */
import type { ContractComplianceState } from '@dcg/contract-schema';
import {
  type ContractCompliance,
  ContractComplianceSchema,
  ContractComplianceStateSchema,
  type DeployedDescriptor,
  DeployedDescriptorSchema,
  type MarketplaceInstance,
  MarketplaceInstanceSchema,
} from '@dcg/governance-schema';
import type { Page } from './page';
import type { Policy } from './policy';
import type { CurrentResultStatus } from './repositories';

/**
 * Compliance state of one data contract as the marketplace shows it: the stored state of its
 * current result, or `unknown` when none arrived yet (contract-schema's `ContractComplianceState`).
 *
 * @example
 * ComplianceViewStatusSchema.parse('unknown');
 */
export const ComplianceViewStatusSchema = ContractComplianceStateSchema;
/** Compliance state of one data contract as the marketplace shows it. */
export type ComplianceViewStatus = ContractComplianceState;

/** Compliance of one data contract in one environment (`ContractComplianceSchema` of governance-schema). */
export const ContractComplianceViewSchema = ContractComplianceSchema;
/** Compliance of one data contract in one environment. */
export type ContractComplianceView = ContractCompliance;

/** One deployed system instance in one environment (`MarketplaceInstanceSchema` of governance-schema). */
export const MarketplaceInstanceViewSchema = MarketplaceInstanceSchema;
/** One deployed system instance in one environment, with its components. */
export type MarketplaceInstanceView = MarketplaceInstance;

/** A deployed descriptor and the plan that deployed it (`DeployedDescriptorSchema` of governance-schema). */
export const DeployedDescriptorViewSchema = DeployedDescriptorSchema;
/** A deployed system descriptor (without private info) and the plan that deployed it. */
export type DeployedDescriptorView = DeployedDescriptor;

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
