import { describe, expect, it } from 'vitest';
import { guardedContracts } from './guarded-contracts';

const where = { systemId: 'urn:dmb:dp:a:b:0', environment: 'production' };
const deployed = (policyId: string) => ({
  info: { privateInfo: { __dataContractGuardian: { policyId } } },
});

describe('guardedContracts', () => {
  it('pairs each deployed guardian policy with the data contracts it guards (A5 targets)', () => {
    const guards = guardedContracts(
      {
        id: where.systemId,
        components: [
          { id: 'urn:dmb:cmp:a:b:0:port', __dataContractEnabled: true },
          // Not a data contract itself: its enabled subcomponent is one.
          {
            id: 'urn:dmb:cmp:a:b:0:group',
            components: [{ id: 'urn:dmb:cmp:a:b:0:sub', __dataContractEnabled: true }],
          },
          { id: 'urn:dmb:cmp:a:b:0:plain' },
          {
            id: 'g1',
            __dataContractGuardianSpec: {
              guards: [
                { dataContractId: 'urn:dmb:cmp:a:b:0:port' },
                { dataContractId: 'urn:dmb:cmp:a:b:0:sub' },
                // Neither is a data contract of the system: no target.
                { dataContractId: 'urn:dmb:cmp:a:b:0:plain' },
                { dataContractId: 'urn:dmb:cmp:elsewhere' },
              ],
            },
            ...deployed('p1'),
          },
          // A guardian deployed without a policy (not through the coordinator) guards nothing.
          {
            id: 'g2',
            __dataContractGuardianSpec: { guards: [{ dataContractId: 'urn:dmb:cmp:a:b:0:port' }] },
          },
        ],
      },
      where,
    );
    expect(guards.map((g) => [g.contractId, g.policyId, g.guardianId])).toEqual([
      ['urn:dmb:cmp:a:b:0:port', 'p1', 'g1'],
      ['urn:dmb:cmp:a:b:0:sub', 'p1', 'g1'],
    ]);
    expect(guards[0]).toMatchObject(where);
  });

  it('finds nothing in a descriptor without components', () => {
    expect(guardedContracts({ id: 'x', components: 'junk' }, where)).toEqual([]);
    expect(guardedContracts({ id: 'x' }, where)).toEqual([]);
  });
});
