import { describe, expect, it } from 'vitest';
import { EvaluationResultSubmissionSchema } from './evaluation-result';
import { ResultDetailsSchema } from './result-details';
import {
  toValidationIssues,
  validateDetails,
  validateSubmission,
  validateWith,
} from './validation';

describe('toValidationIssues', () => {
  it('reads the same on a plain safeParse (no reportInput)', () => {
    const result = ResultDetailsSchema.safeParse({
      results: { root: [{ key: 'a', compliant: 'yes' }, { compliant: true }] },
    });
    expect(toValidationIssues(result.error?.issues ?? [])).toEqual([
      {
        code: 'invalid_type',
        segments: ['results', 'root', 0, 'compliant'],
        path: '$.results.root[0].compliant',
        message: 'expected boolean, received string',
        params: { expected: 'boolean', received: 'string' },
      },
      {
        code: 'invalid_type',
        segments: ['results', 'root', 1, 'key'],
        path: '$.results.root[1].key',
        message: 'is required (expected string)',
        params: { expected: 'string', received: 'undefined' },
      },
    ]);
  });

  it('keeps custom messages', () => {
    const result = EvaluationResultSubmissionSchema.safeParse([]);
    expect(toValidationIssues(result.error?.issues ?? [])).toEqual([
      {
        code: 'too_small',
        segments: [],
        path: '$',
        message: 'the body must be an array with exactly one evaluation result',
      },
    ]);
  });
});

describe('validate functions', () => {
  it('return the issues of every record (rules are checked once a record is well-typed)', () => {
    const result = validateDetails({
      results: { root: [{ key: 1 }, { key: 'b', children: 'x' }] },
    });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(result.issues.map((issue) => issue.path)).toEqual([
        '$.results.root[0].key',
        '$.results.root[1].children',
      ]);
  });

  it('hand back conforming documents as they are, unknown fields included', () => {
    const body = [
      {
        resource: { id: 'urn:dmb:cmp:a:b:0:p', descriptor: '', extra: 1 },
        result: {
          satisfiesPolicy: true,
          details: { results: { root: [{ key: 'k', compliant: true, x: 2 }] } },
        },
      },
    ];
    const result = validateSubmission(body);
    expect(result).toEqual({ success: true, data: body });
  });

  it('validateWith works with any schema', () => {
    expect(validateWith(ResultDetailsSchema, { results: {} })).toEqual({
      success: true,
      data: { results: {} },
    });
  });
});
