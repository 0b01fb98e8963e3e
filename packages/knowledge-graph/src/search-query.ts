import { MAX_SEARCH_LIMIT, MAX_SEARCH_TERM_LENGTH } from '@dcg/kg-client';
import { z } from 'zod';

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
  offset: z.coerce
    .number({ error: 'offset must be an integer between 0 and 1000000' })
    .int('offset must be an integer')
    .min(0, 'offset must be between 0 and 1000000')
    .max(1_000_000, 'offset must be between 0 and 1000000')
    .default(0),
  limit: z.coerce
    .number({ error: `limit must be an integer between 1 and ${MAX_SEARCH_LIMIT}` })
    .int('limit must be an integer')
    .min(1, `limit must be between 1 and ${MAX_SEARCH_LIMIT}`)
    .max(MAX_SEARCH_LIMIT, `limit must be between 1 and ${MAX_SEARCH_LIMIT}`)
    .default(10),
});

/** Parsed search query. */
export type SearchQuery = z.infer<typeof SearchQuerySchema>;
