import { describe, expect, it } from 'vitest';
import { didYouMean } from './did-you-mean';

describe('didYouMean', () => {
  it('finds the first candidate within two edits', () => {
    expect(didYouMean('qualiti', ['schema', 'quality'])).toBe('quality');
    expect(didYouMean('logicalTypeOption', ['logicalTypeOptions', 'logicalType'])).toBe(
      'logicalTypeOptions',
    );
    expect(didYouMean('sla', ['slaProperties'])).toBeUndefined();
    expect(didYouMean('abcd', ['wxyz'])).toBeUndefined();
  });

  it('compares without case only when asked', () => {
    expect(didYouMean('QUALITY', ['quality'])).toBeUndefined();
    expect(didYouMean('QUALITI', ['quality'], { ignoreCase: true })).toBe('quality');
  });
});
