import { z } from 'zod';

/**
 * The comparison operators of an ODCS v3 quality rule (`mustBe`, `mustBeBetween`, …): the one list
 * that guardians parse, checks evaluate and views render.
 *
 * @example
 * THRESHOLD_OPERATORS.filter((op) => rule[op] !== undefined); // the operators a rule uses
 */
export const THRESHOLD_OPERATORS = [
  'mustBe',
  'mustNotBe',
  'mustBeGreaterThan',
  'mustBeGreaterOrEqualTo',
  'mustBeLessThan',
  'mustBeLessOrEqualTo',
  'mustBeBetween',
  'mustNotBeBetween',
] as const;

/** One of {@link THRESHOLD_OPERATORS}. */
export type ThresholdOperator = (typeof THRESHOLD_OPERATORS)[number];

/** The operators that take a range `[low, high]` (bounds included) instead of one number. */
export type RangeOperator = 'mustBeBetween' | 'mustNotBeBetween';

/**
 * A comparison of an ODCS quality rule, its value checked: a number, or `[low, high]` for a range.
 *
 * @example
 * const threshold: Threshold = { operator: 'mustBeBetween', value: [1, 100] };
 */
export type Threshold =
  | { operator: Exclude<ThresholdOperator, RangeOperator>; value: number }
  | { operator: RangeOperator; value: [number, number] };

/**
 * Whether the operator takes a range `[low, high]`.
 *
 * @example
 * isRangeOperator('mustNotBeBetween'); // true
 */
export function isRangeOperator(operator: ThresholdOperator): operator is RangeOperator {
  return operator === 'mustBeBetween' || operator === 'mustNotBeBetween';
}

const NumberOrPair = z.union([z.number(), z.tuple([z.number(), z.number()])]);

/** The zod field of each operator in {@link thresholdFields}. */
export type ThresholdFields = {
  [O in ThresholdOperator]: O extends RangeOperator
    ? z.ZodOptional<typeof NumberOrPair>
    : z.ZodOptional<z.ZodNumber>;
};

/**
 * The operators as the optional fields of a quality rule's zod object: a number each, or a number
 * or a pair for a range (a range that is not a pair is left for the reader to report, with the
 * operator's name).
 *
 * @example
 * const QualityRuleSchema = z.looseObject({ metric: z.string().optional(), ...thresholdFields });
 */
export const thresholdFields = Object.fromEntries(
  THRESHOLD_OPERATORS.map((operator) => [
    operator,
    isRangeOperator(operator) ? NumberOrPair.optional() : z.number().optional(),
  ]),
) as ThresholdFields;

/**
 * Whether a measured value meets an ODCS threshold (range bounds included).
 *
 * @example
 * meetsThreshold(0, { operator: 'mustBe', value: 0 }); // true
 * meetsThreshold(5, { operator: 'mustNotBeBetween', value: [1, 10] }); // false
 */
export function meetsThreshold(value: number, threshold: Threshold): boolean {
  switch (threshold.operator) {
    case 'mustBe':
      return value === threshold.value;
    case 'mustNotBe':
      return value !== threshold.value;
    case 'mustBeGreaterThan':
      return value > threshold.value;
    case 'mustBeGreaterOrEqualTo':
      return value >= threshold.value;
    case 'mustBeLessThan':
      return value < threshold.value;
    case 'mustBeLessOrEqualTo':
      return value <= threshold.value;
    case 'mustBeBetween':
      return value >= threshold.value[0] && value <= threshold.value[1];
    case 'mustNotBeBetween':
      return value < threshold.value[0] || value > threshold.value[1];
  }
}

const WORDS: Readonly<Record<ThresholdOperator, string>> = {
  mustBe: 'must be',
  mustNotBe: 'must not be',
  mustBeGreaterThan: 'must be greater than',
  mustBeGreaterOrEqualTo: 'must be at least',
  mustBeLessThan: 'must be less than',
  mustBeLessOrEqualTo: 'must be at most',
  mustBeBetween: 'must be between',
  mustNotBeBetween: 'must not be between',
};

const shown = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));

/**
 * A threshold in words, completing a sentence about the measured value ("it must be at most 5").
 * The value may be unchecked (a view of a contract as written): a range that is not two values is
 * shown as written.
 *
 * @example
 * describeThreshold({ operator: 'mustBeLessOrEqualTo', value: 5 }); // 'must be at most 5'
 * describeThreshold({ operator: 'mustBeBetween', value: [1, 100] }); // 'must be between 1 and 100'
 */
export function describeThreshold(threshold: {
  operator: ThresholdOperator;
  value: unknown;
}): string {
  const { operator, value } = threshold;
  const words = WORDS[operator];
  if (isRangeOperator(operator) && Array.isArray(value) && value.length === 2) {
    return `${words} ${shown(value[0])} and ${shown(value[1])}`;
  }
  return `${words} ${shown(value)}`;
}
