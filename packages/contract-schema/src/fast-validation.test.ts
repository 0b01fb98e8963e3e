import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryDetails as details } from './__fixtures__/arbitrary-details';
import { EvaluationResultSchema, EvaluationResultSubmissionSchema } from './evaluation-result';
import {
  conformsToEvaluationResultFast,
  conformsToResultDetailsFast,
  conformsToSubmissionFast,
  fastPathsCompiled,
} from './fast-validation';
import { ResultDetailsSchema, type ValidationRecord } from './result-details';
import { validateDetails } from './validation';

function chain(levels: number): ValidationRecord {
  let node: ValidationRecord = { key: `level-${levels}`, compliant: true };
  for (let level = levels - 1; level >= 1; level--)
    node = { key: `level-${level}`, children: [node] };
  return node;
}

describe('compiled fast paths', () => {
  it('are compiled by zod', () => {
    expect(fastPathsCompiled()).toEqual({ details: true, result: true, submission: true });
  });

  it('never accept what the recursive schema rejects, and agree on everything shallow', () => {
    fc.assert(
      fc.property(details, (doc) => {
        const runtime = ResultDetailsSchema.safeParse(doc).success;
        const fast = conformsToResultDetailsFast(doc);
        if (fast) expect(runtime).toBe(true);
        expect(validateDetails(doc).success).toBe(runtime);
      }),
      { numRuns: 400 },
    );
  });

  it('hands documents deeper than the unrolled depth to the recursive schema', () => {
    const deep = { results: { root: [chain(30)] } };
    expect(conformsToResultDetailsFast(deep)).toBe(false);
    expect(validateDetails(deep)).toEqual({ success: true, data: deep });
    const broken = { results: { root: [chain(30)] } };
    let leaf = broken.results.root[0] as ValidationRecord;
    while (leaf.children?.[0]) leaf = leaf.children[0];
    leaf.children = [];
    const result = validateDetails(broken);
    expect(result.success).toBe(false);
    if (!result.success)
      expect(result.issues[0]?.path).toMatch(/^\$\.results\.root\[0\](\.children\[0\]){29}$/);
  });

  it('agree with the runtime on evaluation results and submissions', () => {
    fc.assert(
      fc.property(details, fc.boolean(), fc.nat(2), (doc, satisfiesPolicy, count) => {
        const result = {
          resource: { id: 'urn:dmb:cmp:a:b:0:p', descriptor: '' },
          result: { satisfiesPolicy, details: doc },
        };
        const runtime = EvaluationResultSchema.safeParse(result).success;
        if (conformsToEvaluationResultFast(result)) expect(runtime).toBe(true);
        const body = Array.from({ length: count }, () => result);
        if (conformsToSubmissionFast(body))
          expect(EvaluationResultSubmissionSchema.safeParse(body).success).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
