import { z } from 'zod';
import { IriSchema } from './iri';

/** Longest search term the API accepts. */
export const MAX_SEARCH_TERM_LENGTH = 256;
/** Largest search page the API serves. */
export const MAX_SEARCH_LIMIT = 100;

/**
 * One page of search results (spec C1): full IRIs, best first, with the paging it was served
 * with. `hasNextPage` is optional (some source adapters add it).
 *
 * @example
 * SearchResponseSchema.parse({ results: ['https://ex.org/c/1'], totalResults: 1, offset: 0, limit: 10 });
 */
export const SearchResponseSchema = z.object({
  results: z.array(IriSchema),
  totalResults: z.number().int().min(0),
  offset: z.number().int().min(0),
  limit: z.number().int().min(0),
  hasNextPage: z.boolean().optional(),
});

/** One page of search results. */
export type SearchPage = z.infer<typeof SearchResponseSchema>;

/**
 * Arguments of a search, checked before any request is made: `term` 1–256 characters, `offset`
 * ≥ 0, `limit` 1–100.
 *
 * @example
 * SearchRequestSchema.parse({ term: 'water', offset: 0, limit: 20 });
 */
export const SearchRequestSchema = z.object({
  term: z
    .string({ error: 'term must be a string' })
    .min(1, 'term must not be empty')
    .max(MAX_SEARCH_TERM_LENGTH, `term must be at most ${MAX_SEARCH_TERM_LENGTH} characters`),
  offset: z.number().int('offset must be an integer').min(0, 'offset must be ≥ 0').optional(),
  limit: z
    .number()
    .int('limit must be an integer')
    .min(1, `limit must be between 1 and ${MAX_SEARCH_LIMIT}`)
    .max(MAX_SEARCH_LIMIT, `limit must be between 1 and ${MAX_SEARCH_LIMIT}`)
    .optional(),
});
