import type { SearchPage } from '@dcg/kg-schema';

/** Options of `searchAll`. */
export interface SearchAllOptions {
  /** Results per request, 1–100 (default 100). */
  readonly pageSize?: number | undefined;
  /** Stop after this many IRIs in total (default: all). */
  readonly maxResults?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Every page of a search, fetched lazily one request at a time as you iterate. Iterate it for
 * pages, or `iris()` for the IRIs themselves (each once, even when the ranking shifts between
 * pages). Each iteration starts again from the first page.
 */
export interface SearchPages extends AsyncIterable<SearchPage> {
  iris(): AsyncIterable<string>;
}

/**
 * Builds the pager behind `searchAll` from a function that fetches one page. It stops at the
 * last page by `totalResults` (or `hasNextPage: false`), on an empty page, or at `maxResults`;
 * offsets advance by what each page really holds, so a server that caps the page size is followed
 * correctly.
 *
 * @example
 * const pages = pageSearch((offset, limit) => client.search('water', { offset, limit }), { pageSize: 50 });
 * for await (const iri of pages.iris()) console.log(iri);
 */
export function pageSearch(
  fetchPage: (offset: number, limit: number) => Promise<SearchPage>,
  options: { pageSize: number; maxResults?: number },
): SearchPages {
  const maxResults = options.maxResults ?? Number.POSITIVE_INFINITY;
  async function* pages(): AsyncGenerator<SearchPage> {
    let offset = 0;
    let delivered = 0;
    while (delivered < maxResults) {
      const limit = Math.min(options.pageSize, maxResults - delivered);
      const page = await fetchPage(offset, limit);
      const results = page.results.slice(0, maxResults - delivered);
      if (results.length === 0) return;
      yield results.length === page.results.length ? page : { ...page, results };
      delivered += results.length;
      offset += results.length;
      if (page.hasNextPage === false || offset >= page.totalResults) return;
    }
  }
  return {
    [Symbol.asyncIterator]: () => pages(),
    async *iris() {
      const seen = new Set<string>();
      for await (const page of pages()) {
        for (const iri of page.results) {
          if (seen.has(iri)) continue;
          seen.add(iri);
          yield iri;
        }
      }
    },
  };
}
