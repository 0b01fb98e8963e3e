export type {
  ComplianceTreeNode,
  ComplianceViewStatus,
  ContractComplianceView,
  MarketplaceInstanceView,
  MarketplaceReadModel,
} from './marketplace-views';
