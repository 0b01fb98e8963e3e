export { IriSchema, isAbsoluteIri } from './iri';
export type { ProblemDetails } from './problem-details';
export { ProblemDetailsSchema } from './problem-details';
export type { SchemaIssue } from './schema-issues';
export { schemaIssues } from './schema-issues';
export {
  isLanguageRange,
  MAX_SEARCH_FILTER_IRI_LENGTH,
  MAX_SEARCH_FILTER_VALUES,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_OFFSET,
  MAX_SEARCH_TERM_LENGTH,
  SearchParameters,
  SearchRequestSchema,
} from './search-request';
export type { SearchPage } from './search-response';
export { SearchResponseSchema } from './search-response';
export type { GraphInfo, SourceSummary } from './sources';
export { GraphInfoSchema, SourceListSchema, SourceSummarySchema } from './sources';
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
