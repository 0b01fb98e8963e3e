import { describe, expect, it } from 'vitest';
import { instanceContracts } from './hit-contracts';

describe('instanceContracts', () => {
  it('lists the data contracts with their states and rolls them up', () => {
    expect(
      instanceContracts([
        {
          id: 'a',
          name: 'Orders',
          dataContract: true,
          compliance: { status: 'compliant', evaluatedAt: null },
        },
        { id: 'b', dataContract: true },
        { id: 'c', name: 'Job', dataContract: false },
      ]),
    ).toEqual({
      compliance: 'unknown',
      dataContracts: [
        { id: 'a', name: 'Orders', status: 'compliant' },
        { id: 'b', status: 'unknown' },
      ],
    });
    expect(instanceContracts([{ id: 'c', dataContract: false }])).toEqual({
      compliance: 'none',
      dataContracts: [],
    });
  });
});
