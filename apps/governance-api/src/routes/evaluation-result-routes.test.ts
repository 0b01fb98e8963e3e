import { createGovernance, type Governance } from '@dcg/governance';
import { openSqliteStore } from '@dcg/governance/sqlite';
import { createLogger, resolveApiKeys } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedConfig, KEYS, testConfig } from '../__fixtures__/test-keys';
import { buildGovernanceApp } from '../app';
import { GovernanceApiConfigSchema } from '../config';
import { startGuardianTechAdapter } from '../web/__fixtures__/guardian-tech-adapter';

const GUARDIAN_TEMPLATE = 'urn:dmb:itm:route-test-guardian:1';
const PORT_TEMPLATE = 'urn:dmb:itm:route-test-port:1';
const SYSTEM = 'urn:dmb:dp:routes:shop:0';
const GUARDED = 'urn:dmb:cmp:routes:shop:0:orders';
const UNGUARDED = 'urn:dmb:cmp:routes:shop:0:refunds';

/** The app as `startGovernanceApi` builds it, over an in-memory store, called in process. */
async function inProcessApp(config: unknown) {
  const parsed = GovernanceApiConfigSchema.parse(config);
  const { leaseMs: _lease, ...adapters } = parsed.provisioning;
  const governance = createGovernance(await openSqliteStore({ file: ':memory:' }), {
    adapters,
    results: parsed.evaluationResults,
  });
  const app = buildGovernanceApp({
    governance,
    apiKeys: resolveApiKeys(parsed.auth.apiKeys, { env: {} }).keys,
    logger: createLogger('test', { level: 'silent' }),
    maxBodyBytes: parsed.limits.maxBodyBytes,
  });
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await app.request(path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  return { governance, call };
}

const result = (contractId: string) => [
  {
    resource: { id: contractId, descriptor: '' },
    result: {
      satisfiesPolicy: true,
      details: { results: { root: [{ key: 'k', compliant: true }] } },
    },
  },
];

describe('POST …/evaluation-results: results go only where a guardian guards', () => {
  let adapter: Awaited<ReturnType<typeof startGuardianTechAdapter>>;
  let governance: Governance;
  let call: Awaited<ReturnType<typeof inProcessApp>>['call'];
  let policyId: string;
  const submit = (policy: string, environment: string, contractId = GUARDED) =>
    call(
      'POST',
      `/v1/computational-governance/policies/${encodeURIComponent(policy)}/evaluation-results?environment=${environment}`,
      KEYS.guardian,
      result(contractId),
    );

  beforeAll(async () => {
    adapter = await startGuardianTechAdapter();
    ({ governance, call } = await inProcessApp(guardedConfig));
    expect(
      (
        await call('POST', '/v1/infrastructure-templates', KEYS.admin, {
          id: PORT_TEMPLATE,
          name: 'Port',
          url: adapter.url,
        })
      ).status,
    ).toBe(201);
    const guardian = await call('POST', '/v1/infrastructure-templates', KEYS.admin, {
      id: GUARDIAN_TEMPLATE,
      name: 'Guardian',
      url: adapter.url,
      properties: {
        dataContractGuardian: {
          policies: [{ resourceType: 'dataproduct', spec: { name: 'Shop', description: '' } }],
        },
      },
    });
    policyId = (guardian.json.policies as Array<{ policyId: string }>)[0]!.policyId;
    const port = (id: string) => ({
      id,
      name: id,
      kind: 'outputport',
      consumable: true,
      __dataContractEnabled: true,
      infrastructureTemplateId: PORT_TEMPLATE,
      dataContract: { schema: [{ name: 'id', dataType: 'string' }] },
    });
    const deployed = await call('POST', '/v1/provisioning/deploy', KEYS.coordinator, {
      environment: 'production',
      descriptor: {
        id: SYSTEM,
        name: 'Shop',
        kind: 'dataproduct',
        domain: 'routes',
        version: '1.0.0',
        components: [
          port(GUARDED),
          port(UNGUARDED),
          {
            id: 'urn:dmb:cmp:routes:shop:0:guardian',
            name: 'Guardian',
            kind: 'workload',
            infrastructureTemplateId: GUARDIAN_TEMPLATE,
            __dataContractGuardianSpec: { guards: [{ dataContractId: GUARDED }] },
          },
        ],
      },
    });
    expect(deployed.status).toBe(202);
    await governance.coordinator.idle();
    expect((await governance.coordinator.getPlan(deployed.json.id as string)).status).toBe(
      'completed',
    );
    await governance.policies.create({
      id: 'other-policy',
      name: 'Other',
      resourceType: 'dataproduct',
      trigger: 'passive',
    });
  });
  afterAll(async () => {
    await governance.store.close();
    await adapter.close();
  });

  it('is the default: the switch is off unless configured', () => {
    expect(GovernanceApiConfigSchema.parse({}).evaluationResults.acceptUnguarded).toBe(false);
  });

  it('accepts the deployed guardian policy for the contract it guards, in its environment', async () => {
    const accepted = await submit(policyId, 'production');
    expect(accepted.status).toBe(201);
    expect(accepted.json).toMatchObject({ contractId: GUARDED, status: 'compliant' });
  });

  it('answers 409 saying what is deployed there for a mistyped environment, another policy or an unguarded contract', async () => {
    const typo = await submit(policyId, 'prodd');
    expect(typo.status).toBe(409);
    expect(typo.json.type).toBe('urn:dcg:governance:conflict');
    expect(typo.json.detail).toContain('it is guarded in "production"');
    expect(typo.json.errors).toEqual([
      {
        code: 'not_guarded',
        path: '$[0].resource.id',
        message: `not guarded by policy "${policyId}" in environment "prodd"`,
      },
    ]);
    const otherPolicy = await submit('other-policy', 'production');
    expect(otherPolicy.status).toBe(409);
    expect(otherPolicy.json.detail).toContain(
      `guarded under policy "${policyId}" (guardian urn:dmb:cmp:routes:shop:0:guardian of system ${SYSTEM})`,
    );
    const unguarded = await submit(policyId, 'production', UNGUARDED);
    expect(unguarded.status).toBe(409);
    expect(unguarded.json.detail).toContain('no deployed guardian guards it in any environment');
    // None of them changed the stored verdict or the history.
    const history = await governance.results.history(GUARDED, { limit: 10, offset: 0 });
    expect(history.meta.pagination.total).toBe(1);
  });

  it('accepts results before any guardian is deployed when the switch is on', async () => {
    const open = await inProcessApp(testConfig);
    await open.governance.policies.create({
      id: 'pushed',
      name: 'Pushed',
      resourceType: 'dataproduct',
      trigger: 'passive',
    });
    const accepted = await open.call(
      'POST',
      '/v1/computational-governance/policies/pushed/evaluation-results?environment=prodd',
      KEYS.guardian,
      result(UNGUARDED),
    );
    expect(accepted.status).toBe(201);
    await open.governance.store.close();
  });
});

describe('GET /v1/infrastructure-templates/{id}: one registration per environment', () => {
  it('keeps production and development apart and says which environments exist', async () => {
    const { governance, call } = await inProcessApp(guardedConfig);
    const id = 'urn:dmb:itm:per-environment:1';
    for (const environment of ['production', 'development']) {
      const registered = await call('POST', '/api/builder/register', KEYS.admin, {
        id,
        name: `Storage ${environment}`,
        url: `http://127.0.0.1:9/${environment}`,
        environment,
      });
      expect(registered.status).toBe(201);
      expect(registered.json.environment).toBe(environment);
    }
    const get = (query: string) =>
      call('GET', `/v1/infrastructure-templates/${encodeURIComponent(id)}${query}`, KEYS.reader);
    const production = await get('?environment=production');
    expect((production.json.template as { url: string }).url).toBe('http://127.0.0.1:9/production');
    const development = await get('?environment=development');
    expect((development.json.template as { url: string }).url).toBe(
      'http://127.0.0.1:9/development',
    );
    const ambiguous = await get('');
    expect(ambiguous.status).toBe(404);
    expect(ambiguous.json.detail).toContain('registered for: development, production');
    const staging = await get('?environment=staging');
    expect(staging.status).toBe(404);
    expect(staging.json.detail).toContain('not registered for environment "staging"');
    await governance.store.close();
  });
});
