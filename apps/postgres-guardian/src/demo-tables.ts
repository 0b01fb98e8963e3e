import { withPgTransaction } from '@dcg/storage/pg-transaction';
import type pg from 'pg';

/**
 * Creates the demo tables that governance-api's demo contracts name (`orders`, `invoices`,
 * `customers`) in `schema`, afresh: orders hold to their contract; invoices have 12 null amounts,
 * a duplicate id and were last updated 5 hours ago (the SLA says 2 hours). Returns a function
 * that plays the orders pipeline (keeps its rows fresh).
 *
 * @example
 * const touch = await createDemoTables(pool, 'dcg_demo');
 */
export async function createDemoTables(
  pool: pg.Pool,
  schema: string,
): Promise<() => Promise<void>> {
  const s = `"${schema.replace(/"/g, '""')}"`;
  await withPgTransaction(pool, async (client) => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`DROP TABLE IF EXISTS ${s}.orders, ${s}.invoices, ${s}.customers`);
    await client.query(
      `CREATE TABLE ${s}.orders (order_id text NOT NULL, amount numeric(12,2) NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`,
    );
    await client.query(
      `INSERT INTO ${s}.orders (order_id, amount) SELECT 'ord-' || i, round((random() * 500)::numeric, 2) FROM generate_series(1, 500) i`,
    );
    await client.query(
      `CREATE TABLE ${s}.invoices (invoice_id text NOT NULL, amount numeric(12,2), updated_at timestamptz NOT NULL)`,
    );
    await client.query(
      `INSERT INTO ${s}.invoices SELECT 'inv-' || i, CASE WHEN i % 25 = 0 THEN NULL ELSE i END, now() - interval '5 hours' FROM generate_series(1, 300) i`,
    );
    await client.query(`INSERT INTO ${s}.invoices VALUES ('inv-7', 7, now() - interval '5 hours')`);
    await client.query(
      `CREATE TABLE ${s}.customers (customer_id text NOT NULL, lifetime_value numeric NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`,
    );
    await client.query(
      `INSERT INTO ${s}.customers (customer_id, lifetime_value) SELECT 'cus-' || i, i FROM generate_series(1, 50) i`,
    );
  });
  return async () => {
    await pool.query(`UPDATE ${s}.orders SET updated_at = now()`);
  };
}
