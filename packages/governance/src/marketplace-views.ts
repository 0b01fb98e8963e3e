/**
 * Read-side shapes of the marketplace. The HTTP API answers them as JSON and the server-rendered
 * marketplace pages render them, so both stay in step. Keep these stable: other code depends on them.
 */

/** Compliance state of one data contract as the marketplace shows it. */
export type ComplianceViewStatus = 'compliant' | 'violated' | 'unprocessable' | 'unknown';

/**
 * One node of a compliance tree: a validation record and its children, grouped under the target key
 * (the `results` key of the details) at the top level.
 *
 * @example
 * const node: ComplianceTreeNode = { key: 'orders', compliant: false, issues: ['null ids'] };
 */
export interface ComplianceTreeNode {
  key: string;
  name?: string;
  description?: string;
  compliant?: boolean;
  issues?: string[];
  children?: ComplianceTreeNode[];
  target?: string;
}

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
export interface ContractComplianceView {
  contractId: string;
  environment: string;
  status: ComplianceViewStatus;
  /** ISO timestamp of the latest evaluation result, null when none arrived yet. */
  evaluatedAt: string | null;
  policyId: string | null;
  /** `notes.errorSummary.message` of the latest result. */
  summary: string | null;
  counts: { compliant: number; failing: number };
  /** Per target key: the validation records as a tree. */
  tree: ComplianceTreeNode[];
  /** Set when `status` is `unprocessable`: "The monitoring results cannot be processed". */
  message?: string;
  /** Set when `status` is `unprocessable`: why the details do not conform. */
  schemaErrors?: Array<{ path: string; message: string }>;
}

/**
 * One deployed system instance in one environment, with its components.
 *
 * @example
 * const view: MarketplaceInstanceView = { systemId: 'urn:dmb:dp:finance:orders:0', name: 'Orders',
 *   kind: 'dataproduct', environment: 'production', deployedAt: new Date().toISOString(), components: [] };
 */
export interface MarketplaceInstanceView {
  systemId: string;
  name: string;
  kind: string;
  environment: string;
  version?: string;
  deployedAt: string;
  components: Array<{
    id: string;
    name?: string;
    kind?: string;
    /** True when the component is a data-contract target (rule A5). */
    dataContract: boolean;
    compliance?: { status: ComplianceViewStatus; evaluatedAt: string | null };
  }>;
}

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
}
