import type { ComplianceState } from '@dcg/contract-schema';
import type { StoredEvaluationResult } from './evaluation-result-views';
import type { Page } from './page';
import type { Policy, PolicyFilter } from './policy';
import type { ProvisioningPlan } from './provisioning-plan';

/**
 * A registered infrastructure template as stored: the registration body, kept whole (unknown
 * properties included). One registration per id and environment: `environment` is the body's
 * `environment`, or null for a registration without one (it serves every environment that has no
 * registration of its own).
 *
 * @example
 * const record: TemplateRecord = { id: 'urn:dmb:itm:x', environment: null, document: { id: 'urn:dmb:itm:x', name: 'X', url: 'http://a' },
 *   registeredAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
 */
export interface TemplateRecord {
  id: string;
  environment: string | null;
  document: Record<string, unknown>;
  registeredAt: string;
  updatedAt: string;
}

/**
 * A policy that a guardian template creates: identified by template and resource type, so
 * re-registering the template updates it instead of adding a second one.
 *
 * @example
 * const draft: TemplatePolicyDraft = { resourceType: 'dataproduct', name: 'Contract', description: '' };
 */
export interface TemplatePolicyDraft {
  resourceType: string;
  name: string;
  description: string;
}

/**
 * Templates and the policies their guardian part creates.
 *
 * @example
 * const template = await store.getTemplate('urn:dmb:itm:ge-guardian:1');
 */
export interface TemplateRepository {
  /** The registration of the id for `environment` (default: the one without an environment). */
  getTemplate(id: string, environment?: string | null): Promise<TemplateRecord | null>;
  /** Every registration of the id, the one without an environment first, then by environment. */
  getTemplateRegistrations(id: string): Promise<TemplateRecord[]>;
  /**
   * Stores the template (keyed by id and the document's `environment`: registering an id for one
   * environment leaves its other registrations alone) and, atomically with it, creates or updates
   * one passive policy per draft (keyed by template id and resource type, shared by the template's
   * registrations). Returns the policies, in draft order.
   */
  saveTemplate(
    document: Record<string, unknown> & { id: string },
    drafts: TemplatePolicyDraft[],
    now: string,
  ): Promise<{ template: TemplateRecord; created: Policy[]; updated: Policy[] }>;
}

/**
 * Computational governance policies.
 *
 * @example
 * const page = await store.listPolicies({ trigger: 'passive', limit: 50, offset: 0 });
 */
export interface PolicyRepository {
  getPolicy(id: string): Promise<Policy | null>;
  getPolicies(ids: readonly string[]): Promise<Policy[]>;
  /** Inserts a policy; a policy with the same id gives a GovernanceError `conflict`. */
  createPolicy(policy: Policy): Promise<Policy>;
  listPolicies(filter: PolicyFilter): Promise<Page<Policy>>;
}

/**
 * Provisioning plans.
 *
 * @example
 * const plan = await store.getPlan(planId);
 */
export interface PlanRepository {
  /** Stores a new plan; `owner` is the id of the service instance that runs it (see leases). */
  createPlan(plan: ProvisioningPlan, owner?: string): Promise<void>;
  /**
   * Replaces a plan. With `owner`, only while that instance still owns it: a plan claimed by
   * another instance (its lease had expired) gives a GovernanceError `conflict`.
   */
  updatePlan(plan: ProvisioningPlan, owner?: string): Promise<void>;
  getPlan(id: string): Promise<ProvisioningPlan | null>;
  /** Plans still `running` (after a restart they were interrupted). */
  listRunningPlans(): Promise<ProvisioningPlan[]>;
  /** Plans, newest first, optionally of one status and one environment; paged. */
  listPlans(filter: PlanFilter): Promise<Page<ProvisioningPlan>>;
  /**
   * Renews the lease of a service instance: its plans are its own while it renews within
   * `leaseMs`. Several instances may share one database.
   */
  renewLease(instanceId: string, leaseMs: number): Promise<void>;
  /** Ends the lease of an instance that stops: its running plans are orphaned at once. */
  endLease(instanceId: string): Promise<void>;
  /**
   * Running plans whose owner holds no live lease (it died, or the plan has no owner), handed to
   * `instanceId` atomically: two instances never claim the same plan. The plans of live
   * instances are never returned.
   */
  claimOrphanedPlans(instanceId: string): Promise<ProvisioningPlan[]>;
}

/**
 * Filter and paging of {@link PlanRepository.listPlans}.
 *
 * @example
 * const filter: PlanFilter = { status: 'failed', environment: 'production', limit: 50, offset: 0 };
 */
export interface PlanFilter {
  status?: ProvisioningPlan['status'];
  environment?: string;
  limit: number;
  offset: number;
}

/**
 * A deployed system in one environment: its descriptor as deployed, with the `info` each tech
 * adapter returned stored on its component.
 *
 * @example
 * const record: InstanceRecord = { systemId: 'urn:dmb:dp:a:b:0', environment: 'production',
 *   descriptor: { id: 'urn:dmb:dp:a:b:0', kind: 'dataproduct', components: [] },
 *   deployedAt: '2026-01-01T00:00:00.000Z', planId: 'p1' };
 */
export interface InstanceRecord {
  systemId: string;
  environment: string;
  descriptor: Record<string, unknown>;
  deployedAt: string;
  planId: string;
}

/**
 * Marketplace instances (deployed systems per environment).
 *
 * @example
 * const instances = await store.listInstances({ environment: 'production' });
 */
export interface InstanceRepository {
  putInstance(instance: InstanceRecord): Promise<void>;
  /** Removes the instance; true when one was there. */
  deleteInstance(systemId: string, environment: string): Promise<boolean>;
  getInstance(systemId: string, environment: string): Promise<InstanceRecord | null>;
  /** Instances of a system in every environment, or of every system in one environment. */
  listInstances(filter: { environment?: string; systemId?: string }): Promise<InstanceRecord[]>;
  /**
   * Instances with a component (at any depth) of this id, optionally in one environment, ordered
   * by environment: "where is this contract deployed" from an index, without reading every instance.
   */
  findInstancesWithComponent(componentId: string, environment?: string): Promise<InstanceRecord[]>;
  /**
   * The deployed guardians that guard a data contract (see `guarded-contracts.ts`), in one
   * environment or in all, ordered by environment, from an index kept with the instances.
   */
  findContractGuards(contractId: string, environment?: string): Promise<ContractGuard[]>;
}

/**
 * A deployed guardian guarding a data contract: results for the contract in the environment are
 * accepted under the guardian's policy.
 *
 * @example
 * const guard: ContractGuard = { contractId: 'urn:dmb:cmp:a:b:0:port', environment: 'production',
 *   policyId: 'p1', guardianId: 'urn:dmb:cmp:a:b:0:guardian', systemId: 'urn:dmb:dp:a:b:0' };
 */
export interface ContractGuard {
  contractId: string;
  environment: string;
  policyId: string;
  guardianId: string;
  systemId: string;
}

export type { StoredEvaluationResult } from './evaluation-result-views';

/**
 * The state of a data contract's current result, read without its document (list pages).
 *
 * @example
 * const [first] = await store.getCurrentStatuses(['urn:dmb:cmp:a:b:0:port'], 'production');
 */
export interface CurrentResultStatus {
  contractId: string;
  policyId: string;
  seq: number;
  status: ComplianceState;
  receivedAt: string;
}

/**
 * The current results of one environment and policy in one state: how many data contracts, and
 * when the newest of those results arrived (the monitoring view, see
 * {@link EvaluationResultRepository.summarizeCurrentResults}).
 *
 * @example
 * const row: CurrentResultSummary = { environment: 'production', policyId: 'p1', status: 'violated', contracts: 2, lastReceivedAt: '2026-01-01T00:00:00.000Z' };
 */
export interface CurrentResultSummary {
  environment: string;
  policyId: string;
  status: ComplianceState;
  contracts: number;
  lastReceivedAt: string;
}

/**
 * A new result before storage assigns its sequence number.
 *
 * @example
 * await store.appendResult({ contractId, policyId, environment, receivedAt, submission, detailsConform: true, status: 'compliant' });
 */
export type NewEvaluationResult = Omit<StoredEvaluationResult, 'seq'>;

/**
 * Options of {@link EvaluationResultRepository.appendResult}.
 *
 * @example
 * await store.appendResult(result, { requireGuard: true });
 */
export interface AppendResultOptions {
  /**
   * Store the result only if a deployed guardian guards its contract with its policy in its
   * environment (see {@link InstanceRepository.findContractGuards}), checked in the same
   * transaction as the insert; otherwise reject with a GovernanceError `conflict`.
   */
  requireGuard?: boolean;
}

/**
 * Evaluation results: history plus the current result per contract, policy and environment.
 *
 * @example
 * const current = await store.getCurrentResult('urn:dmb:cmp:a:b:0:port', 'production');
 */
export interface EvaluationResultRepository {
  /**
   * Appends to the history and makes the result current for its contract, policy and environment,
   * both at once (group commit: results that arrive together share one transaction). Resolves
   * once that transaction has committed; every read after that sees it.
   */
  appendResult(
    result: NewEvaluationResult,
    options?: AppendResultOptions,
  ): Promise<StoredEvaluationResult>;
  /** The current result for the contract in the environment; with several policies, the latest. */
  getCurrentResult(
    contractId: string,
    environment: string,
    policyId?: string,
  ): Promise<StoredEvaluationResult | null>;
  /**
   * The state of the current result of each contract in the environment (with several policies,
   * the latest); contracts without a result are left out. One query, no documents read.
   */
  getCurrentStatuses(
    contractIds: readonly string[],
    environment: string,
  ): Promise<CurrentResultStatus[]>;
  /**
   * The states of a contract's results in one environment, newest first, without their documents
   * (the timeline of the marketplace pages).
   */
  listResultStates(
    contractId: string,
    filter: { environment: string; limit: number; offset: number },
  ): Promise<Page<CurrentResultStatus>>;
  /**
   * The current results counted per environment, policy and state, with the time of the newest
   * in each group: one grouped read of the current pointers (one row per contract, policy and
   * environment), never of the history or the documents. For `/metrics` at scrape time.
   */
  summarizeCurrentResults(): Promise<CurrentResultSummary[]>;
  /** History of a contract, newest first. */
  listResultHistory(
    contractId: string,
    filter: { environment?: string; policyId?: string; limit: number; offset: number },
  ): Promise<Page<StoredEvaluationResult>>;
}

/**
 * All governance storage behind one handle: SQLite (`@dcg/governance/sqlite`) or PostgreSQL
 * (`@dcg/governance/postgres`). Both pass the same conformance suite.
 *
 * @example
 * const store = await openSqliteStore({ file: './governance.db' });
 * const policy = await store.getPolicy('p1');
 * await store.close();
 */
export interface GovernanceStore
  extends TemplateRepository,
    PolicyRepository,
    PlanRepository,
    InstanceRepository,
    EvaluationResultRepository {
  /** `sqlite` or `postgres`. */
  readonly kind: string;
  /** Succeeds when the database answers (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
