import { describe, expect, it } from 'vitest';
import { type BoundedPage, collectBoundedPage } from './bounded-page';
import type { Page } from './page';

/** A list of `count` items of `size` characters each, read by (limit, offset) like a store. */
function source(count: number, size: number) {
  const reads: Array<[number, number]> = [];
  const items = Array.from({ length: count }, (_, i) => ({ i, text: 'x'.repeat(size) }));
  const read = async (limit: number, offset: number): Promise<Page<(typeof items)[number]>> => {
    reads.push([limit, offset]);
    return {
      data: items.slice(offset, offset + limit),
      meta: { pagination: { limit, offset, total: count } },
    };
  };
  return { read, reads };
}

describe('collectBoundedPage', () => {
  it('keeps small pages whole, in one read', async () => {
    const { read, reads } = source(5, 10);
    const page = await collectBoundedPage(read, { limit: 50, offset: 0, maxBytes: 1_000_000 });
    expect(page.data.map((d) => d.i)).toEqual([0, 1, 2, 3, 4]);
    expect(page.meta.pagination).toEqual({ limit: 50, offset: 0, total: 5 });
    expect(page.texts[0]).toBe(JSON.stringify(page.data[0]));
    expect(reads).toEqual([[10, 0]]);
  });

  it('cuts a page of large items at the byte budget and says where to go on', async () => {
    const { read, reads } = source(125, 100_000);
    const page = await collectBoundedPage(read, { limit: 1000, offset: 10, maxBytes: 1_000_000 });
    expect(page.data).toHaveLength(9);
    expect(page.bytes).toBeLessThanOrEqual(1_000_000);
    expect(page.meta.pagination).toEqual({
      limit: 1000,
      offset: 10,
      total: 125,
      nextOffset: 19,
      truncated: true,
    });
    // Never more than one slice beyond the budget is read.
    expect(reads.reduce((n, [limit]) => n + limit, 0)).toBeLessThanOrEqual(11);
  });

  it('returns one item even when it alone is larger than the budget', async () => {
    const { read } = source(3, 5000);
    const page = await collectBoundedPage(read, { limit: 10, offset: 0, maxBytes: 100 });
    expect(page.data).toHaveLength(1);
    expect(page.meta.pagination.nextOffset).toBe(1);
  });

  it('walks every item exactly once across pages', async () => {
    const { read } = source(40, 1000);
    const seen: number[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const page: BoundedPage<{ i: number; text: string }> = await collectBoundedPage(read, {
        limit: 25,
        offset,
        maxBytes: 7000,
      });
      seen.push(...page.data.map((d) => d.i));
      offset = page.meta.pagination.nextOffset;
    }
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});
