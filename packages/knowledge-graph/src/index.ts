// A module re-exported whole (`export *`) is public in everything it exports; from the others,
// the names listed.
export { KnowledgeGraphError, type KnowledgeGraphErrorCode } from './errors';
export { importMissingGraphs } from './graph-import';
export type { GraphPersistence, LoadGraphOptions, StoredGraph } from './graph-persistence';
export * from './graph-queries';
export {
  type GraphInfo,
  type GraphLoadedEvent,
  KnowledgeBase,
  type QuadProducer,
} from './knowledge-base';
export {
  type ConversionLimit,
  DEFAULT_MAX_JSON_DEPTH,
  type ParseRdfOptions,
  parseRdf,
  type RdfConversion,
  type RdfConverter,
} from './parse-rdf';
export type { PassthroughAnswer } from './passthrough';
export type { PullOptions } from './pull-graph';
export * from './rdf-format';
export { rdfFormatFromAccept } from './rdf-negotiation';
export { type IndexSearchOptions, langMatches } from './search/search-index';
export {
  type InternalSearchQuery,
  InternalSearchQuerySchema,
  SearchQuerySchema,
} from './search-query';
export { serializeGraph, WRITABLE_RDF_FORMATS } from './serialize-graph';
export {
  SearchConfigSchema,
  type SourceConfig,
  SourcesConfigSchema,
  type UpstreamAuth,
  UpstreamAuthSchema,
} from './source-config';
export { type IngestionLog, SourceIngestion, scheduledSources } from './source-ingestion';
export { TermDictionary } from './store/term-dictionary';
export type { TripleIndex } from './store/triple-index';
export { TripleStore } from './store/triple-store';
export { TripleStoreBuilder } from './store/triple-store-builder';
export * from './upstream-credentials';
export { MAX_ENTITY_LENGTH } from './xml-entities';
export { DEFAULT_MAX_XML_DEPTH, entityExpansionBudget } from './xml-preflight';
