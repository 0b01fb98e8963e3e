export type {
  BlankNodeTerm,
  IriTerm,
  LiteralTerm,
  ProblemDetails,
  RdfTerm,
  SearchPage,
  SourceSummary,
  SparqlAskResults,
  SparqlBinding,
  SparqlResults,
  SparqlSelectResults,
  TripleTerm,
} from '@dcg/kg-schema';
export {
  IriSchema,
  isAbsoluteIri,
  isLanguageRange,
  isSelectResults,
  MAX_SEARCH_FILTER_VALUES,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_TERM_LENGTH,
  ProblemDetailsSchema,
  parseSparqlResults,
  RdfTermSchema,
  SearchRequestSchema,
  SearchResponseSchema,
  SparqlResultsSchema,
} from '@dcg/kg-schema';
export type {
  CallOptions,
  DescribeCallOptions,
  KgClient,
  KgClientOptions,
  KgEndpoint,
} from './create-kg-client';
export { createKgClient } from './create-kg-client';
export type {
  ConceptDescription,
  DescribedText,
  DescribeOptions,
  DescribeVariable,
} from './describe-concepts';
export { buildDescribeQuery, collectDescriptions } from './describe-concepts';
// All of kg-client-error is public: the error classes callers tell apart, and their codes.
export * from './kg-client-error';
export type { LangString, PlainTriple, PlainValue, PlainValueOptions } from './plain-values';
export { toPlainRows, toPlainValue } from './plain-values';
export type { SearchOptions } from './search-options';
export type { SearchAllOptions, SearchPages } from './search-pages';
export { pageSearch } from './search-pages';
