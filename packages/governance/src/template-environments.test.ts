import { stringifyDescriptorYaml } from '@dcg/contract-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeGovernance, inMemoryGovernance } from './__fixtures__/in-memory-governance';
import {
  GUARDIAN_TEMPLATE,
  ORDERS_PORT,
  ordersSystem,
  PORT_TEMPLATE,
  STORAGE,
  STORAGE_TEMPLATE,
} from './__fixtures__/orders-system';
import { type TechAdapter as Adapter, startTechAdapter } from './__fixtures__/tech-adapter-server';
import { GovernanceError } from './errors';
import type { Governance } from './governance';

describe('template registrations per environment, through the coordinator', () => {
  let governance: Governance;
  let production: Adapter;
  let development: Adapter;
  let shared: Adapter;
  let policyId: string;

  beforeAll(async () => {
    [production, development, shared] = await Promise.all([
      startTechAdapter({}, '/production'),
      startTechAdapter({}, '/development'),
      startTechAdapter({}, '/shared'),
    ]);
    governance = await inMemoryGovernance(2000);
    // One id, two environments: the second registration must not overwrite the first.
    await governance.templates.register({
      id: STORAGE_TEMPLATE,
      name: 'Storage',
      url: production.url,
      environment: 'production',
    });
    await governance.templates.register({
      id: STORAGE_TEMPLATE,
      name: 'Storage',
      url: development.url,
      environment: 'development',
    });
    await governance.templates.register({ id: PORT_TEMPLATE, name: 'Port', url: shared.url });
    const guardian = await governance.templates.register({
      id: GUARDIAN_TEMPLATE,
      name: 'Guardian',
      url: shared.url,
      properties: {
        dataContractGuardian: {
          policies: [{ resourceType: 'dataproduct', spec: { name: 'DP', description: '' } }],
        },
      },
    });
    policyId = guardian.policies[0]!.policyId;
  });
  afterAll(async () => {
    await closeGovernance(governance);
    await Promise.all([production.close(), development.close(), shared.close()]);
  });

  const deploy = async (environment: string) => {
    const started = await governance.coordinator.deploy({
      environment,
      descriptor: stringifyDescriptorYaml(ordersSystem()),
    });
    await governance.coordinator.idle();
    return governance.coordinator.getPlan(started.id);
  };
  const storageCalls = (adapter: Adapter) =>
    adapter.received.filter((r) => r.descriptor.componentIdToProvision === STORAGE).length;

  it('keeps both registrations and resolves the one of the plan environment', async () => {
    expect((await governance.templates.get(STORAGE_TEMPLATE, 'production'))?.template.url).toBe(
      production.url,
    );
    expect(await governance.templates.environments(STORAGE_TEMPLATE)).toEqual([
      'development',
      'production',
    ]);
    expect((await deploy('development')).status).toBe('completed');
    expect([storageCalls(development), storageCalls(production)]).toEqual([1, 0]);
    expect((await deploy('production')).status).toBe('completed');
    expect([storageCalls(development), storageCalls(production)]).toEqual([1, 1]);
    // An environment-less registration serves every environment (the port and the guardian).
    expect(shared.received.length).toBe(4);
  });

  it('fails a plan in an environment the template is not registered for', async () => {
    const plan = await deploy('staging');
    expect(plan.status).toBe('failed');
    expect(plan.errors.join(' ')).toContain(
      `"${STORAGE_TEMPLATE}" is not registered for environment "staging"`,
    );
  });

  it('accepts results where the deployed guardian guards, and refuses them elsewhere', async () => {
    const body = [
      {
        resource: { id: ORDERS_PORT, descriptor: '' },
        result: { satisfiesPolicy: true, details: { results: {} } },
      },
    ];
    const accepted = await governance.results.submit({ policyId, environment: 'production', body });
    expect(accepted.status).toBe('compliant');
    // The staging plan failed before the guardian was deployed: nothing guards the port there.
    await expect(
      governance.results.submit({ policyId, environment: 'staging', body }),
    ).rejects.toSatisfy((e) => GovernanceError.isInstance(e) && e.code === 'conflict');
  });
});
