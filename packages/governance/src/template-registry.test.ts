import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GovernanceError } from './errors';
import { createGovernance, type Governance } from './governance';
import { openSqliteStore } from './storage/sqlite';

const guardianBody = (policies: unknown[], id = 'urn:dmb:itm:guardian:1') => ({
  id,
  name: 'Guardian',
  description: 'Great Expectations guardian',
  version: '1.0.0',
  url: 'http://127.0.0.1:9/adapter',
  environment: 'production',
  properties: { dataContractGuardian: { policies }, team: 'platform' },
});

const failure = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
  } catch (error) {
    if (GovernanceError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a GovernanceError');
};

describe('TemplateRegistry', () => {
  let governance: Governance;
  beforeAll(async () => {
    governance = createGovernance(await openSqliteStore({ file: ':memory:' }));
  });
  afterAll(() => governance.store.close());

  it('registers a plain template and keeps every property', async () => {
    const registered = await governance.templates.register({
      id: 'urn:dmb:itm:plain:1',
      name: 'Plain',
      url: 'http://a',
      properties: { x: 1 },
    });
    expect(registered.guardian).toBe(false);
    expect(registered.policies).toEqual([]);
    expect((await governance.templates.get('urn:dmb:itm:plain:1'))?.template).toEqual({
      id: 'urn:dmb:itm:plain:1',
      name: 'Plain',
      url: 'http://a',
      properties: { x: 1 },
    });
  });

  it('creates one passive policy per creation spec and resolves references', async () => {
    const existing = await governance.policies.create({
      id: 'bi-policy',
      name: 'BI',
      resourceType: 'biproject',
      trigger: 'passive',
    });
    const registered = await governance.templates.register(
      guardianBody([
        {
          resourceType: 'dataproduct',
          spec: { name: 'DP contracts', description: 'monitors DP contracts' },
        },
        { resourceType: 'biproject', spec: { id: existing.id } },
      ]),
    );
    expect(registered.guardian).toBe(true);
    expect(registered.policies.map((p) => [p.resourceType, p.form])).toEqual([
      ['dataproduct', 'create'],
      ['biproject', 'reference'],
    ]);
    const created = await governance.policies.get(registered.policies[0]!.policyId);
    expect(created).toMatchObject({
      name: 'DP contracts',
      description: 'monitors DP contracts',
      trigger: 'passive',
      resourceType: 'dataproduct',
      templateId: 'urn:dmb:itm:guardian:1',
    });
    expect(registered.policies[1]!.policyId).toBe('bi-policy');
  });

  it('does not duplicate policies when the same template is registered again', async () => {
    const body = guardianBody(
      [{ resourceType: 'dataproduct', spec: { name: 'Same', description: '' } }],
      'urn:dmb:itm:guardian:again',
    );
    const first = await governance.templates.register(body);
    const second = await governance.templates.register(body);
    expect(second.policies[0]!.policyId).toBe(first.policies[0]!.policyId);
    const owned = await governance.policies.list({
      templateId: 'urn:dmb:itm:guardian:again',
      limit: 10,
      offset: 0,
    });
    expect(owned.meta.pagination.total).toBe(1);
    expect((await governance.templates.get('urn:dmb:itm:guardian:again'))?.policies).toEqual(
      second.policies,
    );
  });

  it('refuses two entries for one resource type with unprocessable, naming the type', async () => {
    const error = await failure(() =>
      governance.templates.register(
        guardianBody(
          [
            { resourceType: 'dataproduct', spec: { name: 'A', description: '' } },
            { resourceType: 'dataproduct', spec: { name: 'B', description: '' } },
          ],
          'urn:dmb:itm:dup:1',
        ),
      ),
    );
    expect(error.code).toBe('unprocessable');
    expect(error.message).toContain('dataproduct');
    expect(error.issues[0]?.path).toBe(
      '$.properties.dataContractGuardian.policies[1].resourceType',
    );
    expect(await governance.templates.get('urn:dmb:itm:dup:1')).toBeNull();
  });

  it('refuses references to missing or non-passive policies, naming them, and stores nothing', async () => {
    await governance.policies.create({
      id: 'active-one',
      name: 'Active',
      resourceType: 'dataproduct',
      trigger: 'active',
    });
    const missing = await failure(() =>
      governance.templates.register(
        guardianBody([{ resourceType: 'dataproduct', spec: { id: 'ghost' } }], 'urn:dmb:itm:ref:1'),
      ),
    );
    expect(missing.code).toBe('unprocessable');
    expect(missing.message).toContain('"ghost"');
    expect(missing.issues[0]?.path).toBe('$.properties.dataContractGuardian.policies[0].spec.id');
    const active = await failure(() =>
      governance.templates.register(
        guardianBody(
          [{ resourceType: 'dataproduct', spec: { id: 'active-one' } }],
          'urn:dmb:itm:ref:1',
        ),
      ),
    );
    expect(active.message).toMatch(/"active-one".*not a passive policy/);
    expect(await governance.templates.get('urn:dmb:itm:ref:1')).toBeNull();
  });

  it('refuses a reference to a passive policy of another resource type', async () => {
    await governance.policies.create({
      id: 'bi-only',
      name: 'BI contracts',
      resourceType: 'biproject',
      trigger: 'passive',
    });
    const error = await failure(() =>
      governance.templates.register(
        guardianBody(
          [{ resourceType: 'dataproduct', spec: { id: 'bi-only' } }],
          'urn:dmb:itm:cross:1',
        ),
      ),
    );
    expect(error.code).toBe('unprocessable');
    expect(error.issues).toEqual([
      {
        code: 'policy_resource_type_mismatch',
        segments: ['properties', 'dataContractGuardian', 'policies', 0, 'spec', 'id'],
        path: '$.properties.dataContractGuardian.policies[0].spec.id',
        message: 'policy "bi-only" is a policy of resource type biproject, not dataproduct',
      },
    ]);
    expect(await governance.templates.get('urn:dmb:itm:cross:1')).toBeNull();
  });

  it('refuses malformed bodies with invalid_input and JSON paths', async () => {
    const error = await failure(() => governance.templates.register({ id: '', url: 5 }));
    expect(error.code).toBe('invalid_input');
    expect(error.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['$.id', '$.name', '$.url']),
    );
    const spec = await failure(() =>
      governance.templates.register(
        guardianBody([{ resourceType: 'dataproduct', spec: { id: 'x', name: 'y' } }]),
      ),
    );
    expect(spec.code).toBe('invalid_input');
  });
});

describe('PolicyCatalog', () => {
  let governance: Governance;
  beforeAll(async () => {
    governance = createGovernance(await openSqliteStore({ file: ':memory:' }));
  });
  afterAll(() => governance.store.close());

  it('creates with defaults, refuses bad bodies and taken ids, and answers not_found', async () => {
    const policy = await governance.policies.create({
      name: 'SLA',
      resourceType: 'dataproduct',
      trigger: 'passive',
    });
    expect(policy).toMatchObject({
      status: 'enabled',
      description: '',
      environment: null,
      templateId: null,
    });
    expect(policy.id).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await failure(() =>
      governance.policies.create({ name: '', resourceType: 'x', trigger: 'sometimes', extra: 1 }),
    );
    expect(bad.code).toBe('invalid_input');
    expect(bad.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['$.name', '$.trigger']));
    const taken = await failure(() =>
      governance.policies.create({
        id: policy.id,
        name: 'Again',
        resourceType: 'x',
        trigger: 'active',
      }),
    );
    expect(taken.code).toBe('conflict');
    expect((await failure(() => governance.policies.get('nope'))).code).toBe('not_found');
  });
});
