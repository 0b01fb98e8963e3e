import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDERS_PORT, ordersSystem, STORAGE } from './__fixtures__/orders-system';
import { findDataContract } from './data-contract-lookup';
import { createGovernance, type Governance } from './governance';
import { openSqliteStore } from './storage/sqlite';

const SYSTEM = 'urn:dmb:dp:finance:orders:0';
const PORT = ORDERS_PORT;
const WORKLOAD = STORAGE;
const TABLE_INFO = { table: { type: 'string', label: 'Table', value: 'orders' } };
const GONE = 'urn:dmb:cmp:finance:legacy:0:port';

const submission = (contract: string, satisfiesPolicy: boolean, compliant: boolean) => [
  {
    resource: { id: contract, descriptor: '' },
    result: { satisfiesPolicy, details: { results: { root: [{ key: 'id_unique', compliant }] } } },
  },
];

describe('MarketplaceProjection for the marketplace pages', () => {
  let governance: Governance;
  beforeAll(async () => {
    governance = createGovernance(await openSqliteStore({ file: ':memory:' }), {
      results: { acceptUnguarded: true },
    });
    await governance.policies.create({
      id: 'contracts',
      name: 'Orders contracts',
      resourceType: 'dataproduct',
      trigger: 'passive',
    });
    // The orders system as the coordinator stores it: the port with the info its adapter returned.
    const system = ordersSystem();
    await governance.store.putInstance({
      systemId: system.id,
      environment: 'production',
      deployedAt: '2026-11-22T09:00:00.000Z',
      planId: 'plan-1',
      descriptor: {
        ...system,
        components: system.components?.map((component) =>
          component.id === PORT
            ? {
                ...component,
                info: { publicInfo: TABLE_INFO, privateInfo: { secret: 'never shown' } },
              }
            : { ...component, info: { publicInfo: {}, privateInfo: {} } },
        ),
      },
    });
  });
  afterAll(() => governance.store.close());

  const submit = (contract: string, satisfiesPolicy: boolean, compliant: boolean) =>
    governance.results.submit({
      policyId: 'contracts',
      environment: 'production',
      body: submission(contract, satisfiesPolicy, compliant),
    });

  it('shows the public info of a component, never its private info', async () => {
    const view = await governance.marketplace.getInstance(SYSTEM, 'production');
    const port = view?.components.find((c) => c.id === PORT);
    expect(port?.publicInfo).toEqual({
      table: { type: 'string', label: 'Table', value: 'orders' },
    });
    expect(JSON.stringify(view)).not.toContain('never shown');
    // An empty publicInfo is no information.
    expect(view?.components.find((c) => c.id === WORKLOAD)).not.toHaveProperty('publicInfo');
  });

  it('says when satisfiesPolicy overrides the records, and lists the states newest first', async () => {
    await submit(PORT, true, false);
    const overridden = await governance.marketplace.getContractCompliance(PORT, 'production');
    expect(overridden).toMatchObject({
      status: 'compliant',
      counts: { compliant: 0, failing: 1 },
      override: { code: 'compliant_despite_failing' },
    });
    await submit(PORT, false, false);
    await submit(PORT, false, true);
    expect(
      (await governance.marketplace.getContractCompliance(PORT, 'production')).override?.code,
    ).toBe('violated_without_failing');
    await submit(PORT, false, false);
    expect(
      await governance.marketplace.getContractCompliance(PORT, 'production'),
    ).not.toHaveProperty('override');

    const states = await governance.marketplace.listContractStates(PORT, 'production', {
      limit: 3,
      offset: 0,
    });
    expect(states.meta.pagination.total).toBe(4);
    expect(states.data.map((s) => s.status)).toEqual(['violated', 'violated', 'violated']);
    const older = await governance.marketplace.listContractStates(PORT, 'production', {
      limit: 3,
      offset: 3,
    });
    expect(older.data.map((s) => [s.status, s.policyId])).toEqual([['compliant', 'contracts']]);
  });

  it('finds policies by id to show them by name', async () => {
    expect(
      (await governance.marketplace.getPolicies(['contracts', 'missing'])).map((p) => p.name),
    ).toEqual(['Orders contracts']);
    expect(await governance.marketplace.getPolicies([])).toEqual([]);
  });

  it('tells a data contract from a component that is not one and from an unknown id', async () => {
    const contract = await findDataContract(governance.marketplace, PORT, 'production');
    expect(contract.kind).toBe('data-contract');
    expect(contract.kind === 'data-contract' && contract.instances.map((i) => i.systemId)).toEqual([
      SYSTEM,
    ]);

    const workload = await findDataContract(governance.marketplace, WORKLOAD, 'production');
    expect(workload).toMatchObject({
      kind: 'not-a-data-contract',
      instance: { systemId: SYSTEM },
      component: { id: WORKLOAD, name: 'Storage' },
    });

    expect((await findDataContract(governance.marketplace, PORT, 'staging')).kind).toBe('unknown');
    expect((await findDataContract(governance.marketplace, GONE, 'production')).kind).toBe(
      'unknown',
    );
    // A contract whose system is gone stays known by its results.
    await submit(GONE, true, true);
    expect(await findDataContract(governance.marketplace, GONE, 'production')).toMatchObject({
      kind: 'data-contract',
      instances: [],
      compliance: { status: 'compliant' },
    });
  });
});
