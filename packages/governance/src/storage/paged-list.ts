import type { SelectQueryBuilder } from 'kysely';
import { clampPaging } from './row-mapping';

/**
 * One page of a filtered listing, as every `list…` of the store answers it: the total of
 * `filtered`, then the rows `page` selects and orders, from `offset` for `limit` (clamped), each
 * mapped by `toItem`.
 *
 * @example
 * return pagedList(filtered, filter, (q) => q.selectAll().orderBy('id'), policyFromRow);
 */
export async function pagedList<DB, TB extends keyof DB, Row, Item>(
  // biome-ignore lint/complexity/noBannedTypes: Kysely's type of a query that selects nothing yet
  filtered: SelectQueryBuilder<DB, TB, {}>,
  paging: { limit: number; offset: number },
  // biome-ignore lint/complexity/noBannedTypes: as above
  page: (q: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, Row>,
  toItem: (row: Row) => Item,
): Promise<{
  data: Item[];
  meta: { pagination: { limit: number; offset: number; total: number } };
}> {
  const { limit, offset } = clampPaging(paging.limit, paging.offset);
  const counted = await filtered.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = (await page(filtered).limit(limit).offset(offset).execute()) as Row[];
  return {
    data: rows.map(toItem),
    meta: { pagination: { limit, offset, total: Number((counted as { n: unknown }).n) } },
  };
}
