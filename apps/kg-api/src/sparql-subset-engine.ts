import {
  type CheckedQuery,
  evaluate,
  parseQuery,
  type QuerySource,
  SparqlSubsetError,
} from '@dcg/sparql-subset';
import type { SparqlEngine } from './sparql-engine';

/**
 * The production {@link SparqlEngine}: `@dcg/sparql-subset` over the array of the sources' n3
 * Stores (their union is the default graph).
 *
 * @example
 * const api = await startKgApi({ config, dataDir, sparql: sparqlSubsetEngine });
 */
export const sparqlSubsetEngine: SparqlEngine<CheckedQuery> = {
  parse: (text, limits) => parseQuery(text, { limits }),
  evaluate: (query, stores, options) => evaluate(query, stores as unknown as QuerySource, options),
  errorCode: (error) => (SparqlSubsetError.isInstance(error) ? error.code : undefined),
};
