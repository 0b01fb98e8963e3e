// The wire schemas and types of governance-api's answers, from @dcg/governance-schema.
export {
  type ComplianceTreeNode,
  ComplianceTreeNodeSchema,
  type ContractCompliance,
  ContractComplianceSchema,
  type ContractComplianceState as ComplianceStatus,
  ContractComplianceStateSchema as ComplianceStatusSchema,
  type DeployedDescriptor,
  DeployedDescriptorSchema,
  type InstanceComponent,
  InstanceComponentSchema,
  type MarketplaceInstance,
  MarketplaceInstanceSchema,
  type Policy,
  type PolicyPage,
  PolicyPageSchema,
  PolicySchema,
  type SearchHitContract,
  SearchResultSchema,
} from '@dcg/governance-schema';
export type {
  CallOptions,
  MarketplaceClient,
  MarketplaceClientOptions,
  MarketplaceSearchHit,
  MarketplaceSearchOptions,
  MarketplaceSearchResult,
  PolicyQuery,
} from './create-marketplace-client';
export { createMarketplaceClient } from './create-marketplace-client';
export type {
  MarketplaceClientErrorCode,
  MarketplaceIssue,
  ProblemDetails,
} from './marketplace-client-error';
export { MarketplaceClientError, MarketplaceProblemError } from './marketplace-client-error';
