import type { VerdictOverride } from './compliance-wire';

const requirements = (count: number) => `${count} requirement${count === 1 ? '' : 's'}`;

/**
 * How the verdict of a result overrides its records, or `undefined` when they agree (and for
 * states other than compliant and violated).
 *
 * @example
 * verdictOverride({ status: 'compliant', counts: { compliant: 3, failing: 1 } });
 * // { code: 'compliant_despite_failing', message: 'The guardian declared the data contract compliant although 1 requirement fails: …' }
 */
export function verdictOverride(input: {
  status: string;
  counts: { compliant: number; failing: number };
}): VerdictOverride | undefined {
  const { status, counts } = input;
  if (status === 'compliant' && counts.failing > 0) {
    return {
      code: 'compliant_despite_failing',
      message: `The guardian declared the data contract compliant although ${requirements(counts.failing)} ${counts.failing === 1 ? 'fails' : 'fail'}: its verdict decides the status, so the failing requirements below do not make it violated.`,
    };
  }
  if (status === 'violated' && counts.failing === 0) {
    return {
      code: 'violated_without_failing',
      message:
        counts.compliant === 0
          ? 'The guardian declared the data contract violated without reporting any requirement: its verdict decides the status.'
          : `The guardian declared the data contract violated although none of its ${requirements(counts.compliant)} fails: its verdict decides the status.`,
    };
  }
  return undefined;
}
