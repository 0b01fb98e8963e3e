import {
  isAbsoluteIri,
  isLanguageRange,
  MAX_SEARCH_FILTER_IRI_LENGTH,
  MAX_SEARCH_FILTER_VALUES,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_OFFSET,
  MAX_SEARCH_TERM_LENGTH,
} from '@dcg/kg-schema';
import { z } from 'zod';

/** A query parameter holding an integer from `min` to `max`, `fallback` when absent. */
function boundedInteger(name: string, min: number, max: number, fallback: number) {
  const range = `${name} must be between ${min} and ${max}`;
  return z.coerce
    .number({ error: `${name} must be an integer between ${min} and ${max}` })
    .int(`${name} must be an integer`)
    .min(min, range)
    .max(max, range)
    .default(fallback);
}

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
    .min(1, 'term must not be empty')
    .max(MAX_SEARCH_TERM_LENGTH, `term must be at most ${MAX_SEARCH_TERM_LENGTH} characters`),
  offset: boundedInteger('offset', 0, MAX_SEARCH_OFFSET, 0),
  limit: boundedInteger('limit', 1, MAX_SEARCH_LIMIT, 10),
});

/** Parsed search query. */
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

/** One or more values: a query parameter given once (a string) or repeated (an array). */
const repeatable = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (typeof value === 'string' ? [value] : value));

/** A repeatable filter of absolute IRIs, named `name` in its messages. */
function iriFilter(name: 'type' | 'scheme') {
  const iri = z
    .string()
    .max(
      MAX_SEARCH_FILTER_IRI_LENGTH,
      `${name} must be at most ${MAX_SEARCH_FILTER_IRI_LENGTH} characters`,
    )
    .refine(isAbsoluteIri, `${name} must be an absolute IRI`);
  return repeatable
    .pipe(
      z
        .array(iri)
        .max(MAX_SEARCH_FILTER_VALUES, `${name} takes at most ${MAX_SEARCH_FILTER_VALUES} values`),
    )
    .optional();
}

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
    .pipe(
      z
        .array(z.string().refine(isLanguageRange, 'lang must be a BCP 47 language tag or *'))
        .max(MAX_SEARCH_FILTER_VALUES, `lang takes at most ${MAX_SEARCH_FILTER_VALUES} values`),
    )
    .optional(),
  type: iriFilter('type'),
  scheme: iriFilter('scheme'),
});

/** Parsed internal search query. */
export type InternalSearchQuery = z.infer<typeof InternalSearchQuerySchema>;
