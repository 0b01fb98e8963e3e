export {
  type ComplianceState,
  ComplianceStateSchema,
  type ComplianceTreeNode,
  ComplianceTreeNodeSchema,
  type ContractComplianceState,
  ContractComplianceStateSchema,
  type InstanceCompliance,
  InstanceComplianceSchema,
  ValidationIssueSchema,
  type VerdictOverride,
  VerdictOverrideSchema,
} from '@dcg/contract-schema';
export {
  type AcceptedEvaluationResult,
  AcceptedEvaluationResultSchema,
  type EvaluationResultHistory,
  EvaluationResultHistorySchema,
  type StoredEvaluationResult,
  StoredEvaluationResultSchema,
} from './evaluation-results';
export {
  type ContractCompliance,
  ContractComplianceSchema,
  type DeployedDescriptor,
  DeployedDescriptorSchema,
  type InstanceComponent,
  InstanceComponentSchema,
  type MarketplaceInstance,
  type MarketplaceInstanceList,
  MarketplaceInstanceListSchema,
  MarketplaceInstanceSchema,
} from './marketplace-views';
export { type PaginationMeta, PaginationMetaSchema } from './paging';
export {
  POLICY_STATUSES,
  POLICY_TRIGGERS,
  type Policy,
  type PolicyPage,
  PolicyPageSchema,
  PolicySchema,
} from './policies';
export {
  type MarketplaceSearchQuery,
  MarketplaceSearchQuerySchema,
} from './search-query';
export {
  type EmbeddingJob,
  EmbeddingJobSchema,
  type EmbeddingJobStatus,
  type EmbeddingsStatus,
  EmbeddingsStatusSchema,
  MAX_SEARCH_OFFSET,
  type SearchHit,
  type SearchHitContract,
  SearchHitContractSchema,
  SearchHitSchema,
  type SearchResult,
  SearchResultSchema,
} from './search-wire';
