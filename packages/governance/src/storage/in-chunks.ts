// Rows per multi-row statement: under SQLite's and PostgreSQL's limits on bound parameters.
const ROWS_PER_STATEMENT = 500;

/**
 * `items` in slices a single statement can bind.
 *
 * @example
 * for (const rows of inChunks(components)) await trx.insertInto('instance_components').values(rows).execute();
 */
export function* inChunks<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) {
    yield items.slice(i, i + ROWS_PER_STATEMENT);
  }
}
