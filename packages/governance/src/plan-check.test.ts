import type { SystemDescriptor } from '@dcg/contract-schema';
import { describe, expect, it } from 'vitest';
import { checkPlan, guardianPolicyIds, lookupsOfPlan, type PlanFacts } from './plan-check';
import type { Policy } from './policy';
import type { ProvisioningPlan } from './provisioning-plan';
import type { RegisteredTemplate } from './template-registry';

const at = '2026-01-01T00:00:00.000Z';
const STORE = 'urn:dmb:cmp:sales:orders:0:store';
const GUARD = 'urn:dmb:cmp:sales:orders:0:guard';

function template(id: string, guardianPolicy?: string): RegisteredTemplate {
  return {
    template: { id, name: id, url: `http://127.0.0.1:1/${id}` },
    environment: null,
    guardian: guardianPolicy !== undefined,
    policies:
      guardianPolicy === undefined
        ? []
        : [{ resourceType: 'dataproduct', policyId: guardianPolicy, form: 'create' }],
    registeredAt: at,
    updatedAt: at,
  };
}

function policy(id: string, trigger: Policy['trigger']): Policy {
  return {
    id,
    name: id,
    description: '',
    resourceType: 'dataproduct',
    trigger,
    status: 'enabled',
    environment: null,
    templateId: null,
    createdAt: at,
    updatedAt: at,
  };
}

const system = {
  id: 'urn:dmb:dp:sales:orders:0',
  kind: 'dataproduct',
  components: [
    { id: STORE, infrastructureTemplateId: 'tpl-store', __dataContractEnabled: true },
    {
      id: GUARD,
      infrastructureTemplateId: 'tpl-guard',
      __dataContractGuardianSpec: { guards: [{ dataContractId: STORE }] },
    },
  ],
} as unknown as SystemDescriptor;

function planOf(tasks: Array<[string, string]>): ProvisioningPlan {
  return {
    id: 'p',
    operation: 'deploy',
    environment: 'production',
    systemId: system.id,
    systemKind: 'dataproduct',
    status: 'running',
    createdAt: at,
    updatedAt: at,
    tasks: tasks.map(([componentId, templateId]) => ({
      componentId,
      templateId,
      status: 'pending',
      logs: [],
      errors: [],
    })),
    errors: [],
    descriptor: {},
  };
}

const plan = planOf([
  [STORE, 'tpl-store'],
  [GUARD, 'tpl-guard'],
]);
const facts = (overrides: Partial<Record<string, RegisteredTemplate | null>> = {}): PlanFacts => {
  const templates = new Map<string, RegisteredTemplate | null>([
    ['tpl-store', template('tpl-store')],
    ['tpl-guard', template('tpl-guard', 'pol-1')],
  ]);
  for (const [id, value] of Object.entries(overrides)) templates.set(id, value ?? null);
  return { templates, policies: new Map([['pol-1', policy('pol-1', 'passive')]]) };
};

describe('checkPlan', () => {
  it("passes a valid plan: templates in task order, the guardian's policy id set", () => {
    const before = structuredClone(system);
    const check = checkPlan(plan, system, facts());
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.templates.map((t) => t.template.id)).toEqual(['tpl-store', 'tpl-guard']);
    expect([...check.guardianPolicies]).toEqual([[1, 'pol-1']]);
    const guard = check.working.components?.find((c) => c.id === GUARD);
    expect(JSON.stringify(guard?.info)).toContain('"policyId":"pol-1"');
    expect(system).toEqual(before);
  });

  it('fails a plan whose template is not registered, at that task', () => {
    const check = checkPlan(plan, system, facts({ 'tpl-store': null }));
    expect(check).toMatchObject({
      ok: false,
      taskIndex: 0,
      outcome: 'failed',
      message:
        'Component "urn:dmb:cmp:sales:orders:0:store": its infrastructure template "tpl-store" is not registered for environment "production"',
    });
  });

  it('terminates on a guardian without a guardian template or a passive policy', () => {
    const plain = checkPlan(plan, system, facts({ 'tpl-guard': template('tpl-guard') }));
    expect(plain).toMatchObject({ ok: false, taskIndex: 1, outcome: 'terminated' });
    expect(!plain.ok && plain.message).toMatch(/is not a guardian template/);
    const active: PlanFacts = {
      templates: facts().templates,
      policies: new Map([['pol-1', policy('pol-1', 'active')]]),
    };
    const noPassive = checkPlan(plan, system, active);
    expect(!noPassive.ok && noPassive.message).toMatch(
      /has no passive policy for the system's resource type "dataproduct"; the plan is terminated$/,
    );
  });

  it('terminates on a guardian that guards what is not a data contract of the system', () => {
    const other = structuredClone(system) as { components: Array<Record<string, unknown>> };
    other.components[0]!.__dataContractEnabled = false;
    const check = checkPlan(plan, other as unknown as SystemDescriptor, facts());
    expect(!check.ok && check.message).toMatch(/is not a data contract/);
    const noTemplate = checkPlan(planOf([[GUARD, '']]), system, facts());
    expect(!noTemplate.ok && noTemplate.message).toMatch(/has no infrastructureTemplateId/);
  });

  it('names what to look up', () => {
    expect(
      lookupsOfPlan(
        planOf([
          [GUARD, ''],
          [STORE, 'tpl-store'],
        ]),
      ).templateIds,
    ).toEqual(['tpl-store']);
    expect(guardianPolicyIds(facts().templates.values(), 'dataproduct')).toEqual(['pol-1']);
    expect(guardianPolicyIds(facts().templates.values(), 'dataset')).toEqual([]);
  });
});
