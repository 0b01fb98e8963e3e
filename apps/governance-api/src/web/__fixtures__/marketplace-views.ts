import {
  type ComplianceTreeNode,
  contractStateOf,
  EXACTLY_ONE_MESSAGE_BOTH,
  ISSUES_WITHOUT_COMPLIANT_MESSAGE,
  validationIssue,
} from '@dcg/contract-schema';
import {
  type ContractComplianceView,
  type ContractGuard,
  type CurrentResultStatus,
  complianceView,
  type DataContractView,
  type MarketplaceInstanceView,
  type MarketplaceReadModel,
  type Policy,
} from '@dcg/governance';

/** A test tree written as A4 records: a section has `children`, a requirement `compliant`. */
export interface RecordLike {
  key: string;
  name?: string;
  description?: string;
  compliant?: boolean;
  issues?: string[];
  checked?: false;
  severity?: string;
  children?: RecordLike[];
  target?: string;
}

/**
 * The view tree of records written as in A4, with the `section` flag set by rule 1 of A4.
 *
 * @example
 * viewTree([{ key: 'quality', children: [{ key: 'id', compliant: true }] }]);
 */
export function viewTree(nodes: RecordLike[]): ComplianceTreeNode[] {
  return nodes.map((node): ComplianceTreeNode => {
    const { children, ...rest } = node;
    return children === undefined
      ? { ...rest, section: false }
      : { ...rest, section: true, children: viewTree(children) };
  });
}

export const ORDERS_PORT = 'urn:dmb:cmp:finance:orders:0:orders-port';
export const INVOICES_PORT = 'urn:dmb:cmp:finance:orders:0:invoices-port';
export const BROKEN_PORT = 'urn:dmb:cmp:finance:orders:0:broken-port';

export const violatedView: ContractComplianceView = {
  contractId: ORDERS_PORT,
  environment: 'production',
  status: 'violated',
  evaluatedAt: '2026-11-22T10:05:09.000Z',
  policyId: 'policy-dataproduct-guardian',
  summary: 'One or more data contract violations detected',
  counts: { compliant: 2, failing: 1 },
  tree: viewTree([
    {
      key: 'dataContract',
      name: 'Data Contract',
      description: 'Checks of the data contract',
      target: 'root',
      children: [
        {
          key: 'quality',
          name: 'Quality',
          children: [
            { key: 'amount_not_null', compliant: false, issues: ['12 rows have a null amount'] },
            { key: 'id_unique', compliant: true },
          ],
        },
        {
          key: 'sla',
          name: 'SLA',
          children: [{ key: 'freshness', name: 'Freshness', compliant: true }],
        },
      ],
    },
  ]),
};

export const compliantView: ContractComplianceView = {
  contractId: INVOICES_PORT,
  environment: 'production',
  status: 'compliant',
  evaluatedAt: '2026-11-22T10:06:00.000Z',
  policyId: 'policy-dataproduct-guardian',
  summary: null,
  counts: { compliant: 2, failing: 0 },
  tree: viewTree([
    {
      key: 'schema',
      name: 'Schema',
      children: [
        { key: 'columns', name: 'Columns present', compliant: true },
        { key: 'types', name: 'Column types', compliant: true },
      ],
    },
  ]),
};

export const unprocessableView: ContractComplianceView = {
  contractId: BROKEN_PORT,
  environment: 'production',
  status: 'unprocessable',
  evaluatedAt: '2026-11-22T10:07:00.000Z',
  policyId: 'policy-dataproduct-guardian',
  summary: null,
  counts: { compliant: 0, failing: 0 },
  tree: [],
  message: 'The monitoring results cannot be processed',
  schemaErrors: [
    validationIssue(
      'compliant_xor_children',
      [0, 'result', 'details', 'results', 'root', 0],
      EXACTLY_ONE_MESSAGE_BOTH,
      { has: 'both' },
    ),
    validationIssue(
      'issues_without_compliant',
      [0, 'result', 'details', 'results', 'root', 1, 'issues'],
      ISSUES_WITHOUT_COMPLIANT_MESSAGE,
    ),
  ],
};

export const ordersInstance: MarketplaceInstanceView = {
  systemId: 'urn:dmb:dp:finance:orders:0',
  name: 'Orders',
  kind: 'dataproduct',
  environment: 'production',
  version: '0.3.1',
  deployedAt: '2026-11-22T09:00:00.000Z',
  components: [
    {
      id: ORDERS_PORT,
      name: 'Orders port',
      kind: 'outputport',
      dataContract: true,
      compliance: { status: 'violated', evaluatedAt: violatedView.evaluatedAt },
    },
    {
      id: INVOICES_PORT,
      name: 'Invoices port',
      kind: 'outputport',
      dataContract: true,
      compliance: { status: 'compliant', evaluatedAt: compliantView.evaluatedAt },
    },
    {
      id: BROKEN_PORT,
      name: 'Broken port',
      kind: 'outputport',
      dataContract: true,
      compliance: { status: 'unprocessable', evaluatedAt: unprocessableView.evaluatedAt },
    },
    {
      id: 'urn:dmb:cmp:finance:orders:0:guardian',
      name: 'Guardian',
      kind: 'workload',
      dataContract: false,
    },
  ],
};

export const stagingInstance: MarketplaceInstanceView = {
  ...ordersInstance,
  environment: 'staging',
  components: ordersInstance.components.map(({ compliance: _omit, ...component }) => component),
};

/**
 * A read model over fixed arrays, for render-level tests of the routes (the browser tests run the
 * real app with its real read model).
 */
export function arrayReadModel(
  instances: MarketplaceInstanceView[],
  views: ContractComplianceView[],
  extras: {
    states?: CurrentResultStatus[];
    policies?: Policy[];
    contracts?: ReadonlyMap<string, DataContractView>;
    guards?: ContractGuard[];
    results?: ReadonlyMap<number, ContractComplianceView>;
  } = {},
): MarketplaceReadModel {
  const states = [...(extras.states ?? [])].sort((a, b) => b.seq - a.seq);
  const policies = extras.policies ?? [];
  const guards = extras.guards ?? [];
  return {
    async getDataContract(contractId) {
      return extras.contracts?.get(contractId) ?? null;
    },
    async getContractGuards(contractId, environment) {
      return guards.filter((g) => g.contractId === contractId && g.environment === environment);
    },
    async listGuardedContracts(policyId) {
      return guards
        .filter((g) => g.policyId === policyId)
        .map((g) => ({
          contractId: g.contractId,
          environment: g.environment,
          systemId: g.systemId,
          systemName: instances.find((i) => i.systemId === g.systemId)?.name ?? g.systemId,
          guardianId: g.guardianId,
          status: contractStateOf(
            views.find((v) => v.contractId === g.contractId && v.environment === g.environment),
          ),
        }));
    },
    async getResultCompliance(contractId, environment, seq) {
      const view = extras.results?.get(seq);
      return view && view.contractId === contractId && view.environment === environment
        ? view
        : null;
    },
    async listContractStates(contractId, environment, paging) {
      const all = states.filter((state) => state.contractId === contractId);
      // The fixture's states carry no environment: every one counts in the asked environment.
      void environment;
      return {
        data: all.slice(paging.offset, paging.offset + paging.limit),
        meta: { pagination: { ...paging, total: all.length } },
      };
    },
    async getPolicies(ids) {
      return policies.filter((policy) => ids.includes(policy.id));
    },
    async listInstances(filter) {
      return instances.filter(
        (instance) =>
          filter.environment === undefined || instance.environment === filter.environment,
      );
    },
    async getInstance(systemId, environment) {
      return (
        instances.find(
          (instance) =>
            instance.systemId === systemId &&
            (environment === undefined || instance.environment === environment),
        ) ?? null
      );
    },
    async findContractInstances(contractId, environment) {
      return instances
        .filter(
          (instance) =>
            (environment === undefined || instance.environment === environment) &&
            instance.components.some((component) => component.id === contractId),
        )
        .sort((a, b) => a.environment.localeCompare(b.environment));
    },
    async getContractCompliance(contractId, environment) {
      return (
        views.find((view) => view.contractId === contractId && view.environment === environment) ??
        complianceView(contractId, environment, null)
      );
    },
  };
}
