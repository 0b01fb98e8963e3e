import { describe, expect, it } from 'vitest';
import { changedEntries, knownGap, PASS, rejected, summary } from './conformance';
import type { W3cResult } from './run-w3c-test';

const result = (id: string, outcome: W3cResult['outcome']): W3cResult => ({
  id,
  folder: id.slice(0, id.indexOf('#')),
  name: id.slice(id.indexOf('#') + 1),
  queryFile: `${id}.rq`,
  outcome,
});

describe('the W3C conformance list', () => {
  const list = {
    'f#pass': PASS,
    'f#regex': rejected(['FUNCTION_NOT_SUPPORTED(REGEX)'], 'regex'),
    'f#cast': knownGap(['FUNCTION_NOT_SUPPORTED(integer)'], 'cast'),
  };

  it('accepts a run that matches every entry', () => {
    const run = [
      result('f#pass', { status: 'passed' }),
      result('f#regex', { status: 'rejected', problems: ['FUNCTION_NOT_SUPPORTED(REGEX)'] }),
      result('f#cast', { status: 'rejected', problems: ['FUNCTION_NOT_SUPPORTED(integer)'] }),
    ];
    expect(changedEntries(run, list)).toEqual([]);
    expect(summary(run, list)).toContain('3 tests, 1 passed, 2 rejected, 0 failed');
    expect(summary(run, list)).toContain('known gaps (rejected inside the promised subset): 1');
  });

  it('names a pass turned rejection, a rejection turned wrong answer, another reason, a new and a lost test', () => {
    const run = [
      result('f#pass', { status: 'rejected', problems: ['FUNCTION_NOT_SUPPORTED(STRLEN)'] }),
      result('f#regex', { status: 'failed', why: 'expected 1 row, got 0' }),
      result('f#new', { status: 'passed' }),
    ];
    expect(changedEntries(run, list)).toEqual([
      'f#pass (pass): expected passes, now rejected FUNCTION_NOT_SUPPORTED(STRLEN)',
      'f#regex (regex): expected rejected FUNCTION_NOT_SUPPORTED(REGEX), now a wrong answer: expected 1 row, got 0',
      'f#new (new): expected not in the list, now passes',
      'f#cast: in the list, but no such test was run',
    ]);
  });

  it('tells a rejection for one more reason from the one expected', () => {
    const run = [
      result('f#regex', {
        status: 'rejected',
        problems: ['FUNCTION_NOT_SUPPORTED(REGEX)', 'FUNCTION_NOT_SUPPORTED(STRLEN)'],
      }),
    ];
    expect(changedEntries(run, { 'f#regex': list['f#regex'] })).toEqual([
      'f#regex (regex): expected rejected FUNCTION_NOT_SUPPORTED(REGEX), now rejected FUNCTION_NOT_SUPPORTED(REGEX), FUNCTION_NOT_SUPPORTED(STRLEN)',
    ]);
  });
});
