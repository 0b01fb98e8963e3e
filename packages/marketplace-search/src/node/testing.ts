export {
  ARCHETYPES,
  generateMarketplace,
  QUALITY_QUERIES,
  type QualityQuery,
  systemUrn,
  UNITS,
} from '../__fixtures__/marketplace-corpus';
export {
  describeEmbeddingStoreConformance,
  postgresAvailable,
  randomSchema,
  TEST_DATABASE_URL,
} from './embedding-store-conformance.testkit';
export {
  type FakeEmbeddingsApi,
  type ReceivedRequest,
  type ScriptedFault,
  startFakeEmbeddingsApi,
} from './embeddings-api.testkit';
