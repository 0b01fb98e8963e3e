export { acceptQuality, type MediaRange, parseAccept } from './accept-header';
export type { CheckedQuery } from './algebra';
export { type EvaluateOptions, evaluate, type SparqlResults } from './evaluate';
export { canonicalLanguageTag } from './language-tag';
export { DEFAULT_MAX_DEPTH, type ParseOptions, type ParseResult, parseQuery } from './parse-query';
export { PROBLEM_CODES, type Problem, type ProblemCode } from './problem-codes';
export { query } from './query';
export {
  isQueryDataset,
  type QueryDataset,
  type QueryDatasetCursor,
  type TripleOrder,
} from './query-dataset';
export {
  checkQueryLimits,
  DEFAULT_QUERY_LIMITS,
  findUpdateOperations,
  type QueryLimits,
} from './query-scan';
export {
  ALL_RESULTS_FORMATS,
  BOOLEAN_RESULTS_FORMATS,
  chooseResultsFormat,
  RESULTS_MEDIA_TYPES,
  type ResultsFormat,
  serializeResults,
} from './results-formats';
export { serviceDescription, serviceDescriptionJsonLd } from './service-description';
export { SparqlSubsetError, type SparqlSubsetErrorCode } from './sparql-subset-error';
export { idToTerm, type SparqlJsonTerm, termToId } from './term-ids';
export type { QuerySource } from './triple-source';
