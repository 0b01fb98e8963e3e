import { describe, expect, it } from 'vitest';
import type { ComponentDescriptor } from './descriptor';
import { selectContractTargets } from './target-selection';

const guardian = (ids: string[]): ComponentDescriptor => ({
  id: 'urn:dmb:cmp:a:b:0:guardian',
  kind: 'workload',
  __dataContractGuardianSpec: { guards: ids.map((dataContractId) => ({ dataContractId })) },
});

const system: { id: string; kind: string; components: ComponentDescriptor[] } = {
  id: 'urn:dmb:dp:a:b:0',
  kind: 'dataproduct',
  components: [
    {
      id: 'urn:dmb:cmp:a:b:0:contract',
      __dataContractEnabled: true,
      dataContract: { schema: [] },
      components: [
        { id: 'urn:dmb:cmp:a:b:0:p1', consumable: true, dataContract: { schema: [] } },
        { id: 'urn:dmb:cmp:a:b:0:p2', consumable: true, dataContract: {} },
        { id: 'urn:dmb:cmp:a:b:0:p3', consumable: true },
      ],
    },
    {
      id: 'urn:dmb:cmp:a:b:0:bundle',
      components: [
        { id: 'urn:dmb:cmp:a:b:0:q1', consumable: true, __dataContractEnabled: true },
        { id: 'urn:dmb:cmp:a:b:0:q2', consumable: true, __dataContractEnabled: false },
      ],
    },
    { id: 'urn:dmb:cmp:a:b:0:storage', kind: 'storage' },
  ],
};

describe('selectContractTargets', () => {
  it('mixes the scenarios in one system: distributed keys only for specified subcomponents', () => {
    const targets = selectContractTargets(system);
    expect(targets.map(({ resourceId, resultKeys }) => ({ resourceId, resultKeys }))).toEqual([
      { resourceId: 'urn:dmb:cmp:a:b:0:contract', resultKeys: ['root', 'urn:dmb:cmp:a:b:0:p1'] },
      { resourceId: 'urn:dmb:cmp:a:b:0:q1', resultKeys: ['root'] },
    ]);
    expect(targets[1]?.component).toBe(system.components[1]?.components?.[0]);
  });

  it('keeps only the contracts a guardian guards', () => {
    const targets = selectContractTargets(system, { guardian: guardian(['urn:dmb:cmp:a:b:0:q1']) });
    expect(targets.map((t) => t.resourceId)).toEqual(['urn:dmb:cmp:a:b:0:q1']);
    expect(selectContractTargets(system, { guardian: guardian([]) })).toEqual([]);
  });

  it('returns nothing for a system without components', () => {
    expect(selectContractTargets({})).toEqual([]);
  });
});
