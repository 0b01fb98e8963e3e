import { describe, expect, it } from 'vitest';
import { ORDERS_PORT, ordersInstance, stagingInstance } from './__fixtures__/marketplace-views';
import { findContractLocations } from './contract-locations';

describe('findContractLocations', () => {
  it('finds every environment a contract is deployed in, sorted, with the component names', () => {
    const found = findContractLocations([stagingInstance, ordersInstance], ORDERS_PORT);
    expect(found.map((location) => location.environment)).toEqual(['production', 'staging']);
    expect(found[0]).toMatchObject({
      instance: { systemId: 'urn:dmb:dp:finance:orders:0', name: 'Orders', kind: 'dataproduct' },
      component: { id: ORDERS_PORT, name: 'Orders port', kind: 'outputport' },
    });
    expect(found[0]!.componentNames.get('urn:dmb:cmp:finance:orders:0:guardian')).toBe('Guardian');
    expect(findContractLocations([ordersInstance], 'urn:dmb:cmp:x:y:0:z')).toEqual([]);
    // A component that is not a data contract is no place of one.
    expect(
      findContractLocations([ordersInstance], 'urn:dmb:cmp:finance:orders:0:guardian'),
    ).toEqual([]);
  });
});
