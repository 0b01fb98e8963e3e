/** @deprecated The view tree is `@dcg/contract-schema`'s `ComplianceTreeNode`; this re-export stays for compatibility. */
export type { ComplianceTreeNode } from '@dcg/contract-schema';
export { type BoundedPage, collectBoundedPage } from './bounded-page';
export {
  type DataContractLookup,
  findDataContract,
  lookUpDataContract,
} from './data-contract-lookup';
export {
  type DataContractColumnView,
  type DataContractRuleView,
  type DataContractView,
  dataContractView,
  requirementColumn,
} from './data-contract-view';
export {
  GovernanceError,
  type GovernanceErrorCode,
  type GovernanceIssue,
  type GovernanceIssueCode,
} from './errors';
export {
  type AcceptedEvaluationResult,
  AcceptedEvaluationResultSchema,
  type StoredEvaluationResult,
  StoredEvaluationResultSchema,
} from './evaluation-result-views';
export {
  EvaluationResults,
  type EvaluationResultsOptions,
  type EvaluationSubmissionInput,
} from './evaluation-results';
export { createGovernance, type Governance, type GovernanceOptions } from './governance';
export {
  type GovernanceEventMap,
  type GovernanceEventName,
  GovernanceEvents,
} from './governance-events';
export { guardedContracts } from './guarded-contracts';
export {
  DEFAULT_PAGE_SIZE,
  MAX_ENVIRONMENT_LENGTH,
  MAX_ID_LENGTH,
  MAX_PAGE_OFFSET,
  MAX_PAGE_SIZE,
} from './limits';
export {
  type CatalogOverview,
  catalogOverview,
  INSTANCE_COMPLIANCE_ORDER,
  instanceComplianceOf,
  parseComplianceFilter,
  type SystemFacts,
  systemFacts,
} from './marketplace-catalog';
export {
  complianceView,
  MarketplaceProjection,
} from './marketplace-projection';
export {
  type ComplianceViewStatus,
  ComplianceViewStatusSchema,
  type ContractComplianceView,
  ContractComplianceViewSchema,
  type DeployedDescriptorView,
  DeployedDescriptorViewSchema,
  type GuardedContractView,
  type MarketplaceInstanceView,
  MarketplaceInstanceViewSchema,
  type MarketplaceReadModel,
} from './marketplace-views';
export type { Page } from './page';
export { PlanLeases, type PlanLeasesOptions } from './plan-leases';
export {
  type Policy,
  type PolicyCreate,
  PolicyCreateSchema,
  type PolicyFilter,
  PolicySchema,
  PolicyStatusSchema,
  PolicyTriggerSchema,
} from './policy';
export { PolicyCatalog } from './policy-catalog';
export {
  type CoordinatorDeps,
  ProvisioningCoordinator,
  type ProvisioningRequestInput,
} from './provisioning-coordinator';
export {
  type PlanLog,
  PlanLogSchema,
  type PlanRollback,
  PlanRollbackSchema,
  PlanStatusSchema,
  type ProvisioningPlan,
  ProvisioningPlanSchema,
  type ProvisioningTask,
  ProvisioningTaskSchema,
  TaskStatusSchema,
} from './provisioning-plan';
export type {
  ContractGuard,
  CurrentResultStatus,
  CurrentResultSummary,
  EvaluationResultRepository,
  GovernanceStore,
  InstanceRecord,
  InstanceRepository,
  NewEvaluationResult,
  PlanFilter,
  PlanRepository,
  PolicyRepository,
  TemplatePolicyDraft,
  TemplateRecord,
  TemplateRepository,
} from './repositories';
export {
  type AdapterOutcome,
  TechAdapterClient,
  type TechAdapterClientOptions,
} from './tech-adapter-client';
export {
  type TechnicalEntry,
  type TechnicalInformation,
  type TechnicalInformationLimits,
  type TechnicalValue,
  technicalInformation,
} from './technical-information';
export {
  type GuardianPolicyBinding,
  type RegisteredTemplate,
  RegisteredTemplateSchema,
  TemplateRegistry,
} from './template-registry';
