import { describe, expect, it } from 'vitest';
import { complianceStatus, UNPROCESSABLE_MESSAGE } from './compliance-status';

const details = {
  results: {
    root: [
      {
        key: 'dataContract',
        name: 'Data Contract',
        children: [
          {
            key: 'quality',
            name: 'Quality',
            children: [
              { key: 'amount_not_null', compliant: false, issues: ['12 rows have a null amount'] },
              { key: 'id_unique', compliant: true },
            ],
          },
        ],
      },
    ],
    'urn:dmb:cmp:a:b:0:port': [{ key: 'sla', compliant: true }],
  },
  notes: { errorSummary: { message: 'One or more data contract violations detected' } },
};
const stored = (satisfiesPolicy: unknown, d: unknown = details) => ({
  resource: { id: 'urn:dmb:cmp:a:b:0:contract', descriptor: '' },
  result: { satisfiesPolicy, details: d },
});

describe('complianceStatus', () => {
  it('is violated when satisfiesPolicy is false, with summary, counts and tree', () => {
    const status = complianceStatus(stored(false));
    expect(status.status).toBe('violated');
    expect(status.summary).toBe('One or more data contract violations detected');
    expect(status.counts).toEqual({ compliant: 2, failing: 1 });
    expect(status.tree.map((t) => t.key)).toEqual(['root', 'urn:dmb:cmp:a:b:0:port']);
    const section = status.tree[0]?.records[0];
    expect(section).toMatchObject({ key: 'dataContract', section: true, compliant: false });
    expect(section?.children[0]?.children[0]).toEqual({
      key: 'amount_not_null',
      section: false,
      compliant: false,
      issues: ['12 rows have a null amount'],
      children: [],
    });
  });

  it('lets satisfiesPolicy win over failing records', () => {
    const status = complianceStatus(stored(true));
    expect(status.status).toBe('compliant');
    expect(status.counts.failing).toBe(1);
  });

  it('accepts the submitted one-element array as well as the stored object', () => {
    expect(complianceStatus([stored(true)]).status).toBe('compliant');
  });

  it('is unprocessable with the schema errors when details do not conform to A4', () => {
    const status = complianceStatus(
      stored(false, { results: { root: [{ key: 'x', compliant: true, children: [] }] } }),
    );
    expect(status).toEqual({
      status: 'unprocessable',
      message: UNPROCESSABLE_MESSAGE,
      schemaErrors: [
        {
          path: '$.result.details.results.root[0]',
          message: 'a validation record has exactly one of `compliant` and `children`: it has both',
        },
      ],
      counts: { compliant: 0, failing: 0 },
      tree: [],
    });
    expect(UNPROCESSABLE_MESSAGE).toBe('The monitoring results cannot be processed');
  });

  it('is unprocessable for something that is not a result at all', () => {
    const status = complianceStatus('garbage');
    expect(status.status).toBe('unprocessable');
    expect(status.schemaErrors).toEqual([
      { path: '$', message: 'expected object, received string' },
    ]);
  });
});
