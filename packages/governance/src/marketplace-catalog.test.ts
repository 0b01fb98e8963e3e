import { describe, expect, it } from 'vitest';
import { catalogOverview, parseComplianceFilter, systemFacts } from './marketplace-catalog';
import type { MarketplaceInstanceView } from './marketplace-views';

const instance = (name: string, states: Array<'violated' | 'compliant' | 'unknown'>) =>
  ({
    systemId: `urn:dmb:dp:x:${name}:0`,
    name,
    kind: 'dataproduct',
    environment: 'production',
    deployedAt: '2026-01-01T00:00:00.000Z',
    components: states.map((status, i) => ({
      id: `urn:dmb:cmp:x:${name}:0:p${i}`,
      dataContract: true,
      compliance: { status, evaluatedAt: null },
    })),
  }) satisfies MarketplaceInstanceView;

describe('systemFacts', () => {
  it('takes the description, the last part of a domain URN and the owner display name first', () => {
    expect(
      systemFacts({
        description: ' Orders ',
        domain: 'urn:dmb:dmn:finance',
        dataProductOwner: 'user:jane',
        dataProductOwnerDisplayName: 'Jane',
      }),
    ).toEqual({ description: 'Orders', domain: 'finance', owner: 'Jane' });
    expect(systemFacts({ owner: 'team-a', domain: 42 })).toEqual({ owner: 'team-a' });
  });
});

describe('catalogOverview', () => {
  it('counts every state, filters by state and sorts worst first, then by name', () => {
    const all = [
      instance('b-ok', ['compliant']),
      instance('z-bad', ['compliant', 'violated']),
      instance('a-none', []),
      instance('c-new', ['unknown']),
    ];
    const { counts, instances } = catalogOverview(all);
    expect(counts).toEqual({ violated: 1, unprocessable: 0, unknown: 1, compliant: 1, none: 1 });
    expect(instances.map((i) => i.name)).toEqual(['z-bad', 'c-new', 'b-ok', 'a-none']);
    const filtered = catalogOverview(all, { compliance: ['compliant', 'none'] });
    expect(filtered.instances.map((i) => i.name)).toEqual(['b-ok', 'a-none']);
    expect(filtered.counts).toEqual(counts);
  });
});

describe('parseComplianceFilter', () => {
  it('reads comma-separated and repeated values in the API vocabulary', () => {
    expect(parseComplianceFilter(['violated,unknown', 'violated', ' '])).toEqual({
      success: true,
      data: ['violated', 'unknown'],
    });
    const bad = parseComplianceFilter(['failing']);
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.unknown).toEqual(['failing']);
  });
});
