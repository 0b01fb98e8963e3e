export { GovernanceError, type GovernanceErrorCode } from './errors';
export type {
  ComplianceTreeNode,
  ComplianceViewStatus,
  ContractComplianceView,
  MarketplaceInstanceView,
  MarketplaceReadModel,
} from './marketplace-views';
export type { Page } from './page';
export {
  type Policy,
  type PolicyCreate,
  PolicyCreateSchema,
  type PolicyFilter,
  PolicySchema,
  PolicyStatusSchema,
  PolicyTriggerSchema,
} from './policy';
export {
  type PlanLog,
  PlanLogSchema,
  PlanStatusSchema,
  type ProvisioningPlan,
  ProvisioningPlanSchema,
  type ProvisioningTask,
  ProvisioningTaskSchema,
  TaskStatusSchema,
} from './provisioning-plan';
export type {
  EvaluationResultRepository,
  GovernanceStore,
  InstanceRecord,
  InstanceRepository,
  NewEvaluationResult,
  PlanRepository,
  PolicyRepository,
  StoredEvaluationResult,
  TemplatePolicyDraft,
  TemplateRecord,
  TemplateRepository,
} from './repositories';
