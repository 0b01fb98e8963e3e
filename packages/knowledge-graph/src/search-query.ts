import { SearchParameters } from '@dcg/kg-schema';
import { z } from 'zod';

// The query string holds text: numbers and lists are read out of it here, and every rule on
// the values is kg-schema's `SearchParameters`, the same the clients check with.

/** The OpenAPI description of a parameter: zod's JSON Schema of the rule it is checked by. */
function documented(rule: z.core.$ZodType) {
  const { $schema: _, ...schema } = z.toJSONSchema(rule) as Record<string, unknown>;
  return schema;
}

/** A number parameter, `fallback` when absent. */
function numberParameter(name: 'offset' | 'limit', fallback: number) {
  return z
    .string({ error: 'must be given once' })
    .transform(Number)
    .pipe(SearchParameters[name])
    .default(fallback)
    .meta({ ...documented(SearchParameters[name]), default: fallback });
}

/** One or more values: a query parameter given once (a string) or repeated (an array). */
const repeatable = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (typeof value === 'string' ? [value] : value));

/**
 * Query parameters of `GET /v1/search/query` (internal and passthrough): `term` required, at
 * most 256 characters; `offset` ≥ 0 (default 0); `limit` 1–100 (default 10).
 *
 * @example
 * SearchQuerySchema.parse({ term: 'water' }); // { term: 'water', offset: 0, limit: 10 }
 */
export const SearchQuerySchema = z.object({
  term: z
    .string({ error: 'term is required' })
    .pipe(SearchParameters.term)
    .meta(documented(SearchParameters.term)),
  offset: numberParameter('offset', 0),
  limit: numberParameter('limit', 10),
});

/** Parsed search query. */
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

/**
 * Query parameters of the internal `GET /v1/search/query`: {@link SearchQuerySchema} plus the
 * filters. `lang`: language ranges (repeated, or comma-separated: `lang=en,de`), matched as
 * SPARQL's `langMatches` does (`en` finds `en-US` literals, `*` any tagged literal). `type`:
 * class IRIs (`rdf:type`), `scheme`: concept scheme IRIs (`skos:inScheme`), each repeated for
 * "any of"; `type` and `scheme` together must both hold. At most 16 values each.
 *
 * @example
 * InternalSearchQuerySchema.parse({ term: 'water', lang: 'en,de' }).lang; // ['en', 'de']
 */
export const InternalSearchQuerySchema = SearchQuerySchema.extend({
  lang: repeatable
    .transform((values) =>
      values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v !== ''),
    )
    .pipe(SearchParameters.lang)
    .optional(),
  type: repeatable.pipe(SearchParameters.type).optional(),
  scheme: repeatable.pipe(SearchParameters.scheme).optional(),
});

/** Parsed internal search query. */
export type InternalSearchQuery = z.infer<typeof InternalSearchQuerySchema>;
