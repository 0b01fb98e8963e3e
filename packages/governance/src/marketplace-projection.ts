import {
  type ComponentDescriptor,
  complianceStatus,
  contractStateOf,
  contractStatesOf,
  instanceCompliance,
  prefixIssues,
  selectContractTargets,
  UNPROCESSABLE_MESSAGE,
} from '@dcg/contract-schema';
import { type DataContractView, dataContractView } from './data-contract-view';
import { publicDeployedDescriptor } from './deployed-descriptor';
import { guardedContracts } from './guarded-contracts';
import { systemFacts } from './marketplace-catalog';
import type {
  ContractComplianceView,
  DeployedDescriptorView,
  GuardedContractView,
  MarketplaceInstanceView,
  MarketplaceReadModel,
} from './marketplace-views';
import type { Page } from './page';
import type { Policy } from './policy';
import type {
  ContractGuard,
  CurrentResultStatus,
  GovernanceStore,
  InstanceRecord,
  StoredEvaluationResult,
} from './repositories';

/**
 * The compliance view of a data contract from its current stored result (or `unknown` without one).
 *
 * @example
 * const view = complianceView('urn:dmb:cmp:a:b:0:port', 'production', await store.getCurrentResult(id, 'production'));
 */
export function complianceView(
  contractId: string,
  environment: string,
  current: StoredEvaluationResult | null,
): ContractComplianceView {
  if (!current) {
    return {
      contractId,
      environment,
      status: contractStateOf(current),
      evaluatedAt: null,
      policyId: null,
      summary: null,
      counts: { compliant: 0, failing: 0 },
      tree: [],
    };
  }
  // The tree and the schema errors come from the document; the state is the one stored when the
  // result was accepted, so this view, the list pages and the submission's answer agree.
  const status = complianceStatus(current.submission);
  const unprocessable = current.status === 'unprocessable';
  return {
    contractId,
    environment,
    status: current.status,
    evaluatedAt: current.receivedAt,
    policyId: current.policyId,
    summary: unprocessable ? null : (status.summary ?? null),
    counts: unprocessable ? { compliant: 0, failing: 0 } : status.counts,
    tree: unprocessable ? [] : status.tree.flatMap((target) => target.records),
    // The stored state decides; the override is told only where it is the state derived here.
    ...(status.override !== undefined && status.status === current.status
      ? { override: status.override }
      : {}),
    ...(unprocessable
      ? {
          message: UNPROCESSABLE_MESSAGE,
          // Located in the submitted body (the array of one result), as the submission's answer.
          schemaErrors: prefixIssues([0], status.schemaErrors ?? []),
        }
      : {}),
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The adapter's `publicInfo` stored on the component, when it returned a non-empty one. */
function publicInfoOf(component: ComponentDescriptor): Record<string, unknown> | undefined {
  const info = (component as { info?: unknown }).info;
  if (!isPlainObject(info) || !isPlainObject(info.publicInfo)) return undefined;
  return Object.keys(info.publicInfo).length === 0 ? undefined : info.publicInfo;
}

function flatten(
  components: ReadonlyArray<ComponentDescriptor>,
  into: ComponentDescriptor[],
): void {
  for (const component of components) {
    into.push(component);
    flatten(component.components ?? [], into);
  }
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * The marketplace read model over the governance store: deployed instances with their components,
 * and for each data contract (rule A5) the compliance of its current evaluation result.
 *
 * @example
 * const readModel = new MarketplaceProjection(store);
 * const instances = await readModel.listInstances({ environment: 'production' });
 */
export class MarketplaceProjection implements MarketplaceReadModel {
  constructor(private readonly store: GovernanceStore) {}

  async listInstances(filter: { environment?: string }): Promise<MarketplaceInstanceView[]> {
    const records = await this.store.listInstances(
      filter.environment === undefined ? {} : { environment: filter.environment },
    );
    return this.toViews(records);
  }

  async findContractInstances(
    contractId: string,
    environment?: string,
  ): Promise<MarketplaceInstanceView[]> {
    const records = await this.store.findInstancesWithComponent(contractId, environment);
    return this.toViews(records);
  }

  async getInstance(
    systemId: string,
    environment?: string,
  ): Promise<MarketplaceInstanceView | null> {
    const record = await this.findInstance(systemId, environment);
    return record ? ((await this.toViews([record]))[0] ?? null) : null;
  }

  /**
   * The deployed descriptor of a system (latest deployment when no environment is given), without
   * any component's `info.privateInfo`; null when it is not deployed (there).
   */
  async getDeployedDescriptor(
    systemId: string,
    environment?: string,
  ): Promise<DeployedDescriptorView | null> {
    const record = await this.findInstance(systemId, environment);
    return record ? publicDeployedDescriptor(record) : null;
  }

  /** The instance in the environment, or the latest deployment of the system when none is given. */
  private async findInstance(
    systemId: string,
    environment: string | undefined,
  ): Promise<InstanceRecord | null> {
    if (environment !== undefined) return this.store.getInstance(systemId, environment);
    const records = await this.store.listInstances({ systemId });
    return records.sort((a, b) => b.deployedAt.localeCompare(a.deployedAt))[0] ?? null;
  }

  async getContractCompliance(
    contractId: string,
    environment: string,
  ): Promise<ContractComplianceView> {
    return complianceView(
      contractId,
      environment,
      await this.store.getCurrentResult(contractId, environment),
    );
  }

  listContractStates(
    contractId: string,
    environment: string,
    paging: { limit: number; offset: number },
  ): Promise<Page<CurrentResultStatus>> {
    return this.store.listResultStates(contractId, { environment, ...paging });
  }

  getPolicies(ids: readonly string[]): Promise<Policy[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.store.getPolicies(ids);
  }

  async getDataContract(contractId: string, environment: string): Promise<DataContractView | null> {
    const [record] = await this.store.findInstancesWithComponent(contractId, environment);
    if (!record) return null;
    const all: ComponentDescriptor[] = [];
    flatten(systemOf(record).components ?? [], all);
    const component = all.find((c) => c.id === contractId);
    return component ? (dataContractView(component.dataContract) ?? null) : null;
  }

  getContractGuards(contractId: string, environment: string): Promise<ContractGuard[]> {
    return this.store.findContractGuards(contractId, environment);
  }

  async listGuardedContracts(policyId: string): Promise<GuardedContractView[]> {
    const records = await this.store.listInstances({});
    const rows: Array<Omit<GuardedContractView, 'status'>> = [];
    for (const record of records) {
      const all: ComponentDescriptor[] = [];
      flatten(systemOf(record).components ?? [], all);
      const names = new Map(all.map((c) => [c.id, c.name]));
      for (const guard of guardedContracts(record.descriptor, record)) {
        if (guard.policyId !== policyId) continue;
        const name = names.get(guard.contractId);
        rows.push({
          contractId: guard.contractId,
          ...(name === undefined ? {} : { name }),
          environment: guard.environment,
          systemId: record.systemId,
          systemName: text(systemOf(record).name) ?? record.systemId,
          guardianId: guard.guardianId,
        });
      }
    }
    const byEnvironment = new Map<string, Set<string>>();
    for (const row of rows) {
      const ids = byEnvironment.get(row.environment) ?? new Set<string>();
      ids.add(row.contractId);
      byEnvironment.set(row.environment, ids);
    }
    const states = new Map<string, CurrentResultStatus>();
    await Promise.all(
      [...byEnvironment].map(async ([environment, ids]) => {
        for (const found of await this.store.getCurrentStatuses([...ids], environment)) {
          states.set(`${environment}\u0000${found.contractId}`, found);
        }
      }),
    );
    return rows
      .map((row) => ({
        ...row,
        status: contractStateOf(states.get(`${row.environment}\u0000${row.contractId}`)),
      }))
      .sort(
        (a, b) =>
          a.environment.localeCompare(b.environment) ||
          a.systemName.localeCompare(b.systemName) ||
          a.contractId.localeCompare(b.contractId),
      );
  }

  async getResultCompliance(
    contractId: string,
    environment: string,
    seq: number,
  ): Promise<ContractComplianceView | null> {
    // The states are read without documents to find the result's position, then that one result.
    const step = 500;
    for (let offset = 0; ; offset += step) {
      const page = await this.store.listResultStates(contractId, {
        environment,
        limit: step,
        offset,
      });
      const index = page.data.findIndex((state) => state.seq === seq);
      if (index >= 0) {
        const found = await this.store.listResultHistory(contractId, {
          environment,
          limit: 1,
          offset: offset + index,
        });
        const result = found.data[0];
        return result && result.seq === seq
          ? complianceView(contractId, environment, result)
          : null;
      }
      if (page.data.length < step || (page.data.at(-1)?.seq ?? 0) < seq) return null;
    }
  }

  /**
   * The views of instances: one read of the stored states of their contracts per environment (not
   * one per instance), then each instance assembled from its descriptor and those states.
   */
  private async toViews(records: InstanceRecord[]): Promise<MarketplaceInstanceView[]> {
    const contractsOf = records.map(
      (record) => new Set(selectContractTargets(systemOf(record)).map((t) => t.resourceId)),
    );
    const wanted = new Map<string, Set<string>>();
    records.forEach((record, i) => {
      const ids = wanted.get(record.environment) ?? new Set<string>();
      for (const id of contractsOf[i] as Set<string>) ids.add(id);
      wanted.set(record.environment, ids);
    });
    const statuses = new Map<string, Map<string, CurrentResultStatus>>();
    await Promise.all(
      [...wanted].map(async ([environment, ids]) => {
        const found = await this.store.getCurrentStatuses([...ids], environment);
        statuses.set(environment, new Map(found.map((s) => [s.contractId, s])));
      }),
    );
    return records.map((record, i) =>
      toView(record, contractsOf[i] as Set<string>, statuses.get(record.environment) ?? new Map()),
    );
  }
}

type SystemShape = { components?: ComponentDescriptor[] } & Record<string, unknown>;

const systemOf = (record: InstanceRecord): SystemShape => record.descriptor as SystemShape;

/** One instance: its components, and for each data contract the state stored for it. */
function toView(
  record: InstanceRecord,
  contracts: ReadonlySet<string>,
  statuses: ReadonlyMap<string, CurrentResultStatus>,
): MarketplaceInstanceView {
  const system = systemOf(record);
  const all: ComponentDescriptor[] = [];
  flatten(system.components ?? [], all);
  const components = all.map((c) => {
    const dataContract = contracts.has(c.id);
    const publicInfo = publicInfoOf(c);
    const base = {
      id: c.id,
      ...(c.name === undefined ? {} : { name: c.name }),
      ...(c.kind === undefined ? {} : { kind: c.kind }),
      dataContract,
      ...(publicInfo === undefined ? {} : { publicInfo }),
    };
    if (!dataContract) return base;
    const current = statuses.get(c.id);
    return {
      ...base,
      compliance: { status: contractStateOf(current), evaluatedAt: current?.receivedAt ?? null },
    };
  });
  const version = text(system.version);
  return {
    systemId: record.systemId,
    name: text(system.name) ?? record.systemId,
    kind: text(system.kind) ?? 'unknown',
    environment: record.environment,
    ...(version === undefined ? {} : { version }),
    ...systemFacts(system),
    compliance: instanceCompliance(contractStatesOf(components)),
    deployedAt: record.deployedAt,
    components,
  };
}
