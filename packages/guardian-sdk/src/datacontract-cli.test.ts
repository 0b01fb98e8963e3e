import { describe, expect, it } from 'vitest';
import { convertDatacontractCliRun } from './datacontract-cli';

const run = {
  result: 'failed',
  dataContractId: 'orders',
  checks: [
    {
      key: 'orders__field_is_present',
      category: 'schema',
      type: 'field_is_present',
      name: 'Check that field order_id is present',
      model: 'orders',
      field: 'order_id',
      result: 'passed',
      reason: null,
    },
    {
      key: 'orders__amount__not_null',
      category: 'quality',
      type: 'field_required',
      name: 'Check that field amount has no missing values',
      model: 'orders',
      field: 'amount',
      result: 'failed',
      reason: '12 rows have a null amount',
    },
    {
      key: 'orders__freshness',
      category: 'servicelevels',
      type: 'freshness',
      name: 'Freshness',
      model: 'orders',
      field: null,
      result: 'warning',
      reason: 'no timestamp',
    },
    {
      key: 'customers__row_count',
      category: 'quality',
      type: 'row_count',
      name: 'Row count',
      model: 'customers',
      result: 'error',
      reason: 'relation "customers" does not exist',
    },
    {
      key: 'customers__skip',
      category: 'quality',
      type: 'x',
      name: 'Skipped',
      model: 'customers',
      result: 'skipped',
    },
  ],
};

describe('convertDatacontractCliRun', () => {
  it('maps models and categories to sections and checks to requirements', () => {
    const out = convertDatacontractCliRun(run, {
      resourceId: 'urn:dmb:cmp:finance:orders:0:orders-port',
    });
    expect(out).toMatchObject({ passed: 1, failed: 2, warnings: 1, skipped: 1 });
    const result = out.body[0]!.result;
    expect(result.satisfiesPolicy).toBe(false);
    const [orders, customers] = result.details.results.root!;
    expect(orders).toMatchObject({
      key: 'orders',
      children: [{ key: 'schema' }, { key: 'quality' }, { key: 'servicelevels' }],
    });
    expect(orders?.children?.[1]?.children?.[0]).toEqual({
      key: 'orders__amount__not_null',
      name: 'Check that field amount has no missing values',
      description: 'field amount',
      compliant: false,
      issues: ['12 rows have a null amount'],
    });
    expect(orders?.children?.[2]?.children?.[0]).toMatchObject({
      compliant: true,
      issues: ['warning: no timestamp'],
    });
    expect(customers?.children?.[0]?.children).toMatchObject([
      { compliant: false },
      { compliant: true, issues: ['skipped'] },
    ]);
    expect(result.details.notes?.errorSummary?.message).toMatch(
      /^2 data contract requirements violated/,
    );
  });

  it('warnings and skips alone are compliant', () => {
    const out = convertDatacontractCliRun(
      { result: 'warning', checks: [run.checks[2]] },
      { resourceId: 'urn:x' },
    );
    expect(out.body[0]?.result.satisfiesPolicy).toBe(true);
  });

  it('a run that errored before any check is violated', () => {
    const out = convertDatacontractCliRun({ result: 'error', checks: [] }, { resourceId: 'urn:x' });
    expect(out.body[0]?.result.satisfiesPolicy).toBe(false);
  });

  it('refuses a document that is not a test run, with paths', () => {
    expect(() => convertDatacontractCliRun({ checks: [{}] }, { resourceId: 'urn:x' })).toThrow(
      /result: .*checks\.0\.result/s,
    );
  });
});
