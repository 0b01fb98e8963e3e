import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GovernanceError } from '../errors';
import type { Policy } from '../policy';
import type { ProvisioningPlan } from '../provisioning-plan';
import type { GovernanceStore, NewEvaluationResult } from '../repositories';

const now = () => new Date().toISOString();

const policy = (id: string, overrides: Partial<Policy> = {}): Policy => ({
  id,
  name: `Policy ${id}`,
  description: `Checks ${id}`,
  resourceType: 'dataproduct',
  trigger: 'passive',
  status: 'enabled',
  environment: null,
  templateId: null,
  createdAt: now(),
  updatedAt: now(),
  ...overrides,
});

const result = (
  contractId: string,
  n: number,
  overrides: Partial<NewEvaluationResult> = {},
): NewEvaluationResult => ({
  contractId,
  policyId: 'p-results',
  environment: 'production',
  receivedAt: now(),
  submission: {
    resource: { id: contractId, descriptor: '' },
    result: { satisfiesPolicy: n % 2 === 0, details: { results: {}, n } },
  },
  detailsConform: true,
  status: n % 2 === 0 ? 'compliant' : 'violated',
  ...overrides,
});

/**
 * The behaviour every {@link GovernanceStore} must have. Each store's test file calls this with a
 * factory that opens its database: empty at first, the same one each time (the last test closes
 * the store and opens it again).
 *
 * @example
 * describeStoreConformance('sqlite', async () => openSqliteStore({ file: '/tmp/conformance.db' }));
 */
export function describeStoreConformance(
  name: string,
  open: () => Promise<GovernanceStore>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip ?? false)(`GovernanceStore conformance: ${name}`, () => {
    let store: GovernanceStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('saves a template with its policies and keeps unknown properties', async () => {
      const doc = {
        id: 'urn:dmb:itm:guardian:1',
        name: 'Guardian',
        url: 'http://a',
        properties: { extra: [1, { b: 'c' }] },
      };
      const saved = await store.saveTemplate(
        doc,
        [{ resourceType: 'dataproduct', name: 'DP contract', description: 'd' }],
        now(),
      );
      expect(saved.created).toHaveLength(1);
      expect(saved.created[0]).toMatchObject({
        resourceType: 'dataproduct',
        trigger: 'passive',
        templateId: doc.id,
      });
      const read = await store.getTemplate(doc.id);
      expect(read?.document).toEqual(doc);
      expect(await store.getPolicy(saved.created[0]!.id)).toEqual(saved.created[0]);
    });

    it('re-registering a template updates its policies instead of duplicating them', async () => {
      const doc = { id: 'urn:dmb:itm:guardian:2', name: 'G2', url: 'http://a' };
      const first = await store.saveTemplate(
        doc,
        [{ resourceType: 'biproject', name: 'A', description: '' }],
        now(),
      );
      const second = await store.saveTemplate(
        { ...doc, name: 'G2 renamed' },
        [{ resourceType: 'biproject', name: 'B', description: 'x' }],
        now(),
      );
      expect(second.created).toHaveLength(0);
      expect(second.updated).toHaveLength(1);
      expect(second.updated[0]!.id).toBe(first.created[0]!.id);
      expect((await store.getPolicy(first.created[0]!.id))?.name).toBe('B');
      expect((await store.getTemplate(doc.id))?.document.name).toBe('G2 renamed');
      const page = await store.listPolicies({ templateId: doc.id, limit: 100, offset: 0 });
      expect(page.data.map((p) => p.id)).toEqual([first.created[0]!.id]);
    });

    it('creates policies, refuses a duplicate id, filters and pages', async () => {
      await store.createPolicy(
        policy('list-1', { name: 'Alpha 100%_done', resourceType: 'rt-list' }),
      );
      await store.createPolicy(
        policy('list-2', { resourceType: 'rt-list', trigger: 'active', description: 'has BETA' }),
      );
      await store.createPolicy(policy('list-3', { resourceType: 'rt-list', status: 'draft' }));
      await expect(store.createPolicy(policy('list-1'))).rejects.toSatisfy(
        (e) => GovernanceError.isInstance(e) && e.code === 'conflict',
      );
      const all = await store.listPolicies({ resourceType: 'rt-list', limit: 2, offset: 0 });
      expect(all.meta.pagination).toEqual({ limit: 2, offset: 0, total: 3 });
      expect(all.data.map((p) => p.id)).toEqual(['list-1', 'list-2']);
      const rest = await store.listPolicies({ resourceType: 'rt-list', limit: 2, offset: 2 });
      expect(rest.data.map((p) => p.id)).toEqual(['list-3']);
      const ids = async (filter: Partial<Parameters<GovernanceStore['listPolicies']>[0]>) =>
        (await store.listPolicies({ limit: 10, offset: 0, ...filter })).data.map((p) => p.id);
      expect(await ids({ resourceType: 'rt-list', trigger: 'active' })).toEqual(['list-2']);
      expect(await ids({ text: 'beta' })).toEqual(['list-2']);
      // % and _ are literal characters, not patterns.
      expect(await ids({ text: '100%_' })).toEqual(['list-1']);
      expect(await ids({ text: '%', resourceType: 'rt-list' })).toEqual(['list-1']);
      expect(await ids({ resourceType: 'rt-list', status: 'draft' })).toEqual(['list-3']);
      expect(await store.getPolicies(['list-3', 'nope', 'list-1'])).toHaveLength(2);
      expect(await store.getPolicy('nope')).toBeNull();
    });

    it('keeps odd characters in ids and documents intact', async () => {
      const odd = 'ü\'"\\;--%_\u{1F600}\u0001';
      await store.createPolicy(policy(`odd-${odd}`, { name: odd, description: odd }));
      expect((await store.getPolicy(`odd-${odd}`))?.name).toBe(odd);
      // NUL is fine inside JSON documents; every store refuses it in keys and text columns.
      const inJson = `${odd}\u0000\ud800`;
      const stored = await store.appendResult(
        result(`urn:odd:${odd}`, 1, { submission: { text: inJson } }),
      );
      expect((await store.getCurrentResult(`urn:odd:${odd}`, 'production'))?.submission).toEqual({
        text: inJson,
      });
      expect(stored.seq).toBeGreaterThan(0);
      await expect(store.createPolicy(policy('nul\u0000id'))).rejects.toSatisfy(
        (e) => GovernanceError.isInstance(e) && e.code === 'invalid_input',
      );
      await expect(store.appendResult(result('nul\u0000', 1))).rejects.toSatisfy(
        (e) => GovernanceError.isInstance(e) && e.code === 'invalid_input',
      );
    });

    it('stores, updates and lists plans', async () => {
      const plan: ProvisioningPlan = {
        id: 'plan-1',
        operation: 'deploy',
        environment: 'development',
        systemId: 'urn:dmb:dp:a:b:0',
        systemKind: 'dataproduct',
        status: 'running',
        createdAt: now(),
        updatedAt: now(),
        tasks: [],
        errors: [],
        descriptor: { id: 'urn:dmb:dp:a:b:0' },
      };
      await store.createPlan(plan);
      expect((await store.listRunningPlans()).map((p) => p.id)).toContain('plan-1');
      await store.updatePlan({ ...plan, status: 'completed', updatedAt: now() });
      expect((await store.getPlan('plan-1'))?.status).toBe('completed');
      expect((await store.listRunningPlans()).map((p) => p.id)).not.toContain('plan-1');
      expect(await store.getPlan('missing')).toBeNull();
      await expect(store.updatePlan({ ...plan, id: 'missing' })).rejects.toSatisfy(
        (e) => GovernanceError.isInstance(e) && e.code === 'not_found',
      );
    });

    it('lists plans newest first, filtered by status and environment, paged', async () => {
      const at = (minute: number) => `2030-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
      const plan = (id: string, environment: string, minute: number): ProvisioningPlan => ({
        id,
        operation: 'deploy',
        environment,
        systemId: 'urn:dmb:dp:list:plans:0',
        systemKind: 'dataproduct',
        status: 'running',
        createdAt: at(minute),
        updatedAt: at(minute),
        tasks: [],
        errors: [],
        descriptor: { id: 'urn:dmb:dp:list:plans:0' },
      });
      await store.createPlan(plan('list-a', 'plans-prod', 1));
      await store.createPlan(plan('list-b', 'plans-dev', 2));
      await store.createPlan(plan('list-c', 'plans-prod', 3));
      await store.updatePlan({ ...plan('list-a', 'plans-prod', 1), status: 'failed' });
      const ids = async (filter: Partial<Parameters<GovernanceStore['listPlans']>[0]>) =>
        (await store.listPlans({ limit: 50, offset: 0, ...filter })).data.map((p) => p.id);
      expect(await ids({ environment: 'plans-prod' })).toEqual(['list-c', 'list-a']);
      expect(await ids({ environment: 'plans-prod', status: 'failed' })).toEqual(['list-a']);
      expect(await ids({ environment: 'plans-dev', status: 'failed' })).toEqual([]);
      const page = await store.listPlans({ environment: 'plans-prod', limit: 1, offset: 1 });
      expect(page.data.map((p) => p.id)).toEqual(['list-a']);
      expect(page.data[0]?.status).toBe('failed');
      expect(page.meta.pagination).toEqual({ limit: 1, offset: 1, total: 2 });
      expect(
        (await store.listPlans({ limit: 1000, offset: 0 })).meta.pagination.total,
      ).toBeGreaterThanOrEqual(3);
    });

    it('puts, replaces, lists and deletes instances per environment', async () => {
      const base = {
        systemId: 'urn:dmb:dp:x:y:0',
        descriptor: { id: 'urn:dmb:dp:x:y:0', components: [] },
        deployedAt: now(),
        planId: 'p',
      };
      await store.putInstance({ ...base, environment: 'development' });
      await store.putInstance({ ...base, environment: 'production' });
      await store.putInstance({
        ...base,
        environment: 'production',
        descriptor: { id: base.systemId, version: '2' },
      });
      expect((await store.getInstance(base.systemId, 'production'))?.descriptor).toEqual({
        id: base.systemId,
        version: '2',
      });
      expect(await store.listInstances({ systemId: base.systemId })).toHaveLength(2);
      expect(
        (await store.listInstances({ environment: 'development' })).map((i) => i.systemId),
      ).toContain(base.systemId);
      expect(await store.deleteInstance(base.systemId, 'development')).toBe(true);
      expect(await store.deleteInstance(base.systemId, 'development')).toBe(false);
      expect(await store.getInstance(base.systemId, 'development')).toBeNull();
    });

    it('finds the instances deploying a component, at any depth, and follows redeploys', async () => {
      const systemId = 'urn:dmb:dp:where:0';
      const port = 'urn:dmb:cmp:where:0:port';
      const nested = 'urn:dmb:cmp:where:0:nested';
      const instance = (environment: string, components: unknown[]) => ({
        systemId,
        environment,
        descriptor: { id: systemId, components },
        deployedAt: now(),
        planId: 'p',
      });
      await store.putInstance(instance('production', [{ id: port, components: [{ id: nested }] }]));
      await store.putInstance(instance('development', [{ id: port }, { id: port }]));
      await store.putInstance({
        ...instance('production', [{ id: port }]),
        systemId: 'urn:dmb:dp:where:other',
      });
      const where = async (id: string, environment?: string) =>
        (await store.findInstancesWithComponent(id, environment)).map(
          (i) => `${i.environment} ${i.systemId}`,
        );
      expect(await where(port)).toEqual([
        `development ${systemId}`,
        `production ${systemId}`,
        'production urn:dmb:dp:where:other',
      ]);
      expect(await where(port, 'development')).toEqual([`development ${systemId}`]);
      expect(await where(nested)).toEqual([`production ${systemId}`]);
      // A redeploy without the nested component, and an undeploy, update the index.
      await store.putInstance(instance('production', [{ id: port }]));
      expect(await where(nested)).toEqual([]);
      await store.deleteInstance(systemId, 'development');
      expect(await where(port, 'development')).toEqual([]);
      expect(await where('urn:dmb:cmp:nowhere')).toEqual([]);
      expect(await where('nul\u0000')).toEqual([]);
    });

    it('reads the stored status of current results without their documents', async () => {
      const a = 'urn:dmb:cmp:status:0:a';
      const b = 'urn:dmb:cmp:status:0:b';
      await store.appendResult(result(a, 1, { policyId: 'pa' }));
      const latest = await store.appendResult(result(a, 2, { policyId: 'pb' }));
      await store.appendResult(result(b, 3, { status: 'unprocessable', detailsConform: false }));
      await store.appendResult(result(b, 4, { environment: 'development' }));
      const statuses = await store.getCurrentStatuses(
        [a, b, 'urn:none', 'nul\u0000'],
        'production',
      );
      const byId = Object.fromEntries(statuses.map((s) => [s.contractId, s]));
      expect(Object.keys(byId).sort()).toEqual([a, b]);
      // With several policies the latest result of the contract wins.
      expect(byId[a]).toEqual({
        contractId: a,
        policyId: 'pb',
        seq: latest.seq,
        status: 'compliant',
        receivedAt: latest.receivedAt,
      });
      expect(byId[b]?.status).toBe('unprocessable');
      expect((await store.getCurrentResult(b, 'production'))?.status).toBe('unprocessable');
      expect(await store.getCurrentStatuses([], 'production')).toEqual([]);
    });

    it('summarizes current results per environment, policy and state (the monitoring view)', async () => {
      const env = 'summary-env';
      const a = 'urn:dmb:cmp:summary:0:a';
      const b = 'urn:dmb:cmp:summary:0:b';
      const c = 'urn:dmb:cmp:summary:0:c';
      await store.appendResult(result(a, 1, { environment: env, policyId: 'ps' }));
      await store.appendResult(result(b, 3, { environment: env, policyId: 'ps' }));
      await store.appendResult(result(c, 4, { environment: env, policyId: 'ps' }));
      // a turns compliant: only its current result counts, not its history.
      const last = await store.appendResult(result(a, 2, { environment: env, policyId: 'ps' }));
      await store.appendResult(
        result(a, 5, {
          environment: env,
          policyId: 'pt',
          status: 'unprocessable',
          detailsConform: false,
        }),
      );
      const rows = (await store.summarizeCurrentResults()).filter((r) => r.environment === env);
      expect(rows.map(({ lastReceivedAt: _, ...r }) => r)).toEqual([
        { environment: env, policyId: 'ps', status: 'compliant', contracts: 2 },
        { environment: env, policyId: 'ps', status: 'violated', contracts: 1 },
        { environment: env, policyId: 'pt', status: 'unprocessable', contracts: 1 },
      ]);
      expect(rows[0]?.lastReceivedAt).toBe(last.receivedAt);
    });

    it('keeps every result as history and the latest one current', async () => {
      const contract = 'urn:dmb:cmp:a:b:0:port';
      const first = await store.appendResult(result(contract, 1));
      const second = await store.appendResult(result(contract, 2));
      await store.appendResult(result(contract, 3, { environment: 'development' }));
      expect(second.seq).toBeGreaterThan(first.seq);
      const current = await store.getCurrentResult(contract, 'production');
      expect(current?.seq).toBe(second.seq);
      expect(current?.submission).toEqual(result(contract, 2).submission);
      expect((await store.getCurrentResult(contract, 'production', 'p-results'))?.seq).toBe(
        second.seq,
      );
      expect(await store.getCurrentResult(contract, 'production', 'other')).toBeNull();
      const history = await store.listResultHistory(contract, {
        environment: 'production',
        limit: 1,
        offset: 0,
      });
      expect(history.meta.pagination.total).toBe(2);
      expect(history.data[0]?.seq).toBe(second.seq);
      const page2 = await store.listResultHistory(contract, {
        environment: 'production',
        limit: 1,
        offset: 1,
      });
      expect(page2.data[0]?.seq).toBe(first.seq);
      expect(
        (await store.listResultHistory(contract, { limit: 10, offset: 0 })).meta.pagination.total,
      ).toBe(3);
    });

    it('lists the states of a contract in one environment, newest first, paged', async () => {
      const contract = 'urn:dmb:cmp:states:0:port';
      const first = await store.appendResult(result(contract, 1, { status: 'violated' }));
      const second = await store.appendResult(result(contract, 2, { policyId: 'p-other' }));
      await store.appendResult(result(contract, 3, { environment: 'development' }));
      const page = await store.listResultStates(contract, {
        environment: 'production',
        limit: 1,
        offset: 0,
      });
      expect(page.meta.pagination).toEqual({ limit: 1, offset: 0, total: 2 });
      expect(page.data).toEqual([
        {
          contractId: contract,
          policyId: 'p-other',
          seq: second.seq,
          status: second.status,
          receivedAt: second.receivedAt,
        },
      ]);
      const next = await store.listResultStates(contract, {
        environment: 'production',
        limit: 5,
        offset: 1,
      });
      expect(next.data.map((s) => [s.seq, s.status])).toEqual([[first.seq, 'violated']]);
      expect(
        (
          await store.listResultStates('urn:dmb:cmp:none:0:port', {
            environment: 'production',
            limit: 5,
            offset: 0,
          })
        ).data,
      ).toEqual([]);
    });

    it('the current result per policy is separate; without a policy the latest wins', async () => {
      const contract = 'urn:dmb:cmp:multi:0:port';
      await store.appendResult(result(contract, 1, { policyId: 'pa' }));
      const b = await store.appendResult(result(contract, 2, { policyId: 'pb' }));
      expect((await store.getCurrentResult(contract, 'production'))?.seq).toBe(b.seq);
      expect((await store.getCurrentResult(contract, 'production', 'pa'))?.policyId).toBe('pa');
    });

    it('concurrent submissions leave the last stored one current and lose none', async () => {
      const contract = 'urn:dmb:cmp:race:0:port';
      const stored = await Promise.all(
        Array.from({ length: 40 }, (_, i) => store.appendResult(result(contract, i))),
      );
      const maxSeq = Math.max(...stored.map((s) => s.seq));
      expect((await store.getCurrentResult(contract, 'production'))?.seq).toBe(maxSeq);
      const history = await store.listResultHistory(contract, { limit: 100, offset: 0 });
      expect(history.meta.pagination.total).toBe(40);
      expect(new Set(history.data.map((h) => h.seq)).size).toBe(40);
      expect(history.data[0]?.seq).toBe(maxSeq);
    });

    it('keeps one template registration per environment, and one set of policies per template', async () => {
      const id = 'urn:dmb:itm:per-env:1';
      const drafts = [{ resourceType: 'dataproduct', name: 'Per env', description: '' }];
      const general = await store.saveTemplate({ id, url: 'http://any' }, drafts, now());
      const production = await store.saveTemplate(
        { id, url: 'http://prod', environment: 'production' },
        drafts,
        now(),
      );
      await store.saveTemplate(
        { id, url: 'http://dev', environment: 'development' },
        drafts,
        now(),
      );
      // Registering production again changes neither development nor the general registration.
      await store.saveTemplate(
        { id, url: 'http://prod-2', environment: 'production' },
        drafts,
        now(),
      );
      expect(production.template.environment).toBe('production');
      expect((await store.getTemplate(id, 'production'))?.document.url).toBe('http://prod-2');
      expect((await store.getTemplate(id, 'development'))?.document.url).toBe('http://dev');
      expect((await store.getTemplate(id))?.document.url).toBe('http://any');
      expect(await store.getTemplate(id, 'staging')).toBeNull();
      expect(
        (await store.getTemplateRegistrations(id)).map((r) => [r.environment, r.document.url]),
      ).toEqual([
        [null, 'http://any'],
        ['development', 'http://dev'],
        ['production', 'http://prod-2'],
      ]);
      expect(production.updated.map((p) => p.id)).toEqual(general.created.map((p) => p.id));
      expect(
        (await store.listPolicies({ templateId: id, limit: 10, offset: 0 })).meta.pagination.total,
      ).toBe(1);
    });

    it('indexes the contracts deployed guardians guard, per environment, and follows redeploys', async () => {
      const systemId = 'urn:dmb:dp:guards:0';
      const port = 'urn:dmb:cmp:guards:0:port';
      const guardian = (policyId: string, guards: string[]) => ({
        id: `urn:dmb:cmp:guards:0:guardian-${policyId}`,
        __dataContractGuardianSpec: {
          guards: guards.map((dataContractId) => ({ dataContractId })),
        },
        info: { privateInfo: { __dataContractGuardian: { policyId } } },
      });
      const deploy = (environment: string, components: unknown[]) =>
        store.putInstance({
          systemId,
          environment,
          descriptor: { id: systemId, components },
          deployedAt: now(),
          planId: 'p',
        });
      const portComponent = { id: port, __dataContractEnabled: true };
      await deploy('production', [portComponent, guardian('g-a', [port])]);
      await deploy('development', [portComponent, guardian('g-b', [port])]);
      const guards = async (environment?: string) =>
        (await store.findContractGuards(port, environment)).map(
          (g) => `${g.environment} ${g.policyId} ${g.systemId}`,
        );
      expect(await guards()).toEqual([`development g-b ${systemId}`, `production g-a ${systemId}`]);
      expect((await store.findContractGuards(port, 'production'))[0]?.guardianId).toBe(
        'urn:dmb:cmp:guards:0:guardian-g-a',
      );
      // A result that requires a guard is stored only under a guarding policy, in its environment.
      const guardedResult = (policyId: string, environment: string) =>
        result(port, 1, { policyId, environment });
      const stored = await store.appendResult(guardedResult('g-a', 'production'), {
        requireGuard: true,
      });
      expect((await store.getCurrentResult(port, 'production'))?.seq).toBe(stored.seq);
      const refusals = await Promise.allSettled([
        store.appendResult(guardedResult('g-b', 'production'), { requireGuard: true }),
        store.appendResult(guardedResult('g-a', 'staging'), { requireGuard: true }),
        store.appendResult(guardedResult('g-b', 'development'), { requireGuard: true }),
      ]);
      expect(refusals.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
      expect((refusals[0] as PromiseRejectedResult).reason).toSatisfy(
        (e: unknown) => GovernanceError.isInstance(e) && e.code === 'conflict',
      );
      expect(
        (await store.listResultHistory(port, { limit: 10, offset: 0 })).meta.pagination.total,
      ).toBe(2);
      // A redeploy whose guardian no longer guards the port, and an undeploy, update the index.
      await deploy('production', [portComponent, guardian('g-a', [])]);
      expect(await guards('production')).toEqual([]);
      await store.deleteInstance(systemId, 'development');
      expect(await guards()).toEqual([]);
      expect(await store.findContractGuards('nul\u0000')).toEqual([]);
    });

    it('leases: orphaned running plans are claimed once, the plans of live instances never', async () => {
      const plan = (id: string): ProvisioningPlan => ({
        id,
        operation: 'deploy',
        environment: 'leases',
        systemId: 'urn:dmb:dp:leases:0',
        systemKind: 'dataproduct',
        status: 'running',
        createdAt: now(),
        updatedAt: now(),
        tasks: [],
        errors: [],
        descriptor: { id: 'urn:dmb:dp:leases:0' },
      });
      await store.renewLease('live', 60_000);
      await store.renewLease('dying', 1);
      await store.createPlan(plan('lease-live'), 'live');
      await store.createPlan(plan('lease-dying'), 'dying');
      await store.createPlan(plan('lease-gone'), 'never-leased');
      await store.createPlan(plan('lease-stopped'), 'stopping');
      await store.renewLease('stopping', 60_000);
      await store.endLease('stopping');
      await new Promise((resolve) => setTimeout(resolve, 5));
      // Claimers hold leases of their own, so what one claims the other leaves alone.
      await store.renewLease('survivor-1', 60_000);
      await store.renewLease('survivor-2', 60_000);
      const claimed = await Promise.all([
        store.claimOrphanedPlans('survivor-1'),
        store.claimOrphanedPlans('survivor-2'),
      ]);
      const ids = claimed
        .flat()
        .map((p) => p.id)
        .filter((id) => id.startsWith('lease-'));
      expect(ids.sort()).toEqual(['lease-dying', 'lease-gone', 'lease-stopped']);
      // The former owner can no longer write the plan it lost; its new owner can.
      const lost = { ...plan('lease-dying'), status: 'completed' as const };
      await expect(store.updatePlan(lost, 'dying')).rejects.toSatisfy(
        (e) => GovernanceError.isInstance(e) && e.code === 'conflict',
      );
      const survivor = claimed[0]!.some((p) => p.id === 'lease-dying')
        ? 'survivor-1'
        : 'survivor-2';
      await store.updatePlan({ ...plan('lease-dying'), status: 'failed' }, survivor);
      expect((await store.getPlan('lease-dying'))?.status).toBe('failed');
      await store.updatePlan({ ...plan('lease-live'), status: 'completed' }, 'live');
      expect((await store.getPlan('lease-live'))?.status).toBe('completed');
      for (const instance of ['live', 'survivor-1', 'survivor-2']) await store.endLease(instance);
    });

    it('commits appends still queued when the store closes (nothing acknowledged is dropped)', async () => {
      // The last test: it closes the shared store and reopens it (a SQLite file has one owner).
      const contract = 'urn:dmb:cmp:closing:0:port';
      const closing = store;
      const appends = Array.from({ length: 12 }, (_, i) =>
        closing.appendResult(result(contract, i)),
      );
      await closing.close();
      const stored = await Promise.all(appends);
      await expect(closing.appendResult(result(contract, 99))).rejects.toThrow(/closed/);
      store = await open();
      const history = await store.listResultHistory(contract, { limit: 100, offset: 0 });
      expect(history.meta.pagination.total).toBe(12);
      expect((await store.getCurrentResult(contract, 'production'))?.seq).toBe(
        Math.max(...stored.map((s) => s.seq)),
      );
    });
  });
}
