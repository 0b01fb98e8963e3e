import { stringifyDescriptorYaml } from '@dcg/contract-schema';

export const GUARDIAN_ID = 'urn:dmb:cmp:finance:orders:0:guardian';
export const ORDERS_PORT = 'urn:dmb:cmp:finance:orders:0:orders_port';
export const ODCS_PORT = 'urn:dmb:cmp:finance:orders:0:odcs_port';

export const witboostContract = {
  schema: [
    { name: 'order_id', dataType: 'string', constraint: 'PRIMARY_KEY' },
    { name: 'amount', dataType: 'decimal', constraint: 'NOT_NULL' },
    { name: 'updated_at', dataType: 'timestamp' },
  ],
  SLA: { intervalOfChange: '1 day', timeliness: '2 hours', upTime: '99.9%' },
  endpoint: 'sales.orders',
};

export const odcsContract = {
  apiVersion: 'v3.0.2',
  kind: 'DataContract',
  id: 'orders',
  servers: [
    {
      server: 'local',
      type: 'postgres',
      host: '127.0.0.1',
      port: 5432,
      database: 'test',
      schema: 'sales',
    },
  ],
  schema: [
    {
      name: 'orders',
      physicalName: 'orders',
      properties: [
        { name: 'order_id', logicalType: 'string', primaryKey: true },
        {
          name: 'amount',
          logicalType: 'number',
          physicalType: 'numeric(10,2)',
          required: true,
          quality: [{ type: 'library', metric: 'nullValues', mustBe: 0 }],
        },
        { name: 'updated_at', logicalType: 'date', physicalType: 'timestamptz' },
      ],
      quality: [
        { type: 'library', metric: 'rowCount', mustBeGreaterThan: 0 },
        { type: 'sql', query: 'SELECT COUNT(*) FROM sales.orders WHERE amount < 0', mustBe: 0 },
      ],
    },
  ],
  slaProperties: [{ property: 'latency', value: 2, unit: 'h', element: 'orders.updated_at' }],
};

export function system(
  options: {
    guards?: string[];
    policyId?: string | undefined;
    contract?: Record<string, unknown>;
    info?: Record<string, unknown>;
  } = {},
) {
  const info =
    options.info ??
    (options.policyId === undefined
      ? undefined
      : { privateInfo: { __dataContractGuardian: { policyId: options.policyId } } });
  return {
    id: 'urn:dmb:dp:finance:orders:0',
    name: 'Orders',
    kind: 'dataproduct',
    environment: 'production',
    components: [
      {
        id: ORDERS_PORT,
        name: 'Orders',
        kind: 'outputport',
        consumable: true,
        __dataContractEnabled: true,
        dataContract: options.contract ?? witboostContract,
      },
      { id: 'urn:dmb:cmp:finance:orders:0:storage', kind: 'storage' },
      {
        id: GUARDIAN_ID,
        name: 'Guardian',
        kind: 'workload',
        __dataContractGuardianSpec: {
          guards: (options.guards ?? [ORDERS_PORT]).map((dataContractId) => ({ dataContractId })),
        },
        ...(info === undefined ? {} : { info }),
      },
    ],
  };
}

export function provisioningRequest(dataProduct: unknown, componentIdToProvision = GUARDIAN_ID) {
  return {
    descriptorKind: 'COMPONENT_DESCRIPTOR',
    descriptor: stringifyDescriptorYaml({ dataProduct, componentIdToProvision }),
    removeData: false,
  };
}
