import { describe, expect, it } from 'vitest';
import { MarketplaceSearchQuerySchema } from './search-query';

describe('MarketplaceSearchQuerySchema', () => {
  it('applies defaults and splits comma lists', () => {
    expect(
      MarketplaceSearchQuerySchema.parse({
        q: ' invoices ',
        environment: 'production',
        kind: 'outputport, workload',
        compliance: ['violated', 'unknown'],
      }),
    ).toEqual({
      q: 'invoices',
      environment: 'production',
      limit: 10,
      offset: 0,
      kind: ['outputport', 'workload'],
      compliance: ['violated', 'unknown'],
    });
  });

  it('refuses empty, oversized and unknown values with paths', () => {
    const result = MarketplaceSearchQuerySchema.safeParse({
      q: '  ',
      environment: '',
      limit: '500',
      compliance: 'green',
    });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual(['compliance.0', 'environment', 'limit', 'q']);
    expect(
      MarketplaceSearchQuerySchema.safeParse({ q: 'x'.repeat(513), environment: 'p' }).success,
    ).toBe(false);
    const paging = MarketplaceSearchQuerySchema.safeParse({ q: 'x', offset: '951' });
    expect(paging.error?.issues.map((i) => [i.path.join('.'), i.code])).toEqual([
      ['offset', 'too_big'],
    ]);
  });

  it('searches every environment when none is given', () => {
    expect(
      MarketplaceSearchQuerySchema.parse({ q: 'money owed by clients', offset: '20' }),
    ).toEqual({ q: 'money owed by clients', limit: 10, offset: 20 });
  });
});
