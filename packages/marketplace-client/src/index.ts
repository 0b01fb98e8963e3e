export type {
  CallOptions,
  MarketplaceClient,
  MarketplaceClientOptions,
  MarketplaceSearchHit,
  MarketplaceSearchResult,
  PolicyQuery,
} from './create-marketplace-client';
export { createMarketplaceClient } from './create-marketplace-client';
export type { LexicalHit } from './lexical-search';
export { rankLexically } from './lexical-search';
export type {
  MarketplaceClientErrorCode,
  MarketplaceIssue,
  ProblemDetails,
} from './marketplace-client-error';
export { MarketplaceClientError, MarketplaceProblemError } from './marketplace-client-error';
export type {
  ComplianceStatus,
  ComplianceTreeNode,
  ContractCompliance,
  DeployedDescriptor,
  InstanceComponent,
  MarketplaceInstance,
  Policy,
  PolicyPage,
} from './schemas';
export {
  ComplianceStatusSchema,
  ContractComplianceSchema,
  DeployedDescriptorSchema,
  MarketplaceInstanceSchema,
  PolicyPageSchema,
  PolicySchema,
} from './schemas';
