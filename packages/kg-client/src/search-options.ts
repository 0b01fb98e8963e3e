import type { CallOptions } from '@dcg/client-transport';
import { SearchRequestSchema } from '@dcg/kg-schema';
import type * as z from 'zod/mini';

/** Options of `search`. */
export interface SearchOptions extends CallOptions {
  /** First result to return (default 0). */
  readonly offset?: number | undefined;
  /** Page size, 1–100 (default: the server's, 10). */
  readonly limit?: number | undefined;
  /**
   * Only matches in literals whose language tag matches one of these ranges, as SPARQL's
   * `langMatches` does (`'en'` finds `en-US`). The internal graph only: passthrough ignores it.
   */
  readonly lang?: string | readonly string[] | undefined;
  /** Only documents with one of these `rdf:type` IRIs (internal graph only). */
  readonly type?: string | readonly string[] | undefined;
  /** Only documents `skos:inScheme` one of these scheme IRIs (internal graph only). */
  readonly scheme?: string | readonly string[] | undefined;
}

const listOf = (value: string | readonly string[] | undefined): string[] | undefined =>
  value === undefined ? undefined : typeof value === 'string' ? [value] : [...value];

/**
 * The query string of a search, checked against the API's search request before anything is
 * sent: a list is its parameter repeated, an absent option no parameter.
 *
 * @example
 * searchQuery('water', { lang: ['en', 'de'] }); // success, data: term=water&lang=en&lang=de
 */
export function searchQuery(
  term: string,
  options: SearchOptions,
): { success: true; data: URLSearchParams } | { success: false; error: z.core.$ZodError } {
  const request = SearchRequestSchema.safeParse({
    term,
    offset: options.offset,
    limit: options.limit,
    lang: listOf(options.lang),
    type: listOf(options.type),
    scheme: listOf(options.scheme),
  });
  if (!request.success) return request;
  const data = new URLSearchParams();
  for (const [name, value] of Object.entries(request.data)) {
    for (const one of [value ?? []].flat()) data.append(name, String(one));
  }
  return { success: true, data };
}
