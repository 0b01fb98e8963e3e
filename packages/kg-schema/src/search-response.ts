import * as z from 'zod/mini';
import { IriSchema } from './iri';

/** Longest search term the API accepts. */
export const MAX_SEARCH_TERM_LENGTH = 256;
/** Largest search page the API serves. */
export const MAX_SEARCH_LIMIT = 100;
/** Largest search offset the API serves. */
export const MAX_SEARCH_OFFSET = 1_000_000;
/** Longest IRI a `type` or `scheme` search filter takes. */
export const MAX_SEARCH_FILTER_IRI_LENGTH = 2048;

/**
 * One page of search results (spec C1): full IRIs, best first, with the paging it was served
 * with. `hasNextPage` is optional (some source adapters add it).
 *
 * @example
 * SearchResponseSchema.parse({ results: ['https://ex.org/c/1'], totalResults: 1, offset: 0, limit: 10 });
 */
export const SearchResponseSchema = z.object({
  results: z.array(IriSchema),
  totalResults: z.int().check(z.gte(0)),
  offset: z.int().check(z.gte(0)),
  limit: z.int().check(z.gte(0)),
  hasNextPage: z.optional(z.boolean()),
});

/** One page of search results. */
export type SearchPage = z.infer<typeof SearchResponseSchema>;

/** Most values of one search filter (`lang`, `type`, `scheme`). */
export const MAX_SEARCH_FILTER_VALUES = 16;
// A BCP 47 language range as SPARQL's langMatches takes it: `*`, or subtags of 1–8 characters.
const languageRange = /^(\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)$/;

/**
 * True when `value` is a language range the search's `lang` filter takes: `*`, or a BCP 47 tag
 * shape (subtags of 1–8 letters or digits, the first letters only).
 *
 * @example
 * isLanguageRange('en-US'); // true
 * isLanguageRange('en_US'); // false
 */
export function isLanguageRange(value: string): boolean {
  return languageRange.test(value);
}

/**
 * Arguments of a search, checked before any request is made: `term` 1–256 characters, `offset`
 * ≥ 0, `limit` 1–100; filters `lang` (language ranges), `type` and `scheme` (absolute IRIs), at
 * most 16 values each.
 *
 * @example
 * SearchRequestSchema.parse({ term: 'water', offset: 0, limit: 20 });
 */
export const SearchRequestSchema = z.object({
  term: z
    .string({ error: 'term must be a string' })
    .check(
      z.minLength(1, 'term must not be empty'),
      z.maxLength(
        MAX_SEARCH_TERM_LENGTH,
        `term must be at most ${MAX_SEARCH_TERM_LENGTH} characters`,
      ),
    ),
  lang: z.optional(
    z
      .array(z.string().check(z.regex(languageRange, 'lang must be a BCP 47 language tag or *')))
      .check(z.maxLength(MAX_SEARCH_FILTER_VALUES, 'lang takes at most 16 values')),
  ),
  type: z.optional(
    z.array(IriSchema).check(z.maxLength(MAX_SEARCH_FILTER_VALUES, 'type takes at most 16 values')),
  ),
  scheme: z.optional(
    z
      .array(IriSchema)
      .check(z.maxLength(MAX_SEARCH_FILTER_VALUES, 'scheme takes at most 16 values')),
  ),
  offset: z.optional(z.int('offset must be an integer').check(z.gte(0, 'offset must be ≥ 0'))),
  limit: z.optional(
    z
      .int('limit must be an integer')
      .check(
        z.gte(1, `limit must be between 1 and ${MAX_SEARCH_LIMIT}`),
        z.lte(MAX_SEARCH_LIMIT, `limit must be between 1 and ${MAX_SEARCH_LIMIT}`),
      ),
  ),
});
