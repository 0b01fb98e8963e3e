import { describe, expect, it } from 'vitest';
import { guardedContracts } from './guarded-contracts';

const contract = (table: string) => ({
  schema: [{ name: 'id', dataType: 'string' }],
  endpoint: `s.${table}`,
});

describe('guardedContracts (A5)', () => {
  const system = {
    id: 'urn:dmb:dp:a:b:0',
    kind: 'dataproduct',
    components: [
      {
        // A parent contract with a distributed definition: root plus the subcomponent with its own contract.
        id: 'urn:dmb:cmp:a:b:0:parent',
        name: 'Parent',
        __dataContractEnabled: true,
        dataContract: contract('parent'),
        components: [
          { id: 'urn:dmb:cmp:a:b:0:parent:own', consumable: true, dataContract: contract('own') },
          { id: 'urn:dmb:cmp:a:b:0:parent:plain', consumable: true },
        ],
      },
      {
        // Not a contract itself: each enabled subcomponent is an independent contract.
        id: 'urn:dmb:cmp:a:b:0:group',
        components: [
          {
            id: 'urn:dmb:cmp:a:b:0:group:one',
            __dataContractEnabled: true,
            consumable: true,
            dataContract: contract('one'),
          },
        ],
      },
      {
        id: 'urn:dmb:cmp:a:b:0:g',
        __dataContractGuardianSpec: {
          guards: [
            {
              dataContractId: 'urn:dmb:cmp:a:b:0:parent',
              monitoringResultScheduling: { cron: '0 * * * *' },
            },
            { dataContractId: 'urn:dmb:cmp:a:b:0:group:one' },
          ],
        },
      },
    ],
  };

  it('gives the result keys and contracts of each guarded contract', () => {
    const found = guardedContracts(system, system.components[2]!);
    if (!found.success) throw new Error(JSON.stringify(found.issues));
    expect(
      found.data.map((c) => [
        c.resourceId,
        c.parts.map((p) => [p.key, p.contract.models[0]?.table]),
        c.scheduling,
      ]),
    ).toEqual([
      [
        'urn:dmb:cmp:a:b:0:parent',
        [
          ['root', 'parent'],
          ['urn:dmb:cmp:a:b:0:parent:own', 'own'],
        ],
        { cron: '0 * * * *' },
      ],
      ['urn:dmb:cmp:a:b:0:group:one', [['root', 'one']], undefined],
    ]);
  });

  it('refuses a guard on a missing component, on a non-contract, and a guardian with no guards', () => {
    const guardian = {
      id: 'urn:dmb:cmp:a:b:0:g',
      __dataContractGuardianSpec: {
        guards: [{ dataContractId: 'urn:nope' }, { dataContractId: 'urn:dmb:cmp:a:b:0:group' }],
      },
    };
    const found = guardedContracts(
      { ...system, components: [...system.components.slice(0, 2), guardian] },
      guardian,
    );
    expect(found.success).toBe(false);
    if (!found.success) {
      expect(found.issues.map((i) => [i.code, i.path.join('.')])).toEqual([
        ['unknown_contract', 'components.2.__dataContractGuardianSpec.guards.0.dataContractId'],
        ['not_a_data_contract', 'components.2.__dataContractGuardianSpec.guards.1.dataContractId'],
      ]);
    }
    const empty = { id: 'urn:g', __dataContractGuardianSpec: { guards: [] } };
    const none = guardedContracts({ ...system, components: [empty] }, empty);
    expect(!none.success && none.issues[0]?.code).toBe('no_guards');
  });
});
