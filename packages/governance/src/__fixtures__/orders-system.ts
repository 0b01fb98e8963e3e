import type { SystemDescriptor } from '@dcg/contract-schema';

export const STORAGE_TEMPLATE = 'urn:dmb:itm:storage:1';
export const PORT_TEMPLATE = 'urn:dmb:itm:outputport:1';
export const GUARDIAN_TEMPLATE = 'urn:dmb:itm:ge-guardian:1';
export const STORAGE = 'urn:dmb:cmp:finance:orders:0:storage';
export const ORDERS_PORT = 'urn:dmb:cmp:finance:orders:0:orders-port';
export const GUARDIAN = 'urn:dmb:cmp:finance:orders:0:guardian';

/** A data product with storage, a data-contract output port and a guardian (in that order). */
export function ordersSystem(overrides: Partial<SystemDescriptor> = {}): SystemDescriptor {
  return {
    id: 'urn:dmb:dp:finance:orders:0',
    name: 'Orders',
    kind: 'dataproduct',
    domain: 'finance',
    version: '0.1.0',
    owner: 'user:alice',
    components: [
      { id: STORAGE, name: 'Storage', kind: 'storage', infrastructureTemplateId: STORAGE_TEMPLATE },
      {
        id: ORDERS_PORT,
        name: 'Orders port',
        kind: 'outputport',
        consumable: true,
        __dataContractEnabled: true,
        dataContract: { schema: [{ name: 'id', dataType: 'string', constraint: 'PRIMARY_KEY' }] },
        infrastructureTemplateId: PORT_TEMPLATE,
      },
      {
        id: GUARDIAN,
        name: 'Guardian',
        kind: 'workload',
        infrastructureTemplateId: GUARDIAN_TEMPLATE,
        __dataContractGuardianSpec: { guards: [{ dataContractId: ORDERS_PORT }] },
      },
      { id: 'urn:dmb:cmp:finance:orders:0:docs', name: 'Docs', kind: 'workload' },
    ],
    ...overrides,
  };
}
