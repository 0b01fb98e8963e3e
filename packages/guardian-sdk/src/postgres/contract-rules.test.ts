import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeParseDescriptorYaml, type ValidationRecord } from '@dcg/contract-schema';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDataContract } from '../data-contract';
import { buildSubmission, requirementsOf } from '../result-builder';
import type { CheckContext } from '../run-guardian';
import { testSchema } from './__fixtures__/test-database';
import { type PostgresCheckOptions, postgresContractCheck } from './contract-checks';

let schema = '';
let pool: pg.Pool;
let drop: () => Promise<void>;
const NOW = new Date('2026-06-01T12:00:00Z');
const ODCS = join(import.meta.dirname, '..', '__fixtures__', 'odcs');

beforeAll(async () => {
  ({ schema, pool, drop } = await testSchema());
});
afterAll(() => drop());

async function run(raw: unknown, options: Partial<PostgresCheckOptions> = {}) {
  const parsed = parseDataContract(raw);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
  const check = postgresContractCheck({ pool, now: () => NOW, ...options });
  const context = {
    contract: parsed.data,
    signal: new AbortController().signal,
  } as unknown as CheckContext;
  const out = await check(context);
  const records = Array.isArray(out) ? out : [out];
  const body = buildSubmission({ resource: { id: 'urn:x' }, results: { root: records } });
  return { records, satisfiesPolicy: body[0]?.result.satisfiesPolicy };
}

function failures(records: ValidationRecord[]): Record<string, string[]> {
  return Object.fromEntries(
    requirementsOf(records)
      .filter((r) => r.compliant === false)
      .map((r) => [r.key, r.issues ?? []]),
  );
}

function odcs(table: string, properties: unknown[], extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v3.1.0',
    kind: 'DataContract',
    id: table,
    servers: [{ type: 'postgres', schema }],
    schema: [{ name: table, properties, ...extra }],
  };
}

describe('every rule is checked or reported as not checked (never silently compliant)', () => {
  it('reports a misspelt metric, custom and text rules, retention and frequency as not checked', async () => {
    await pool.query(`CREATE TABLE ${schema}.events (id int PRIMARY KEY, at timestamptz)`);
    await pool.query(`INSERT INTO ${schema}.events VALUES (1, $1)`, [NOW.toISOString()]);
    const { records, satisfiesPolicy } = await run({
      ...odcs(
        'events',
        [{ name: 'id', logicalType: 'integer', primaryKey: true }, { name: 'at' }],
        {
          quality: [
            { type: 'library', metric: 'rowcount', mustBeGreaterThan: 100 },
            { type: 'custom', engine: 'soda', implementation: 'row_count > 100' },
            { type: 'text', description: 'Every event is real' },
          ],
        },
      ),
      slaProperties: [
        { property: 'retention', value: 3, unit: 'y', element: 'events.at' },
        { property: 'frequency', value: 1, unit: 'd', element: 'events.at' },
      ],
    });
    const notChecked = records.find((r) => r.key === 'not_checked');
    expect(notChecked?.children).toEqual([
      {
        key: 'not_checked_schema_0_quality_0',
        name: 'the quality rule on events',
        compliant: false,
        checked: false,
        issues: [
          'not checked: the library metric "rowcount" is unknown (did you mean "rowCount"?); the metrics are nullValues, missingValues, invalidValues, duplicateValues, rowCount',
        ],
      },
      expect.objectContaining({
        key: 'not_checked_schema_0_quality_1',
        issues: [
          'not checked: a custom rule runs in its own engine (soda), which the PostgreSQL checks are not',
        ],
      }),
      expect.objectContaining({
        key: 'not_checked_schema_0_quality_2',
        issues: ['not checked: a text rule is prose for people; no engine runs it'],
      }),
      expect.objectContaining({ key: 'not_checked_slaProperties_0', name: 'the SLA retention' }),
      expect.objectContaining({ key: 'not_checked_slaProperties_1', name: 'the SLA frequency' }),
    ]);
    // The rules that were checked hold; the unchecked ones are shown, not counted as violations.
    expect(satisfiesPolicy).toBe(true);
  });

  it('an ODCS contract without schema and a Witboost timeliness without a timestamp column', async () => {
    const empty = await run({ apiVersion: 'v3.0.2', kind: 'DataContract', id: 'x' });
    expect(empty.records).toEqual([
      {
        key: 'not_checked',
        name: 'Not checked',
        children: [
          {
            key: 'not_checked_schema',
            name: 'the schema of the contract',
            compliant: false,
            checked: false,
            issues: [
              'not checked: the contract declares no table (no schema objects), so there is nothing to check it against',
            ],
          },
        ],
      },
    ]);
    const witboost = await run({
      schema: [{ name: 'id', dataType: 'integer', constraint: 'PRIMARY_KEY' }],
      SLA: { timeliness: '2 hours' },
      endpoint: `${schema}.events`,
    });
    expect(failures(witboost.records)).toEqual({
      not_checked_SLA_timeliness: [
        'not checked: no column of a date or timestamp type is declared (nor freshnessColumn), so the age of the data cannot be measured',
      ],
    });
  });
});

describe('logicalTypeOptions, legacy isNullable / isUnique, enum', () => {
  it('checks each option in the data, in the one aggregate pass', async () => {
    await pool.query(
      `CREATE TABLE ${schema}.people (code text, qty int, born date, email text, status text, score numeric, nick text)`,
    );
    await pool.query(`INSERT INTO ${schema}.people VALUES
      ('AB1', 5, '2001-01-01', 'a@example.com', 'new', 10, 'x'),
      ('AB22', 0, '1990-05-05', 'not-an-email', 'new', 100, 'x'),
      ('ABCDEF', 7, '2005-01-01', 'b@example.com', 'gone', 50, NULL),
      (NULL, NULL, NULL, NULL, NULL, NULL, 'y')`);
    const contract = odcs('people', [
      {
        name: 'code',
        logicalType: 'string',
        logicalTypeOptions: { minLength: 3, maxLength: 5, pattern: '^AB[0-9]+$' },
      },
      { name: 'qty', logicalType: 'integer', logicalTypeOptions: { minimum: 1, maximum: 6 } },
      {
        name: 'born',
        logicalType: 'date',
        logicalTypeOptions: { exclusiveMinimum: '1995-01-01', maximum: '2004-12-31' },
      },
      { name: 'email', logicalType: 'string', logicalTypeOptions: { format: 'email' } },
      { name: 'status', logicalType: 'string', enum: [{ value: 'new' }, { value: 'open' }] },
      // ODCS v3.0: exclusiveMaximum as a boolean that makes maximum strict.
      {
        name: 'score',
        logicalType: 'number',
        logicalTypeOptions: { maximum: 100, exclusiveMaximum: true },
      },
      { name: 'nick', logicalType: 'string', isNullable: false, isUnique: true },
    ]);
    const { records, satisfiesPolicy } = await run(contract);
    expect(satisfiesPolicy).toBe(false);
    expect(failures(records)).toEqual({
      nick_column: ['column nick allows nulls, the contract says it is required'],
      nick_unique: ['1 row repeats the nick of another row'],
      nick_not_null: ['1 row has a null nick'],
      code_pattern: ['1 row has a code not matching the pattern'],
      code_max_length: ['1 row has a code longer than 5 characters'],
      qty_minimum: ['1 row has a qty below at least 1'],
      qty_maximum: ['1 row has a qty above at most 6'],
      born_exclusive_minimum: ['1 row has a born below greater than 1995-01-01'],
      born_maximum: ['1 row has a born above at most 2004-12-31'],
      email_format: ['1 row has a email not a valid email'],
      status_enum: ['1 row has a status not among the allowed values'],
      score_exclusive_maximum: ['1 row has a score above less than 100'],
    });
    expect(requirementsOf(records).map((r) => r.key)).toContain('code_min_length');
  });

  it('says when a bound cannot apply to the column type or a pattern is no PostgreSQL regex, and checks the rest', async () => {
    const { records } = await run(
      odcs('people', [
        { name: 'code', logicalType: 'string', logicalTypeOptions: { minimum: 3, pattern: '(' } },
        { name: 'qty', logicalType: 'integer', logicalTypeOptions: { maximum: 6 } },
      ]),
    );
    const failing = failures(records);
    expect(failing.code_minimum).toEqual([
      'cannot be checked: code is text; minimum 3 needs a number column',
    ]);
    expect(failing.code_pattern?.[0]).toMatch(
      /^cannot be checked: the pattern is not a PostgreSQL regular expression \(.*parentheses/,
    );
    expect(failing.qty_maximum).toEqual(['1 row has a qty above at most 6']);
  });
});

describe('severity', () => {
  it('a failing rule of severity warning is reported with its severity and does not violate the policy', async () => {
    const contract = (severity: string) =>
      odcs('people', [
        {
          name: 'email',
          logicalType: 'string',
          quality: [{ metric: 'nullValues', mustBe: 0, severity }],
        },
      ]);
    const warning = await run(contract('warning'));
    expect(requirementsOf(warning.records).find((r) => r.key === 'email_nullValues')).toEqual({
      key: 'email_nullValues',
      name: 'nullValues of email',
      severity: 'warning',
      compliant: false,
      issues: ['nullValues of email: 1 row; it must be 0'],
    });
    expect(warning.satisfiesPolicy).toBe(true);
    expect((await run(contract('error'))).satisfiesPolicy).toBe(false);
  });
});

describe('composite primary keys', () => {
  it('checks the key as a whole, not each column unique', async () => {
    await pool.query(
      `CREATE TABLE ${schema}.lines (order_id int NOT NULL, line int NOT NULL, sku text)`,
    );
    await pool.query(`INSERT INTO ${schema}.lines VALUES (1, 1, 'a'), (1, 2, 'b'), (2, 1, 'c')`);
    const contract = odcs('lines', [
      { name: 'order_id', logicalType: 'integer', primaryKey: true, primaryKeyPosition: 1 },
      { name: 'line', logicalType: 'integer', primaryKey: true, primaryKeyPosition: 2 },
      { name: 'sku', logicalType: 'string' },
    ]);
    const holds = await run(contract);
    expect(failures(holds.records)).toEqual({});
    expect(requirementsOf(holds.records).find((r) => r.key === 'primary_key')?.name).toBe(
      'primary key (order_id, line) is unique',
    );
    await pool.query(`INSERT INTO ${schema}.lines VALUES (2, 1, 'd')`);
    expect(failures((await run(contract)).records)).toEqual({
      primary_key: ['1 row repeats the order_id, line of another row'],
    });
  });
});

describe('ODCS sql rules as datacontract-cli runs them', () => {
  it('runs a case-sensitive PostgreSQL contract on its data: placeholders and unqualified names', async () => {
    const sql = readFileSync(join(ODCS, 'postgres-case-sensitive.sql'), 'utf8');
    await pool.query(sql.replaceAll('public."Locker_Slots"', `${schema}."Locker_Slots"`));
    const yaml = safeParseDescriptorYaml(
      readFileSync(join(ODCS, 'postgres-case-sensitive.odcs.yaml'), 'utf8'),
    );
    if (!yaml.success) throw new Error('fixture');
    const contract = yaml.data as {
      servers: Array<Record<string, unknown>>;
      schema: Array<{ quality?: unknown[]; properties: Array<Record<string, unknown>> }>;
    };
    (contract.servers[0] as Record<string, unknown>).schema = schema;
    const table = contract.schema[0] as (typeof contract.schema)[number];
    table.quality = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: datacontract-cli's ${model} placeholder
      { type: 'sql', name: 'ten rows', query: 'SELECT count(*) FROM ${model}', mustBe: 10 },
      {
        type: 'sql',
        name: 'quoted placeholder',
        query: 'SELECT count(*) FROM "{schema}"."{table}" WHERE "Size_Litres" < 5',
        mustBe: 0,
      },
      { type: 'sql', name: 'broken', query: 'SELECT count(*) FROM no_such_table', mustBe: 0 },
      // Unqualified: resolved through servers[].schema, also after a failed rule.
      {
        type: 'sql',
        name: 'unqualified',
        query: 'SELECT count(*) FROM "Locker_Slots" WHERE "Size_Litres" > 100',
        mustBe: 0,
      },
    ];
    (table.properties[0] as Record<string, unknown>).quality = [
      {
        type: 'sql',
        name: 'no null Slot_Code',
        query: 'SELECT count(*) FROM {schema}.{model} WHERE {property} IS NULL',
        mustBe: 0,
      },
    ];
    const { records } = await run(contract);
    expect(failures(records)).toEqual({
      // The table is TIMESTAMPTZ, its contract says physicalType timestamp (in
      // PostgreSQL, timestamp without time zone): a real difference, reported as such.
      Opened_At_column: [
        'column Opened_At is timestamp with time zone, the contract says timestamp',
      ],
      broken: [expect.stringMatching(/^the query failed: relation "no_such_table" does not exist/)],
    });
    expect(requirementsOf(records).map((r) => r.key)).toEqual([
      'Slot_Code_column',
      'Size_Litres_column',
      'Opened_At_column',
      'Slot_Code_pattern',
      'Size_Litres_minimum',
      'ten_rows',
      'quoted_placeholder',
      'broken',
      'unqualified',
      'no_null_Slot_Code',
    ]);
  });

  it('gives rules of the same name keys of their own', async () => {
    const { records } = await run(
      odcs('lines', [{ name: 'sku', logicalType: 'string' }], {
        quality: [
          { type: 'sql', name: 'rows', query: 'SELECT count(*) FROM {model}', mustBe: 4 },
          { type: 'sql', name: 'rows', query: 'SELECT count(*) FROM {model}', mustBeLessThan: 9 },
        ],
      }),
    );
    expect(records.find((r) => r.key === 'quality')?.children?.map((r) => r.key)).toEqual([
      'rows',
      'rows_2',
    ]);
  });
});

describe('identifiers PostgreSQL accepts when quoted', () => {
  it('a table name starting with a digit and a column with a space', async () => {
    await pool.query(`CREATE TABLE ${schema}."1orders" ("order id" text NOT NULL, "Amount €" int)`);
    await pool.query(`INSERT INTO ${schema}."1orders" VALUES ('a-1', 3), ('a-2', NULL)`);
    const { records } = await run(
      odcs('1orders', [
        {
          name: 'order id',
          logicalType: 'string',
          required: true,
          unique: true,
          logicalTypeOptions: { pattern: '^a-[0-9]$' },
        },
        {
          name: 'Amount €',
          logicalType: 'integer',
          quality: [{ metric: 'nullValues', mustBeLessOrEqualTo: 1 }],
        },
      ]),
    );
    expect(failures(records)).toEqual({});
    expect(requirementsOf(records)).toHaveLength(6);
  });
});
