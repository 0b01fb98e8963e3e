import type { Page } from './page';

/**
 * A page cut to a byte budget: the items, each one's JSON text (serialised once, ready to be
 * streamed), and the pagination with `nextOffset` when more items follow and `truncated` when the
 * byte budget, not `limit`, ended the page.
 *
 * @example
 * const body = `{"data":[${page.texts.join(',')}],"meta":${JSON.stringify(page.meta)}}`;
 */
export interface BoundedPage<T> {
  data: T[];
  texts: string[];
  bytes: number;
  meta: {
    pagination: {
      limit: number;
      offset: number;
      total: number;
      nextOffset?: number;
      truncated?: boolean;
    };
  };
}

/** How many items the first read asks for; later reads adapt to the item size seen. */
const FIRST_READ = 10;
const MAX_READ = 200;

/**
 * Reads one page of at most `limit` items and at most `maxBytes` bytes of JSON (always at least
 * one item, so every page makes progress). The source is read in small slices whose length follows
 * the size of the items already read, so memory holds about `maxBytes` plus one slice, however
 * large the items and `limit` are.
 *
 * @example
 * const page = await collectBoundedPage(
 *   (limit, offset) => store.listResultHistory(contractId, { limit, offset }),
 *   { limit: 100, offset: 0, maxBytes: 8 * 1024 * 1024 },
 * );
 */
export async function collectBoundedPage<T>(
  read: (limit: number, offset: number) => Promise<Page<T>>,
  request: { limit: number; offset: number; maxBytes: number },
): Promise<BoundedPage<T>> {
  const { limit, offset, maxBytes } = request;
  const data: T[] = [];
  const texts: string[] = [];
  let bytes = 0;
  let total = 0;
  let truncated = false;
  let slice = Math.min(limit, FIRST_READ);
  for (;;) {
    const page = await read(slice, offset + data.length);
    total = page.meta.pagination.total;
    for (const item of page.data) {
      const text = JSON.stringify(item);
      // UTF-16 length bounds the UTF-8 bytes of ASCII-heavy JSON closely enough for a budget.
      if (data.length > 0 && bytes + text.length + 1 > maxBytes) {
        truncated = true;
        break;
      }
      data.push(item);
      texts.push(text);
      bytes += text.length + 1;
      if (data.length >= limit) break;
    }
    if (truncated || data.length >= limit || page.data.length < slice) break;
    const average = bytes / data.length;
    const fits = Math.floor((maxBytes - bytes) / Math.max(average, 1));
    slice = Math.max(1, Math.min(limit - data.length, fits, MAX_READ));
  }
  const next = offset + data.length;
  return {
    data,
    texts,
    bytes,
    meta: {
      pagination: {
        limit,
        offset,
        total,
        ...(next < total ? { nextOffset: next } : {}),
        ...(truncated ? { truncated: true } : {}),
      },
    },
  };
}
