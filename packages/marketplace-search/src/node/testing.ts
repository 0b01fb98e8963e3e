export {
  HELD_OUT_QUERIES,
  type HeldOutQuery,
  heldOutMarketplace,
  heldOutUrn,
  type QueryCategory,
} from '../__fixtures__/held-out-marketplace';
export {
  ARCHETYPES,
  generateMarketplace,
  QUALITY_QUERIES,
  type QualityQuery,
  systemUrn,
  UNITS,
} from '../__fixtures__/marketplace-corpus';
export { describeEmbeddingStoreConformance } from './embedding-store-conformance.testkit';
export {
  type FakeEmbeddingsApi,
  type ReceivedRequest,
  type ScriptedFault,
  startFakeEmbeddingsApi,
} from './embeddings-api.testkit';
