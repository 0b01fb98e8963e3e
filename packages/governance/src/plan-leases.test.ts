import { afterEach, describe, expect, it } from 'vitest';
import { createGovernance, type Governance } from './governance';
import type { ProvisioningPlan } from './provisioning-plan';
import { openSqliteStore } from './storage/sqlite';

const running = (id: string): ProvisioningPlan => {
  const now = new Date().toISOString();
  return {
    id,
    operation: 'deploy',
    environment: 'dev',
    systemId: 'urn:dmb:dp:leases:0',
    systemKind: 'dataproduct',
    status: 'running',
    createdAt: now,
    updatedAt: now,
    errors: [],
    descriptor: {},
    tasks: [{ componentId: 'a', templateId: 't', status: 'running', logs: [], errors: [] }],
  };
};

describe('PlanLeases.start', () => {
  const opened: Governance[] = [];
  afterEach(async () => {
    for (const governance of opened.splice(0)) {
      await governance.leases.stop();
      await governance.store.close();
    }
  });

  it('marks the plans its own id left running at once, although that lease has not lapsed', async () => {
    const store = await openSqliteStore({ file: ':memory:' });
    // What a process killed mid-deploy left: its plan, and its lease, live for 30 s more.
    await store.renewLease('single', 30_000);
    await store.createPlan(running('own'), 'single');
    // Another live instance's plan is never touched.
    await store.renewLease('other', 30_000);
    await store.createPlan(running('other'), 'other');
    const governance = createGovernance(store, {
      instanceId: 'single',
      leases: { leaseMs: 30_000 },
    });
    opened.push(governance);
    expect(await governance.leases.start()).toBe(1);
    expect((await store.getPlan('own'))?.status).toBe('failed');
    expect((await store.getPlan('other'))?.status).toBe('running');
    await store.endLease('other');
  });
});
