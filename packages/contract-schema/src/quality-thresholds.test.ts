import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  describeThreshold,
  isRangeOperator,
  meetsThreshold,
  THRESHOLD_OPERATORS,
  thresholdFields,
} from './quality-thresholds';

describe('ODCS quality thresholds', () => {
  it('compares a measured value with each operator, range bounds included', () => {
    const cases: Array<[Parameters<typeof meetsThreshold>[1], number[], number[]]> = [
      [{ operator: 'mustBe', value: 0 }, [0], [1, -1]],
      [{ operator: 'mustNotBe', value: 0 }, [1, -1], [0]],
      [{ operator: 'mustBeGreaterThan', value: 5 }, [6], [5, 4]],
      [{ operator: 'mustBeGreaterOrEqualTo', value: 5 }, [5, 6], [4]],
      [{ operator: 'mustBeLessThan', value: 5 }, [4], [5, 6]],
      [{ operator: 'mustBeLessOrEqualTo', value: 5 }, [5, 4], [6]],
      [{ operator: 'mustBeBetween', value: [1, 10] }, [1, 5, 10], [0, 11]],
      [{ operator: 'mustNotBeBetween', value: [1, 10] }, [0, 11], [1, 5, 10]],
    ];
    expect(cases.map(([t]) => t.operator)).toEqual([...THRESHOLD_OPERATORS]);
    for (const [threshold, meeting, failing] of cases) {
      for (const v of meeting)
        expect(meetsThreshold(v, threshold), `${v} ${threshold.operator}`).toBe(true);
      for (const v of failing)
        expect(meetsThreshold(v, threshold), `${v} ${threshold.operator}`).toBe(false);
    }
  });

  it('says each operator in words, and a value as written when it is not what the operator takes', () => {
    expect(
      THRESHOLD_OPERATORS.map((operator) =>
        describeThreshold({ operator, value: isRangeOperator(operator) ? [1, 2] : 3 }),
      ),
    ).toEqual([
      'must be 3',
      'must not be 3',
      'must be greater than 3',
      'must be at least 3',
      'must be less than 3',
      'must be at most 3',
      'must be between 1 and 2',
      'must not be between 1 and 2',
    ]);
    expect(describeThreshold({ operator: 'mustBeBetween', value: 5 })).toBe('must be between 5');
    expect(describeThreshold({ operator: 'mustBe', value: 'zero' })).toBe('must be zero');
    expect(describeThreshold({ operator: 'mustBe', value: { a: 1 } })).toBe('must be {"a":1}');
  });
});

describe('thresholdFields', () => {
  const Rule = z.looseObject({ metric: z.string().optional(), ...thresholdFields });

  it('has one optional field per operator of the list', () => {
    expect(Object.keys(thresholdFields)).toEqual([...THRESHOLD_OPERATORS]);
    expect(Rule.safeParse({ metric: 'rowCount' }).success).toBe(true);
  });

  it('takes a number for a comparison and a number or a pair for a range', () => {
    expect(Rule.safeParse({ mustBeLessThan: 5 }).success).toBe(true);
    expect(Rule.safeParse({ mustBeBetween: [1, 10] }).success).toBe(true);
    expect(Rule.safeParse({ mustNotBeBetween: 3 }).success).toBe(true);
    const refused = Rule.safeParse({ mustBe: [1, 2] });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['mustBe']);
    expect(Rule.safeParse({ mustBeBetween: [1, 'x'] }).success).toBe(false);
  });
});
