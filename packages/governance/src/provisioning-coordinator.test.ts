import { getGuardianPolicyId, stringifyDescriptorYaml } from '@dcg/contract-schema';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeGovernance, inMemoryGovernance } from './__fixtures__/in-memory-governance';
import {
  GUARDIAN,
  GUARDIAN_TEMPLATE,
  ORDERS_PORT,
  ordersSystem,
  PORT_TEMPLATE,
  STORAGE,
  STORAGE_TEMPLATE,
} from './__fixtures__/orders-system';
import {
  type TechAdapter as Adapter,
  type AdapterBehaviour,
  startTechAdapter,
} from './__fixtures__/tech-adapter-server';
import { GovernanceError } from './errors';
import type { Governance } from './governance';
import type { GovernanceEventMap } from './governance-events';
import type { ProvisioningPlan } from './provisioning-plan';

describe('ProvisioningCoordinator against real tech adapters over HTTP', () => {
  let governance: Governance;
  let adapter: Adapter;
  let guardianAdapter: Adapter;
  const behaviours: Record<string, AdapterBehaviour> = {};
  const guardianBehaviours: Record<string, AdapterBehaviour> = {};
  const deployed: Array<GovernanceEventMap['system.deployed']> = [];
  const undeployed: Array<GovernanceEventMap['system.undeployed']> = [];
  let policyId: string;

  beforeAll(async () => {
    adapter = await startTechAdapter(behaviours);
    guardianAdapter = await startTechAdapter(guardianBehaviours, '/guardian');
    governance = await inMemoryGovernance(400);
    governance.events.on('system.deployed', (e) => {
      deployed.push(e);
    });
    governance.events.on('system.undeployed', (e) => {
      undeployed.push(e);
    });
    await governance.templates.register({
      id: STORAGE_TEMPLATE,
      name: 'Storage',
      url: adapter.url,
    });
    await governance.templates.register({ id: PORT_TEMPLATE, name: 'Port', url: adapter.url });
    const guardian = await governance.templates.register({
      id: GUARDIAN_TEMPLATE,
      name: 'GE guardian',
      url: guardianAdapter.url,
      properties: {
        dataContractGuardian: {
          policies: [
            { resourceType: 'dataproduct', spec: { name: 'DP contracts', description: 'quality' } },
          ],
        },
      },
    });
    policyId = guardian.policies[0]!.policyId;
  });
  afterEach(() => {
    for (const key of Object.keys(behaviours)) delete behaviours[key];
    for (const key of Object.keys(guardianBehaviours)) delete guardianBehaviours[key];
    adapter.received.length = 0;
    guardianAdapter.received.length = 0;
    adapter.validated.length = 0;
    guardianAdapter.validated.length = 0;
  });
  afterAll(async () => {
    await closeGovernance(governance);
    await adapter.close();
    await guardianAdapter.close();
  });

  const run = async (
    operation: 'deploy' | 'undeploy',
    body: Parameters<Governance['coordinator']['deploy']>[0],
  ) => {
    const started = await governance.coordinator[operation](body);
    expect(started.status).toBe('running');
    await governance.coordinator.idle();
    return governance.coordinator.getPlan(started.id);
  };

  it('deploys in order, hands the guardian its passive policy (202 + polling) and stores merged info', async () => {
    guardianBehaviours[GUARDIAN] = { kind: 'async', polls: 3 };
    behaviours[ORDERS_PORT] = { kind: 'info-merge', publicInfo: { endpoint: 'jdbc:x' } };
    const plan = await run('deploy', {
      environment: 'production',
      descriptor: stringifyDescriptorYaml(ordersSystem()),
    });
    expect(plan.status).toBe('completed');
    expect(plan.tasks.map((t) => [t.componentId, t.status])).toEqual([
      [STORAGE, 'completed'],
      [ORDERS_PORT, 'completed'],
      [GUARDIAN, 'completed'],
    ]);
    expect(adapter.received.map((r) => r.descriptor.componentIdToProvision)).toEqual([
      STORAGE,
      ORDERS_PORT,
    ]);
    const sent = guardianAdapter.received[0]!.descriptor;
    const sentGuardian = sent.dataProduct.components!.find((c) => c.id === GUARDIAN)!;
    expect(getGuardianPolicyId(sentGuardian)).toBe(policyId);
    // The guardian sees the info earlier components stored.
    expect(
      sent.dataProduct.components!.find((c) => c.id === ORDERS_PORT)!.info?.publicInfo,
    ).toEqual({ endpoint: 'jdbc:x' });
    const instance = await governance.store.getInstance(
      'urn:dmb:dp:finance:orders:0',
      'production',
    );
    const stored = (instance!.descriptor.components as Array<{ id: string; info?: unknown }>).find(
      (c) => c.id === GUARDIAN,
    )!;
    expect(getGuardianPolicyId(stored)).toBe(policyId);
    expect(deployed.at(-1)).toMatchObject({
      systemId: 'urn:dmb:dp:finance:orders:0',
      environment: 'production',
      planId: plan.id,
    });
    const guardianTask = plan.tasks[2]!;
    expect(guardianTask.logs.some((l) => l.message.includes(`passive policy ${policyId}`))).toBe(
      true,
    );
    expect(getGuardianPolicyId({ info: guardianTask.info })).toBe(policyId);
    const view = await governance.marketplace.getInstance(
      'urn:dmb:dp:finance:orders:0',
      'production',
    );
    expect(view?.components.find((c) => c.id === ORDERS_PORT)).toMatchObject({
      dataContract: true,
      compliance: { status: 'unknown' },
    });
  });

  it('reads the deployed descriptor for the marketplace: public info kept, private info left out', async () => {
    behaviours[ORDERS_PORT] = { kind: 'info-merge', publicInfo: { endpoint: 'jdbc:orders' } };
    const plan = await run('deploy', { environment: 'descriptor-env', descriptor: ordersSystem() });
    expect(plan.status).toBe('completed');
    const read = await governance.marketplace.getDeployedDescriptor(
      'urn:dmb:dp:finance:orders:0',
      'descriptor-env',
    );
    expect(read).toMatchObject({
      systemId: 'urn:dmb:dp:finance:orders:0',
      environment: 'descriptor-env',
      planId: plan.id,
    });
    const components = read!.descriptor.components as Array<{ id: string; info?: object }>;
    const port = components.find((c) => c.id === ORDERS_PORT)!;
    expect(port).toMatchObject({
      dataContract: ordersSystem().components![1]!.dataContract,
      info: { publicInfo: { endpoint: 'jdbc:orders' } },
    });
    // The adapters stored private info (the guardian's policy id, the adapter's own): none shows.
    const stored = await governance.store.getInstance(
      'urn:dmb:dp:finance:orders:0',
      'descriptor-env',
    );
    expect(JSON.stringify(stored!.descriptor)).toContain('privateInfo');
    expect(JSON.stringify(read!.descriptor)).not.toContain('privateInfo');
    // Without an environment: the latest deployment of the system.
    const latest = await governance.marketplace.getDeployedDescriptor(
      'urn:dmb:dp:finance:orders:0',
    );
    expect(latest?.deployedAt).toBe(
      (await governance.store.listInstances({ systemId: 'urn:dmb:dp:finance:orders:0' }))
        .map((i) => i.deployedAt)
        .sort()
        .at(-1),
    );
    expect(
      await governance.marketplace.getDeployedDescriptor('urn:dmb:dp:finance:orders:0', 'nowhere'),
    ).toBeNull();
    expect(await governance.marketplace.getDeployedDescriptor('urn:dmb:dp:none:x:0')).toBeNull();
  });

  it('accepts info: null from a guardian and keeps the input info', async () => {
    guardianBehaviours[GUARDIAN] = { kind: 'info-null' };
    const plan = await run('deploy', { environment: 'qa', descriptor: ordersSystem() });
    expect(plan.status).toBe('completed');
    expect(getGuardianPolicyId({ info: plan.tasks[2]!.info })).toBe(policyId);
  });

  it.each([
    ['drops', { kind: 'info-drop' } as const],
    ['leaves out', { kind: 'info-absent' } as const],
  ])(
    'fails the task when the guardian adapter %s the input info, saying the policy id would be lost',
    async (_label, behaviour) => {
      guardianBehaviours[GUARDIAN] = behaviour;
      const plan = await run('deploy', { environment: 'dev-info', descriptor: ordersSystem() });
      expect(plan.status).toBe('failed');
      // The guardian was provisioned before its answer was refused: the plan undoes all three.
      expect(plan.tasks.map((t) => t.status)).toEqual([
        'rolled_back',
        'rolled_back',
        'rolled_back',
      ]);
      expect(plan.rollback).toEqual({
        rolledBack: [GUARDIAN, ORDERS_PORT, STORAGE],
        remaining: [],
        uncertain: [],
      });
      expect(plan.tasks[2]!.errors[0]).toContain(`"${policyId}"`);
      expect(plan.tasks[2]!.errors[0]).toMatch(/would be lost/);
      expect(
        await governance.store.getInstance('urn:dmb:dp:finance:orders:0', 'dev-info'),
      ).toBeNull();
    },
  );

  const guardianFirst = (templateId: string, kind = 'dataproduct') => {
    const system = ordersSystem({ kind });
    const [storage, port, guardian] = system.components!;
    return {
      ...system,
      components: [storage!, { ...guardian!, infrastructureTemplateId: templateId }, port!],
    };
  };

  it('terminates the plan when the guardian template is not registered, provisioning nothing', async () => {
    const plan = await run('deploy', {
      environment: 'dev',
      descriptor: guardianFirst('urn:dmb:itm:missing:1'),
    });
    expect(plan.status).toBe('terminated');
    expect(plan.errors[0]).toContain(GUARDIAN);
    expect(plan.errors[0]).toContain('urn:dmb:itm:missing:1');
    expect(plan.errors[0]).toMatch(/not registered/);
    // The whole plan is checked first: the storage before the guardian is not provisioned.
    expect(plan.tasks.map((t) => t.status)).toEqual(['skipped', 'failed', 'skipped']);
    expect(adapter.received).toHaveLength(0);
    expect(plan.rollback).toBeUndefined();
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
  ])('terminates the plan when a guardian has no infrastructureTemplateId (%s)', async (_l, id) => {
    const system = ordersSystem();
    const guardian = system.components![2]!;
    if (id === undefined) delete guardian.infrastructureTemplateId;
    else guardian.infrastructureTemplateId = id;
    const plan = await run('deploy', { environment: 'dev', descriptor: system });
    expect(plan.status).toBe('terminated');
    expect(plan.errors[0]).toMatch(
      /Guardian component ".*guardian" has no infrastructureTemplateId/,
    );
    expect(plan.tasks.map((t) => [t.componentId, t.status])).toEqual([
      [STORAGE, 'skipped'],
      [ORDERS_PORT, 'skipped'],
      [GUARDIAN, 'failed'],
    ]);
    expect(adapter.received).toHaveLength(0);
    expect(await governance.store.getInstance('urn:dmb:dp:finance:orders:0', 'dev')).toBeNull();
  });

  it.each([
    ['is not a component of the system', 'urn:dmb:cmp:finance:orders:0:nowhere'],
    ['is not a data contract', STORAGE],
  ])('terminates the plan when a guard %s, provisioning nothing', async (message, target) => {
    const system = ordersSystem();
    system.components![2]!.__dataContractGuardianSpec = { guards: [{ dataContractId: target }] };
    const plan = await run('deploy', { environment: 'dev', descriptor: system });
    expect(plan.status).toBe('terminated');
    expect(plan.errors[0]).toContain(`guards[0].dataContractId "${target}" ${message}`);
    expect(adapter.received).toHaveLength(0);
    expect(guardianAdapter.received).toHaveLength(0);
  });

  it('asks every adapter to validate first, and provisions nothing when one refuses', async () => {
    guardianBehaviours[GUARDIAN] = { kind: 'validate-refuses', message: 'no such bucket' };
    const plan = await run('deploy', { environment: 'dev', descriptor: ordersSystem() });
    expect(plan.status).toBe('failed');
    expect(plan.errors[0]).toMatch(/refused it at validation: no such bucket/);
    expect(adapter.validated).toEqual([STORAGE, ORDERS_PORT]);
    expect(guardianAdapter.validated).toEqual([GUARDIAN]);
    expect(adapter.received).toHaveLength(0);
    expect(plan.tasks.map((t) => t.status)).toEqual(['skipped', 'skipped', 'failed']);
  });

  it('rolls back what it provisioned, in reverse order, when a later component fails', async () => {
    guardianBehaviours[GUARDIAN] = { kind: 'failed', message: 'cannot schedule the checks' };
    const plan = await run('deploy', { environment: 'rb', descriptor: ordersSystem() });
    expect(plan.status).toBe('failed');
    expect(plan.tasks.map((t) => t.status)).toEqual(['rolled_back', 'rolled_back', 'failed']);
    expect(adapter.received.map((r) => [r.operation, r.descriptor.componentIdToProvision])).toEqual(
      [
        ['provision', STORAGE],
        ['provision', ORDERS_PORT],
        ['unprovision', ORDERS_PORT],
        ['unprovision', STORAGE],
      ],
    );
    expect(plan.rollback).toEqual({
      rolledBack: [ORDERS_PORT, STORAGE],
      remaining: [],
      uncertain: [],
    });
    expect(plan.errors.at(-1)).toContain(
      `rolled back (unprovisioned, in reverse order): ${ORDERS_PORT}, ${STORAGE}`,
    );
    expect(await governance.store.getInstance('urn:dmb:dp:finance:orders:0', 'rb')).toBeNull();
  });

  it('reports exactly which components remain when a rollback step fails', async () => {
    behaviours[STORAGE] = { kind: 'unprovision-fails' };
    guardianBehaviours[GUARDIAN] = { kind: 'failed', message: 'cannot schedule the checks' };
    const plan = await run('deploy', { environment: 'rb', descriptor: ordersSystem() });
    expect(plan.rollback).toEqual({
      rolledBack: [ORDERS_PORT],
      remaining: [STORAGE],
      uncertain: [],
    });
    expect(plan.tasks[0]!.status).toBe('completed');
    expect(plan.tasks[0]!.errors[0]).toMatch(/rollback failed.*cannot delete the bucket/);
    expect(plan.errors.at(-1)).toContain(`still provisioned: ${STORAGE}`);
    const stored = await governance.coordinator.getPlan(plan.id);
    expect(stored.rollback).toEqual(plan.rollback);
  });

  it('accepts a guardian adapter that echoes the info it received (publicInfo included)', async () => {
    guardianBehaviours[GUARDIAN] = { kind: 'info-echo' };
    const plan = await run('deploy', { environment: 'echo', descriptor: ordersSystem() });
    expect(plan.status).toBe('completed');
    const sent = guardianAdapter.received[0]!.descriptor.dataProduct.components!.find(
      (c) => c.id === GUARDIAN,
    )!;
    expect(sent.info).toEqual({
      publicInfo: {},
      privateInfo: { __dataContractGuardian: { policyId } },
    });
    expect(plan.tasks[2]!.info).toEqual(sent.info);
  });

  it('sends a component info with both publicInfo and privateInfo, so an echo is valid', async () => {
    behaviours[ORDERS_PORT] = { kind: 'info-echo' };
    const system = ordersSystem();
    system.components![1]!.info = { privateInfo: { table: 'orders' } };
    const plan = await run('deploy', { environment: 'echo-port', descriptor: system });
    expect(plan.status).toBe('completed');
    expect(plan.tasks[1]!.info).toEqual({ publicInfo: {}, privateInfo: { table: 'orders' } });
  });

  it('terminates the plan when the guardian template is not a guardian template', async () => {
    const plan = await run('deploy', {
      environment: 'dev',
      descriptor: guardianFirst(STORAGE_TEMPLATE),
    });
    expect(plan.status).toBe('terminated');
    expect(plan.errors[0]).toContain(GUARDIAN);
    expect(plan.errors[0]).toContain(STORAGE_TEMPLATE);
    expect(plan.errors[0]).toMatch(/not a guardian template/);
  });

  it('terminates the plan when the guardian template has no policy for the system resource type', async () => {
    const plan = await run('deploy', {
      environment: 'dev',
      descriptor: guardianFirst(GUARDIAN_TEMPLATE, 'biproject'),
    });
    expect(plan.status).toBe('terminated');
    expect(plan.errors[0]).toContain(GUARDIAN_TEMPLATE);
    expect(plan.errors[0]).toContain('"biproject"');
    expect(guardianAdapter.received).toHaveLength(0);
  });

  it('fails the plan on FAILED, on error answers and on a token that never finishes (bounded polling)', async () => {
    behaviours[STORAGE] = { kind: 'failed', message: 'bucket quota exceeded' };
    const failed = await run('deploy', { environment: 'dev', descriptor: ordersSystem() });
    expect(failed.status).toBe('failed');
    expect(failed.errors[0]).toContain('bucket quota exceeded');
    expect(failed.tasks.map((t) => t.status)).toEqual(['failed', 'skipped', 'skipped']);

    behaviours[STORAGE] = { kind: 'http-error', status: 500 };
    const crashed = await run('deploy', { environment: 'dev', descriptor: ordersSystem() });
    expect(crashed.errors[0]).toMatch(/answered 500: Internal adapter problem/);

    behaviours[STORAGE] = { kind: 'never-finishes' };
    const started = Date.now();
    const stuck = await run('deploy', { environment: 'dev', descriptor: ordersSystem() });
    expect(stuck.status).toBe('failed');
    expect(stuck.errors[0]).toMatch(/still RUNNING after 400 ms/);
    // Polling gave up: the storage may exist after all, and the plan says so.
    expect(stuck.rollback).toEqual({ rolledBack: [], remaining: [], uncertain: [STORAGE] });
    expect(failed.rollback).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('fails a task whose adapter is unreachable', async () => {
    await governance.templates.register({
      id: STORAGE_TEMPLATE,
      name: 'Storage',
      url: 'http://127.0.0.1:1/x',
    });
    try {
      const plan = await run('deploy', { environment: 'dev', descriptor: ordersSystem() });
      expect(plan.status).toBe('failed');
      expect(plan.errors[0]).toMatch(/cannot be reached/);
    } finally {
      await governance.templates.register({
        id: STORAGE_TEMPLATE,
        name: 'Storage',
        url: adapter.url,
      });
    }
  });

  it("sends the plan's environment in the descriptor (dataProduct.environment), over the descriptor's own", async () => {
    const plan = await run('deploy', {
      environment: 'qa',
      descriptor: { ...ordersSystem(), environment: 'production' },
    });
    expect(plan.status).toBe('completed');
    expect(guardianAdapter.received[0]!.descriptor.dataProduct.environment).toBe('qa');
    expect(adapter.received.map((r) => r.descriptor.dataProduct.environment)).toEqual(['qa', 'qa']);
    guardianAdapter.received.length = 0;
    const undeployed = await run('undeploy', {
      environment: 'qa',
      systemId: 'urn:dmb:dp:finance:orders:0',
    });
    expect(undeployed.status).toBe('completed');
    expect(guardianAdapter.received[0]).toMatchObject({ operation: 'unprovision' });
    expect(guardianAdapter.received[0]!.descriptor.dataProduct.environment).toBe('qa');
  });

  it('undeploys in reverse order with the stored info and removes the instance', async () => {
    const deployedPlan = await run('deploy', {
      environment: 'staging',
      descriptor: ordersSystem(),
    });
    expect(deployedPlan.status).toBe('completed');
    adapter.received.length = 0;
    guardianAdapter.received.length = 0;
    const plan = await run('undeploy', {
      environment: 'staging',
      systemId: 'urn:dmb:dp:finance:orders:0',
      removeData: true,
    });
    expect(plan.status).toBe('completed');
    expect(plan.tasks.map((t) => t.componentId)).toEqual([GUARDIAN, ORDERS_PORT, STORAGE]);
    expect(guardianAdapter.received[0]).toMatchObject({
      operation: 'unprovision',
      removeData: true,
    });
    const sentGuardian = guardianAdapter.received[0]!.descriptor.dataProduct.components!.find(
      (c) => c.id === GUARDIAN,
    )!;
    expect(getGuardianPolicyId(sentGuardian)).toBe(policyId);
    expect(await governance.store.getInstance('urn:dmb:dp:finance:orders:0', 'staging')).toBeNull();
    expect(undeployed.at(-1)).toMatchObject({
      systemId: 'urn:dmb:dp:finance:orders:0',
      environment: 'staging',
    });
  });

  it('refuses bad requests before creating a plan', async () => {
    const code = async (body: unknown) => {
      try {
        await governance.coordinator.deploy(body as never);
        return 'accepted';
      } catch (error) {
        return GovernanceError.isInstance(error)
          ? `${error.code} ${error.issues.map((i) => i.path).join(',')}`
          : 'other';
      }
    };
    expect(await code({ descriptor: ordersSystem() })).toBe('invalid_input $.environment');
    expect(await code({ environment: 'x' })).toBe('invalid_input $.descriptor');
    expect(await code({ environment: 'x', descriptor: 'a: [' })).toBe('invalid_input $.descriptor');
    expect(await code({ environment: 'x', descriptor: { id: 'urn:x', components: [{}] } })).toMatch(
      /^invalid_input .*\$\.descriptor\.kind/,
    );
    expect(await code(['not', 'an', 'object'])).toBe('invalid_input $');
    await expect(
      governance.coordinator.undeploy({ environment: 'nowhere', systemId: 'urn:none' }),
    ).rejects.toSatisfy((e) => GovernanceError.isInstance(e) && e.code === 'not_found');
  });

  /** A deploy plan stored as running, as a process that stopped mid-plan left it. */
  const runningPlan = (id: string, tasks: ProvisioningPlan['tasks']): ProvisioningPlan => {
    const now = new Date().toISOString();
    return {
      id,
      operation: 'deploy',
      environment: 'dev',
      systemId: 's',
      systemKind: 'dataproduct',
      status: 'running',
      createdAt: now,
      updatedAt: now,
      errors: [],
      descriptor: {},
      tasks,
    };
  };

  it('marks plans interrupted by a restart as failed', async () => {
    await governance.store.createPlan(
      runningPlan('interrupted', [
        { componentId: 'a', templateId: 't', status: 'running', logs: [], errors: [] },
        { componentId: 'b', templateId: 't', status: 'pending', logs: [], errors: [] },
      ]),
    );
    expect(await governance.coordinator.recoverInterrupted()).toBeGreaterThanOrEqual(1);
    const plan = await governance.coordinator.getPlan('interrupted');
    expect(plan.status).toBe('failed');
    expect(plan.tasks.map((t) => t.status)).toEqual(['failed', 'skipped']);
    expect(plan.rollback).toEqual({ rolledBack: [], remaining: [], uncertain: ['a'] });
  });

  it('after a restart, lists the components an interrupted deploy left provisioned', async () => {
    const task = (
      componentId: string,
      status: 'completed' | 'running' | 'pending' | 'rolled_back',
    ) => ({
      componentId,
      templateId: 't',
      status,
      logs: [],
      errors: [],
    });
    await governance.store.createPlan(
      runningPlan('interrupted-later', [
        task('a', 'completed'),
        task('b', 'completed'),
        task('c', 'running'),
        task('d', 'pending'),
      ]),
    );
    await governance.coordinator.recoverInterrupted();
    const plan = await governance.coordinator.getPlan('interrupted-later');
    expect(plan.rollback).toEqual({ rolledBack: [], remaining: ['a', 'b'], uncertain: ['c'] });
    expect(plan.errors.at(-1)).toBe(
      'still provisioned: a, b; possibly provisioned (its call ended without a COMPLETED or FAILED status, or the service stopped during it): c',
    );
  });
});
