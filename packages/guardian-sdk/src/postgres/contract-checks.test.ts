import type { ValidationRecord } from '@dcg/contract-schema';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseDataContract } from '../data-contract';
import { requirementsOf } from '../result-builder';
import type { CheckContext } from '../run-guardian';
import { testSchema } from './__fixtures__/test-database';
import { type PostgresCheckOptions, postgresContractCheck } from './contract-checks';
import { meetsThreshold } from './index';
import { isCompatibleType } from './type-compatibility';

let schema = '';
let pool: pg.Pool;
let drop: () => Promise<void>;
const NOW = new Date('2026-06-01T12:00:00Z');

beforeAll(async () => {
  ({ schema, pool, drop } = await testSchema());
});
afterAll(() => drop());
beforeEach(async () => {
  await pool.query(`DROP TABLE IF EXISTS ${schema}.orders`);
  await pool.query(
    `CREATE TABLE ${schema}.orders (order_id text NOT NULL, amount numeric(10,2) NOT NULL, status text, updated_at timestamptz)`,
  );
  await pool.query(
    `INSERT INTO ${schema}.orders SELECT 'o' || i, i, CASE WHEN i % 2 = 0 THEN 'open' ELSE 'closed' END, $1::timestamptz - interval '10 minutes' FROM generate_series(1, 50) i`,
    [NOW.toISOString()],
  );
});

function witboost() {
  return {
    schema: [
      { name: 'order_id', dataType: 'string', constraint: 'PRIMARY_KEY' },
      { name: 'amount', dataType: 'decimal', constraint: 'NOT_NULL' },
      { name: 'status', dataType: 'string' },
      { name: 'updated_at', dataType: 'timestamp' },
    ],
    SLA: { timeliness: '2 hours' },
    endpoint: `${schema}.orders`,
  };
}

function odcs() {
  return {
    apiVersion: 'v3.0.2',
    servers: [{ type: 'postgres', schema }],
    schema: [
      {
        name: 'orders',
        properties: [
          { name: 'order_id', logicalType: 'string', primaryKey: true },
          {
            name: 'amount',
            logicalType: 'number',
            physicalType: 'numeric(10,2)',
            required: true,
            quality: [
              { metric: 'nullValues', mustBe: 0 },
              {
                metric: 'invalidValues',
                arguments: { pattern: '^[0-9]+(\\.[0-9]+)?$' },
                mustBe: 0,
              },
            ],
          },
          {
            name: 'status',
            logicalType: 'string',
            quality: [
              {
                metric: 'invalidValues',
                arguments: { validValues: ['open', 'closed'] },
                mustBe: 0,
              },
              {
                metric: 'missingValues',
                arguments: { missingValues: [null, '', 'n/a'] },
                mustBeLessOrEqualTo: 10,
                unit: 'percent',
              },
              { metric: 'duplicateValues', mustBeGreaterThan: 0 },
            ],
          },
          { name: 'updated_at', logicalType: 'date', physicalType: 'timestamptz' },
        ],
        quality: [
          { metric: 'rowCount', mustBeBetween: [1, 1000] },
          {
            metric: 'duplicateValues',
            arguments: { properties: ['order_id', 'status'] },
            mustBe: 0,
          },
          {
            type: 'sql',
            name: 'no negative amounts',
            query: `SELECT count(*) FROM ${schema}.orders WHERE amount < 0`,
            mustBe: 0,
          },
        ],
      },
    ],
    slaProperties: [{ property: 'latency', value: 1, unit: 'h', element: 'orders.updated_at' }],
  };
}

async function run(
  raw: unknown,
  dbTimes: number[] = [],
  options: Partial<PostgresCheckOptions> = {},
): Promise<ValidationRecord[]> {
  const parsed = parseDataContract(raw);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
  const check = postgresContractCheck({
    pool,
    now: () => NOW,
    onDatabaseTime: (ms) => dbTimes.push(ms),
    ...options,
  });
  const context = {
    contract: parsed.data,
    signal: new AbortController().signal,
  } as unknown as CheckContext;
  const out = await check(context);
  return Array.isArray(out) ? out : [out];
}

function failures(records: ValidationRecord[]): Record<string, string[]> {
  return Object.fromEntries(
    requirementsOf(records)
      .filter((r) => r.compliant === false)
      .map((r) => [r.key, r.issues ?? []]),
  );
}

describe('postgresContractCheck', () => {
  it('finds a healthy table compliant (Witboost and ODCS), reporting every requirement', async () => {
    const times: number[] = [];
    const records = await run(witboost(), times);
    expect(failures(records)).toEqual({});
    expect(records.map((r) => r.key)).toEqual(['schema', 'constraints', 'sla']);
    expect(requirementsOf(records).map((r) => r.key)).toEqual([
      'order_id_column',
      'amount_column',
      'status_column',
      'updated_at_column',
      'primary_key',
      'order_id_not_null',
      'amount_not_null',
      'freshness',
    ]);
    expect(times[0]).toBeGreaterThan(0);
    const odcsRecords = await run(odcs());
    expect(failures(odcsRecords)).toEqual({});
    expect(requirementsOf(odcsRecords).map((r) => r.key)).toContain('no_negative_amounts');
  });

  it('reports a dropped column, a changed type, an extra column (when asked), nulls, duplicates and stale data', async () => {
    await pool.query(
      `ALTER TABLE ${schema}.orders DROP COLUMN status, ADD COLUMN note text, ALTER COLUMN amount DROP NOT NULL`,
    );
    await pool.query(
      `INSERT INTO ${schema}.orders VALUES ('o1', 3, $1, 'dup'), ('o99', NULL, $1, NULL)`,
      ['2026-06-01T01:00:00Z'],
    );
    await pool.query(`UPDATE ${schema}.orders SET updated_at = '2026-06-01T06:57:00Z'`);
    const expected = {
      status_column: [`column status is missing from ${schema}.orders`],
      amount_column: ['column amount allows nulls, the contract says it is required'],
      primary_key: ['1 row repeats the order_id of another row'],
      amount_not_null: ['1 row has a null amount'],
      freshness: ['the newest updated_at is 5 h 3 min old, the SLA allows 2 h'],
    };
    // An extra column is no violation by default (datacontract-cli has no such check).
    expect(failures(await run(witboost()))).toEqual(expected);
    expect(failures(await run(witboost(), [], { unexpectedColumns: 'violation' }))).toEqual({
      status_column: [`column status is missing from ${schema}.orders`],
      amount_column: ['column amount allows nulls, the contract says it is required'],
      no_unexpected_columns: [`column note of ${schema}.orders is not in the contract`],
      primary_key: ['1 row repeats the order_id of another row'],
      amount_not_null: ['1 row has a null amount'],
      freshness: ['the newest updated_at is 5 h 3 min old, the SLA allows 2 h'],
    });
  });

  it('reports a wrong type as the contract and the table say it', async () => {
    await pool.query(`ALTER TABLE ${schema}.orders ALTER COLUMN amount TYPE text`);
    expect(failures(await run(witboost()))).toEqual({
      amount_column: ['column amount is text, the contract says decimal'],
    });
    await pool.query(
      `ALTER TABLE ${schema}.orders ALTER COLUMN amount TYPE numeric USING amount::numeric, ALTER COLUMN updated_at TYPE text`,
    );
    expect(failures(await run(witboost()))).toEqual({
      updated_at_column: ['column updated_at is text, the contract says timestamp'],
      freshness: [
        'cannot be checked: column updated_at is text, freshness needs a date or timestamp',
      ],
    });
  });

  it('evaluates ODCS metrics with their operators and units, and sql rules', async () => {
    await pool.query(
      `UPDATE ${schema}.orders SET status = 'n/a' WHERE order_id IN ('o1','o3','o5','o7','o9','o11')`,
    );
    await pool.query(
      `UPDATE ${schema}.orders SET status = 'weird', amount = -1 WHERE order_id = 'o2'`,
    );
    expect(failures(await run(odcs()))).toEqual({
      status_invalidValues: ['invalidValues of status: 7 rows; it must be 0'],
      status_missingValues: ['missingValues of status: 12.00 % of rows; it must be at most 10'],
      no_negative_amounts: ['the query returned 1, it must be 0'],
      amount_invalidValues: ['invalidValues of amount: 1 row; it must be 0'],
    });
  });

  it('runs sql rules read-only: a writing query fails and changes nothing', async () => {
    const contract = odcs();
    contract.schema[0]!.quality = [
      {
        type: 'sql',
        name: 'sneaky',
        query: `DELETE FROM ${schema}.orders RETURNING 0`,
        mustBe: 0,
      } as never,
      {
        type: 'sql',
        name: 'two statements',
        query: `SELECT 0; DELETE FROM ${schema}.orders`,
        mustBe: 0,
      } as never,
      { metric: 'rowCount', mustBe: 50 } as never,
    ];
    const f = failures(await run(contract));
    expect(f.sneaky?.[0]).toMatch(
      /the query failed: cannot execute DELETE in a read-only transaction/,
    );
    expect(f.two_statements?.[0]).toMatch(/the query failed: cannot insert multiple commands/);
    expect(f.rowCount).toBeUndefined();
    expect((await pool.query(`SELECT count(*)::int AS n FROM ${schema}.orders`)).rows[0].n).toBe(
      50,
    );
  });

  it('counts duplicates of json columns too (compared as text)', async () => {
    await pool.query(`ALTER TABLE ${schema}.orders ADD COLUMN payload json`);
    await pool.query(`UPDATE ${schema}.orders SET payload = '{"a":1}'`);
    const contract = {
      ...witboost(),
      schema: [...witboost().schema, { name: 'payload', dataType: 'json', constraint: 'UNIQUE' }],
    };
    expect(failures(await run(contract))).toEqual({
      payload_unique: ['49 rows repeat the payload of another row'],
    });
  });

  it('reports a missing table on every requirement', async () => {
    await pool.query(`DROP TABLE ${schema}.orders`);
    const f = failures(await run(witboost()));
    expect(f.order_id_column).toEqual([`the table ${schema}.orders does not exist`]);
    expect(f.freshness).toEqual([`cannot be checked: the table ${schema}.orders does not exist`]);
  });

  it('maps contract types to PostgreSQL types', () => {
    expect(isCompatibleType('numeric(10,2)', { type: 'decimal' })).toBe(true);
    expect(isCompatibleType('integer', { type: 'number' })).toBe(true);
    expect(isCompatibleType('text', { type: 'int' })).toBe(false);
    expect(isCompatibleType('timestamp with time zone', { physicalType: 'timestamptz' })).toBe(
      true,
    );
    expect(isCompatibleType('character varying(20)', { physicalType: 'varchar(20)' })).toBe(true);
    expect(isCompatibleType('character varying(20)', { physicalType: 'varchar(30)' })).toBe(false);
    expect(isCompatibleType('text', { type: 'geometry' })).toBeUndefined();
  });

  it('compares with every ODCS operator', () => {
    const cases: Array<[number, Parameters<typeof meetsThreshold>[1], boolean]> = [
      [0, { operator: 'mustBe', value: 0 }, true],
      [1, { operator: 'mustNotBe', value: 1 }, false],
      [5, { operator: 'mustBeGreaterThan', value: 5 }, false],
      [5, { operator: 'mustBeGreaterOrEqualTo', value: 5 }, true],
      [5, { operator: 'mustBeLessThan', value: 5 }, false],
      [5, { operator: 'mustBeLessOrEqualTo', value: 5 }, true],
      [5, { operator: 'mustBeBetween', value: [5, 10] }, true],
      [11, { operator: 'mustBeBetween', value: [5, 10] }, false],
      [5, { operator: 'mustNotBeBetween', value: [5, 10] }, false],
      [4, { operator: 'mustNotBeBetween', value: [5, 10] }, true],
    ];
    for (const [value, threshold, expected] of cases)
      expect(meetsThreshold(value, threshold)).toBe(expected);
  });
});
