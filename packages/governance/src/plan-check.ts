import {
  type ComponentDescriptor,
  findComponent,
  type SystemDescriptor,
  withCompleteInfo,
  withGuardianPolicyId,
} from '@dcg/contract-schema';
import type { Policy } from './policy';
import type { ProvisioningPlan } from './provisioning-plan';
import type { RegisteredTemplate } from './template-registry';

/**
 * What the check of a plan needs to know from storage, looked up before it runs (see
 * {@link lookupsOfPlan}): the template each id names in the plan's environment, and the policies
 * guardian templates bind; `null` where there is none.
 */
export interface PlanFacts {
  readonly templates: ReadonlyMap<string, RegisteredTemplate | null>;
  readonly policies: ReadonlyMap<string, Policy | null>;
}

/** The verdict of {@link checkPlan}. */
export type PlanCheck =
  | {
      readonly ok: true;
      /** The descriptor to send: every component's info complete, each guardian's policy id set. */
      readonly working: SystemDescriptor;
      /** The template of each task, in task order. */
      readonly templates: RegisteredTemplate[];
      /** The passive policy found for each guardian task (by task index), for the plan's logs. */
      readonly guardianPolicies: ReadonlyMap<number, string>;
    }
  | {
      readonly ok: false;
      /** The task the plan stops at (every task is checked in order, the first failure wins). */
      readonly taskIndex: number;
      readonly outcome: 'failed' | 'terminated';
      readonly message: string;
      /** The guardian policies found in the tasks before it. */
      readonly guardianPolicies: ReadonlyMap<number, string>;
    };

/**
 * The template ids a plan's check needs, and (given their templates) the policy ids: look both
 * up, then call {@link checkPlan}.
 *
 * @example
 * const templateIds = lookupsOfPlan(plan).templateIds;
 */
export function lookupsOfPlan(plan: ProvisioningPlan): { templateIds: string[] } {
  return { templateIds: [...new Set(plan.tasks.map((t) => t.templateId).filter((id) => id))] };
}

/**
 * The policy ids the guardian templates among `templates` bind for a resource type.
 *
 * @example
 * const policyIds = guardianPolicyIds(templates.values(), system.kind);
 */
export function guardianPolicyIds(
  templates: Iterable<RegisteredTemplate | null>,
  resourceType: string,
): string[] {
  const ids = new Set<string>();
  for (const template of templates) {
    if (!template?.guardian) continue;
    const binding = template.policies.find((p) => p.resourceType === resourceType);
    if (binding) ids.add(binding.policyId);
  }
  return [...ids];
}

/**
 * Checks a plan before anything is provisioned, from facts already looked up (no I/O): every
 * task's component is in the descriptor and its template is registered for the plan's
 * environment; on deploy, every guardian has a template id, guards data contracts of this system,
 * and its template is a guardian template with a passive policy for the system's resource type.
 * A guardian breach terminates the plan; anything else fails it. Does not change its inputs.
 *
 * @example
 * const check = checkPlan(plan, system, { templates, policies });
 * if (!check.ok) console.error(check.message);
 */
export function checkPlan(
  plan: ProvisioningPlan,
  system: SystemDescriptor,
  facts: PlanFacts,
): PlanCheck {
  const components = [...(system.components ?? [])];
  const templates: RegisteredTemplate[] = [];
  const guardianPolicies = new Map<number, string>();
  for (const [taskIndex, task] of plan.tasks.entries()) {
    const stop = (outcome: 'failed' | 'terminated', message: string): PlanCheck => ({
      ok: false,
      taskIndex,
      outcome,
      message,
      guardianPolicies,
    });
    const index = components.findIndex((c) => c.id === task.componentId);
    const component = components[index];
    if (!component) {
      return stop('failed', `Component "${task.componentId}" vanished from the descriptor`);
    }
    // The API's Info has both halves: send them, so an adapter's echo of `info` is valid.
    components[index] = withCompleteInfo(component);
    if (plan.operation === 'deploy' && component.__dataContractGuardianSpec !== undefined) {
      const guardian = guardianPolicy(component, task.templateId, system, plan.environment, facts);
      if (!guardian.ok) return stop('terminated', guardian.message);
      components[index] = withGuardianPolicyId(component, guardian.policyId);
      guardianPolicies.set(taskIndex, guardian.policyId);
    }
    // The template registered for the plan's environment (else its environment-less one).
    const template = facts.templates.get(task.templateId);
    if (!template) {
      return stop(
        'failed',
        `Component "${task.componentId}": its infrastructure template "${task.templateId}" is not registered for environment "${plan.environment}"`,
      );
    }
    templates.push(template);
  }
  return { ok: true, working: { ...system, components }, templates, guardianPolicies };
}

/**
 * The passive policy id for a guardian component: it needs a template id, guards that name data
 * contracts of this system, and a registered guardian template with a passive policy for the
 * system's resource type.
 */
function guardianPolicy(
  component: ComponentDescriptor,
  templateId: string,
  system: SystemDescriptor,
  environment: string,
  facts: PlanFacts,
): { ok: true; policyId: string } | { ok: false; message: string } {
  const resourceType = system.kind;
  const who = `Guardian component "${component.id}"`;
  const terminated = (why: string) => ({
    ok: false as const,
    message: `${who}${why}; the plan is terminated`,
  });
  if (templateId === '') {
    return terminated(
      ' has no infrastructureTemplateId, so it has no guardian template and no policy',
    );
  }
  for (const [i, guard] of (component.__dataContractGuardianSpec?.guards ?? []).entries()) {
    const target = findComponent(system, guard.dataContractId);
    const where = `__dataContractGuardianSpec.guards[${i}].dataContractId "${guard.dataContractId}"`;
    if (!target) {
      return terminated(`: ${where} is not a component of the system "${system.id}"`);
    }
    if (target.__dataContractEnabled !== true) {
      return terminated(
        `: ${where} is not a data contract (its __dataContractEnabled is not true)`,
      );
    }
  }
  const registered = facts.templates.get(templateId);
  if (!registered) {
    return terminated(
      `: its infrastructure template "${templateId}" is not registered for environment "${environment}"`,
    );
  }
  if (!registered.guardian) {
    return terminated(
      `: its infrastructure template "${templateId}" is registered but is not a guardian template (no properties.dataContractGuardian)`,
    );
  }
  const binding = registered.policies.find((p) => p.resourceType === resourceType);
  const policy = binding ? facts.policies.get(binding.policyId) : null;
  if (!binding || !policy || policy.trigger !== 'passive') {
    return terminated(
      `: the guardian template "${templateId}" has no passive policy for the system's resource type "${resourceType}"`,
    );
  }
  return { ok: true, policyId: policy.id };
}
