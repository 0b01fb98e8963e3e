import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

  it('a run that errored before any check could not run (no verdict); its body is not compliant', () => {
    const out = convertDatacontractCliRun({ result: 'error', checks: [] }, { resourceId: 'urn:x' });
    expect(out.outcome).toBe('could_not_run');
    expect(out.reason).toBe('the run errored before any check');
    expect(out.body[0]?.result.satisfiesPolicy).toBe(false);
  });

  it('refuses a document that is not a test run, with paths', () => {
    expect(() => convertDatacontractCliRun({ checks: [{}] }, { resourceId: 'urn:x' })).toThrow(
      /result: .*checks\.0\.result/s,
    );
  });
});

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '__fixtures__', 'datacontract-cli');
const read = (name: string): unknown => JSON.parse(readFileSync(join(fixtures, name), 'utf8'));

// Run files as datacontract-cli writes them (every field of its Run and Check models, nulls included).
describe('convertDatacontractCliRun on realistic run files', () => {
  it.each([
    ['passed.json', 'compliant', { passed: 5, failed: 0, notRun: 0 }, undefined],
    ['failed.json', 'violated', { passed: 3, failed: 2, notRun: 0 }, undefined],
    ['warning.json', 'compliant', { passed: 4, warnings: 1, notRun: 0 }, undefined],
    [
      'connection-refused.json',
      'could_not_run',
      { passed: 0, failed: 1, notRun: 5 },
      /^5 of 6 checks have no result: Test Data Contract: connection to server at "localhost" \(127\.0\.0\.1\), port 5432 failed: Connection refused/,
    ],
    [
      'statement-timeout.json',
      'could_not_run',
      { passed: 3, failed: 1, notRun: 2 },
      /^2 of 6 checks have no result: Test Data Contract: canceling statement due to statement timeout$/,
    ],
    [
      'file-missing.json',
      'could_not_run',
      { failed: 1, notRun: 0 },
      /^the data contract was never read \(dataContractId is null\): Check that data contract file exists: The file 'datacontract\.yaml' does not exist\.$/,
    ],
    [
      'invalid-contract.json',
      'could_not_run',
      { failed: 1, notRun: 0 },
      /^the data contract was never read \(dataContractId is null\)/,
    ],
  ] as const)('%s: %s', (file, outcome, counts, reason) => {
    const out = convertDatacontractCliRun(read(file), { resourceId: 'urn:dmb:cmp:a:b:0:port' });
    expect(out.outcome).toBe(outcome);
    expect(out).toMatchObject(counts);
    if (reason) expect(out.reason).toMatch(reason);
    else expect(out.reason).toBeUndefined();
    // Whatever the outcome, the body is valid A3/A4 and never says compliant for a run that did not run.
    if (outcome !== 'compliant') expect(out.body[0]?.result.satisfiesPolicy).toBe(false);
  });

  it('shows a check that never ran as not run, beside the ones that did', () => {
    const out = convertDatacontractCliRun(read('statement-timeout.json'), { resourceId: 'urn:x' });
    const orders = out.body[0]?.result.details.results.root?.[0];
    expect(JSON.stringify(orders)).toContain(
      '"issues":["not run: the run stopped before this check"]',
    );
  });
});
