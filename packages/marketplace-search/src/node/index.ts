export { createEmbeddingProvider } from './create-embedding-provider';
export {
  createLocalEmbedder,
  LOCAL_EMBEDDER_MAX_TOKENS,
  LOCAL_EMBEDDER_MEANING_CUT,
  LOCAL_EMBEDDER_MIN_SIMILARITY,
  LOCAL_EMBEDDER_MODEL,
  type LocalEmbedderOptions,
  localEmbedderModel,
} from './local-embedder';
export {
  openPostgresEmbeddingStore,
  type PostgresEmbeddingStoreOptions,
} from './postgres-embedding-store';
export { openSqliteEmbeddingStore } from './sqlite-embedding-store';
export { createWordNetThesaurus, type WordNetThesaurusOptions } from './wordnet-thesaurus';
