import * as z from 'zod/mini';
import { IriSchema } from './iri';

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
