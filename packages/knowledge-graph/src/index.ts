export { KnowledgeGraphError, type KnowledgeGraphErrorCode } from './errors';
export { type GraphPersistence, MemoryGraphPersistence } from './graph-persistence';
export { type GraphInfo, KnowledgeBase, type KnowledgeBaseOptions } from './knowledge-base';
export {
  DEFAULT_MAX_JSON_DEPTH,
  type JsonLdConversion,
  type JsonLdConverter,
  type ParseRdfOptions,
  type ParseRdfResult,
  parseRdf,
  type RdfSyntaxIssue,
} from './parse-rdf';
export {
  type PassthroughOptions,
  passthroughEndpoints,
  passthroughSearch,
  passthroughSparql,
} from './passthrough';
export { type PullOptions, pullSourceGraph } from './pull-graph';
export {
  mediaTypeOfRdfFormat,
  RDF_MEDIA_TYPES,
  type RdfFormat,
  rdfFormatFromFileName,
  rdfFormatFromMediaType,
} from './rdf-format';
export { rdfFormatFromAccept } from './rdf-negotiation';
export { DocRegistry } from './search/doc-registry';
export { boundedEditDistance } from './search/edit-distance';
export { foldText, tokenize } from './search/fold-text';
export { SearchIndex, type SearchPage } from './search/search-index';
export { type SearchPredicate, SourceSearchIndex } from './search/source-search-index';
export { type SearchQuery, SearchQuerySchema } from './search-query';
export { serializeGraph, WRITABLE_RDF_FORMATS } from './serialize-graph';
export {
  DEFAULT_SEARCH_PREDICATES,
  type SearchConfig,
  SearchConfigSchema,
  type SourceConfig,
  SourceConfigSchema,
  SourcesConfigSchema,
} from './source-config';
export { type DecodeUtf8Result, decodeUtf8 } from './strict-utf8';
