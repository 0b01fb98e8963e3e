export type {
  CallOptions,
  DescribeCallOptions,
  KgClient,
  KgClientOptions,
  KgEndpoint,
  SearchOptions,
} from './create-kg-client';
export { createKgClient } from './create-kg-client';
export type {
  ConceptDescription,
  DescribedText,
  DescribeOptions,
  DescribeVariable,
} from './describe-concepts';
export { buildDescribeQuery, collectDescriptions } from './describe-concepts';
export { IriSchema, isAbsoluteIri } from './iri';
export type { KgClientErrorCode } from './kg-client-error';
export {
  KgAbortError,
  KgClientError,
  KgNetworkError,
  KgProblemError,
  KgResponseError,
  KgTimeoutError,
} from './kg-client-error';
export type { LangString, PlainTriple, PlainValue, PlainValueOptions } from './plain-values';
export { toPlainRows, toPlainValue } from './plain-values';
export type { ProblemDetails } from './problem-details';
export { ProblemDetailsSchema } from './problem-details';
export type { SearchAllOptions, SearchPages } from './search-pages';
export { pageSearch } from './search-pages';
export type { SearchPage } from './search-response';
export {
  isLanguageRange,
  MAX_SEARCH_FILTER_VALUES,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_TERM_LENGTH,
  SearchRequestSchema,
  SearchResponseSchema,
} from './search-response';
export type {
  BlankNodeTerm,
  IriTerm,
  LiteralTerm,
  RdfTerm,
  SparqlAskResults,
  SparqlBinding,
  SparqlResults,
  SparqlSelectResults,
  TripleTerm,
} from './sparql-results';
export {
  isSelectResults,
  parseSparqlResults,
  RdfTermSchema,
  SparqlResultsSchema,
} from './sparql-results';
