// A module re-exported whole (`export *`) is public in everything it exports; from the others,
// the names listed.
// The failing list lives with the other compliance rules; kept here for existing callers.
export { type FailingRequirement, failingRequirements } from '@dcg/contract-schema';
export { describeCompliance } from './compliance-summary';
export { createDcgMcpServer } from './create-dcg-mcp-server';
export * from './dcg-mcp-deps';
export { jsonSchemaOnce } from './json-schema-once';
export { registerKnowledgeGraphTools } from './knowledge-graph-tools';
export { challengeListScopes, LIST_SCOPES } from './list-scopes';
export { registerMarketplaceTools } from './marketplace-tools';
export { decodeCursor, encodeCursor, fitItems } from './paging';
export { registerPrompts } from './prompts';
export * from './resource-list';
export { registerResources } from './resources';
export * from './scopes';
export * from './system-view';
export type {
  ToolCallObservation,
  ToolCallObserver,
  ToolCallOutcome,
} from './tool-call-observer';
export * from './tool-errors';
export { systemOfComponent } from './urns';
