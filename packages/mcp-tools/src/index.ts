// The failing list lives with the other compliance rules; kept here for existing callers.
export { type FailingRequirement, failingRequirements } from '@dcg/contract-schema';
export { describeCompliance } from './compliance-summary';
export { createDcgMcpServer } from './create-dcg-mcp-server';
export type { DcgMcpCacheHints, DcgMcpDeps, DcgMcpLimits } from './dcg-mcp-deps';
export { DEFAULT_CACHE_HINTS, DEFAULT_LIMITS } from './dcg-mcp-deps';
export { jsonSchemaOnce } from './json-schema-once';
export { registerKnowledgeGraphTools } from './knowledge-graph-tools';
export { challengeListScopes, LIST_SCOPES } from './list-scopes';
export { registerMarketplaceTools } from './marketplace-tools';
export { decodeCursor, encodeCursor, fitItems } from './paging';
export { registerPrompts } from './prompts';
export {
  dataContractResourceUri,
  pageResourceList,
  systemResourceUri,
} from './resource-list';
export { registerResources } from './resources';
export type { DcgScope } from './scopes';
export { SCOPE_DESCRIPTIONS, SCOPES } from './scopes';
export type { ComponentView, SystemView } from './system-view';
export {
  ComponentViewSchema,
  readDeployedSystem,
  readSystem,
  SystemViewSchema,
} from './system-view';
export type {
  ToolCallObservation,
  ToolCallObserver,
  ToolCallOutcome,
} from './tool-call-observer';
export {
  describeFailure,
  ToolInputError,
  toolErrorCode,
  toToolError,
  withToolErrors,
} from './tool-errors';
export { systemOfComponent } from './urns';
