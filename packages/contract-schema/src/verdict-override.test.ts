import { describe, expect, it } from 'vitest';
import { complianceStatus } from './compliance-status';
import { VerdictOverrideSchema } from './compliance-wire';
import { verdictOverride } from './verdict-override';

const result = (satisfiesPolicy: boolean, root: unknown[]) => ({
  resource: { id: 'urn:dmb:cmp:a:b:0:port', descriptor: '' },
  result: { satisfiesPolicy, details: { results: { root } } },
});

describe('verdictOverride', () => {
  it('is absent when the verdict agrees with the records', () => {
    expect(
      complianceStatus(result(true, [{ key: 'a', compliant: true }])).override,
    ).toBeUndefined();
    expect(
      complianceStatus(result(false, [{ key: 'a', compliant: false }])).override,
    ).toBeUndefined();
    expect(
      verdictOverride({ status: 'unprocessable', counts: { compliant: 0, failing: 3 } }),
    ).toBeUndefined();
  });

  it('says so when a compliant verdict has failing requirements', () => {
    const status = complianceStatus(
      result(true, [
        { key: 'a', compliant: false },
        { key: 'b', compliant: false },
        { key: 'c', compliant: true },
      ]),
    );
    expect(status.status).toBe('compliant');
    expect(status.override).toEqual({
      code: 'compliant_despite_failing',
      message:
        'The guardian declared the data contract compliant although 2 requirements fail: its verdict decides the status, so the failing requirements below do not make it violated.',
    });
    VerdictOverrideSchema.parse(status.override);
  });

  it('says so when a violated verdict has no failing requirement', () => {
    expect(complianceStatus(result(false, [{ key: 'a', compliant: true }])).override).toEqual({
      code: 'violated_without_failing',
      message:
        'The guardian declared the data contract violated although none of its 1 requirement fails: its verdict decides the status.',
    });
    expect(complianceStatus(result(false, [])).override?.message).toBe(
      'The guardian declared the data contract violated without reporting any requirement: its verdict decides the status.',
    );
  });
});
