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

// Messages name no parameter: each problem's path does (`$.limit`).
function between(min: number, max: number) {
  const range = `must be an integer between ${min} and ${max}`;
  return z.int(range).check(z.gte(min, range), z.lte(max, range));
}

function filterValues(value: z.ZodMiniType<string, string>) {
  const most = `takes at most ${MAX_SEARCH_FILTER_VALUES} values`;
  return z.array(value).check(z.maxLength(MAX_SEARCH_FILTER_VALUES, most));
}

const iriValues = filterValues(
  IriSchema.check(
    z.maxLength(
      MAX_SEARCH_FILTER_IRI_LENGTH,
      `must be at most ${MAX_SEARCH_FILTER_IRI_LENGTH} characters`,
    ),
  ),
);

/**
 * The rules of each search parameter, written once: the client checks a request with them
 * ({@link SearchRequestSchema}) and the server checks its query string with them, after reading
 * numbers and repeated parameters out of the text. `term` 1–256 characters; `offset` 0–1,000,000;
 * `limit` 1–100; `lang` language ranges, `type` and `scheme` absolute IRIs (at most 2,048
 * characters), at most 16 values each.
 *
 * @example
 * SearchParameters.limit.safeParse(500).success; // false
 */
export const SearchParameters = {
  term: z
    .string({ error: 'is required' })
    .check(
      z.minLength(1, 'must not be empty'),
      z.maxLength(MAX_SEARCH_TERM_LENGTH, `must be at most ${MAX_SEARCH_TERM_LENGTH} characters`),
    ),
  offset: between(0, MAX_SEARCH_OFFSET),
  limit: between(1, MAX_SEARCH_LIMIT),
  lang: filterValues(
    z.string().check(z.regex(languageRange, 'must be a BCP 47 language tag or *')),
  ),
  type: iriValues,
  scheme: iriValues,
};

/**
 * Arguments of a search, checked before any request is made (the {@link SearchParameters}, all
 * but `term` optional).
 *
 * @example
 * SearchRequestSchema.parse({ term: 'water', offset: 0, limit: 20 });
 */
export const SearchRequestSchema = z.object({
  term: SearchParameters.term,
  lang: z.optional(SearchParameters.lang),
  type: z.optional(SearchParameters.type),
  scheme: z.optional(SearchParameters.scheme),
  offset: z.optional(SearchParameters.offset),
  limit: z.optional(SearchParameters.limit),
});
