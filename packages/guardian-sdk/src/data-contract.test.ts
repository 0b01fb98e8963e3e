import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeParseDescriptorYaml } from '@dcg/contract-schema';
import { describe, expect, it } from 'vitest';
import { odcsContract, witboostContract } from './__fixtures__/systems';
import { parseDataContract } from './data-contract';

describe('parseDataContract', () => {
  it('reads the Witboost shape: columns, constraints, endpoint table, timeliness on the timestamp column', () => {
    const parsed = parseDataContract(witboostContract);
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    const [model] = parsed.data.models;
    expect(parsed.data.dialect).toBe('witboost');
    expect(model).toMatchObject({
      schema: 'sales',
      table: 'orders',
      freshness: { column: 'updated_at', maxAgeMs: 7_200_000 },
    });
    expect(model?.columns[0]).toEqual({
      name: 'order_id',
      type: 'string',
      physicalType: undefined,
      required: true,
      // The key is checked as a whole (primary_key), not each column unique on its own.
      unique: false,
      primaryKey: true,
    });
    expect(model?.columns[1]).toMatchObject({ name: 'amount', required: true, unique: false });
  });

  it('reads ODCS v3: properties, library and sql quality, latency SLA, postgres server', () => {
    const parsed = parseDataContract(odcsContract);
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    const [model] = parsed.data.models;
    expect(parsed.data.server).toEqual({
      host: '127.0.0.1',
      port: 5432,
      database: 'test',
      schema: 'sales',
    });
    expect(model).toMatchObject({
      schema: 'sales',
      table: 'orders',
      freshness: { column: 'updated_at', maxAgeMs: 7_200_000 },
    });
    expect(model?.columns[1]).toMatchObject({
      name: 'amount',
      physicalType: 'numeric(10,2)',
      required: true,
    });
    expect(
      model?.quality.map((q) => [q.kind, q.kind === 'library' ? q.metric : q.query, q.threshold]),
    ).toEqual([
      ['library', 'rowCount', { operator: 'mustBeGreaterThan', value: 0 }],
      [
        'sql',
        'SELECT COUNT(*) FROM sales.orders WHERE amount < 0',
        { operator: 'mustBe', value: 0 },
      ],
      ['library', 'nullValues', { operator: 'mustBe', value: 0 }],
    ]);
  });

  it('gives issues with paths for bad contracts, never throws', () => {
    const cases: Array<[unknown, (string | number)[], RegExp]> = [
      [null, [], /must be an object/],
      [
        { schema: [{ name: 'x'.repeat(64) }], endpoint: 'x.y' },
        ['schema', 0, 'name'],
        /not a PostgreSQL identifier \(1 to 63 bytes/,
      ],
      [{ schema: [] }, ['endpoint'], /no table/],
      [
        { schema: [{ name: 'a' }], endpoint: 'a', SLA: { timeliness: 'soon' } },
        ['SLA', 'timeliness'],
        /cannot read the duration/,
      ],
      [{ apiVersion: 'v2.2.0' }, ['apiVersion'], /only ODCS v3/],
      [
        {
          apiVersion: 'v3.0.0',
          schema: [{ name: 't', quality: [{ metric: 'rowCount', mustBe: 1, mustNotBe: 2 }] }],
        },
        ['schema', 0, 'quality', 0],
        /has one operator/,
      ],
      [
        {
          apiVersion: 'v3.0.0',
          schema: [{ name: 't', quality: [{ metric: 'rowCount', mustBeBetween: 3 }] }],
        },
        ['schema', 0, 'quality', 0, 'mustBeBetween'],
        /two numbers/,
      ],
      [
        { apiVersion: 'v3.0.0', schema: [{ name: 't', quality: [{ type: 'sql', mustBe: 0 }] }] },
        ['schema', 0, 'quality', 0, 'query'],
        /needs a query/,
      ],
      [{ apiVersion: 'v3.0.0', schema: 'x' }, ['schema'], /expected array/],
    ];
    for (const [raw, path, message] of cases) {
      const parsed = parseDataContract(raw);
      expect(parsed.success, JSON.stringify(raw)).toBe(false);
      if (!parsed.success) {
        expect(parsed.issues[0]?.path).toEqual(path);
        expect(parsed.issues[0]?.message).toMatch(message);
      }
    }
  });

  it('warns about quality rules it does not run', () => {
    const parsed = parseDataContract({
      apiVersion: 'v3.0.0',
      schema: [{ name: 't', quality: [{ type: 'custom', engine: 'soda' }] }],
    });
    expect(parsed.success && parsed.warnings[0]).toEqual({
      code: 'unchecked_rule',
      path: ['schema', 0, 'quality', 0],
      message:
        'the quality rule on t: not checked, a custom rule runs in its own engine (soda), which the PostgreSQL checks are not',
    });
  });

  it('reads a contract as PyYAML writes it: null fields absent, timestamps, anchors and aliases', () => {
    const text = readFileSync(
      join(import.meta.dirname, '__fixtures__', 'pyyaml-contract.yaml'),
      'utf8',
    );
    const yaml = safeParseDescriptorYaml(text);
    if (!yaml.success) throw new Error(JSON.stringify(yaml.issues));
    const parsed = parseDataContract(yaml.data);
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    expect(parsed.warnings).toEqual([]);
    const [model] = parsed.data.models;
    expect(model?.table).toBe('orders');
    expect(model?.primaryKey).toEqual(['order_id']);
    expect(model?.columns.map((c) => [c.name, c.options])).toEqual([
      ['order_id', undefined],
      ['amount', { minimum: 0 }],
      ['refund', { minimum: 0 }],
      ['created_at', { minimum: expect.stringMatching(/^2020-01-01/) }],
    ]);
    expect(model?.quality.map((q) => q.kind === 'library' && q.metric)).toEqual(['nullValues']);
    expect(model?.freshness).toMatchObject({ column: 'created_at', maxAgeMs: 7_200_000 });
  });
});
