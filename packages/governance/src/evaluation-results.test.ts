import { UNPROCESSABLE_MESSAGE } from '@dcg/contract-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GovernanceError } from './errors';
import { createGovernance, type Governance } from './governance';
import { openSqliteStore } from './storage/sqlite';

const CONTRACT = 'urn:dmb:cmp:finance:invoices:0:orders-port';
const submission = (
  satisfiesPolicy: boolean,
  details: unknown = {
    results: {
      root: [
        {
          key: 'dataContract',
          name: 'Data Contract',
          children: [
            {
              key: 'amount_not_null',
              compliant: satisfiesPolicy,
              ...(satisfiesPolicy ? {} : { issues: ['12 rows have a null amount'] }),
            },
            { key: 'id_unique', compliant: true },
          ],
        },
      ],
    },
    notes: { errorSummary: { message: 'One or more data contract violations detected' } },
  },
) => [{ resource: { id: CONTRACT, descriptor: '' }, result: { satisfiesPolicy, details } }];

describe('EvaluationResults and the compliance view', () => {
  let governance: Governance;
  beforeAll(async () => {
    // These results are posted for policies created directly, with no guardian deployed: the
    // switch for platforms that push results before deploying guardians is on, explicitly.
    governance = createGovernance(await openSqliteStore({ file: ':memory:' }), {
      results: { acceptUnguarded: true },
    });
    await governance.policies.create({
      id: 'passive',
      name: 'P',
      resourceType: 'dataproduct',
      trigger: 'passive',
    });
    await governance.policies.create({
      id: 'active',
      name: 'A',
      resourceType: 'dataproduct',
      trigger: 'active',
    });
  });
  afterAll(() => governance.store.close());

  const error = async (input: Parameters<Governance['results']['submit']>[0]) => {
    try {
      await governance.results.submit(input);
    } catch (e) {
      if (GovernanceError.isInstance(e)) return e;
    }
    throw new Error('expected a GovernanceError');
  };

  it('starts unknown, then shows violated with the summary, counts and tree', async () => {
    expect(
      (await governance.marketplace.getContractCompliance(CONTRACT, 'production')).status,
    ).toBe('unknown');
    const accepted = await governance.results.submit({
      policyId: 'passive',
      environment: 'production',
      body: submission(false),
    });
    expect(accepted).toMatchObject({
      status: 'violated',
      detailsConform: true,
      contractId: CONTRACT,
    });
    const view = await governance.marketplace.getContractCompliance(CONTRACT, 'production');
    expect(view).toMatchObject({
      status: 'violated',
      policyId: 'passive',
      summary: 'One or more data contract violations detected',
      counts: { compliant: 1, failing: 1 },
      evaluatedAt: accepted.receivedAt,
    });
    expect(view.tree[0]).toMatchObject({
      key: 'dataContract',
      target: 'root',
      children: [
        { key: 'amount_not_null', compliant: false, issues: ['12 rows have a null amount'] },
        { key: 'id_unique', compliant: true },
      ],
    });
  });

  it('a new result overwrites the current status; history keeps both', async () => {
    await governance.results.submit({
      policyId: 'passive',
      environment: 'production',
      body: submission(true),
    });
    expect(
      (await governance.marketplace.getContractCompliance(CONTRACT, 'production')).status,
    ).toBe('compliant');
    const history = await governance.results.history(CONTRACT, {
      environment: 'production',
      limit: 10,
      offset: 0,
    });
    expect(history.meta.pagination.total).toBe(2);
    expect(
      (await governance.marketplace.getContractCompliance(CONTRACT, 'development')).status,
    ).toBe('unknown');
  });

  it('stores non-conforming details and reports them as unprocessable with the schema errors', async () => {
    const accepted = await governance.results.submit({
      policyId: 'passive',
      environment: 'production',
      body: submission(true, { results: { root: [{ key: 'a', compliant: true, children: [] }] } }),
    });
    expect(accepted.detailsConform).toBe(false);
    expect(accepted.message).toBe(UNPROCESSABLE_MESSAGE);
    expect(accepted.schemaErrors?.[0]?.path).toBe('$[0].result.details.results.root[0]');
    const view = await governance.marketplace.getContractCompliance(CONTRACT, 'production');
    expect(view.status).toBe('unprocessable');
    expect(view.message).toBe(UNPROCESSABLE_MESSAGE);
    // The view locates the errors in the submitted body, exactly as the submitter was answered.
    expect(view.schemaErrors).toEqual(accepted.schemaErrors);
    expect(view.tree).toEqual([]);
  });

  it('lists instances with the stored status of each contract and finds where a contract is deployed', async () => {
    const systemId = 'urn:dmb:dp:finance:invoices:0';
    const other = 'urn:dmb:cmp:finance:invoices:0:other-port';
    const port = (id: string) => ({
      id,
      name: id,
      kind: 'outputport',
      consumable: true,
      __dataContractEnabled: true,
      dataContract: { schema: [{ name: 'id', dataType: 'string' }] },
    });
    // A system whose id does not follow the URN convention of its components: found by the index.
    for (const [id, environment] of [
      [systemId, 'production'],
      ['shop-without-convention', 'staging'],
    ] as const) {
      await governance.store.putInstance({
        systemId: id,
        environment,
        descriptor: {
          id,
          name: 'Invoices',
          kind: 'dataproduct',
          components: [port(CONTRACT), port(other)],
        },
        deployedAt: new Date().toISOString(),
        planId: 'plan',
      });
    }
    await governance.results.submit({
      policyId: 'passive',
      environment: 'staging',
      body: submission(false),
    });
    const [production] = await governance.marketplace.listInstances({ environment: 'production' });
    expect(production?.components.map((c) => [c.id, c.compliance?.status])).toEqual([
      [CONTRACT, 'unprocessable'],
      [other, 'unknown'],
    ]);
    const staging = await governance.marketplace.getInstance('shop-without-convention', 'staging');
    expect(staging?.components[0]?.compliance?.status).toBe('violated');
    // Instances of two environments in one call: each gets the states stored in its environment.
    expect(
      (await governance.marketplace.findContractInstances(CONTRACT)).map((i) => [
        i.environment,
        i.systemId,
        i.components.map((c) => c.compliance?.status),
      ]),
    ).toEqual([
      ['production', systemId, ['unprocessable', 'unknown']],
      ['staging', 'shop-without-convention', ['violated', 'unknown']],
    ]);
    expect(
      (await governance.marketplace.listInstances({})).map((i) => i.components[0]?.compliance),
    ).toEqual([
      { status: 'violated', evaluatedAt: expect.any(String) },
      { status: 'unprocessable', evaluatedAt: expect.any(String) },
    ]);
    expect(
      (await governance.marketplace.findContractInstances(CONTRACT, 'staging')).map(
        (i) => i.systemId,
      ),
    ).toEqual(['shop-without-convention']);
  });

  it('refuses unknown and active policies, a missing environment and malformed envelopes', async () => {
    expect(
      (await error({ policyId: 'ghost', environment: 'production', body: submission(true) })).code,
    ).toBe('not_found');
    expect(
      (await error({ policyId: 'active', environment: 'production', body: submission(true) })).code,
    ).toBe('conflict');
    expect(
      (await error({ policyId: 'passive', environment: undefined, body: submission(true) })).code,
    ).toBe('invalid_input');
    const long = await error({
      policyId: 'passive',
      environment: 'e'.repeat(201),
      body: submission(true),
    });
    // The domain names the argument; where it travels (a query parameter) is the app's business.
    expect(long.issues[0]).toMatchObject({ code: 'too_long', parameter: 'environment' });
    expect(long.message).not.toMatch(/query/);
    const two = await error({
      policyId: 'passive',
      environment: 'production',
      body: [...submission(true), ...submission(true)],
    });
    expect(two.issues[0]?.path).toBe('$');
    const object = await error({
      policyId: 'passive',
      environment: 'production',
      body: submission(true)[0],
    });
    expect(object.code).toBe('invalid_input');
    const noId = await error({
      policyId: 'passive',
      environment: 'production',
      body: [
        {
          resource: { descriptor: '' },
          result: { satisfiesPolicy: true, details: { results: {} } },
        },
      ],
    });
    expect(noId.issues.map((i) => i.path)).toEqual(['$[0].resource.id']);
    const noDetails = await error({
      policyId: 'passive',
      environment: 'production',
      body: [{ resource: { id: CONTRACT, descriptor: '' }, result: { satisfiesPolicy: 'yes' } }],
    });
    expect(noDetails.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['$[0].result.satisfiesPolicy', '$[0].result.details']),
    );
    // Nothing refused was stored: production still holds the three accepted results.
    const history = await governance.results.history(CONTRACT, {
      environment: 'production',
      limit: 100,
      offset: 0,
    });
    expect(history.meta.pagination.total).toBe(3);
  });
});

describe('results go only where a guardian guards (switch off, the default)', () => {
  let governance: Governance;
  const OTHER = 'urn:dmb:cmp:finance:invoices:0:other-port';
  const GUARDIAN = 'urn:dmb:cmp:finance:invoices:0:guardian';
  const SYSTEM = 'urn:dmb:dp:finance:invoices:0';
  const deploy = (environment: string) =>
    governance.store.putInstance({
      systemId: SYSTEM,
      environment,
      descriptor: {
        id: SYSTEM,
        kind: 'dataproduct',
        components: [
          { id: CONTRACT, kind: 'outputport', __dataContractEnabled: true },
          { id: OTHER, kind: 'outputport', __dataContractEnabled: true },
          {
            id: GUARDIAN,
            kind: 'workload',
            __dataContractGuardianSpec: { guards: [{ dataContractId: CONTRACT }] },
            // What the coordinator stores for a deployed guardian: its passive policy.
            info: { privateInfo: { __dataContractGuardian: { policyId: 'guarding' } } },
          },
        ],
      },
      deployedAt: new Date().toISOString(),
      planId: 'plan',
    });
  const refusal = async (policyId: string, environment: string, body = submission(true)) => {
    try {
      await governance.results.submit({ policyId, environment, body });
    } catch (e) {
      if (GovernanceError.isInstance(e)) return e;
      throw e;
    }
    throw new Error('expected a refusal');
  };

  beforeAll(async () => {
    governance = createGovernance(await openSqliteStore({ file: ':memory:' }));
    for (const id of ['guarding', 'another']) {
      await governance.policies.create({
        id,
        name: id,
        resourceType: 'dataproduct',
        trigger: 'passive',
      });
    }
    await deploy('production');
  });
  afterAll(() => governance.store.close());

  it('accepts a result under the policy of the guardian that guards the contract there', async () => {
    const accepted = await governance.results.submit({
      policyId: 'guarding',
      environment: 'production',
      body: submission(false),
    });
    expect(accepted).toMatchObject({ contractId: CONTRACT, status: 'violated' });
  });

  it('refuses another policy, another environment and an unguarded contract, saying what is deployed there', async () => {
    const otherPolicy = await refusal('another', 'production');
    expect(otherPolicy.code).toBe('conflict');
    expect(otherPolicy.message).toContain(
      `policy "guarding" (guardian ${GUARDIAN} of system ${SYSTEM})`,
    );
    expect(otherPolicy.issues).toEqual([
      {
        code: 'not_guarded',
        segments: [0, 'resource', 'id'],
        path: '$[0].resource.id',
        message: 'not guarded by policy "another" in environment "production"',
      },
    ]);
    const typo = await refusal('guarding', 'prodd');
    expect(typo.code).toBe('conflict');
    expect(typo.message).toContain('no guardian guards it there; it is guarded in "production"');
    const unguarded = await refusal('guarding', 'production', [
      {
        resource: { id: OTHER, descriptor: '' },
        result: { satisfiesPolicy: true, details: { results: {} } },
      },
    ]);
    expect(unguarded.message).toContain('no deployed guardian guards it in any environment');
    // Nothing refused was stored, and the guarding policy's verdict stands.
    const history = await governance.results.history(CONTRACT, { limit: 10, offset: 0 });
    expect(history.data.map((r) => [r.policyId, r.environment])).toEqual([
      ['guarding', 'production'],
    ]);
    expect(
      (await governance.marketplace.getContractCompliance(CONTRACT, 'production')).status,
    ).toBe('violated');
  });

  it('follows deployments: a redeploy elsewhere guards there, an undeploy stops the results', async () => {
    await deploy('development');
    await governance.results.submit({
      policyId: 'guarding',
      environment: 'development',
      body: submission(true),
    });
    await governance.store.deleteInstance(SYSTEM, 'production');
    expect((await refusal('guarding', 'production')).message).toContain(
      'it is guarded in "development"',
    );
  });
});
