import { describe, expect, it } from 'vitest';
import { GuardianSdkError } from './guardian-sdk-error';
import { buildSubmission, requirement, section } from './result-builder';

describe('result builder', () => {
  it('derives satisfiesPolicy and the error summary from the requirements', () => {
    const body = buildSubmission({
      resource: { id: 'urn:dmb:cmp:a:b:0:p', displayName: 'P' },
      results: {
        root: [
          section('schema', 'Schema', [
            requirement('amount_type', 'amount type').violated(
              'column amount is text, the contract says decimal',
            ),
            requirement('id', 'id exists').compliant(),
          ]),
          section('quality', 'Quality', [
            requirement('nulls', 'no nulls').check(['12 rows have a null amount']),
          ]),
        ],
      },
    });
    expect(body[0]?.result.satisfiesPolicy).toBe(false);
    expect(body[0]?.resource).toEqual({
      id: 'urn:dmb:cmp:a:b:0:p',
      displayName: 'P',
      descriptor: '',
    });
    expect(body[0]?.result.details.notes?.errorSummary?.message).toBe(
      '2 data contract requirements violated: amount type: column amount is text, the contract says decimal; no nulls: 12 rows have a null amount',
    );
  });

  it('is compliant without notes when every requirement holds; explicit values win', () => {
    const ok = buildSubmission({
      resource: { id: 'x' },
      results: { root: [requirement('a').check([])] },
    });
    expect(ok[0]?.result).toEqual({
      satisfiesPolicy: true,
      errors: [],
      details: { results: { root: [{ key: 'a', compliant: true }] } },
    });
    const forced = buildSubmission({
      resource: { id: 'x' },
      results: { root: [requirement('a').compliant()] },
      satisfiesPolicy: false,
      errorSummary: 'manual',
    });
    expect(forced[0]?.result.satisfiesPolicy).toBe(false);
    expect(forced[0]?.result.details.notes?.errorSummary?.message).toBe('manual');
  });

  it('refuses a hand-made record that breaks A4, with the path', () => {
    const error = (() => {
      try {
        buildSubmission({
          resource: { id: 'x' },
          results: { root: [{ key: 'bad', compliant: true, children: [] }] },
        });
      } catch (e) {
        return e;
      }
    })();
    expect(GuardianSdkError.isInstance(error) && error.code).toBe('invalid_result');
    expect((error as Error).message).toContain('$[0].result.details.results.root[0]');
    expect(() => requirement('')).toThrow(/non-empty key/);
  });
});
