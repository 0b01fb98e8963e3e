import type { Kysely, Selectable } from 'kysely';
import type { GovernanceTables } from './governance-tables';
import { hasNul } from './row-mapping';
import type { StoreContext } from './store-context';

/**
 * The row of `table` whose columns equal `key`, mapped by `toItem`, read as `what` (see
 * {@link StoreContext.run}); null when there is none, or when a key holds the NUL character (no
 * stored text can, and PostgreSQL would refuse the query).
 *
 * @example
 * const policy = await findByKey(ctx, 'read a policy', 'policies', { id }, policyFromRow);
 */
export async function findByKey<T extends keyof GovernanceTables, Item>(
  ctx: StoreContext,
  what: string,
  table: T,
  key: Partial<Record<keyof GovernanceTables[T] & string, string>>,
  toItem: (row: Selectable<GovernanceTables[T]>) => Item,
): Promise<Item | null> {
  const columns = Object.entries(key) as [string, string][];
  if (columns.some(([, value]) => hasNul(value))) return null;
  // Kysely cannot type the columns of a table named at run time; `key` is typed by the signature.
  const db = ctx.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  return ctx.run(what, async () => {
    let query = db.selectFrom(table).selectAll();
    for (const [column, value] of columns) query = query.where(column, '=', value);
    const row = await query.executeTakeFirst();
    return row ? toItem(row as Selectable<GovernanceTables[T]>) : null;
  });
}

/**
 * The rows `query` answers, each mapped by `toItem`, read as `what` (see {@link StoreContext.run});
 * none when one of the lookup `keys` holds the NUL character (no stored text can, and PostgreSQL
 * would refuse the query).
 *
 * @example
 * const registrations = db.selectFrom('templates').selectAll().where('id', '=', id);
 * return readRows(ctx, 'read templates', [id], registrations, templateFromRow);
 */
export async function readRows<Row, Item>(
  ctx: StoreContext,
  what: string,
  keys: readonly (string | null | undefined)[],
  query: { execute(): Promise<Row[]> },
  toItem: (row: Row) => Item,
): Promise<Item[]> {
  if (keys.some(hasNul)) return [];
  return ctx.run(what, async () => (await query.execute()).map(toItem));
}
