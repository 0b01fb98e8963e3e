export type { EmbeddingProvider } from './embedding-provider';
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
export { stem, tokenize } from './text-tokens';
export { normalize, type VectorHit, VectorIndex } from './vector-index';
