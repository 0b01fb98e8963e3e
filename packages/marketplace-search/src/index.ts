export type { EmbeddingProvider } from './embedding-provider';
export {
  type EmbeddingJob,
  type EmbeddingJobStatus,
  type EmbeddingStore,
  type StoredEmbedding,
  vectorFromBytes,
  vectorToBytes,
} from './embedding-store';
export {
  type EmbeddingsModelConfig,
  EmbeddingsModelConfigSchema,
  type EmbeddingsSearchConfig,
  EmbeddingsSearchConfigSchema,
  resolveEmbeddingsApiKey,
} from './embeddings-search-config';
export { MarketplaceSearchError, type MarketplaceSearchErrorCode } from './errors';
export {
  type AzureOpenAIProviderOptions,
  createAzureOpenAIProvider,
  createOpenAICompatibleProvider,
  type HttpProviderLimits,
  OPENAI_EMBEDDING_MODELS,
  type OpenAICompatibleProviderOptions,
  type OpenAIEmbeddingModel,
  retryAfterMs,
} from './http-embedding-provider';
export { type FusedHit, type FusionOptions, fuseRankings } from './hybrid-ranking';
export {
  type InstanceDocument,
  instanceDocument,
  type SearchableInstance,
  textHash,
} from './instance-text';
export { instanceKey, type LexicalHit, LexicalIndex } from './lexical-index';
export {
  type EmbeddingsStatus,
  type InstanceSource,
  MarketplaceSearch,
  type MarketplaceSearchOptions,
  type SearchHit,
  type SearchLogger,
  type SearchResult,
} from './marketplace-search';
export {
  type InstanceCompliance,
  InstanceComplianceSchema,
  instanceCompliance,
  type MarketplaceSearchQuery,
  MarketplaceSearchQuerySchema,
} from './search-query';
export { stem, tokenize } from './text-tokens';
export { normalize, type VectorHit, VectorIndex } from './vector-index';
