// The wire types of search results are @dcg/governance-schema's; the query schema that
// `search()` takes is repeated here for the callers of this package.
export {
  type MarketplaceSearchQuery,
  MarketplaceSearchQuerySchema,
} from '@dcg/governance-schema';
export type { EmbeddingProvider } from './embedding-provider';
export {
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
export { type InstanceContracts, instanceContracts } from './hit-contracts';
export { explainHit } from './hit-explanation';
export {
  type AzureOpenAIProviderOptions,
  createAzureOpenAIProvider,
  createOpenAICompatibleProvider,
  type HttpProviderLimits,
  OPENAI_EMBEDDING_MODELS,
  OPENAI_MIN_SIMILARITY,
  type OpenAICompatibleProviderOptions,
  type OpenAIEmbeddingModel,
} from './http-embedding-provider';
export {
  type FusedHit,
  type FusionOptions,
  fuseRankings,
  keepRelevant,
  LEXICAL_SCORE_RATIO,
  type MeaningCut,
} from './hybrid-ranking';
export type { InstanceSource } from './index-sync';
export {
  type InstanceDocument,
  instanceDocument,
  type SearchableInstance,
  textHash,
} from './instance-text';
export type { SearchLogger } from './last-failure';
export {
  instanceKey,
  type LexicalHit,
  LexicalIndex,
  type QueryPlan,
  type QueryPlanOptions,
  type QueryTerm,
  SYNONYM_WEIGHT,
  TYPO_WEIGHT,
} from './lexical-index';
export { MarketplaceSearch, type MarketplaceSearchOptions } from './marketplace-search';
export type { Thesaurus } from './query-expansion';
export { stem, tokenize } from './text-tokens';
export { normalize, type VectorHit, VectorIndex } from './vector-index';
