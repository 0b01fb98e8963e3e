import { describe, expect, it } from 'vitest';
import {
  checkSubmission,
  complianceStateOf,
  complianceStatus,
  UNPROCESSABLE_MESSAGE,
} from './compliance-status';
import { ComplianceTreeNodeSchema } from './compliance-wire';
import { isBlockingSeverity } from './severity';

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
    expect(section).toMatchObject({ key: 'dataContract', section: true, target: 'root' });
    expect(section?.compliant).toBeUndefined();
    expect(section?.children?.[0]?.children).toEqual([
      {
        key: 'amount_not_null',
        section: false,
        compliant: false,
        issues: ['12 rows have a null amount'],
      },
      { key: 'id_unique', section: false, compliant: true },
    ]);
    // The view tree is one schema: what complianceStatus derives is what it describes.
    for (const target of status.tree) {
      for (const record of target.records) ComplianceTreeNodeSchema.parse(record);
    }
  });

  it('lets satisfiesPolicy win over failing records', () => {
    const status = complianceStatus(stored(true));
    expect(status.status).toBe('compliant');
    expect(status.counts.failing).toBe(1);
  });

  it('counts a requirement not checked and a failing one of non-blocking severity apart from the failing ones', () => {
    const status = complianceStatus(
      stored(true, {
        results: {
          root: [
            { key: 'a', compliant: true },
            { key: 'b', compliant: false, severity: 'warning', issues: ['3 rows have a null b'] },
            { key: 'c', compliant: false, checked: false, issues: ['not checked: a text rule'] },
          ],
        },
      }),
    );
    expect(status.counts).toEqual({ compliant: 1, failing: 0, warnings: 1, notChecked: 1 });
    // Nothing blocking fails: no "compliant despite failing" override.
    expect(status.override).toBeUndefined();
    expect(status.tree[0]?.records.slice(1)).toEqual([
      {
        key: 'b',
        section: false,
        compliant: false,
        severity: 'warning',
        issues: ['3 rows have a null b'],
        target: 'root',
      },
      {
        key: 'c',
        section: false,
        compliant: false,
        checked: false,
        issues: ['not checked: a text rule'],
        target: 'root',
      },
    ]);
    for (const record of status.tree[0]?.records ?? []) ComplianceTreeNodeSchema.parse(record);
    expect(isBlockingSeverity('Warning')).toBe(false);
    expect(isBlockingSeverity('critical')).toBe(true);
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
          code: 'compliant_xor_children',
          segments: ['result', 'details', 'results', 'root', 0],
          path: '$.result.details.results.root[0]',
          message: 'a validation record has exactly one of `compliant` and `children`: it has both',
          params: { has: 'both' },
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
      {
        code: 'invalid_type',
        segments: [],
        path: '$',
        message: 'expected object, received string',
        params: { expected: 'object', received: 'string' },
      },
    ]);
  });
});

describe('complianceStateOf and checkSubmission', () => {
  const resource = { id: 'urn:dmb:cmp:a:b:0:port', descriptor: '' };

  it('derive the state from the verdict and the details check', () => {
    expect(complianceStateOf({ satisfiesPolicy: true, detailsConform: true })).toBe('compliant');
    expect(complianceStateOf({ satisfiesPolicy: false, detailsConform: true })).toBe('violated');
    expect(complianceStateOf({ satisfiesPolicy: true, detailsConform: false })).toBe(
      'unprocessable',
    );
    const ok = checkSubmission([{ resource, result: { satisfiesPolicy: false, details } }]);
    expect(ok).toMatchObject({ success: true, data: { status: 'violated', detailsIssues: [] } });
  });

  it('keep a result whose details break A4, as unprocessable with the issues in the body', () => {
    const checked = checkSubmission([
      {
        resource,
        result: { satisfiesPolicy: true, details: { results: { root: [{ key: 'x' }] } } },
      },
    ]);
    expect(checked.success).toBe(true);
    if (!checked.success) return;
    expect(checked.data.status).toBe('unprocessable');
    expect(checked.data.detailsIssues.map((i) => [i.code, i.segments])).toEqual([
      ['compliant_xor_children', [0, 'result', 'details', 'results', 'root', 0]],
    ]);
  });

  it('fail on the envelope: a bad resource, no verdict, no details, not one result', () => {
    const bad = (body: unknown) => {
      const checked = checkSubmission(body);
      return checked.success ? [] : checked.issues.map((i) => [i.code, i.path]);
    };
    expect(bad([{ resource: { id: '' }, result: { satisfiesPolicy: true, details } }])).toEqual([
      ['too_small', '$[0].resource.id'],
      ['invalid_type', '$[0].resource.descriptor'],
    ]);
    expect(bad([{ resource, result: { details: { results: 1 } } }])).toEqual([
      ['invalid_type', '$[0].result.satisfiesPolicy'],
    ]);
    expect(bad([{ resource, result: { satisfiesPolicy: true } }])).toEqual([
      ['invalid_type', '$[0].result.details'],
    ]);
    expect(bad([])).toEqual([['too_small', '$']]);
  });
});
