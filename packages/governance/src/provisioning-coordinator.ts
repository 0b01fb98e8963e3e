import {
  type ComponentDescriptor,
  explainProvisioningInfoViolation,
  mergeProvisioningInfo,
  parseDescriptorYaml,
  type SystemDescriptor,
  stringifyDescriptorYaml,
  validateDescriptor,
  withGuardianPolicyId,
} from '@dcg/contract-schema';
import { GovernanceError } from './errors';
import type { GovernanceEvents } from './governance-events';
import type { Page } from './page';
import type { PlanLog, ProvisioningPlan, ProvisioningTask } from './provisioning-plan';
import type { GovernanceStore, PlanFilter } from './repositories';
import { newId } from './storage/row-mapping';
import type { TechAdapterClient } from './tech-adapter-client';
import type { TemplateRegistry } from './template-registry';

/**
 * A deploy or undeploy request: the environment and the system descriptor (YAML or JSON text, or
 * an object). Undeploy may name a deployed `systemId` instead of a descriptor.
 *
 * @example
 * const request: ProvisioningRequestInput = { environment: 'production', descriptor: yamlText };
 */
export interface ProvisioningRequestInput {
  environment: unknown;
  descriptor?: unknown;
  systemId?: unknown;
  removeData?: unknown;
}

/**
 * Dependencies of the {@link ProvisioningCoordinator}.
 *
 * @example
 * const deps: CoordinatorDeps = { store, registry, adapters: new TechAdapterClient(), events: new GovernanceEvents() };
 */
export interface CoordinatorDeps {
  store: GovernanceStore;
  registry: TemplateRegistry;
  adapters: TechAdapterClient;
  events: GovernanceEvents;
  clock?: () => Date;
  /** The service instance running the plans: they are its own while its lease lives. */
  instanceId?: string;
}

/** Stops the plan: `terminated` for governance rule breaches, `failed` for adapter failures. */
class PlanStop extends Error {
  constructor(
    readonly outcome: 'failed' | 'terminated',
    message: string,
  ) {
    super(message);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string, path: string, detail = message): GovernanceError {
  return new GovernanceError('invalid_input', message, { issues: [{ path, message: detail }] });
}

/**
 * The provisioning coordinator: turns a system descriptor into a plan with one task per component
 * that has an `infrastructureTemplateId`, and runs the tasks in order against each template's tech
 * adapter. Guardian components get the passive policy of the system's resource type in
 * `info.privateInfo.__dataContractGuardian.policyId`; a guardian whose template is missing, is not
 * a guardian template or has no policy for the resource type terminates the plan.
 *
 * @example
 * const coordinator = new ProvisioningCoordinator({ store, registry, adapters, events });
 * const plan = await coordinator.deploy({ environment: 'production', descriptor: yamlText });
 * await coordinator.idle();
 * console.log((await coordinator.getPlan(plan.id)).status);
 */
export class ProvisioningCoordinator {
  private readonly running = new Set<Promise<void>>();
  private readonly clock: () => Date;

  constructor(private readonly deps: CoordinatorDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  private now(): string {
    return this.clock().toISOString();
  }

  /** Validates the request, stores a running plan and starts it in the background. */
  deploy(input: ProvisioningRequestInput): Promise<ProvisioningPlan> {
    return this.start('deploy', input);
  }

  /** Like {@link deploy}, calling `unprovision` in reverse component order. */
  undeploy(input: ProvisioningRequestInput): Promise<ProvisioningPlan> {
    return this.start('undeploy', input);
  }

  /** The plan, or a `not_found` error. */
  async getPlan(id: string): Promise<ProvisioningPlan> {
    const plan = await this.deps.store.getPlan(id);
    if (!plan) throw new GovernanceError('not_found', `No provisioning plan with id "${id}"`);
    return plan;
  }

  /** Plans, newest first, optionally of one status and environment (`{ data, meta: { pagination } }`). */
  listPlans(filter: PlanFilter): Promise<Page<ProvisioningPlan>> {
    return this.deps.store.listPlans(filter);
  }

  /** Resolves when every plan started by this coordinator has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Marks plans left `running` by a process that is gone as failed: their progress is unknown, so
   * they must be re-run explicitly. With an `instanceId`, only plans whose owner holds no live
   * lease are touched (see `PlanLeases`), so instances sharing a database leave each other's
   * plans alone; without one, every running plan (call it once at start-up).
   */
  async recoverInterrupted(): Promise<number> {
    const { instanceId } = this.deps;
    const plans =
      instanceId === undefined
        ? await this.deps.store.listRunningPlans()
        : await this.deps.store.claimOrphanedPlans(instanceId);
    for (const plan of plans) {
      const at = this.now();
      const message = 'interrupted: the service stopped while the plan was running; deploy again';
      for (const task of plan.tasks) {
        if (task.status === 'running' || task.status === 'pending') {
          task.status = task.status === 'running' ? 'failed' : 'skipped';
          if (task.status === 'failed') task.errors.push(message);
          task.finishedAt = at;
        }
      }
      await this.deps.store.updatePlan(
        {
          ...plan,
          status: 'failed',
          errors: [...plan.errors, message],
          updatedAt: at,
          finishedAt: at,
        },
        instanceId,
      );
    }
    return plans.length;
  }

  private async parseRequest(
    operation: 'deploy' | 'undeploy',
    input: ProvisioningRequestInput,
  ): Promise<{ environment: string; system: SystemDescriptor; removeData: boolean }> {
    if (!isObject(input)) throw invalid('The body must be a JSON object', '$', 'expected object');
    const { environment } = input;
    if (typeof environment !== 'string' || environment.trim() === '' || environment.length > 200) {
      throw invalid('environment is required', '$.environment', 'expected a non-empty string');
    }
    if (input.removeData !== undefined && typeof input.removeData !== 'boolean') {
      throw invalid('removeData must be a boolean', '$.removeData', 'expected boolean');
    }
    const removeData = input.removeData === true;
    if (
      input.descriptor === undefined &&
      operation === 'undeploy' &&
      typeof input.systemId === 'string'
    ) {
      const instance = await this.deps.store.getInstance(input.systemId, environment);
      if (!instance) {
        throw new GovernanceError(
          'not_found',
          `System "${input.systemId}" is not deployed in environment "${environment}"`,
        );
      }
      return { environment, system: instance.descriptor as SystemDescriptor, removeData };
    }
    let raw = input.descriptor;
    if (typeof raw === 'string') {
      try {
        raw = parseDescriptorYaml(raw);
      } catch (error) {
        throw invalid(
          'The descriptor is not valid YAML or JSON',
          '$.descriptor',
          (error as Error).message,
        );
      }
    }
    if (raw === undefined || raw === null) {
      throw invalid(
        'descriptor is required',
        '$.descriptor',
        'expected a YAML/JSON text or an object',
      );
    }
    const validation = validateDescriptor(raw);
    if (!validation.success) {
      throw new GovernanceError('invalid_input', 'The descriptor is invalid', {
        issues: validation.issues.map((i) => ({
          ...i,
          path: i.path.replace(/^\$/, '$.descriptor'),
        })),
      });
    }
    let system = validation.data;
    if (operation === 'undeploy') {
      // Unprovision with what was deployed: the stored descriptor carries each component's info.
      const instance = await this.deps.store.getInstance(system.id, environment);
      if (instance) system = instance.descriptor as SystemDescriptor;
    }
    return { environment, system, removeData };
  }

  private async start(
    operation: 'deploy' | 'undeploy',
    input: ProvisioningRequestInput,
  ): Promise<ProvisioningPlan> {
    const { environment, system, removeData } = await this.parseRequest(operation, input);
    const components = (system.components ?? []).filter(
      (c): c is ComponentDescriptor & { infrastructureTemplateId: string } =>
        typeof c.infrastructureTemplateId === 'string' && c.infrastructureTemplateId !== '',
    );
    const ordered = operation === 'deploy' ? components : [...components].reverse();
    const now = this.now();
    const plan: ProvisioningPlan = {
      id: newId(),
      operation,
      environment,
      systemId: system.id,
      systemKind: system.kind,
      status: 'running',
      createdAt: now,
      updatedAt: now,
      tasks: ordered.map((c) => ({
        componentId: c.id,
        ...(c.name === undefined ? {} : { componentName: c.name }),
        templateId: c.infrastructureTemplateId,
        status: 'pending',
        logs: [],
        errors: [],
      })),
      errors: [],
      descriptor: system as Record<string, unknown>,
    };
    await this.deps.store.createPlan(plan, this.deps.instanceId);
    const run = this.execute(structuredClone(plan), system, removeData)
      .catch(() => undefined)
      .finally(() => this.running.delete(run));
    this.running.add(run);
    return plan;
  }

  private log(task: ProvisioningTask, level: PlanLog['level'], message: string): void {
    task.logs.push({ timestamp: this.now(), level, message, phase: 'coordinator' });
  }

  private async save(plan: ProvisioningPlan): Promise<void> {
    plan.updatedAt = this.now();
    await this.deps.store.updatePlan(plan, this.deps.instanceId);
  }

  private async execute(
    plan: ProvisioningPlan,
    system: SystemDescriptor,
    removeData: boolean,
  ): Promise<void> {
    // The working copy accumulates each adapter's accepted info, so later components see it.
    const working = structuredClone(system);
    try {
      for (const task of plan.tasks) {
        task.status = 'running';
        task.startedAt = this.now();
        await this.save(plan);
        try {
          await this.runTask(plan, task, working, removeData);
          task.status = 'completed';
          task.finishedAt = this.now();
          await this.save(plan);
        } catch (error) {
          const stop =
            error instanceof PlanStop ? error : new PlanStop('failed', (error as Error).message);
          task.status = 'failed';
          task.finishedAt = this.now();
          task.errors.push(stop.message);
          this.log(task, 'ERROR', stop.message);
          for (const rest of plan.tasks) if (rest.status === 'pending') rest.status = 'skipped';
          plan.status = stop.outcome;
          plan.errors.push(stop.message);
          plan.finishedAt = this.now();
          await this.save(plan);
          return;
        }
      }
      const at = this.now();
      if (plan.operation === 'deploy') {
        const instance = {
          systemId: working.id,
          environment: plan.environment,
          descriptor: working as Record<string, unknown>,
          deployedAt: at,
          planId: plan.id,
        };
        await this.deps.store.putInstance(instance);
        plan.status = 'completed';
        plan.finishedAt = at;
        await this.save(plan);
        await this.deps.events.emit('system.deployed', {
          systemId: working.id,
          environment: plan.environment,
          planId: plan.id,
          instance,
        });
      } else {
        await this.deps.store.deleteInstance(working.id, plan.environment);
        plan.status = 'completed';
        plan.finishedAt = at;
        await this.save(plan);
        await this.deps.events.emit('system.undeployed', {
          systemId: working.id,
          environment: plan.environment,
          planId: plan.id,
        });
      }
    } catch (error) {
      // Storage failed mid-plan: record it if the store still answers.
      plan.status = 'failed';
      plan.errors.push(`internal failure: ${(error as Error).message}`);
      plan.finishedAt = this.now();
      await this.save(plan).catch(() => undefined);
    }
  }

  /** The passive policy id for a guardian component, or a PlanStop naming component and template. */
  private async guardianPolicyId(
    component: ComponentDescriptor,
    templateId: string,
    resourceType: string,
    environment: string,
  ): Promise<string> {
    const who = `Guardian component "${component.id}"`;
    const registered = await this.deps.registry.get(templateId, environment);
    if (!registered) {
      throw new PlanStop(
        'terminated',
        `${who}: its infrastructure template "${templateId}" is not registered for environment "${environment}"; the plan is terminated`,
      );
    }
    if (!registered.guardian) {
      throw new PlanStop(
        'terminated',
        `${who}: its infrastructure template "${templateId}" is registered but is not a guardian template (no properties.dataContractGuardian); the plan is terminated`,
      );
    }
    const binding = registered.policies.find((p) => p.resourceType === resourceType);
    const policy = binding ? await this.deps.store.getPolicy(binding.policyId) : null;
    if (!binding || !policy || policy.trigger !== 'passive') {
      throw new PlanStop(
        'terminated',
        `${who}: the guardian template "${templateId}" has no passive policy for the system's resource type "${resourceType}"; the plan is terminated`,
      );
    }
    return policy.id;
  }

  private async runTask(
    plan: ProvisioningPlan,
    task: ProvisioningTask,
    working: SystemDescriptor,
    removeData: boolean,
  ): Promise<void> {
    const components = working.components ?? [];
    const index = components.findIndex((c) => c.id === task.componentId);
    const original = components[index];
    if (!original)
      throw new PlanStop('failed', `Component "${task.componentId}" vanished from the descriptor`);
    const guardian = original.__dataContractGuardianSpec !== undefined;
    let component = original;
    if (guardian && plan.operation === 'deploy') {
      const policyId = await this.guardianPolicyId(
        original,
        task.templateId,
        working.kind,
        plan.environment,
      );
      component = withGuardianPolicyId(original, policyId);
      this.log(
        task,
        'INFO',
        `guardian: passive policy ${policyId} for resource type ${working.kind}`,
      );
    }
    // The template registered for the plan's environment (else its environment-less one).
    const template = await this.deps.registry.get(task.templateId, plan.environment);
    if (!template) {
      throw new PlanStop(
        'failed',
        `Component "${task.componentId}": its infrastructure template "${task.templateId}" is not registered for environment "${plan.environment}"`,
      );
    }
    components[index] = component;
    const request = {
      descriptorKind: 'COMPONENT_DESCRIPTOR' as const,
      descriptor: stringifyDescriptorYaml({
        dataProduct: working,
        componentIdToProvision: component.id,
      }),
      removeData,
    };
    const op = plan.operation === 'deploy' ? 'provision' : 'unprovision';
    this.log(task, 'INFO', `calling ${op} of ${template.template.url}`);
    const outcome =
      op === 'provision'
        ? await this.deps.adapters.provision(template.template.url, request)
        : await this.deps.adapters.unprovision(template.template.url, request);
    for (const line of outcome.logs) {
      task.logs.push({
        timestamp: line.timestamp,
        level: line.level,
        message: line.message,
        ...(line.phase === undefined ? {} : { phase: line.phase }),
      });
    }
    if (outcome.status === 'FAILED') {
      throw new PlanStop(
        'failed',
        `Component "${task.componentId}": the tech adapter reported FAILED: ${outcome.errors.join('; ')}`,
      );
    }
    if (plan.operation === 'deploy') {
      if (guardian) {
        const violation = explainProvisioningInfoViolation(component.info, outcome.info);
        if (violation !== undefined) {
          throw new PlanStop('failed', `Component "${task.componentId}": ${violation}`);
        }
      }
      const info = mergeProvisioningInfo(component.info, outcome.info);
      task.info = info;
      if (info === null) {
        const { info: _drop, ...rest } = component;
        components[index] = rest;
      } else {
        components[index] = { ...component, info };
      }
    }
    this.log(task, 'INFO', `${op} completed`);
  }
}
