import type { Governance } from '@dcg/governance';

export const POLICY = 'catalog-guardian-policy';
export const SHOP = 'urn:dmb:dp:sales:shop:0';
export const ORDERS = 'urn:dmb:cmp:sales:shop:0:orders-port';
export const UNGUARDED = 'urn:dmb:cmp:sales:shop:0:refunds-port';
export const LEDGER = 'urn:dmb:dp:finance:ledger:0';
export const ENTRIES = 'urn:dmb:cmp:finance:ledger:0:entries-port';
export const EMPTY = 'urn:dmb:dp:ops:empty:0';

const port = (id: string, name: string) => ({
  id,
  name,
  kind: 'outputport',
  __dataContractEnabled: true,
  dataContract: {
    schema: [
      { name: 'order_id', dataType: 'string', constraint: 'PRIMARY_KEY' },
      { name: 'amount', dataType: 'decimal', constraint: 'NOT_NULL', description: 'Gross amount' },
      { name: 'note', dataType: 'string' },
    ],
    quality: [{ metric: 'rowCount', mustBeGreaterThan: 0, name: 'never empty' }],
    SLA: { timeliness: '2 hours', upTime: '99.9%' },
  },
});

// A guardian as the coordinator stores it: the policy id in its private info.
const guardian = (id: string, guards: string[]) => ({
  id,
  name: 'Guardian',
  kind: 'workload',
  __dataContractGuardianSpec: { guards: guards.map((dataContractId) => ({ dataContractId })) },
  info: { publicInfo: {}, privateInfo: { __dataContractGuardian: { policyId: POLICY } } },
});

const record = (key: string, compliant: boolean, name?: string) => ({
  key,
  ...(name ? { name } : {}),
  compliant,
  ...(compliant ? {} : { issues: ['12 rows break it'] }),
});

/**
 * Three deployed systems for the catalog pages: Shop (violated, with an unguarded contract, a
 * description, a domain URN and an owner), Accounts ledger (compliant) and Aardvark tools (no
 * contract), one passive policy their guardians report under. Answers the first result's number.
 */
export async function seedCatalog(governance: Governance): Promise<{ firstSeq: number }> {
  let firstSeq = 0;
  await governance.policies.create({
    id: POLICY,
    name: 'Data product contracts',
    description: 'Monitors data contracts',
    resourceType: 'dataproduct',
    trigger: 'passive',
  });
  await governance.store.putInstance({
    systemId: SHOP,
    environment: 'production',
    deployedAt: '2026-11-22T09:00:00.000Z',
    planId: 'plan-shop',
    descriptor: {
      id: SHOP,
      name: 'Shop',
      kind: 'dataproduct',
      domain: 'urn:dmb:dmn:sales',
      description: 'Orders placed in the web shop',
      dataProductOwner: 'user:jane.doe',
      dataProductOwnerDisplayName: 'Jane Doe',
      components: [
        port(ORDERS, 'Orders'),
        port(UNGUARDED, 'Refunds'),
        guardian('urn:dmb:cmp:sales:shop:0:guardian', [ORDERS]),
      ],
    },
  });
  await governance.store.putInstance({
    systemId: LEDGER,
    environment: 'production',
    deployedAt: '2026-11-22T09:00:00.000Z',
    planId: 'plan-ledger',
    descriptor: {
      id: LEDGER,
      name: 'Accounts ledger',
      kind: 'dataproduct',
      domain: 'finance',
      owner: 'team-finance',
      components: [
        port(ENTRIES, 'Entries'),
        guardian('urn:dmb:cmp:finance:ledger:0:guardian', [ENTRIES]),
      ],
    },
  });
  await governance.store.putInstance({
    systemId: EMPTY,
    environment: 'production',
    deployedAt: '2026-11-22T09:00:00.000Z',
    planId: 'plan-empty',
    descriptor: { id: EMPTY, name: 'Aardvark tools', kind: 'dataproduct', components: [] },
  });
  const submit = (contract: string, satisfiesPolicy: boolean, records: unknown[]) =>
    governance.results.submit({
      policyId: POLICY,
      environment: 'production',
      body: [
        {
          resource: { id: contract, descriptor: '' },
          result: { satisfiesPolicy, details: { results: { root: records } } },
        },
      ],
    });
  firstSeq = (await submit(ORDERS, true, [record('amount_not_null', true, 'amount is never null')]))
    .seq;
  await submit(ORDERS, false, [
    record('amount_not_null', false, 'amount is never null'),
    record('order_id_unique', true),
  ]);
  await submit(ENTRIES, true, [record('row_count', true)]);
  return { firstSeq };
}
