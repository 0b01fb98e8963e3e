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
  type SearchHit,
  SearchHitSchema,
  type SearchResult,
  SearchResultSchema,
} from './search-wire';
