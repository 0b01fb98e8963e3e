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
import type { DataContractView } from './data-contract-view';
import type { Page } from './page';
import type { Policy } from './policy';
import type { ContractGuard, CurrentResultStatus } from './repositories';

/**
 * A data contract a policy guards: where, by which guardian, and the state of its current result.
 *
 * @example
 * const row: GuardedContractView = { contractId: 'urn:dmb:cmp:a:b:0:port', environment: 'production', systemId: 'urn:dmb:dp:a:b:0', systemName: 'B', guardianId: 'urn:dmb:cmp:a:b:0:guardian', status: 'compliant' };
 */
export interface GuardedContractView {
  contractId: string;
  /** The component's display name, when it has one. */
  name?: string;
  environment: string;
  systemId: string;
  systemName: string;
  guardianId: string;
  /** The state of its current result under any policy (`unknown` before the first). */
  status: ComplianceViewStatus;
}

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
  /** The contract itself (schema, quality rules, SLA) as deployed in the environment; null when not deployed there. */
  getDataContract(contractId: string, environment: string): Promise<DataContractView | null>;
  /** The deployed guardians that guard the contract in the environment (none: no result will arrive). */
  getContractGuards(contractId: string, environment: string): Promise<ContractGuard[]>;
  /** The data contracts that deployed guardians guard under this policy, in every environment. */
  listGuardedContracts(policyId: string): Promise<GuardedContractView[]>;
  /**
   * The compliance view of one stored result of the contract (by its `seq`), with its records;
   * null when the environment has no result of that number for the contract.
   */
  getResultCompliance(
    contractId: string,
    environment: string,
    seq: number,
  ): Promise<ContractComplianceView | null>;
}
